//! One shard as the router sees it: a kith server reached over WebSocket, connected
//! on first use and again after a failure.

use std::sync::Arc;
use std::time::{Duration, Instant};

use kith_client::{Client, ClientConfig, ClientError, QueryResult};
use kith_core::Value;
use kith_protocol::ErrorCode;
use tokio::sync::Mutex;

use crate::RouteError;

/// A call on one shard: its procedure and parameters.
pub type ShardCall = (&'static str, Vec<(String, Value)>);

/// What a shard must say it is (`shard.info`), and the split every shard of one
/// router shares: the first shard to answer sets it.
pub(crate) struct Expected {
    /// -1 the person shard, i forum shard i.
    pub(crate) index: i64,
    /// The router's number of forum shards.
    pub(crate) forum_shards: i64,
    /// The split's id and the shard that said it.
    pub(crate) split: Arc<std::sync::Mutex<Option<(i64, String)>>>,
}

/// A shard held in the router's own process: the person shard when the router runs
/// on it (`kith route --data DIR/person`), so a read's person side costs no message.
/// Calls run on a blocking thread (a `USE person` query may be long; the runtime's
/// threads serve every connection), bounded by the implementation's time limit.
pub trait LocalShard: Send + Sync {
    /// Runs a procedure: columns and rows.
    fn call(&self, procedure: &str, params: &[(String, Value)]) -> Result<Rows, RouteError>;
    /// Runs a read-only Cypher query: columns and rows.
    fn cypher(&self, text: &str, params: &[(String, Value)]) -> Result<Rows, RouteError>;
}

/// Columns and rows.
pub type Rows = (Vec<String>, Vec<Vec<Value>>);

/// A shard's server.
pub struct Shard {
    name: String,
    url: String,
    /// Set when the shard is in this process: calls go there, never to `url`.
    local: Option<Arc<dyn LocalShard>>,
    expected: Expected,
    client: Mutex<Option<Arc<Client>>>,
    /// When connecting last failed: calls within [`RETRY_AFTER`] of it fail at once
    /// instead of queueing behind connects of their own.
    failed_at: std::sync::Mutex<Option<(Instant, String)>>,
}

/// How long a call on a shard may take: below the server's default query timeout
/// (10 s), so a shard that stops answering is `shard_unavailable`, not `timeout`.
const CALL_TIMEOUT: Duration = Duration::from_secs(8);
/// How long connecting may take (a host that drops packets would take minutes).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// How long a failed connect is believed.
const RETRY_AFTER: Duration = Duration::from_millis(500);

impl Shard {
    pub(crate) fn new(name: &str, url: &str, expected: Expected) -> Shard {
        Shard {
            name: name.to_owned(),
            url: url.to_owned(),
            local: None,
            expected,
            client: Mutex::new(None),
            failed_at: std::sync::Mutex::new(None),
        }
    }

    /// Its name in the layout (`person`, `forum-0`, ...).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The split every shard of this router shares.
    pub(crate) fn expected_split(&self) -> &Arc<std::sync::Mutex<Option<(i64, String)>>> {
        &self.expected.split
    }

    /// Its URL without credentials.
    pub fn url(&self) -> String {
        kith_client::redacted(&self.url)
    }

    /// Whether it answers a trivial call now (a shard part with nothing to do).
    pub async fn reachable(&self) -> bool {
        let nobody = vec![("ids".to_owned(), Value::List(Vec::new()))];
        self.call("shard.persons", nobody).await.is_ok()
    }

    /// A shard in this process, named `name`.
    pub(crate) fn local(name: &str, local: Arc<dyn LocalShard>, expected: Expected) -> Shard {
        Shard {
            name: name.to_owned(),
            url: "(in this process)".to_owned(),
            local: Some(local),
            expected,
            client: Mutex::new(None),
            failed_at: std::sync::Mutex::new(None),
        }
    }

    /// Calls `procedure` on this shard.
    pub(crate) async fn call(
        &self,
        procedure: &str,
        params: Vec<(String, Value)>,
    ) -> Result<QueryResult, RouteError> {
        if let Some(local) = &self.local {
            let (local, procedure) = (local.clone(), procedure.to_owned());
            return off_runtime(&self.name, move || local.call(&procedure, &params)).await;
        }
        let client = self.client().await?;
        let traced = crate::trace::active();
        let sent = std::time::Instant::now();
        let answer = if traced {
            client.call_timed(procedure, params).await
        } else {
            client.call(procedure, params).await
        };
        match answer {
            Ok(answer) => {
                if traced {
                    let t = answer.timing.unwrap_or_default();
                    crate::trace::record(&self.name, sent, (t.exec_us + t.encode_us) as f64);
                }
                Ok(answer)
            }
            Err(ClientError::Server { code, message }) => {
                if traced {
                    // An error answer (a `not_found` of a fan-out) is a round trip too;
                    // the shard's own time for it is not reported, and is tiny.
                    crate::trace::record(&self.name, sent, 0.0);
                }
                Err(RouteError::from_shard(&self.name, code, &message))
            }
            Err(e) => Err(self.dropped(&client, e).await),
        }
    }

    /// Runs a Cypher query on this shard (`USE` on a router, docs/sharding.md).
    pub(crate) async fn cypher(
        &self,
        text: &str,
        params: Vec<(String, Value)>,
    ) -> Result<QueryResult, RouteError> {
        if let Some(local) = &self.local {
            let (local, text) = (local.clone(), text.to_owned());
            return off_runtime(&self.name, move || local.cypher(&text, &params)).await;
        }
        let client = self.client().await?;
        match client.cypher(text, params).await {
            Ok(answer) => Ok(answer),
            Err(ClientError::Server { code, message }) => {
                Err(RouteError::from_shard(&self.name, code, &message))
            }
            Err(ClientError::Cypher {
                code,
                cypher_code,
                message,
                ..
            }) => {
                // Its position is in the text the shard ran, not the router's: left out.
                let mut e = RouteError::from_shard(&self.name, code, &message);
                e.cypher = Some(crate::error::CypherDetail {
                    code: cypher_code,
                    position: None,
                });
                Err(e)
            }
            Err(e) => Err(self.dropped(&client, e).await),
        }
    }

    /// The connection failed: the next call connects afresh (unless another call
    /// already replaced it), and this one is `shard_unavailable`.
    async fn dropped(&self, client: &Arc<Client>, e: ClientError) -> RouteError {
        let mut slot = self.client.lock().await;
        if slot.as_ref().is_some_and(|c| Arc::ptr_eq(c, client)) {
            slot.take();
        }
        RouteError::unavailable(&self.name, &self.url(), e)
    }

    /// Calls `procedure`; a `not_found` (the person or message is not on this shard)
    /// is no rows.
    pub(crate) async fn call_or_empty(
        &self,
        procedure: &str,
        params: Vec<(String, Value)>,
    ) -> Result<QueryResult, RouteError> {
        match self.call(procedure, params).await {
            Err(e) if e.code == ErrorCode::NotFound => Ok(QueryResult::default()),
            other => other,
        }
    }

    async fn client(&self) -> Result<Arc<Client>, RouteError> {
        if let Some(why) = self.recent_failure() {
            return Err(RouteError::unavailable(&self.name, &self.url(), why));
        }
        let mut slot = self.client.lock().await;
        if let Some(client) = &*slot {
            return Ok(client.clone());
        }
        let mut config = ClientConfig::new(self.url.clone());
        config.request_timeout = CALL_TIMEOUT;
        config.connections_per_url = 2;
        // MessagePack: id lists go to and from shards by the thousand, and its arrays
        // carry no per-element keys to write and check (BSON's "0", "1", ...).
        config.subprotocol = kith_protocol::Subprotocol {
            encoding: kith_protocol::Encoding::MsgPack,
            compression: kith_protocol::Compression::None,
        };
        let connected = match tokio::time::timeout(CONNECT_TIMEOUT, Client::connect(config)).await {
            Ok(Ok(client)) => Arc::new(client),
            Ok(Err(e)) => return Err(self.failed(e.to_string())),
            Err(_) => return Err(self.failed(format!("no connection within {CONNECT_TIMEOUT:?}"))),
        };
        if let Err(why) = self.check_identity(&connected).await {
            return Err(self.failed(why));
        }
        *slot = Some(connected.clone());
        Ok(connected)
    }

    /// Whether the server is the shard it is listed as, of this router's split
    /// (`shard.info`). The first shard to answer sets the split; the others must
    /// agree with it.
    async fn check_identity(&self, client: &Client) -> Result<(), String> {
        let info = client
            .call("shard.info", Vec::new())
            .await
            .map_err(|e| format!("asking its identity (shard.info): {e}"))?;
        self.check_info(info.rows.first())
    }

    /// Checks a `shard.info` row against what this shard must be.
    pub(crate) fn check_info(&self, row: Option<&Vec<Value>>) -> Result<(), String> {
        let Some(row) = row else {
            return Err(
                "it has no shard identity: its graph was not made by `kith shard split` \
                 (a whole graph, or a split made before identities: split it again)"
                    .into(),
            );
        };
        let int = |i: usize| row.get(i).and_then(Value::as_int);
        let (Some(index), Some(forum_shards), Some(split)) = (int(0), int(1), int(2)) else {
            return Err(format!("its shard.info answer is malformed: {row:?}"));
        };
        let e = &self.expected;
        let what = |index: i64, n: i64| match index {
            -1 => format!("the person shard of a split into {n} forum shards"),
            i => format!("forum-{i} of a split into {n} forum shards"),
        };
        if (index, forum_shards) != (e.index, e.forum_shards) {
            return Err(format!(
                "it is {}, but is listed as {}: give kith route the shards of one split in the order of its shards.json",
                what(index, forum_shards),
                what(e.index, e.forum_shards)
            ));
        }
        let mut seen = e.split.lock().unwrap_or_else(|p| p.into_inner());
        match &*seen {
            Some((known, by)) if *known != split => Err(format!(
                "it comes from split {split}, but shard {by} from split {known}: every shard must come from one `kith shard split`"
            )),
            Some(_) => Ok(()),
            None => {
                *seen = Some((split, self.name.clone()));
                Ok(())
            }
        }
    }

    fn recent_failure(&self) -> Option<String> {
        let failed = self.failed_at.lock().unwrap_or_else(|p| p.into_inner());
        (failed.as_ref())
            .filter(|(at, _)| at.elapsed() < RETRY_AFTER)
            .map(|(_, why)| why.clone())
    }

    fn failed(&self, why: String) -> RouteError {
        let mut failed = self.failed_at.lock().unwrap_or_else(|p| p.into_inner());
        *failed = Some((Instant::now(), why.clone()));
        RouteError::unavailable(&self.name, &self.url(), why)
    }
}

/// Runs a local shard's call on a blocking thread: its rows as a shard's answer.
async fn off_runtime(
    name: &str,
    call: impl FnOnce() -> Result<Rows, RouteError> + Send + 'static,
) -> Result<QueryResult, RouteError> {
    match tokio::task::spawn_blocking(call).await {
        Ok(rows) => rows.map(answer).map_err(|e| RouteError {
            message: format!("{} (shard {name})", e.message),
            ..e
        }),
        Err(e) => Err(RouteError::bad_request(format!(
            "the router's own shard stopped: {e}"
        ))),
    }
}

/// A local shard's rows as a shard's answer.
fn answer((columns, rows): Rows) -> QueryResult {
    QueryResult {
        columns,
        rows,
        ..QueryResult::default()
    }
}
