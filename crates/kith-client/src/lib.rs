//! kith-client: the Rust client for kith's WebSocket protocol.
//!
//! A [`Client`] holds a pool of persistent connections, possibly to several servers,
//! and spreads calls over them round-robin. Each connection pipelines: many calls are
//! in flight at once, matched to answers by request id, so one connection is never
//! idle waiting for a round trip. A broken connection fails its calls with
//! [`ClientError::ConnectionClosed`] and is re-established on next use, with
//! exponential backoff between attempts.

mod connection;
mod error;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

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
}

impl ClientConfig {
    /// One connection to one server with BSON, no compression, 10 s timeout.
    pub fn new(url: impl Into<String>) -> Self {
        ClientConfig {
            urls: vec![url.into()],
            subprotocol: Subprotocol {
                encoding: Encoding::Bson,
                compression: Compression::None,
            },
            connections_per_url: 1,
            request_timeout: Duration::from_secs(10),
            backoff_min: Duration::from_millis(50),
            backoff_max: Duration::from_secs(5),
            frame_bytes_max: 64 << 20,
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
    fn from_result(result: QueryResult) -> Result<WriteResult, ClientError> {
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
        let mut connections = Vec::new();
        for _ in 0..config.connections_per_url {
            for url in &config.urls {
                let connection = Connection::new(url.clone(), &config);
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
        self.send(kith_protocol::Request::Cypher {
            query: query.to_owned(),
            params,
            timing: false,
        })
        .await
    }

    /// Like [`Client::cypher`], asking the server for its time split.
    pub async fn cypher_timed(
        &self,
        query: &str,
        params: Vec<(String, Value)>,
    ) -> Result<CypherResult, ClientError> {
        self.send(kith_protocol::Request::Cypher {
            query: query.to_owned(),
            params,
            timing: true,
        })
        .await
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
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.connections.len();
        let deadline = tokio::time::Instant::now() + self.config.request_timeout;
        tokio::time::timeout_at(deadline, self.connections[i].call(request))
            .await
            .map_err(|_| ClientError::Timeout(self.config.request_timeout))?
    }

    /// The negotiated subprotocol.
    pub fn subprotocol(&self) -> Subprotocol {
        self.config.subprotocol
    }
}
