//! A kith server on a loopback port inside the benchmark process, for the suites that
//! measure one caller against an in-process server.

use std::net::SocketAddr;
use std::sync::Arc;

use kith_server::{Server, ServerConfig};
use kith_storage::Store;

/// A running in-process server; [`LocalServer::stop`] shuts it down.
pub(crate) struct LocalServer {
    pub(crate) addr: SocketAddr,
    stop: tokio::sync::oneshot::Sender<()>,
    serving: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl LocalServer {
    /// Serves `store` with `workers` worker threads on 127.0.0.1, any free port.
    pub(crate) async fn start(store: Arc<Store>, workers: usize) -> Result<LocalServer, String> {
        let config = ServerConfig {
            listen: "127.0.0.1:0".parse().map_err(|e| format!("{e}"))?,
            workers,
            ..ServerConfig::default()
        };
        let server = Server::bind(config, store)
            .await
            .map_err(|e| format!("starting the server: {e}"))?;
        let addr = server.local_addr().map_err(|e| e.to_string())?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let serving = tokio::spawn(server.run(async move {
            let _ = stopped.await;
        }));
        Ok(LocalServer {
            addr,
            stop,
            serving,
        })
    }

    /// Stops serving and waits for the server to finish.
    pub(crate) async fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.serving.await;
    }
}
