//! One pipelined WebSocket connection, re-established on demand.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use kith_protocol::{Kind, Request, Subprotocol, Wire, FLAG_MORE};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::header::{AUTHORIZATION, SEC_WEBSOCKET_PROTOCOL};
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::{ClientConfig, ClientError, QueryResult};

type Answer = Result<QueryResult, ClientError>;
type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A call waiting for its answer; chunks accumulate here.
struct Pending {
    result: QueryResult,
    done: oneshot::Sender<Answer>,
}

/// An open connection: a writer task fed by `out`, a reader task that completes
/// `pending` calls.
struct Live {
    /// Callers write their own requests: a task in between would add a thread
    /// hand-off to every round trip.
    sink: tokio::sync::Mutex<SplitSink<Socket, Message>>,
    pending: Mutex<HashMap<u64, Pending>>,
    next_id: AtomicU64,
    closed: AtomicBool,
    wire: Wire,
}

impl Live {
    fn pending(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Pending>> {
        self.pending.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Marks the connection dead and fails every call still waiting on it.
    fn fail_all(&self, why: &str) {
        self.closed.store(true, Ordering::Release);
        for (_, p) in self.pending().drain() {
            let _ = p
                .done
                .send(Err(ClientError::ConnectionClosed(why.to_owned())));
        }
    }

    fn on_message(&self, bytes: &[u8]) -> Result<(), ClientError> {
        let protocol = |e: kith_protocol::ProtocolError| ClientError::Protocol(e.to_string());
        let started = std::time::Instant::now();
        let (header, payload) = self.wire.open(bytes).map_err(protocol)?;
        match header.kind {
            Kind::Result => {
                let chunk = self.wire.decode_chunk(&payload).map_err(protocol)?;
                let decoded = started.elapsed();
                let mut pending = self.pending();
                let Some(p) = pending.get_mut(&header.request_id) else {
                    return Ok(()); // the caller gave up (timeout); drop the answer
                };
                p.result.client.decode_us += decoded.as_micros() as u64;
                if let Some(columns) = chunk.columns {
                    p.result.columns = columns;
                }
                p.result.rows.extend(chunk.rows);
                if chunk.timing.is_some() {
                    p.result.timing = chunk.timing;
                }
                if chunk.commit.is_some() {
                    p.result.commit = chunk.commit;
                }
                if chunk.plan.is_some() {
                    p.result.plan = chunk.plan;
                }
                p.result.notifications.extend(chunk.notifications);
                if header.flags & FLAG_MORE == 0 {
                    if let Some(p) = pending.remove(&header.request_id) {
                        let _ = p.done.send(Ok(p.result));
                    }
                }
            }
            Kind::Error => {
                let error = server_error(self.wire.decode_error(&payload).map_err(protocol)?);
                match self.pending().remove(&header.request_id) {
                    Some(p) => {
                        let _ = p.done.send(Err(error));
                    }
                    None => tracing::warn!(%error, "server error about no call in flight"),
                }
            }
            Kind::Request => {
                return Err(ClientError::Protocol(
                    "the server sent a REQUEST frame".into(),
                ))
            }
        }
        Ok(())
    }
}

/// An error document as the client's error: a Cypher error keeps the engine's detail.
/// A code this client does not know (a newer server's) is a protocol error that
/// names it, rather than a guess at what it means.
fn server_error(body: kith_protocol::ErrorBody) -> ClientError {
    let code = match body.code.parse::<kith_protocol::ErrorCode>() {
        Ok(code) => code,
        Err(unknown) => {
            return ClientError::Protocol(format!(
                "the server answered with error code `{}`, unknown to this client: {}",
                unknown.0, body.message
            ))
        }
    };
    match body.cypher {
        Some(cypher) => ClientError::Cypher {
            code,
            cypher_code: cypher.code,
            message: body.message,
            line: cypher.line,
            column: cypher.column,
        },
        None => ClientError::Server {
            code,
            message: body.message,
        },
    }
}

/// Why a handshake failed; a refusal by the server (401 for credentials) says what
/// the server said, not only its status.
fn refusal(error: tokio_tungstenite::tungstenite::Error) -> String {
    match error {
        tokio_tungstenite::tungstenite::Error::Http(response) => {
            let body = response
                .body()
                .as_deref()
                .map(String::from_utf8_lossy)
                .unwrap_or_default();
            format!("the server answered {}: {body}", response.status())
        }
        other => format!("{other}{}", certificate_hint(&other)),
    }
}

/// What to do about a refused server certificate: rustls names the check that
/// failed, not the remedy. Empty for every other error.
fn certificate_hint(error: &tokio_tungstenite::tungstenite::Error) -> &'static str {
    use rustls::CertificateError as Why;
    let tokio_tungstenite::tungstenite::Error::Io(io) = error else {
        return "";
    };
    let refused = io.get_ref().and_then(|e| e.downcast_ref::<rustls::Error>());
    let Some(rustls::Error::InvalidCertificate(why)) = refused else {
        return "";
    };
    match why {
        Why::NotValidForName | Why::NotValidForNameContext { .. } => {
            " (the certificate does not name this host: connect with a name it lists)"
        }
        Why::Expired | Why::ExpiredContext { .. } => " (the server's certificate has expired)",
        _ => {
            " (the server's certificate is not signed by an authority this client trusts: \
             give its authority as ClientConfig.ca_cert, or SSL_CERT_FILE=FILE for kith's CLI)"
        }
    }
}

/// Removes a call's entry if the caller stops waiting (timeout or cancellation).
struct PendingGuard<'a> {
    live: &'a Live,
    id: u64,
}

impl Drop for PendingGuard<'_> {
    fn drop(&mut self) {
        self.live.pending().remove(&self.id);
    }
}

struct Backoff {
    next_attempt: Instant,
    delay: Duration,
}

/// A connection slot of the pool: the live connection, if any, and how long to wait
/// before trying again after a failure.
pub(crate) struct Connection {
    url: String,
    subprotocol: Subprotocol,
    frame_bytes_max: usize,
    backoff_min: Duration,
    backoff_max: Duration,
    credentials: Option<crate::Credentials>,
    /// `wss://` with other roots than the system's.
    connector: Option<tokio_tungstenite::Connector>,
    live: tokio::sync::Mutex<Option<Arc<Live>>>,
    backoff: Mutex<Backoff>,
}

impl Connection {
    pub(crate) fn new(
        url: String,
        config: &ClientConfig,
        connector: Option<tokio_tungstenite::Connector>,
    ) -> Self {
        Connection {
            url,
            subprotocol: config.subprotocol,
            frame_bytes_max: config.frame_bytes_max,
            backoff_min: config.backoff_min,
            backoff_max: config.backoff_max,
            credentials: config.credentials.clone(),
            connector,
            live: tokio::sync::Mutex::new(None),
            backoff: Mutex::new(Backoff {
                next_attempt: Instant::now(),
                delay: config.backoff_min,
            }),
        }
    }

    /// Opens the connection now if it is not open.
    pub(crate) async fn ensure_open(&self) -> Result<(), ClientError> {
        self.live().await.map(|_| ())
    }

    /// The open connection, opening it (after any backoff) if needed.
    async fn live(&self) -> Result<Arc<Live>, ClientError> {
        let mut slot = self.live.lock().await;
        if let Some(live) = slot.as_ref().filter(|l| !l.closed.load(Ordering::Acquire)) {
            return Ok(live.clone());
        }
        let wait_until = self
            .backoff
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .next_attempt;
        tokio::time::sleep_until(wait_until).await;
        match self.open().await {
            Ok(live) => {
                let mut b = self.backoff.lock().unwrap_or_else(|p| p.into_inner());
                b.delay = self.backoff_min;
                *slot = Some(live.clone());
                Ok(live)
            }
            Err(e) => {
                let mut b = self.backoff.lock().unwrap_or_else(|p| p.into_inner());
                b.next_attempt = Instant::now() + b.delay;
                b.delay = (b.delay * 2).min(self.backoff_max);
                Err(e)
            }
        }
    }

    async fn open(&self) -> Result<Arc<Live>, ClientError> {
        let connect = |reason: String| ClientError::Connect {
            url: self.url.clone(),
            reason,
        };
        let mut request = self
            .url
            .as_str()
            .into_client_request()
            .map_err(|e| connect(e.to_string()))?;
        let offer = self.subprotocol.to_string();
        let value = HeaderValue::from_str(&offer).map_err(|e| connect(e.to_string()))?;
        request.headers_mut().insert(SEC_WEBSOCKET_PROTOCOL, value);
        if let Some(credentials) = &self.credentials {
            let value =
                HeaderValue::from_str(&credentials.header()).map_err(|e| connect(e.to_string()))?;
            request.headers_mut().insert(AUTHORIZATION, value);
        }
        let config = WebSocketConfig::default()
            .read_buffer_size(kith_protocol::READ_BUFFER_BYTES)
            .max_message_size(Some(self.frame_bytes_max))
            .max_frame_size(Some(self.frame_bytes_max));
        let (socket, response) = tokio_tungstenite::connect_async_tls_with_config(
            request,
            Some(config),
            true,
            self.connector.clone(),
        )
        .await
        .map_err(|e| connect(refusal(e)))?;
        let echoed = response
            .headers()
            .get(SEC_WEBSOCKET_PROTOCOL)
            .and_then(|v| v.to_str().ok());
        if echoed != Some(offer.as_str()) {
            return Err(connect(format!(
                "the server did not accept {offer} (answered {echoed:?})"
            )));
        }
        let (sink, mut stream) = socket.split();
        let live = Arc::new(Live {
            sink: tokio::sync::Mutex::new(sink),
            pending: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            closed: AtomicBool::new(false),
            wire: Wire::new(self.subprotocol, self.frame_bytes_max),
        });
        // Reader: completes calls; on any failure fails them all.
        let reader_live = live.clone();
        tokio::spawn(async move {
            let why = loop {
                match stream.next().await {
                    Some(Ok(Message::Binary(bytes))) => {
                        if let Err(e) = reader_live.on_message(&bytes) {
                            break e.to_string();
                        }
                    }
                    Some(Ok(Message::Close(frame))) => {
                        break frame.map_or("closed by the server".into(), |f| {
                            format!("closed by the server: {} {}", u16::from(f.code), f.reason)
                        })
                    }
                    Some(Ok(_)) => {}
                    Some(Err(e)) => break e.to_string(),
                    None => break "the server went away".into(),
                }
            };
            reader_live.fail_all(&why);
        });
        Ok(live)
    }

    /// Sends a request and waits for its whole answer.
    pub(crate) async fn call(&self, request: Request, min_version: Option<u64>) -> Answer {
        let live = self.live().await?;
        let id = live.next_id.fetch_add(1, Ordering::Relaxed);
        let (done, answer) = oneshot::channel();
        live.pending().insert(
            id,
            Pending {
                result: QueryResult::default(),
                done,
            },
        );
        let _guard = PendingGuard { live: &live, id };
        let started = std::time::Instant::now();
        let frame = live.wire.request_at(id, &request, min_version);
        let encode_us = started.elapsed().as_micros() as u64;
        if let Err(e) = live
            .sink
            .lock()
            .await
            .send(Message::Binary(frame.into()))
            .await
        {
            live.fail_all(&e.to_string());
            return Err(ClientError::ConnectionClosed(e.to_string()));
        }
        let mut answer = answer
            .await
            .map_err(|_| ClientError::ConnectionClosed("the connection closed".into()))??;
        answer.client.encode_us = encode_us;
        Ok(answer)
    }
}
