//! kith-client: the Rust client for kith's WebSocket protocol.
//!
//! A [`Client`] holds a pool of persistent connections, possibly to several servers,
//! and spreads calls over them round-robin. Each connection pipelines: many calls are
//! in flight at once, matched to answers by request id, so one connection is never
//! idle waiting for a round trip. A broken connection fails its calls with
//! [`ClientError::ConnectionClosed`] and is re-established on next use, with
//! exponential backoff between attempts.

mod cluster;
mod connection;
mod error;
mod tls;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

pub use cluster::{Cluster, Session};
pub use error::ClientError;
use kith_core::Value;
pub use kith_protocol::{ops, Commit, Compression, Encoding, Subprotocol, Timing};

use connection::Connection;

/// How to connect.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    /// WebSocket URLs, e.g. `ws://127.0.0.1:7600/v1/ws`; calls rotate over them.
    pub urls: Vec<String>,
    /// Encoding and compression to negotiate.
    pub subprotocol: Subprotocol,
    /// Connections per URL.
    pub connections_per_url: usize,
    /// Time a call may take, including reconnecting.
    pub request_timeout: Duration,
    /// First wait before reconnecting after a failure; doubles up to `backoff_max`.
    pub backoff_min: Duration,
    /// Longest wait between reconnection attempts.
    pub backoff_max: Duration,
    /// Largest answer frame accepted.
    pub frame_bytes_max: usize,
    /// Who to connect as (`docs/security.md`); `None` for a server open to everyone.
    /// [`ClientConfig::new`] takes it from a URL's `user:password@`.
    pub credentials: Option<Credentials>,
    /// PEM certificate(s) of the authorities to trust for `wss://` URLs instead of
    /// the system's (a server with a self-signed certificate: that certificate).
    pub ca_cert: Option<std::path::PathBuf>,
}

/// Credentials sent at the WebSocket handshake as an `Authorization` header.
#[derive(Clone, PartialEq, Eq)]
pub enum Credentials {
    /// A user name and password (HTTP Basic).
    Basic {
        /// The user name.
        user: String,
        /// The password.
        password: String,
    },
    /// A bearer token from `POST /v1/auth/token`.
    Bearer(String),
}

/// The password stays out of `{:?}` (configurations get logged).
impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credentials::Basic { user, .. } => write!(f, "Basic({user}, ***)"),
            Credentials::Bearer(_) => f.write_str("Bearer(***)"),
        }
    }
}

impl Credentials {
    /// The `Authorization` header's value.
    pub(crate) fn header(&self) -> String {
        use base64::Engine as _;
        match self {
            Credentials::Basic { user, password } => format!(
                "Basic {}",
                base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"))
            ),
            Credentials::Bearer(token) => format!("Bearer {token}"),
        }
    }
}

/// Splits `user:password@` off a URL's authority (percent-decoded), as browsers and
/// database URLs write credentials.
fn split_userinfo(url: &str) -> (String, Option<Credentials>) {
    let Some((scheme, rest)) = url.split_once("://") else {
        return (url.to_owned(), None);
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let Some(at) = rest[..authority_end].rfind('@') else {
        return (url.to_owned(), None);
    };
    let (user, password) = rest[..at].split_once(':').unwrap_or((&rest[..at], ""));
    let credentials = Credentials::Basic {
        user: percent_decode(user),
        password: percent_decode(password),
    };
    (format!("{scheme}://{}", &rest[at + 1..]), Some(credentials))
}

/// `url` with the password of its `user:password@` and the value of an
/// `access_token=` parameter replaced by `***`, for messages, banners and logs.
pub fn redacted(url: &str) -> String {
    let url = match split_userinfo(url) {
        (bare, Some(Credentials::Basic { user, .. })) => {
            let (scheme, rest) = bare.split_once("://").unwrap_or(("", &bare));
            format!("{scheme}://{user}:***@{rest}")
        }
        _ => url.to_owned(),
    };
    match url.split_once("access_token=") {
        Some((before, after)) => {
            let rest = after.find('&').map_or("", |end| &after[end..]);
            format!("{before}access_token=***{rest}")
        }
        None => url,
    }
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl ClientConfig {
    /// One connection to one server with BSON, no compression, 10 s timeout.
    pub fn new(url: impl Into<String>) -> Self {
        let (url, credentials) = split_userinfo(&url.into());
        ClientConfig {
            credentials,
            urls: vec![url],
            subprotocol: Subprotocol {
                encoding: Encoding::Bson,
                compression: Compression::None,
            },
            connections_per_url: 1,
            request_timeout: Duration::from_secs(10),
            backoff_min: Duration::from_millis(50),
            backoff_max: Duration::from_secs(5),
            frame_bytes_max: 64 << 20,
            ca_cert: None,
        }
    }
}

/// A result: column names and rows, plus server timings when asked for.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct QueryResult {
    /// Column names.
    pub columns: Vec<String>,
    /// Rows, one value per column.
    pub rows: Vec<Vec<Value>>,
    /// Server time split, when the call asked for it.
    pub timing: Option<Timing>,
    /// What a Cypher query that wrote committed; `None` for everything else.
    pub commit: Option<Commit>,
    /// The plan of an `EXPLAIN` or `PROFILE` query (docs/protocol.md 1.3.2).
    pub plan: Option<Value>,
    /// The query's notifications, maps (docs/protocol.md 1.3.2).
    pub notifications: Vec<Value>,
    /// Client time split: always measured.
    pub client: ClientTiming,
}

/// The answer to a Cypher query: columns, rows, and for a query that wrote its
/// commit (version and counts), which the server sends only once it is durable.
pub type CypherResult = QueryResult;

/// Where a call's time went on the client (S1's steps 1 and 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ClientTiming {
    /// Encoding (and compressing) the request, in microseconds.
    pub encode_us: u64,
    /// Decompressing and decoding every chunk of the answer, in microseconds.
    pub decode_us: u64,
}

/// What a committed write created.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct WriteResult {
    /// The commit version of the transaction.
    pub version: u64,
    /// Internal ids of the nodes it created, in operation order.
    pub nodes: Vec<u32>,
    /// Internal ids of the relationships it created, in operation order.
    pub rels: Vec<u32>,
    /// Server time split (`exec_us` is the commit including its fsync), when asked.
    pub timing: Option<Timing>,
}

impl WriteResult {
    pub(crate) fn from_result(result: QueryResult) -> Result<WriteResult, ClientError> {
        let bad = || ClientError::Protocol("a write answer is not [version, nodes, rels]".into());
        let [Value::Int(version), Value::List(nodes), Value::List(rels)] =
            result.rows.first().map(Vec::as_slice).ok_or_else(bad)?
        else {
            return Err(bad());
        };
        let ids = |items: &[Value]| {
            items
                .iter()
                .map(|v| {
                    v.as_int()
                        .and_then(|i| u32::try_from(i).ok())
                        .ok_or_else(bad)
                })
                .collect::<Result<Vec<u32>, ClientError>>()
        };
        Ok(WriteResult {
            version: *version as u64,
            nodes: ids(nodes)?,
            rels: ids(rels)?,
            timing: result.timing,
        })
    }
}

/// A pool of pipelined connections.
pub struct Client {
    connections: Vec<Connection>,
    next: AtomicUsize,
    config: ClientConfig,
}

impl Client {
    /// Opens every connection of the pool (fails if any server is unreachable).
    pub async fn connect(config: ClientConfig) -> Result<Client, ClientError> {
        if config.urls.is_empty() || config.connections_per_url == 0 {
            return Err(ClientError::Config(
                "at least one URL and one connection per URL".into(),
            ));
        }
        let connector = tls::connector(config.ca_cert.as_deref())?;
        let mut connections = Vec::new();
        for _ in 0..config.connections_per_url {
            for url in &config.urls {
                let connection = Connection::new(url.clone(), &config, connector.clone());
                connection.ensure_open().await?;
                connections.push(connection);
            }
        }
        Ok(Client {
            connections,
            next: AtomicUsize::new(0),
            config,
        })
    }

    /// Calls a procedure.
    pub async fn call(
        &self,
        procedure: &str,
        params: Vec<(String, Value)>,
    ) -> Result<QueryResult, ClientError> {
        self.request(procedure, params, false).await
    }

    /// Calls a procedure and asks the server for its time split.
    pub async fn call_timed(
        &self,
        procedure: &str,
        params: Vec<(String, Value)>,
    ) -> Result<QueryResult, ClientError> {
        self.request(procedure, params, true).await
    }

    /// Runs a Cypher query (`docs/protocol.md` 1.3.2) with its `$name` parameters.
    /// A query that writes returns once its transaction is durable, with
    /// [`QueryResult::commit`] set. Errors of the query are [`ClientError::Cypher`].
    pub async fn cypher(
        &self,
        query: &str,
        params: Vec<(String, Value)>,
    ) -> Result<CypherResult, ClientError> {
        self.cypher_request(query, params, false, None).await
    }

    async fn cypher_request(
        &self,
        query: &str,
        params: Vec<(String, Value)>,
        timing: bool,
        tx: Option<&str>,
    ) -> Result<CypherResult, ClientError> {
        self.send(kith_protocol::Request::Cypher {
            query: query.to_owned(),
            params,
            timing,
            tx: tx.map(str::to_owned),
        })
        .await
    }

    /// Opens an explicit transaction (`docs/protocol.md` 1.3.3), rolled back by the
    /// server if still open after `timeout` (at most its `transaction_timeout_ms`);
    /// its id, for [`Client::cypher_in`], [`Client::commit`] and
    /// [`Client::rollback`].
    pub async fn begin(&self, timeout: Option<Duration>) -> Result<String, ClientError> {
        let timeout_ms = timeout.map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX).max(1));
        let result = self
            .send(kith_protocol::Request::Begin { timeout_ms })
            .await?;
        match result.rows.first().and_then(|row| row.first()) {
            Some(Value::String(id)) => Ok(id.to_string()),
            _ => Err(ClientError::Protocol(
                "`begin` was answered without a transaction id".into(),
            )),
        }
    }

    /// A statement of transaction `tx`: it reads the transaction's own earlier
    /// writes, and what it writes waits for [`Client::commit`].
    pub async fn cypher_in(
        &self,
        tx: &str,
        query: &str,
        params: Vec<(String, Value)>,
    ) -> Result<CypherResult, ClientError> {
        self.cypher_request(query, params, false, Some(tx)).await
    }

    /// Commits transaction `tx`; returns once it is durable. A transaction whose
    /// writes collide with one committed after it began fails with
    /// [`ErrorCode::Conflict`]: run it again.
    pub async fn commit(&self, tx: &str) -> Result<Commit, ClientError> {
        let result = self
            .send(kith_protocol::Request::Commit { tx: tx.to_owned() })
            .await?;
        result.commit.ok_or_else(|| {
            ClientError::Protocol("a commit was answered without its version".into())
        })
    }

    /// Rolls transaction `tx` back.
    pub async fn rollback(&self, tx: &str) -> Result<(), ClientError> {
        self.send(kith_protocol::Request::Rollback { tx: tx.to_owned() })
            .await
            .map(|_| ())
    }

    /// Like [`Client::cypher`], asking the server for its time split.
    pub async fn cypher_timed(
        &self,
        query: &str,
        params: Vec<(String, Value)>,
    ) -> Result<CypherResult, ClientError> {
        self.cypher_request(query, params, true, None).await
    }

    /// Commits one transaction (operations built with [`ops`]) and returns once it
    /// is durable on the server.
    pub async fn write(&self, ops: Vec<Value>) -> Result<WriteResult, ClientError> {
        let result = self
            .send(kith_protocol::Request::Write { ops, timing: false })
            .await?;
        WriteResult::from_result(result)
    }

    /// Like [`Client::write`], asking the server for its time split.
    pub async fn write_timed(&self, ops: Vec<Value>) -> Result<WriteResult, ClientError> {
        let result = self
            .send(kith_protocol::Request::Write { ops, timing: true })
            .await?;
        WriteResult::from_result(result)
    }

    async fn request(
        &self,
        procedure: &str,
        params: Vec<(String, Value)>,
        timing: bool,
    ) -> Result<QueryResult, ClientError> {
        self.send(kith_protocol::Request::Call {
            procedure: procedure.to_owned(),
            params,
            timing,
        })
        .await
    }

    async fn send(&self, request: kith_protocol::Request) -> Result<QueryResult, ClientError> {
        self.send_at(request, None).await
    }

    /// Sends a request that the server runs only once it has applied `min_version`
    /// (read-your-writes; docs/protocol.md 1.3.2), on the next connection in turn.
    pub async fn send_at(
        &self,
        request: kith_protocol::Request,
        min_version: Option<u64>,
    ) -> Result<QueryResult, ClientError> {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.connections.len();
        let deadline = tokio::time::Instant::now() + self.config.request_timeout;
        tokio::time::timeout_at(deadline, self.connections[i].call(request, min_version))
            .await
            .map_err(|_| ClientError::Timeout(self.config.request_timeout))?
    }

    /// The negotiated subprotocol.
    pub fn subprotocol(&self) -> Subprotocol {
        self.config.subprotocol
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacted_urls_keep_the_user_but_not_the_password() {
        assert_eq!(
            redacted("wss://ann:s%40cret@db.example:7600/v1/ws"),
            "wss://ann:***@db.example:7600/v1/ws"
        );
        assert_eq!(
            redacted("ws://127.0.0.1:7600/v1/ws"),
            "ws://127.0.0.1:7600/v1/ws"
        );
        assert_eq!(redacted("./kith-data"), "./kith-data");
        assert_eq!(
            redacted("wss://db:7600/v1/ws?access_token=kith_abc&x=1"),
            "wss://db:7600/v1/ws?access_token=***&x=1"
        );
    }

    #[test]
    fn urls_give_up_their_credentials() {
        let config = ClientConfig::new("ws://ann:p%40ss:w@127.0.0.1:7600/v1/ws");
        assert_eq!(config.urls, vec!["ws://127.0.0.1:7600/v1/ws".to_owned()]);
        assert_eq!(
            config.credentials,
            Some(Credentials::Basic {
                user: "ann".into(),
                password: "p@ss:w".into()
            })
        );
        assert!(!format!("{config:?}").contains("p@ss"));
        let plain = ClientConfig::new("ws://127.0.0.1:7600/v1/ws?a=b@c");
        assert_eq!(plain.credentials, None);
        assert_eq!(plain.urls[0], "ws://127.0.0.1:7600/v1/ws?a=b@c");
    }
}
