//! Bolt's state machine for one connection: HELLO (and LOGON from 5.1) before
//! anything else; auto-commit RUNs and explicit transactions; results streamed PULL by
//! PULL; after a FAILURE every request is IGNORED until RESET.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kith_core::write_op::WriteCounts;
use kith_core::Value;
use kith_cypher::{GraphValue, TxMetadata};
use kith_protocol::bolt::message::tag;
use kith_protocol::bolt::{Pack, Request, Version};
use kith_protocol::{Commit, ErrorCode as Code};
use kith_storage::Tx;

use super::conn::Out;
use super::failure::{metadata, Failure};
use super::reply::{BoltReply, Outcome};
use super::status::NoticeFilter;
use super::system::Db;
use super::values::{pack_graph, param_value, Dialect};
use crate::auth::{Credentials, Role};
use crate::dispatch::{dispatch, Job};
use crate::error::ExecError;
use crate::metrics::{CloseReason, Transport};
use crate::state::{AppState, ConnectionSlot};

/// How long a driver may keep a routing table (seconds).
const ROUTING_TTL_S: i64 = 300;

/// Whether the connection goes on after a message.
pub(crate) enum Flow {
    Continue,
    /// The connection ends, for the reason given.
    Close(CloseReason),
    /// Authentication failed (or no `connections_max` slot was free for it): the
    /// requests the client already pipelined behind it are IGNORED (so the driver
    /// reports the FAILURE to each of them, as its own authentication error), then
    /// the connection closes.
    Defunct(CloseReason),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Waiting for HELLO.
    Hello,
    /// Waiting for LOGON (5.1+).
    Logon,
    /// Ready for work.
    Ready,
    /// A request failed: everything but RESET is IGNORED.
    Failed,
}

/// An explicit transaction: its statements read the snapshot current at BEGIN with
/// the transaction's own writes, which wait for COMMIT.
struct Transaction {
    /// `None` after a statement failed: the transaction can only be rolled back.
    tx: Option<Box<Tx>>,
    read_only: bool,
    deadline: Instant,
    /// BEGIN's `tx_metadata`, shared by its statements.
    metadata: TxMetadata,
    /// The notifications its statements' summaries carry.
    notices: NoticeFilter,
    /// The database BEGIN named.
    db: Db,
}

/// A result being streamed.
struct Stream {
    qid: i64,
    rows: std::vec::IntoIter<Vec<GraphValue>>,
    commit: Option<Commit>,
    counts: Option<WriteCounts>,
    returns_rows: bool,
    /// Whether the query produced any row (its GQL status says "no data" if not).
    had_rows: bool,
    in_transaction: bool,
    /// The plan of an EXPLAIN or PROFILE query.
    plan: Option<Value>,
    /// Its notifications, those the client wants.
    notifications: Vec<Value>,
    /// When RUN answered: the summary's `t_last` (Neo4j's result_consumed_after) is
    /// the time from then until the last record was sent.
    available: Instant,
    /// The database it ran on.
    db: Db,
}

/// One connection's protocol state.
pub(crate) struct Session {
    state: Arc<AppState>,
    version: Version,
    dialect: Dialect,
    id: u64,
    /// This server's address as the client reached it (the routing table names it).
    address: String,
    phase: Phase,
    tx: Option<Transaction>,
    streams: Vec<Stream>,
    next_qid: i64,
    /// Set when the connection ends: stops its running query.
    cancel: Arc<AtomicBool>,
    /// The authenticated user's role (HELLO or LOGON sets it; nothing runs before).
    role: Role,
    /// The authenticated user (`None` on an open server).
    user: Option<String>,
    /// The client's address, for SHOW TRANSACTIONS.
    peer: Option<String>,
    /// Its `connections_max` slot, taken when it first authenticated.
    slot: Option<ConnectionSlot>,
    /// The notifications HELLO asked for.
    notices: NoticeFilter,
}

impl Session {
    pub(crate) fn new(state: Arc<AppState>, version: Version, id: u64, address: String) -> Session {
        Session {
            state,
            version,
            dialect: Dialect::of(version, false),
            id,
            address,
            phase: Phase::Hello,
            tx: None,
            streams: Vec::new(),
            next_qid: 0,
            cancel: Arc::default(),
            role: Role::Reader,
            user: None,
            peer: None,
            slot: None,
            notices: NoticeFilter::default(),
        }
    }

    /// The notifications a RUN's summary carries: its transaction's choice, or an
    /// auto-commit RUN's own.
    fn notice_filter(&self, extra: &Pack) -> NoticeFilter {
        match &self.tx {
            Some(t) => t.notices.clone(),
            None => NoticeFilter::of(extra, &self.notices),
        }
    }

    /// Whether the connection waits for HELLO or LOGON (the first time, or after a
    /// LOGOFF): `auth_deadline_ms` runs.
    pub(crate) fn awaiting_authentication(&self) -> bool {
        matches!(self.phase, Phase::Hello | Phase::Logon)
    }

    /// Whether it ever authenticated (and so holds a `connections_max` slot).
    pub(crate) fn authenticated_once(&self) -> bool {
        self.slot.is_some()
    }

    /// Where this connection's requests come from (SHOW TRANSACTIONS).
    fn origin(&self) -> crate::running::Origin {
        crate::running::Origin {
            user: self.user.as_deref().map(Arc::from),
            protocol: "bolt",
            connection: Some(format!("bolt-{}", self.id)),
            client: self.peer.clone(),
        }
    }

    /// Records the client's address.
    pub(crate) fn set_peer(&mut self, peer: Option<String>) {
        self.peer = peer;
    }

    /// The connection is gone: stop what it runs.
    pub(crate) fn close(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// A message that could not be read: FAILURE, after which the connection closes.
    pub(crate) fn protocol_violation(&mut self, out: &mut Out, reason: &str) {
        let failure = Failure::new("Neo.ClientError.Request.Invalid", reason);
        out.failure(metadata(&failure));
    }

    /// Answers one request.
    pub(crate) async fn handle(
        &mut self,
        request: Request,
        out: &mut Out,
    ) -> std::io::Result<Flow> {
        match (self.phase, request) {
            (_, Request::Goodbye) => return Ok(Flow::Close(CloseReason::Client)),
            (Phase::Failed, Request::Reset) | (Phase::Ready, Request::Reset) => {
                self.reset();
                out.success(Pack::Map(vec![]));
            }
            (Phase::Failed, _) => out.ignored(),
            (Phase::Hello, Request::Hello { extra }) => return Ok(self.hello(&extra, out).await),
            (Phase::Logon, Request::Logon { auth }) => return Ok(self.logon(&auth, out).await),
            (Phase::Ready, request) => return self.ready(request, out).await,
            (phase, request) => {
                let reason = format!(
                    "{} is not allowed before authentication ({phase:?})",
                    request.name()
                );
                self.protocol_violation(out, &reason);
                return Ok(Flow::Close(CloseReason::Invalid));
            }
        }
        Ok(Flow::Continue)
    }

    fn reset(&mut self) {
        self.streams.clear();
        self.tx = None;
        self.phase = Phase::Ready;
    }

    /// A request failed: report it and ignore what follows until RESET. An open
    /// transaction is rolled back.
    fn fail(&mut self, out: &mut Out, failure: &Failure) {
        out.failure(metadata(failure));
        self.phase = Phase::Failed;
        self.tx = None;
        self.streams.clear();
    }

    async fn hello(&mut self, extra: &Pack, out: &mut Out) -> Flow {
        // 4.4 drivers offer to send datetimes in UTC (`patch_bolt: ["utc"]`); agreeing
        // makes 4.4 datetimes the same structure as 5.x's.
        let utc = !self.version.at_least(5, 0)
            && matches!(extra.get("patch_bolt"), Some(Pack::List(p)) if p.iter().any(|x| x.as_str() == Some("utc")));
        self.dialect = Dialect::of(self.version, utc);
        self.notices = NoticeFilter::of(extra, &NoticeFilter::default());
        if !self.version.at_least(5, 1) {
            if let Err((failure, reason)) = self.authenticate(extra).await {
                out.failure(metadata(&failure));
                return Flow::Defunct(reason);
            }
        }
        let s = |v: &str| Pack::String(v.to_owned());
        let mut meta = vec![
            (
                "server".into(),
                s(&format!(
                    "Neo4j/{} compatible (kith {})",
                    kith_procedures::dbms::NEO4J_VERSION,
                    env!("CARGO_PKG_VERSION")
                )),
            ),
            ("connection_id".into(), s(&format!("bolt-{}", self.id))),
            (
                "hints".into(),
                Pack::Map(vec![("telemetry.enabled".into(), Pack::Bool(false))]),
            ),
        ];
        if utc {
            meta.push(("patch_bolt".into(), Pack::List(vec![s("utc")])));
        }
        out.success(Pack::Map(meta));
        self.phase = if self.version.at_least(5, 1) {
            Phase::Logon
        } else {
            Phase::Ready
        };
        Flow::Continue
    }

    async fn logon(&mut self, auth: &Pack, out: &mut Out) -> Flow {
        match self.authenticate(auth).await {
            Ok(()) => {
                out.success(Pack::Map(vec![]));
                self.phase = Phase::Ready;
                Flow::Continue
            }
            Err((failure, reason)) => {
                out.failure(metadata(&failure));
                Flow::Defunct(reason)
            }
        }
    }

    /// Checks the credentials of HELLO (before 5.1) or LOGON against the server's
    /// users; the role they give is what the connection may do until LOGOFF. The
    /// first time, the connection takes its `connections_max` slot.
    async fn authenticate(&mut self, auth: &Pack) -> Result<(), (Failure, CloseReason)> {
        let refused = |e: &ExecError| (Failure::from(e), CloseReason::AuthFailed);
        let credentials = Credentials::from_bolt(auth).map_err(|e| refused(&e))?;
        let who = crate::auth::who(&self.state, credentials)
            .await
            .map_err(|e| refused(&e))?;
        if self.slot.is_none() {
            let Some(slot) = ConnectionSlot::take(&self.state, Transport::Bolt) else {
                let busy = ExecError::new(
                    Code::Busy,
                    format!(
                        "busy: {} connections are open (connections_max)",
                        self.state.config.connections_max
                    ),
                );
                return Err((Failure::from(&busy), CloseReason::ConnectionsMax));
            };
            self.slot = Some(slot);
        }
        self.role = who.role;
        self.user = who.user;
        Ok(())
    }

    async fn ready(&mut self, request: Request, out: &mut Out) -> std::io::Result<Flow> {
        let outcome = match request {
            Request::Run {
                query,
                params,
                extra,
            } => self.run(query, params, &extra, out).await?,
            Request::Pull { n, qid } => self.pull(n, qid, false, out).await?,
            Request::Discard { n, qid } => self.pull(n, qid, true, out).await?,
            Request::Begin { extra } => self.begin(&extra, out).await,
            Request::Commit => self.commit(out).await,
            Request::Rollback => self.rollback(out),
            Request::Route { db, .. } => Db::named(db.as_deref()).map(|db| self.route(db, out)),
            Request::Telemetry { .. } => {
                out.success(Pack::Map(vec![]));
                Ok(())
            }
            Request::Logoff if self.version.at_least(5, 1) => {
                self.reset();
                self.phase = Phase::Logon;
                out.success(Pack::Map(vec![]));
                Ok(())
            }
            Request::Logon { auth } if self.version.at_least(5, 1) => {
                return Ok(self.logon(&auth, out).await);
            }
            other => Err(Failure::new(
                "Neo.ClientError.Request.Invalid",
                format!("{} is not valid here", other.name()),
            )),
        };
        if let Err(failure) = outcome {
            self.fail(out, &failure);
        }
        Ok(Flow::Continue)
    }

    async fn run(
        &mut self,
        query: String,
        params: Vec<(String, Pack)>,
        extra: &Pack,
        out: &mut Out,
    ) -> std::io::Result<Result<(), Failure>> {
        let started = Instant::now();
        // Kept for a failure's excerpt of the text (Neo4j's layout, which its tools print).
        let text = query.clone();
        let db = match &self.tx {
            Some(tx) => Ok(tx.db),
            None => Db::of(extra),
        };
        let admitted = db.and_then(|db| match db {
            Db::System => super::system::admit(&text).map(|()| db),
            Db::Neo4j => Ok(db),
        });
        let db = match admitted {
            Ok(db) => db,
            Err(failure) => return Ok(Err(failure)),
        };
        let job = match self.run_job(query, params, extra).await {
            Ok(job) => job,
            Err(failure) => return Ok(Err(failure)),
        };
        let (reply, outcome) = BoltReply::new(&self.state);
        dispatch(&self.state, job, reply, self.cancel.clone(), self.origin());
        let (answer, trailer) = match outcome.await {
            Ok(Outcome::Answered(answered)) => *answered,
            Ok(Outcome::Failed(error)) => return Ok(Err(Failure::from(&error).located(&text))),
            Err(_) => return Ok(Err(internal("the query's worker stopped"))),
        };
        let in_transaction = self.tx.is_some();
        if let Some(t) = self.tx.as_mut() {
            t.tx = answer.tx;
        }
        let qid = self.next_qid;
        self.next_qid += 1;
        let fields = answer
            .columns
            .iter()
            .map(|c| Pack::String(c.clone()))
            .collect();
        self.streams.push(Stream {
            qid,
            returns_rows: !answer.columns.is_empty(),
            had_rows: !answer.rows.is_empty(),
            rows: answer.rows.into_iter(),
            commit: trailer.commit,
            counts: answer.counts,
            in_transaction,
            plan: trailer.plan,
            notifications: self.notice_filter(extra).apply(trailer.notifications),
            available: Instant::now(),
            db,
        });
        let mut meta = vec![
            ("fields".into(), Pack::List(fields)),
            (
                "t_first".into(),
                Pack::Int(started.elapsed().as_millis() as i64),
            ),
        ];
        if in_transaction {
            meta.push(("qid".into(), Pack::Int(qid)));
        } else if self.version.at_least(5, 8) {
            meta.push(("db".into(), Pack::String(db.name().into())));
        }
        out.success(Pack::Map(meta));
        Ok(Ok(()))
    }

    /// The job of a RUN, after the checks only Bolt has: the database, bookmarks,
    /// access mode and the transaction's state.
    async fn run_job(
        &mut self,
        query: String,
        params: Vec<(String, Pack)>,
        extra: &Pack,
    ) -> Result<Job, Failure> {
        let (read_only, metadata) = match &self.tx {
            Some(tx) => {
                if tx.deadline < Instant::now() {
                    self.tx = None;
                    return Err(timed_out());
                }
                if tx.tx.is_none() {
                    return Err(failed_transaction());
                }
                (tx.read_only, tx.metadata.clone())
            }
            None => {
                if !self.streams.is_empty() {
                    return Err(Failure::new(
                        "Neo.ClientError.Request.Invalid",
                        "RUN while the previous result is still open: PULL or DISCARD it first",
                    ));
                }
                self.await_bookmarks(extra).await?;
                (read_mode(extra), tx_metadata(extra)?)
            }
        };
        let params = params
            .into_iter()
            .map(|(name, pack)| {
                param_value(&name, pack)
                    .map(|v| (name, v))
                    .map_err(|m| Failure::new("Neo.ClientError.Statement.TypeError", m))
            })
            .collect::<Result<Vec<(String, Value)>, _>>()?;
        if read_only {
            // A text that does not prepare fails with its own error when it runs.
            if let Ok(prepared) = self.state.cypher.prepare(&query) {
                if prepared.writes() {
                    return Err(Failure::new(
                        "Neo.ClientError.Statement.AccessMode",
                        "the query writes, in a read-access-mode session or transaction",
                    ));
                }
            }
        }
        Ok(Job::Cypher {
            query,
            params,
            timing: false,
            within: self.tx.as_mut().and_then(|t| t.tx.take()),
            named: None,
            role: self.role,
            metadata: Some(metadata),
        })
    }

    /// Sends up to `n` (-1: all) records of result `qid` (-1: the last one), or drops
    /// them (DISCARD); the last batch ends with the result's summary.
    async fn pull(
        &mut self,
        n: i64,
        qid: i64,
        discard: bool,
        out: &mut Out,
    ) -> std::io::Result<Result<(), Failure>> {
        let found = if qid == -1 {
            self.streams.len().checked_sub(1)
        } else {
            self.streams.iter().position(|s| s.qid == qid)
        };
        let Some(at) = found else {
            let what = if discard { "DISCARD" } else { "PULL" };
            return Ok(Err(Failure::new(
                "Neo.ClientError.Request.Invalid",
                format!("{what} without an open result"),
            )));
        };
        let take = if n < 0 { usize::MAX } else { n as usize };
        let dialect = self.dialect;
        for _ in 0..take {
            let Some(row) = self.streams[at].rows.next() else {
                break;
            };
            if !discard {
                out.message(tag::RECORD, 1, |p| {
                    p.list_header(row.len());
                    row.iter().for_each(|v| pack_graph(p, v, dialect));
                });
                out.flush_if_full().await?;
            }
        }
        if self.streams[at].rows.len() > 0 {
            out.success(Pack::Map(vec![("has_more".into(), Pack::Bool(true))]));
            return Ok(Ok(()));
        }
        let stream = self.streams.remove(at);
        out.success(self.summary(&stream));
        Ok(Ok(()))
    }

    /// The end of a result: its kind, its counters, and outside a transaction the
    /// bookmark of the version it committed or read.
    fn summary(&self, stream: &Stream) -> Pack {
        let kind = match (stream.counts.is_some(), stream.returns_rows) {
            (false, _) => "r",
            (true, false) => "w",
            (true, true) => "rw",
        };
        let mut meta = vec![
            ("type".into(), Pack::String(kind.into())),
            (
                "t_last".into(),
                Pack::Int(stream.available.elapsed().as_millis() as i64),
            ),
            ("db".into(), Pack::String(stream.db.name().into())),
        ];
        if let Some(counts) = &stream.counts {
            meta.push(("stats".into(), stats(counts)));
        }
        if let Some(plan) = &stream.plan {
            meta.push(super::plan::entry(plan));
        }
        let notices = &stream.notifications;
        if self.version.at_least(5, 5) {
            // An EXPLAIN omits its result, as Neo4j says (00001), though it has columns.
            let explained = stream
                .plan
                .as_ref()
                .is_some_and(|p| !super::plan::profiled(p));
            let columns = stream.returns_rows && !explained;
            let statuses = super::status::of_result(columns, stream.had_rows, notices);
            meta.push(("statuses".into(), statuses));
        } else if let Some(legacy) = super::status::legacy(notices) {
            meta.push(("notifications".into(), legacy));
        }
        if !stream.in_transaction {
            let version = stream
                .commit
                .map_or_else(|| self.state.store.snapshot().version(), |c| c.version);
            meta.push(("bookmark".into(), Pack::String(bookmark(version))));
        }
        Pack::Map(meta)
    }

    async fn begin(&mut self, extra: &Pack, out: &mut Out) -> Result<(), Failure> {
        if self.tx.is_some() {
            return Err(Failure::new(
                "Neo.ClientError.Request.Invalid",
                "BEGIN inside a transaction: COMMIT or ROLLBACK it first",
            ));
        }
        let db = Db::of(extra)?;
        self.await_bookmarks(extra).await?;
        let metadata = tx_metadata(extra)?;
        let limit = Duration::from_millis(self.state.config.query_timeout_ms);
        let timeout = match extra.get("tx_timeout") {
            Some(Pack::Int(ms)) if *ms > 0 => Duration::from_millis(*ms as u64).min(limit),
            _ => limit,
        };
        self.streams.clear();
        self.tx = Some(Transaction {
            tx: Some(Box::new(Tx::with_ops_max(
                &self.state.store.snapshot(),
                self.state.config.write_ops_max,
            ))),
            read_only: read_mode(extra),
            deadline: Instant::now() + timeout,
            metadata,
            notices: NoticeFilter::of(extra, &self.notices),
            db,
        });
        let mut meta = vec![];
        if self.version.at_least(5, 8) {
            meta.push(("db".into(), Pack::String(db.name().into())));
        }
        out.success(Pack::Map(meta));
        Ok(())
    }

    async fn commit(&mut self, out: &mut Out) -> Result<(), Failure> {
        let Some(tx) = self.tx.take() else {
            return Err(Failure::new(
                "Neo.ClientError.Request.Invalid",
                "COMMIT without a transaction",
            ));
        };
        self.streams.clear();
        if tx.deadline < Instant::now() {
            return Err(timed_out());
        }
        let Some(tx) = tx.tx else {
            return Err(failed_transaction());
        };
        let version = match tx.is_empty() {
            true => tx.base_version(),
            false => {
                let mut tx = tx;
                // Its locks are released once the commit is answered (and visible).
                let _locks = tx.take_owner();
                let (batch, check) = tx.into_commit();
                let (reply, outcome) = BoltReply::new(&self.state);
                dispatch(
                    &self.state,
                    Job::Commit { batch, check },
                    reply,
                    self.cancel.clone(),
                    self.origin(),
                );
                match outcome.await {
                    Ok(Outcome::Answered(answered)) => answered
                        .1
                        .commit
                        .map(|c| c.version)
                        .ok_or_else(|| internal("a commit answered without its version"))?,
                    Ok(Outcome::Failed(error)) => return Err(Failure::from(&error)),
                    Err(_) => return Err(internal("the writer stopped")),
                }
            }
        };
        out.success(Pack::Map(vec![(
            "bookmark".into(),
            Pack::String(bookmark(version)),
        )]));
        Ok(())
    }

    fn rollback(&mut self, out: &mut Out) -> Result<(), Failure> {
        if self.tx.take().is_none() {
            return Err(Failure::new(
                "Neo.ClientError.Request.Invalid",
                "ROLLBACK without a transaction",
            ));
        }
        self.streams.clear();
        out.success(Pack::Map(vec![]));
        Ok(())
    }

    /// The routing table. Without a cluster (`route_write` / `route_read` unset): this
    /// server for every role it has (no WRITE on a read-only server). In a cluster:
    /// the primary as WRITE, the replicas as READ (the primary too when there are
    /// none), and every member as ROUTE, so the Neo4j drivers' `neo4j://` sends
    /// writes to the primary and spreads reads over the replicas.
    fn route(&self, db: Db, out: &mut Out) {
        let config = &self.state.config;
        let me = || vec![self.address.clone()];
        let write = match (&config.route_write, self.state.takes_writes()) {
            (Some(primary), _) => vec![primary.clone()],
            (None, true) => me(),
            (None, false) => Vec::new(),
        };
        let read = match (config.route_read.is_empty(), &config.route_write) {
            (false, _) => config.route_read.clone(),
            (true, Some(primary)) => vec![primary.clone()],
            (true, None) => me(),
        };
        let mut route: Vec<String> = Vec::new();
        for address in write.iter().chain(&read) {
            if !route.contains(address) {
                route.push(address.clone());
            }
        }
        if route.is_empty() {
            route = me();
        }
        let server = |role: &str, addresses: &[String]| {
            let addresses = addresses.iter().map(|a| Pack::String(a.clone())).collect();
            Pack::Map(vec![
                ("addresses".into(), Pack::List(addresses)),
                ("role".into(), Pack::String(role.into())),
            ])
        };
        let mut servers = vec![server("ROUTE", &route), server("READ", &read)];
        if !write.is_empty() {
            servers.push(server("WRITE", &write));
        }
        let table = Pack::Map(vec![
            ("ttl".into(), Pack::Int(ROUTING_TTL_S)),
            ("db".into(), Pack::String(db.name().into())),
            ("servers".into(), Pack::List(servers)),
        ]);
        out.success(Pack::Map(vec![("rt".into(), table)]));
    }

    /// Waits (briefly) until the store has every version the bookmarks name.
    async fn await_bookmarks(&self, extra: &Pack) -> Result<(), Failure> {
        let Some(Pack::List(bookmarks)) = extra.get("bookmarks") else {
            return Ok(());
        };
        let mut wanted = 0;
        for b in bookmarks {
            let version = b
                .as_str()
                .and_then(|s| s.strip_prefix("kith:"))
                .and_then(|v| v.parse::<u64>().ok())
                .ok_or_else(|| {
                    Failure::new(
                        "Neo.ClientError.Transaction.InvalidBookmark",
                        format!("{b:?} is not a kith bookmark (kith:<version>)"),
                    )
                })?;
            wanted = wanted.max(version);
        }
        crate::consistency::reach(&self.state, wanted, None)
            .await
            .map_err(|e| Failure::new("Neo.TransientError.Transaction.BookmarkTimeout", e.message))
    }
}

/// A bookmark: the commit version it follows.
fn bookmark(version: u64) -> String {
    format!("kith:{version}")
}

/// The query statistics drivers show as a summary's counters.
fn stats(c: &WriteCounts) -> Pack {
    let counts = [
        ("nodes-created", c.nodes_created),
        ("nodes-deleted", c.nodes_deleted),
        ("relationships-created", c.relationships_created),
        ("relationships-deleted", c.relationships_deleted),
        ("properties-set", c.properties_set),
        ("labels-added", c.labels_added),
        ("labels-removed", c.labels_removed),
        ("indexes-added", c.indexes_added),
        ("indexes-removed", c.indexes_removed),
        ("constraints-added", c.constraints_added),
        ("constraints-removed", c.constraints_removed),
    ];
    let mut entries: Vec<(String, Pack)> = (counts.iter())
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| ((*k).to_owned(), Pack::Int(*n as i64)))
        .collect();
    entries.push(("contains-updates".into(), Pack::Bool(true)));
    Pack::Map(entries)
}

/// Whether the request asked for read access (`mode: "r"`).
/// BEGIN's or an auto-commit RUN's `tx_metadata`: a map of any values a parameter
/// may hold (none: an empty map).
fn tx_metadata(extra: &Pack) -> Result<TxMetadata, Failure> {
    let invalid = |m: String| Failure::new("Neo.ClientError.Request.Invalid", m);
    match extra.get("tx_metadata") {
        None | Some(Pack::Null) => Ok(TxMetadata::default()),
        Some(Pack::Map(entries)) => {
            let mut out = Vec::with_capacity(entries.len());
            for (k, v) in entries {
                let v =
                    param_value(k, v.clone()).map_err(|m| invalid(format!("tx_metadata: {m}")))?;
                out.push((std::sync::Arc::from(k.as_str()), v));
            }
            Ok(TxMetadata::new(out))
        }
        Some(_) => Err(invalid("tx_metadata must be a map".to_owned())),
    }
}

fn read_mode(extra: &Pack) -> bool {
    extra.get("mode").and_then(Pack::as_str) == Some("r")
}

fn timed_out() -> Failure {
    Failure::from(&ExecError::new(
        Code::Timeout,
        "the transaction was open past its timeout and was rolled back",
    ))
}

/// A statement of the transaction failed: Neo4j's drivers then roll it back.
fn failed_transaction() -> Failure {
    Failure::new(
        "Neo.ClientError.Transaction.TransactionMarkedAsFailed",
        "a statement of this transaction failed, so it can only be rolled back",
    )
}

fn internal(message: &str) -> Failure {
    Failure::from(&ExecError::new(Code::Internal, message))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extra(meta: Pack) -> Pack {
        Pack::Map(vec![("tx_metadata".into(), meta)])
    }

    #[test]
    fn tx_metadata_is_a_map_of_parameter_values_or_refused_by_name() {
        let meta = tx_metadata(&extra(Pack::Map(vec![
            ("app".into(), Pack::String("shop".into())),
            ("n".into(), Pack::List(vec![Pack::Int(1)])),
        ])))
        .expect("a map");
        assert_eq!(
            meta.get(),
            Value::Map(vec![
                ("app".into(), Value::string("shop")),
                ("n".into(), Value::List(vec![Value::Int(1)])),
            ])
        );
        let none = tx_metadata(&Pack::Map(vec![])).expect("none");
        assert_eq!(none.get(), Value::Map(vec![]));
        for bad in [
            Pack::Int(1),
            Pack::String("x".into()),
            Pack::Map(vec![("n".into(), Pack::Struct(0x4E, vec![]))]),
        ] {
            let e = tx_metadata(&extra(bad)).expect_err("refused");
            assert_eq!(e.code, "Neo.ClientError.Request.Invalid");
            assert!(e.message.contains("tx_metadata"), "{}", e.message);
        }
    }
}
