//! TLS for all three transports (`--tls-cert/--tls-key`, `docs/security.md`): one
//! certificate chain and key, loaded at start, serving HTTP, WebSocket and Bolt. With
//! TLS configured every connection must speak it; a plain-text client's bytes fail the
//! handshake and the connection closes.
//!
//! Loading the PEM files, and one connection's handshake (the HTTP accept loop and
//! Bolt's each run it on the connection's own task, inside its `auth_deadline_ms`).

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

/// The answer to plain HTTP on the TLS port (what a browser or curl shows).
pub(crate) const PLAIN_HTTP: &[u8] = b"HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain\r\n\
connection: close\r\ncontent-length: 53\r\n\r\nkith serves TLS on this port: use https:// or wss://\n";

/// Time TLS's handshake may take, whatever `auth_deadline_ms` (the connection's
/// deadline for TLS, Bolt's handshake and authentication together) allows.
pub(crate) const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Time a new connection has to send its first byte, and a plain-text client to stop
/// sending after it has been answered: every real client sends its hello at once, and
/// a silent socket should not hold a handshake slot for the whole HANDSHAKE_TIMEOUT.
const IDLE_TIMEOUT: Duration = Duration::from_secs(3);

/// The read half of a connection, TLS or not.
pub(crate) type Reader = Box<dyn AsyncRead + Send + Unpin>;
/// The write half of a connection, TLS or not.
pub(crate) type Writer = Box<dyn AsyncWrite + Send + Unpin>;

/// Why the certificate or key cannot be used; each names the file.
#[derive(Debug)]
pub enum TlsError {
    /// The file cannot be read.
    Read {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The certificate file holds no `CERTIFICATE` block, or a broken one.
    NoCertificate {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        reason: String,
    },
    /// The key file holds no private key (PKCS#8, PKCS#1 or SEC1), or a broken one.
    NoKey {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        reason: String,
    },
    /// rustls refused the pair (the key does not belong to the certificate, or its
    /// algorithm is not supported).
    Refused {
        /// The certificate file.
        cert: PathBuf,
        /// The key file.
        key: PathBuf,
        /// What rustls said.
        source: rustls::Error,
    },
}

impl fmt::Display for TlsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TlsError::Read { path, source } => {
                write!(f, "cannot read {}: {source}", path.display())
            }
            TlsError::NoCertificate { path, reason } => write!(
                f,
                "{}: no PEM certificate (-----BEGIN CERTIFICATE-----): {reason}",
                path.display()
            ),
            TlsError::NoKey { path, reason } => write!(
                f,
                "{}: no PEM private key (PKCS#8, PKCS#1 or SEC1): {reason}",
                path.display()
            ),
            TlsError::Refused { cert, key, source } => write!(
                f,
                "{} with {}: the certificate and key cannot be used together: {source}",
                cert.display(),
                key.display()
            ),
        }
    }
}

impl std::error::Error for TlsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TlsError::Read { source, .. } => Some(source),
            TlsError::Refused { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A loaded certificate chain and key, ready to accept connections.
#[derive(Clone)]
pub struct Tls {
    acceptor: tokio_rustls::TlsAcceptor,
}

impl fmt::Debug for Tls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Tls")
    }
}

impl Tls {
    /// Reads a PEM certificate chain (the server's certificate first) and its PEM
    /// private key.
    pub fn load(cert_file: &Path, key_file: &Path) -> Result<Tls, TlsError> {
        let chain = certificates(cert_file)?;
        let key = private_key(key_file)?;
        // The process has only ring compiled in; naming it keeps the choice explicit.
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .and_then(|b| b.with_no_client_auth().with_single_cert(chain, key))
            .map_err(|source| TlsError::Refused {
                cert: cert_file.to_owned(),
                key: key_file.to_owned(),
                source,
            })?;
        // No TLS 1.3 session tickets. They arrive after the handshake, while a client
        // may already be writing its first request, and clients that read and write one
        // TLS session from two threads (Python's `websockets`, whose reader thread is
        // in SSL_read as the handshake request goes out) sometimes never send it: one
        // connection in a few hundred hung. Resumption would only save a handshake per
        // reconnect, and kith's clients keep their connections.
        config.send_tls13_tickets = 0;
        Ok(Tls {
            acceptor: tokio_rustls::TlsAcceptor::from(Arc::new(config)),
        })
    }

    /// The handshake on an accepted connection, bounded by [`HANDSHAKE_TIMEOUT`]. A
    /// client that speaks plain text gets `to_plain` (it may be empty) and an error:
    /// rustls would answer it a TLS alert, which a Bolt driver reads as a version
    /// number ("unsupported server") instead of seeing the connection refused.
    pub(crate) async fn accept(
        &self,
        mut stream: TcpStream,
        to_plain: &[u8],
    ) -> std::io::Result<tokio_rustls::server::TlsStream<TcpStream>> {
        let handshake = async {
            let first = tokio::time::timeout(IDLE_TIMEOUT, speaks_tls(&stream)).await;
            if !first.map_err(|_| std::io::ErrorKind::TimedOut)?? {
                refuse_plain(&mut stream, to_plain).await;
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    "a plain-text client on a TLS port",
                ));
            }
            self.acceptor.accept(stream).await
        };
        match tokio::time::timeout(HANDSHAKE_TIMEOUT, handshake).await {
            Ok(done) => done,
            Err(_) => Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the TLS handshake took longer than 10 s",
            )),
        }
    }
}

/// Answers a plain-text client and closes after it has stopped sending: closing with
/// its bytes unread would reset the connection, and the client would lose the answer.
async fn refuse_plain(stream: &mut TcpStream, answer: &[u8]) {
    let mut sink = [0u8; 4096];
    // What it sent so far (a request line, a Bolt preamble), then the answer.
    let _ = stream.try_read(&mut sink);
    if stream.write_all(answer).await.is_ok() && stream.shutdown().await.is_ok() {
        let drain = async { while matches!(stream.read(&mut sink).await, Ok(n) if n > 0) {} };
        let _ = tokio::time::timeout(IDLE_TIMEOUT, drain).await;
    }
}

/// Whether the first byte the client sent starts a TLS handshake record.
async fn speaks_tls(stream: &TcpStream) -> std::io::Result<bool> {
    /// TLS record content type `handshake`: every ClientHello starts with it.
    const HANDSHAKE_RECORD: u8 = 0x16;
    let mut first = [0u8; 1];
    match stream.peek(&mut first).await? {
        0 => Err(std::io::ErrorKind::UnexpectedEof.into()),
        _ => Ok(first[0] == HANDSHAKE_RECORD),
    }
}

/// A connection's halves: through TLS when `tls` is given, the socket's own otherwise.
pub(crate) async fn open(
    stream: TcpStream,
    tls: Option<&Tls>,
) -> std::io::Result<(Reader, Writer)> {
    match tls {
        None => {
            let (reader, writer) = stream.into_split();
            Ok((Box::new(reader), Box::new(writer)))
        }
        Some(tls) => {
            // A Bolt driver that finds the connection closed tells its user to check the
            // encryption settings: the best answer to plain text.
            let (reader, writer) = tokio::io::split(tls.accept(stream, b"").await?);
            Ok((Box::new(reader), Box::new(writer)))
        }
    }
}

fn certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let text = read(path)?;
    let broken = |reason: String| TlsError::NoCertificate {
        path: path.to_owned(),
        reason,
    };
    let chain = CertificateDer::pem_slice_iter(&text)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| broken(e.to_string()))?;
    if chain.is_empty() {
        return Err(broken("the file holds none".into()));
    }
    Ok(chain)
}

fn private_key(path: &Path) -> Result<PrivateKeyDer<'static>, TlsError> {
    let text = read(path)?;
    PrivateKeyDer::from_pem_slice(&text).map_err(|e| TlsError::NoKey {
        path: path.to_owned(),
        reason: match e {
            rustls::pki_types::pem::Error::NoItemsFound => "the file holds none".into(),
            other => other.to_string(),
        },
    })
}

fn read(path: &Path) -> Result<Vec<u8>, TlsError> {
    std::fs::read(path).map_err(|source| TlsError::Read {
        path: path.to_owned(),
        source,
    })
}

#[cfg(test)]
mod tests;
