//! The HTTP/WebSocket listener under TLS. axum takes connections one at a time from
//! its listener, so handshakes do not run there (one slow or silent client would stall
//! every other): a task accepts TCP connections and runs each handshake on its own
//! task, and axum takes the finished ones from a bounded channel.

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, Semaphore};
use tokio_rustls::server::TlsStream;

use super::Tls;

/// Finished handshakes waiting for axum to take them.
const READY_MAX: usize = 64;

/// The answer to plain HTTP on the TLS port (what a browser or curl shows).
pub(super) const PLAIN_HTTP: &[u8] = b"HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain\r\n\
connection: close\r\ncontent-length: 53\r\n\r\nkith serves TLS on this port: use https:// or wss://\n";

type Ready = (TlsStream<TcpStream>, SocketAddr);

/// An `axum::serve` listener whose connections are TLS streams.
pub(crate) struct TlsListener {
    ready: mpsc::Receiver<Ready>,
    local: SocketAddr,
}

impl TlsListener {
    /// Starts accepting on `tcp` with at most `handshakes_max` handshakes in progress
    /// (past it, accepting waits and the kernel's backlog holds further connections);
    /// stops when the listener is dropped.
    pub(crate) fn new(
        tcp: TcpListener,
        tls: Tls,
        handshakes_max: usize,
    ) -> std::io::Result<TlsListener> {
        let local = tcp.local_addr()?;
        let (sender, ready) = mpsc::channel(READY_MAX);
        tokio::spawn(accept(tcp, tls, handshakes_max, sender));
        Ok(TlsListener { ready, local })
    }
}

impl axum::serve::Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> Ready {
        match self.ready.recv().await {
            Some(ready) => ready,
            // The accepting task ended: nothing will come; axum's shutdown ends this.
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        Ok(self.local)
    }
}

async fn accept(tcp: TcpListener, tls: Tls, handshakes_max: usize, ready: mpsc::Sender<Ready>) {
    let handshakes = Arc::new(Semaphore::new(handshakes_max));
    loop {
        // The permit is held until the connection is in the channel, so at most
        // handshakes_max + READY_MAX connections wait for axum.
        let permit = tokio::select! {
            p = handshakes.clone().acquire_owned() => p,
            _ = ready.closed() => return,
        };
        let Ok(permit) = permit else { return };
        let accepted = tokio::select! {
            a = tcp.accept() => a,
            _ = ready.closed() => return,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of descriptors or similar: keep serving those already connected.
                tracing::warn!(error = %e, "accept failed");
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let (tls, ready) = (tls.clone(), ready.clone());
        tokio::spawn(async move {
            let _permit = permit;
            match tls.accept(stream, PLAIN_HTTP).await {
                Ok(stream) => {
                    let _ = ready.send((stream, peer)).await;
                }
                Err(e) => tracing::debug!(%peer, error = %e, "TLS handshake failed"),
            }
        });
    }
}
