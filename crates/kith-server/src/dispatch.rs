//! One request path for every transport: a decoded request becomes a [`Job`], the job
//! runs on a worker (a call, a Cypher query) or goes through the write queue (a write,
//! an update procedure, a Cypher query that wrote), and its answer or error goes to
//! the transport's [`Reply`], which encodes it as that transport speaks. The limits
//! (the worker queue, the query timeout, a read-only server) are enforced here once.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use kith_core::write_op::WriteCounts;
use kith_core::Value;
use kith_cypher::{GraphValue, TxMetadata};
use kith_protocol::{ErrorCode as Code, Request, Timing, Trailer};
use kith_storage::{CommitInfo, ReadCheck, Tx, WriteBatch};

use crate::auth::{self, Role};
use crate::cypher::Ran;
use crate::error::ExecError;
use crate::exec::{commit_row, execute, metric_name, update_batch, WRITE_METRIC};
use crate::running::{Kind, Origin, Tracked};
use crate::state::AppState;
use crate::write_queue::{WriteJob, WriteTiming};

/// Where a request's outcome goes: implemented by each transport, called on the
/// thread that finishes the request (a worker or the writer), so it must not block.
pub(crate) trait Reply: Clone + Send + 'static {
    /// When the request arrived (its latency and its timeout count from here).
    fn arrived(&self) -> Instant;
    /// The request's rows; `metric` names it in the latency histograms.
    fn answer(self, metric: &str, columns: &[String], values: &[Value], trailer: Trailer);
    /// The request ran and failed.
    fn fail(self, metric: &str, error: &ExecError);
    /// The request was refused before it ran (no latency is recorded).
    fn refuse(self, error: &ExecError);

    /// Requests its connection has in flight, this one included: it picks the
    /// worker queue's lane (`pool::Lane`). No default: a wrapper that did not pass
    /// it on put every request in one lane (found in review).
    fn in_flight(&self) -> usize;

    /// The request's writes go to the writer now: past this point it cannot be
    /// stopped (SHOW TRANSACTIONS says so; see `running::Tracked`).
    fn committing(&self) {}

    /// Whether this transport answers Cypher with nodes, relationships and paths kept
    /// as such, through [`Reply::answer_graph`] (Bolt); kith's own protocol flattens
    /// them into maps.
    const GRAPH: bool = false;

    /// A Cypher query's rows with their graph structure kept (asked for by
    /// [`Reply::GRAPH`]), or a transaction's commit (`Job::Commit`, no rows). This
    /// default flattens them and answers as [`Reply::answer`] does.
    fn answer_graph(self, metric: &str, answer: GraphAnswer, trailer: Trailer) {
        debug_assert!(answer.tx.is_none(), "only Bolt runs explicit transactions");
        let values: Vec<Value> = (answer.rows.into_iter().flatten())
            .map(GraphValue::into_value)
            .collect();
        self.answer(metric, &answer.columns, &values, trailer);
    }
}

/// Where a transport that waits for one outcome (HTTP, Bolt) receives it. A reply is
/// cloned only to refuse a request the worker queue would not take, so whichever
/// clone finishes first sends, and the rest find nothing to send.
pub(crate) struct OnceSender<T>(Arc<std::sync::Mutex<Option<tokio::sync::oneshot::Sender<T>>>>);

impl<T> Clone for OnceSender<T> {
    fn clone(&self) -> Self {
        OnceSender(self.0.clone())
    }
}

impl<T> OnceSender<T> {
    /// A sender and where its one value arrives.
    pub(crate) fn new() -> (OnceSender<T>, tokio::sync::oneshot::Receiver<T>) {
        let (done, outcome) = tokio::sync::oneshot::channel();
        (
            OnceSender(Arc::new(std::sync::Mutex::new(Some(done)))),
            outcome,
        )
    }

    /// Sends `value` unless something was sent already, first running `count` (the
    /// answer's metrics: a second answer, after a job panicked past its hand-off to
    /// the writer, is neither sent nor counted). A receiver that is gone (its client
    /// left) is no error.
    pub(crate) fn send(&self, value: T, count: impl FnOnce()) {
        let done = self.0.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(done) = done {
            count();
            let _ = done.send(value);
        }
    }
}

/// A Cypher answer with its graph structure kept.
pub(crate) struct GraphAnswer {
    pub(crate) columns: Vec<String>,
    pub(crate) rows: Vec<Vec<GraphValue>>,
    /// The explicit transaction a statement ran in, handed back (its writes wait for
    /// its commit).
    pub(crate) tx: Option<Box<Tx>>,
    /// What the query's writes change; `None` when it wrote nothing.
    pub(crate) counts: Option<WriteCounts>,
}

/// What SHOW TRANSACTIONS lists of a job: its kind, text and parameters.
type Listed<'a> = (Kind, &'a str, &'a [(String, Value)]);

/// A decoded request, ready to run.
pub(crate) enum Job {
    Call {
        procedure: String,
        params: Vec<(String, Value)>,
        timing: bool,
    },
    Write {
        batch: WriteBatch,
        timing: bool,
    },
    Cypher {
        query: String,
        params: Vec<(String, Value)>,
        timing: bool,
        /// The explicit transaction the statement runs in: it reads that version,
        /// with the transaction's writes so far, and its writes wait for the
        /// transaction's commit. `None`: the current version, committed at once
        /// (auto-commit).
        within: Option<Box<Tx>>,
        /// The WebSocket or HTTP transaction it runs in, by id (taken from
        /// `AppState::transactions` while it runs).
        named: Option<String>,
        /// Who runs it: a query that writes needs a writer.
        role: Role,
        /// Its transaction's metadata (Bolt's `tx_metadata`): `tx.getMetaData()`
        /// answers it, `tx.setMetaData()` replaces it, SHOW TRANSACTIONS lists it.
        metadata: Option<TxMetadata>,
    },
    /// An LDBC read on a router, run across its shards (docs/sharding.md).
    Routed {
        procedure: String,
        params: Vec<(String, Value)>,
        timing: bool,
    },
    /// Cypher on a router: Fabric's `USE` forms, or its own engine routing the
    /// LDBC reads. `within`: a Bolt transaction's (empty) one, handed back.
    RoutedCypher {
        query: String,
        params: Vec<(String, Value)>,
        timing: bool,
        within: Option<Box<Tx>>,
    },
    /// Opens a WebSocket or HTTP transaction: answered with its id (column `tx`).
    Begin {
        timeout_ms: Option<u64>,
    },
    /// Commits a WebSocket or HTTP transaction.
    CommitNamed {
        id: String,
    },
    /// Rolls a WebSocket or HTTP transaction back.
    RollbackNamed {
        id: String,
    },
    /// An explicit transaction's writes, answered (through [`Reply::answer_graph`])
    /// with no rows and the commit in the trailer once they are durable, or
    /// `conflict` when they collide with a commit made after the version it read.
    Commit {
        batch: WriteBatch,
        check: ReadCheck,
    },
}

impl Job {
    /// What SHOW TRANSACTIONS lists for this job; `None` for writes and transaction
    /// control, which are not listed.
    fn listed(&self) -> Option<Listed<'_>> {
        match self {
            Job::Cypher { query, params, .. } | Job::RoutedCypher { query, params, .. } => {
                Some((Kind::Cypher, query, params))
            }
            Job::Call {
                procedure, params, ..
            } => Some((Kind::Call, procedure, params)),
            Job::Routed {
                procedure, params, ..
            } => Some((Kind::Routed, procedure, params)),
            _ => None,
        }
    }

    /// The job of a request. Writes are converted here, before the request takes any
    /// slot: a malformed one is answered at once and never queued.
    pub(crate) fn of(state: &AppState, request: Request, role: Role) -> Result<Job, ExecError> {
        if state.shards.is_some() {
            return Job::routed(state, request);
        }
        let job = match request {
            // An update procedure (LDBC's IU1..IU8) is a write: queued for the writer.
            Request::Call {
                procedure,
                params,
                timing,
            } if state.registry.update(&procedure).is_some() => Job::Write {
                batch: update_batch(state, &procedure, &params)?,
                timing,
            },
            // A stored Cypher procedure runs as the query that calls it, with the
            // request's parameters as its arguments (by name).
            Request::Call {
                procedure,
                params,
                timing,
            } if state.registry.get(&procedure).is_err()
                && kith_core::GraphView::schema(&*state.store.snapshot())
                    .procedures
                    .contains_key(&procedure) =>
            {
                Job::Cypher {
                    query: format!("CALL {procedure}"),
                    params,
                    timing,
                    within: None,
                    named: None,
                    role,
                    metadata: None,
                }
            }
            Request::Call {
                procedure,
                params,
                timing,
            } => Job::Call {
                procedure,
                params,
                timing,
            },
            Request::Write { ops, timing } => {
                let ops = kith_protocol::ops::decode(ops, state.config.write_ops_max)
                    .map_err(|message| ExecError::new(Code::BadRequest, message))?;
                Job::Write {
                    batch: WriteBatch { ops },
                    timing,
                }
            }
            Request::Cypher {
                query,
                params,
                timing,
                tx,
            } => Job::Cypher {
                query,
                params,
                timing,
                within: None,
                named: tx,
                role,
                metadata: None,
            },
            Request::Begin { timeout_ms } => Job::Begin { timeout_ms },
            Request::Commit { tx } => Job::CommitNamed { id: tx },
            Request::Rollback { tx } => Job::RollbackNamed { id: tx },
        };
        if let Job::Write { batch, .. } = &job {
            auth::permit(role, true, auth::touches_schema(&batch.ops))?;
        }
        Ok(job)
    }
}

impl Job {
    /// A router's job: an LDBC read or a Cypher query across its shards; anything
    /// else is refused with what a router does run.
    fn routed(state: &AppState, request: Request) -> Result<Job, ExecError> {
        match request {
            Request::Call {
                procedure,
                params,
                timing,
            } => Ok(Job::Routed {
                procedure,
                params,
                timing,
            }),
            Request::Cypher {
                query,
                params,
                timing,
                tx: None,
            } => Ok(Job::RoutedCypher {
                query,
                params,
                timing,
                within: None,
            }),
            _ => Err(not_routed(state)),
        }
    }

    /// The job a router runs for this one (Bolt makes its Cypher jobs itself), or
    /// why it refuses it.
    fn on_router(self, state: &AppState) -> Result<Job, ExecError> {
        match self {
            Job::Routed { .. } | Job::RoutedCypher { .. } => Ok(self),
            Job::Cypher {
                query,
                params,
                timing,
                within,
                named: None,
                ..
            } => Ok(Job::RoutedCypher {
                query,
                params,
                timing,
                within,
            }),
            _ => Err(not_routed(state)),
        }
    }
}

/// Why a router refuses a request it does not route: writes and transactions are
/// `read_only`.
fn not_routed(state: &AppState) -> ExecError {
    ExecError::new(Code::ReadOnly, state.read_only_reason())
}

/// Runs `job` and answers through `reply`. `cancel` stops a Cypher query once its
/// client is gone.
/// A request that names a version the store has not applied yet: from a task that
/// waits for it (bounded by `min_version_wait_ms`, then answered `timeout`), made a
/// job only then (a stored procedure the awaited write registered is found), and
/// dispatched. The caller holds the request's in-flight slot meanwhile.
pub(crate) fn dispatch_after<R: Reply>(
    state: &Arc<AppState>,
    min_version: u64,
    request: kith_protocol::Request,
    role: crate::auth::Role,
    reply: R,
    cancel: Arc<AtomicBool>,
    origin: Origin,
) {
    if state.shards.is_some() {
        // A router holds no versions of its own: waiting would end in a timeout.
        let why = "this server is a router over shards: a read cannot name a version here";
        return reply.refuse(&ExecError::new(Code::BadRequest, why));
    }
    let state = state.clone();
    tokio::spawn(async move {
        let waited = crate::consistency::reach(&state, min_version, Some(&cancel)).await;
        match waited.and_then(|()| Job::of(&state, request, role)) {
            Ok(job) => dispatch(&state, job, reply, cancel, origin),
            Err(e) => reply.refuse(&e),
        }
    });
}

pub(crate) fn dispatch<R: Reply>(
    state: &Arc<AppState>,
    job: Job,
    reply: R,
    cancel: Arc<AtomicBool>,
    origin: Origin,
) {
    if let Job::Cypher { query, .. } = &job {
        if let Some(admin) = crate::admin::parse(query) {
            return crate::admin::run(state, job, admin, reply, cancel, origin);
        }
    }
    // Queries and calls are listed for SHOW TRANSACTIONS while they run.
    let Some((kind, text, params)) = job.listed() else {
        return run_job(state, job, reply, cancel, None);
    };
    let metadata = match &job {
        Job::Cypher { metadata, .. } => metadata.clone(),
        _ => None,
    };
    let ticket = state.running.start(kind, text, params, origin, metadata);
    let terminate = ticket.terminate_flag();
    run_job(
        state,
        job,
        Tracked::new(reply, ticket),
        cancel,
        Some(terminate),
    );
}

/// Runs a Cypher job on this thread rather than a worker: SHOW TRANSACTIONS, which
/// reads only its own short list and must answer while every worker is busy (with
/// the very queries an operator wants to see).
pub(crate) fn cypher_now<R: Reply>(
    state: &Arc<AppState>,
    job: Job,
    reply: R,
    stop: (Arc<AtomicBool>, Option<Arc<AtomicBool>>),
    sent: String,
) {
    let (cancel, terminate) = stop;
    let Some(cypher) = CypherJob::of(job, terminate, Some(sent)) else {
        return reply.refuse(&ExecError::new(Code::Internal, "cypher_now takes a query"));
    };
    // It runs on a thread that serves connections: a second at most.
    let limit = Duration::from_millis(state.config.query_timeout_ms).min(SHOW_TIME_MAX);
    let started = Started {
        at: Instant::now(),
        waited: Duration::ZERO,
        limit,
    };
    run_cypher(state, reply, started, cypher, cancel);
}

/// The longest a SHOW TRANSACTIONS query may run on a connection's thread.
const SHOW_TIME_MAX: Duration = Duration::from_secs(1);

/// Runs a Cypher job as its transport wants its rows.
fn run_cypher<R: Reply>(
    state: &Arc<AppState>,
    reply: R,
    started: Started,
    cypher: CypherJob,
    cancel: Arc<AtomicBool>,
) {
    if R::GRAPH {
        cypher_graph(state, reply, started, cypher, cancel);
    } else {
        cypher_plain(state, reply, started, cypher, cancel);
    }
}

/// Runs a job; `terminate` is the flag `TERMINATE TRANSACTION` sets for it.
fn run_job<R: Reply>(
    state: &Arc<AppState>,
    job: Job,
    reply: R,
    cancel: Arc<AtomicBool>,
    terminate: Option<Arc<AtomicBool>>,
) {
    // Every transport's jobs meet here (Bolt makes its Cypher jobs itself): a router
    // runs routed jobs only, and never one against its empty store.
    let job = match state.shards.is_some() {
        true => match job.on_router(state) {
            Ok(job) => job,
            Err(e) => return reply.refuse(&e),
        },
        false => job,
    };
    match job {
        Job::Call {
            procedure,
            params,
            timing,
        } => submit_call(state, reply, procedure, params, timing),
        Job::Write { batch, timing } => submit_write(state, reply, batch, timing),
        Job::Routed {
            procedure,
            params,
            timing,
        } => {
            let stop = crate::routed::Stop { cancel, terminate };
            crate::routed::read(state, reply, procedure, params, timing, stop)
        }
        Job::RoutedCypher {
            query,
            params,
            timing,
            within,
        } => {
            let stop = crate::routed::Stop { cancel, terminate };
            crate::routed::cypher(state, reply, query, params, timing, within, stop)
        }
        job @ Job::Cypher { .. } => {
            let Some(cypher) = CypherJob::of(job, terminate, None) else {
                return reply.refuse(&ExecError::new(
                    Code::Internal,
                    "a query job without a query",
                ));
            };
            on_worker(state, reply, move |state, reply, started| {
                run_cypher(state, reply, started, cypher, cancel)
            });
        }
        Job::Begin { timeout_ms } => crate::transactions::begin(state, reply, timeout_ms),
        Job::CommitNamed { id } => match state.transactions.finish(&id) {
            Err(error) => reply.fail(crate::transactions::TX_METRIC, &error),
            Ok(tx) => commit_named(state, reply, *tx),
        },
        Job::RollbackNamed { id } => crate::transactions::rollback(state, reply, &id),
        Job::Commit { batch, check } => submit_commit(
            state,
            reply,
            batch,
            Checked::answered(check),
            WRITE_METRIC,
            |reply, info, _| {
                let answer = GraphAnswer {
                    columns: Vec::new(),
                    rows: Vec::new(),
                    tx: None,
                    counts: None,
                };
                let trailer = Trailer {
                    timing: None,
                    commit: Some(crate::cypher::commit_summary(&info)),
                    plan: None,
                    notifications: Vec::new(),
                };
                reply.answer_graph(WRITE_METRIC, answer, trailer);
            },
        ),
    }
}

/// Commits an ended WebSocket or HTTP transaction: checked against the commits made
/// since it began, answered with its commit once durable (a transaction that wrote
/// nothing answers the version it read).
fn commit_named<R: Reply>(state: &Arc<AppState>, reply: R, tx: Tx) {
    let metric = crate::transactions::TX_METRIC;
    let answered = |reply: R, commit: kith_protocol::Commit| {
        let trailer = Trailer {
            timing: None,
            commit: Some(commit),
            plan: None,
            notifications: Vec::new(),
        };
        reply.answer(metric, &[], &[], trailer);
    };
    if tx.is_empty() {
        let commit = kith_protocol::Commit {
            version: tx.base_version(),
            ..Default::default()
        };
        return answered(reply, commit);
    }
    let mut tx = tx;
    // Its locks are held until the commit is answered (and visible), then released
    // with this, whether it committed or not.
    let locks = tx.take_owner();
    let (batch, check) = tx.into_commit();
    submit_commit(
        state,
        reply,
        batch,
        Checked::answered(check),
        metric,
        move |reply, info, _| {
            answered(reply, crate::cypher::commit_summary(&info));
            drop(locks);
        },
    );
}

/// When a job started on its worker, and how long it had waited for one.
#[derive(Clone, Copy)]
struct Started {
    at: Instant,
    waited: Duration,
    limit: Duration,
}

impl Started {
    /// What is left of `query_timeout_ms`, or the `timeout` of a request that waited
    /// past it (it is not run).
    fn budget(&self) -> Result<Duration, ExecError> {
        self.limit
            .checked_sub(self.waited)
            .ok_or_else(|| waited_too_long(self.waited, self.limit))
    }

    /// The timing reported so far: the wait, and the run up to now.
    fn timing(&self) -> Timing {
        Timing {
            queue_us: self.waited.as_micros() as u64,
            exec_us: self.at.elapsed().as_micros() as u64,
            encode_us: 0,
        }
    }
}

/// Runs `work` on a worker, which answers directly: no task, timer or channel per
/// request in between (each cross-thread hop cost tens of microseconds of round trip
/// on a small machine). A request the full worker queue will not take is refused.
fn on_worker<R: Reply>(
    state: &Arc<AppState>,
    reply: R,
    work: impl FnOnce(&Arc<AppState>, R, Started) + Send + 'static,
) {
    let refused = reply.clone();
    let job_state = state.clone();
    let lane = crate::pool::Lane::for_in_flight(reply.in_flight());
    let submitted = state.pool.submit(lane, move || {
        let at = Instant::now();
        let started = Started {
            at,
            waited: at.duration_since(reply.arrived()),
            limit: Duration::from_millis(job_state.config.query_timeout_ms),
        };
        answer_a_panic(reply, |reply| work(&job_state, reply, started));
    });
    if submitted.is_err() {
        refused.refuse(&queue_full(state));
    }
}

/// Runs `work`, and answers its request `internal` if it panics (an engine bug):
/// otherwise the reply would be dropped unanswered, the client would wait for ever
/// and, on WebSocket, the request would hold one of its connection's in-flight slots
/// for good. Should the panic come after the reply was passed on (to the writer), the
/// reply's transport sends only the first of the two answers.
fn answer_a_panic<R: Reply>(reply: R, work: impl FnOnce(R)) {
    let on_panic = reply.clone();
    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || work(reply)));
    if let Err(panic) = ran {
        let what = crate::pool::panic_text(panic.as_ref());
        tracing::error!(panic = %what, "a request's job panicked; answered `internal`");
        let error = ExecError::new(
            Code::Internal,
            "the server failed on this request (a bug, logged); the connection goes on",
        );
        on_panic.fail(PANIC_METRIC, &error);
    }
}

/// The latency histogram of requests whose job panicked.
const PANIC_METRIC: &str = "panicked";

/// Runs a procedure on a worker.
fn submit_call<R: Reply>(
    state: &Arc<AppState>,
    reply: R,
    procedure: String,
    params: Vec<(String, Value)>,
    timing: bool,
) {
    on_worker(state, reply, move |state, reply, started| {
        let metric = metric_name(state, &procedure);
        let ran = started
            .budget()
            .and_then(|_| execute(state, &procedure, &params));
        let ran_for = started.at.elapsed();
        crate::slow::note(
            state,
            crate::slow::Ran::Call(&procedure),
            &params,
            ran_for,
            started.waited,
        );
        match ran {
            Ok(result) => {
                let trailer = Trailer::with_timing(timing.then(|| started.timing()));
                reply.answer(metric, result.columns(), result.values(), trailer);
            }
            Err(error) => reply.fail(metric, &error),
        }
    });
}

/// Queues a transaction; it is answered from the writer once its group is durable.
fn submit_write<R: Reply>(state: &Arc<AppState>, reply: R, batch: WriteBatch, timing: bool) {
    submit_commit(
        state,
        reply,
        batch,
        Checked::none(),
        WRITE_METRIC,
        move |reply, info, spent| {
            let (columns, row) = commit_row(&info);
            let timing = timing.then_some(Timing {
                queue_us: spent.queued.as_micros() as u64,
                exec_us: spent.commit.as_micros() as u64,
                encode_us: 0,
            });
            reply.answer(WRITE_METRIC, &columns, &row, Trailer::with_timing(timing));
        },
    );
}

/// Queues `batch` for the writer. Once its group is durable `answer` answers from the
/// commit, on the writer thread; a refused or failed commit is answered its error.
fn submit_commit<R: Reply>(
    state: &Arc<AppState>,
    reply: R,
    batch: WriteBatch,
    checked: Checked<R>,
    metric: &'static str,
    answer: impl FnOnce(R, CommitInfo, WriteTiming) + Send + 'static,
) {
    let Some(writes) = state.writes.as_ref() else {
        return reply.refuse(&ExecError::new(Code::ReadOnly, state.read_only_reason()));
    };
    let arrived = reply.arrived();
    let retry = checked.retry;
    let on_commit = crate::write_queue::Reply::new(move |outcome, spent| match outcome {
        Ok(info) => answer(reply, info, spent),
        Err(error) if error.code == Code::Conflict && retry.is_some() => {
            (retry.expect("checked above"))(reply);
        }
        Err(error) => reply.fail(metric, &error),
    });
    let job = WriteJob {
        replicated_answer: true,
        batch,
        check: checked.check.map(Box::new),
        arrived,
        reply: on_commit,
    };
    if let Err((job, error)) = writes.submit(job) {
        job.reply.send(Err(error), WriteTiming::default());
    }
}

/// What the writer checks before a commit, and what runs instead of failing when
/// that finds a conflict.
struct Checked<R> {
    check: Option<ReadCheck>,
    retry: Option<Retry<R>>,
}

impl<R> Checked<R> {
    /// Nothing to check (a write request, whose operations read nothing).
    fn none() -> Checked<R> {
        Checked {
            check: None,
            retry: None,
        }
    }

    /// Checked; a conflict is answered (the client retries).
    fn answered(check: ReadCheck) -> Checked<R> {
        Checked {
            check: Some(check),
            retry: None,
        }
    }
}

/// A Cypher job's parts.
struct CypherJob {
    query: String,
    params: Vec<(String, Value)>,
    timing: bool,
    within: Option<Box<Tx>>,
    named: Option<String>,
    role: Role,
    metadata: Option<TxMetadata>,
    /// Runs before this one whose commit conflicted.
    attempt: u8,
    /// Set by `TERMINATE TRANSACTION`.
    terminate: Option<Arc<AtomicBool>>,
    /// What the client sent, when `query` is a rewrite of it (SHOW TRANSACTIONS):
    /// the slow-query log shows this, without the rewrite's own parameter.
    sent: Option<String>,
    /// A WebSocket or HTTP transaction's statement that waited for locks: its
    /// transaction, still lent out of the registry, to run it again in.
    resumed: Option<Box<Tx>>,
}

/// How often an auto-commit query whose commit conflicts (another transaction
/// changed what it changed, after it read) is run again, on the newer version,
/// before `conflict` is answered.
const AUTO_COMMIT_RETRIES: u8 = 3;

/// A query's way to run again (see [`CypherJob::retry`]).
type Again<R> = fn(&Arc<AppState>, R, Started, CypherJob, Arc<AtomicBool>);

/// What `finish` does on a conflict instead of failing.
type Retry<R> = Box<dyn FnOnce(R) + Send>;

impl CypherJob {
    /// The parts of a `Job::Cypher` (`None` for another job).
    fn of(job: Job, terminate: Option<Arc<AtomicBool>>, sent: Option<String>) -> Option<CypherJob> {
        let Job::Cypher {
            query,
            params,
            timing,
            within,
            named,
            role,
            metadata,
        } = job
        else {
            return None;
        };
        Some(CypherJob {
            query,
            params,
            timing,
            within,
            named,
            role,
            metadata,
            attempt: 0,
            terminate,
            sent,
            resumed: None,
        })
    }
    /// An auto-commit query's retry on a conflict: the same query, run afresh on a
    /// worker (it then reads the version that conflicted). `None` for a statement of
    /// an explicit transaction (the client retries the transaction) and after
    /// [`AUTO_COMMIT_RETRIES`].
    fn retry<R: Reply>(
        &self,
        state: &Arc<AppState>,
        cancel: Arc<AtomicBool>,
        again: Again<R>,
    ) -> Option<Retry<R>> {
        if self.named.is_some() || self.attempt >= AUTO_COMMIT_RETRIES {
            return None;
        }
        let job = CypherJob {
            query: self.query.clone(),
            params: self.params.clone(),
            timing: self.timing,
            within: None,
            named: None,
            role: self.role,
            metadata: self.metadata.clone(),
            attempt: self.attempt + 1,
            terminate: self.terminate.clone(),
            sent: self.sent.clone(),
            resumed: None,
        };
        let state = state.clone();
        Some(Box::new(move |reply: R| {
            on_worker(&state, reply, move |state, reply, started| {
                again(state, reply, started, job, cancel)
            })
        }))
    }

    /// Runs the query within what is left of its time budget, its answer values made
    /// by `runner`.
    fn run<T>(
        &mut self,
        state: &AppState,
        started: &Started,
        cancel: Arc<AtomicBool>,
        runner: &crate::cypher::Runner<T>,
    ) -> Result<crate::cypher::Ran<T>, ExecError> {
        let answer = self.run_within(state, started, cancel, runner);
        let (text, params) = match &self.sent {
            // The rewrite's rows are its last parameter.
            Some(sent) => (sent, &self.params[..self.params.len().saturating_sub(1)]),
            None => (&self.query, &self.params[..]),
        };
        let ran = crate::slow::Ran::Cypher(text);
        crate::slow::note(state, ran, params, started.at.elapsed(), started.waited);
        answer
    }

    fn run_within<T>(
        &mut self,
        state: &AppState,
        started: &Started,
        cancel: Arc<AtomicBool>,
        runner: &crate::cypher::Runner<T>,
    ) -> Result<crate::cypher::Ran<T>, ExecError> {
        let budget = match started.budget() {
            Ok(budget) => budget,
            Err(late) => {
                // A statement woken after a lock wait holds its transaction lent:
                // failing, it fails the transaction (else it stays busy until swept).
                if let (Some(_), Some(id)) = (self.resumed.take(), &self.named) {
                    state.transactions.fail(id);
                }
                return Err(late);
            }
        };
        let Some(id) = self.named.clone() else {
            let query =
                crate::cypher::Query::new(&self.query, &self.params, self.within.take(), self.role)
                    .terminated_by(self.terminate.clone())
                    .with_metadata(self.metadata.clone());
            return crate::cypher::run(state, query, budget, cancel, runner);
        };
        let tx = match self.resumed.take() {
            Some(tx) => tx,
            None => state.transactions.take(&id)?,
        };
        // Until it is given back, the transaction is marked failed if this returns
        // early or unwinds (an engine bug must not leave it "busy" until it times out).
        let lent = crate::transactions::Lent::new(&state.transactions, &id);
        let query = crate::cypher::Query::new(&self.query, &self.params, Some(tx), self.role)
            .terminated_by(self.terminate.clone())
            .with_metadata(self.metadata.clone());
        let mut ran = crate::cypher::run(state, query, budget, cancel, runner);
        match ran.as_mut() {
            Ok(crate::cypher::Ran::Answered(answer)) => {
                if let Some(tx) = answer.tx.take() {
                    lent.give_back(tx);
                }
            }
            // The waiting statement keeps it lent, so the next one waits behind it.
            Ok(crate::cypher::Ran::Blocked(_)) => lent.keep(),
            Err(_) => {}
        }
        ran
    }

    /// The statement's way back after a wait: its transaction as it was before it.
    fn resume(&mut self, tx: Box<Tx>) {
        match self.named {
            Some(_) => self.resumed = Some(tx),
            None => self.within = Some(tx),
        }
    }
}

/// Runs a Cypher query for kith's own protocol: rows flattened to plain values.
fn cypher_plain<R: Reply>(
    state: &Arc<AppState>,
    reply: R,
    started: Started,
    mut job: CypherJob,
    cancel: Arc<AtomicBool>,
) {
    let metric = crate::cypher::CYPHER_METRIC;
    let answer = match job.run(state, &started, cancel.clone(), &crate::cypher::PLAIN) {
        Ok(Ran::Answered(answer)) => answer,
        Ok(Ran::Blocked(blocked)) => {
            return wait_for_locks(state, reply, job, blocked, cancel, cypher_plain::<R>)
        }
        Err(error) => return reply.fail(metric, &error),
    };
    let retry = answer
        .writes
        .as_ref()
        .and_then(|_| job.retry(state, cancel, cypher_plain::<R>));
    let columns = answer.columns;
    let values: Vec<Value> = answer.rows.into_iter().flatten().collect();
    let (plan, notifications) = (answer.plan, answer.notifications);
    let commit = AutoCommit {
        writes: answer.writes,
        check: answer.check,
        retry,
    };
    finish(
        state,
        reply,
        commit,
        started,
        job.timing,
        move |reply, trailer| {
            let trailer = Trailer {
                plan,
                notifications,
                ..trailer
            };
            reply.answer(metric, &columns, &values, trailer);
        },
    );
}

/// Runs a Cypher query for a transport with graph types. Inside an explicit
/// transaction its writes are handed back for the commit instead of committed.
fn cypher_graph<R: Reply>(
    state: &Arc<AppState>,
    reply: R,
    started: Started,
    mut job: CypherJob,
    cancel: Arc<AtomicBool>,
) {
    let metric = crate::cypher::CYPHER_METRIC;
    let deferring = job.within.is_some();
    let answer = match job.run(state, &started, cancel.clone(), &crate::cypher::GRAPH) {
        Ok(Ran::Answered(answer)) => answer,
        Ok(Ran::Blocked(blocked)) => {
            return wait_for_locks(state, reply, job, blocked, cancel, cypher_graph::<R>)
        }
        Err(error) => return reply.fail(metric, &error),
    };
    let retry = answer
        .writes
        .as_ref()
        .and_then(|_| job.retry(state, cancel, cypher_graph::<R>));
    let mut graph = GraphAnswer {
        columns: answer.columns,
        rows: answer.rows,
        tx: None,
        counts: answer
            .counts
            .filter(|_| answer.writes.is_some() || deferring),
    };
    let (plan, notifications) = (answer.plan, answer.notifications);
    if deferring {
        graph.tx = answer.tx;
        let trailer = Trailer {
            plan,
            notifications,
            ..Trailer::with_timing(job.timing.then(|| started.timing()))
        };
        return reply.answer_graph(metric, graph, trailer);
    }
    let commit = AutoCommit {
        writes: answer.writes,
        check: answer.check,
        retry,
    };
    finish(
        state,
        reply,
        commit,
        started,
        job.timing,
        move |reply, trailer| {
            let trailer = Trailer {
                plan,
                notifications,
                ..trailer
            };
            reply.answer_graph(metric, graph, trailer);
        },
    );
}

/// Parks a statement that waits for another transaction's locks, holding its
/// transaction, until that one ends: then it runs again on a worker through `again`.
/// A wait that would deadlock, or that lasts past the query's timeout, fails the
/// statement and with it the transaction (rolled back, its locks released), as in
/// Neo4j.
fn wait_for_locks<R: Reply>(
    state: &Arc<AppState>,
    reply: R,
    mut job: CypherJob,
    blocked: crate::cypher::Blocked,
    cancel: Arc<AtomicBool>,
    again: Again<R>,
) {
    let deadline = reply.arrived() + Duration::from_millis(state.config.query_timeout_ms);
    let waiting = state.clone();
    let crate::cypher::Blocked { tx, wait } = blocked;
    let wake: crate::locks::Wake = Box::new(move |woken| {
        let failed = match woken {
            crate::locks::Woken::Released => {
                job.resume(tx);
                return on_worker(&waiting, reply, move |state, reply, started| {
                    again(state, reply, started, job, cancel)
                });
            }
            crate::locks::Woken::Deadlock => ExecError::new(
                Code::Deadlock,
                "the statement would wait for a transaction that waits for this one (a \
                 deadlock): this transaction is rolled back; run it again",
            ),
            crate::locks::Woken::TimedOut => ExecError::new(
                Code::Timeout,
                format!(
                    "the statement waited for another transaction's locks past \
                     query_timeout_ms ({} ms): this transaction is rolled back",
                    waiting.config.query_timeout_ms
                ),
            ),
        };
        drop(tx);
        if let Some(id) = &job.named {
            waiting.transactions.fail(id);
        }
        reply.fail(crate::cypher::CYPHER_METRIC, &failed);
    });
    state.locks.wait(wait, deadline, wake);
}

/// Answers a query through `respond`: at once when it wrote nothing, else from the
/// writer once its transaction is durable, with the commit in the trailer.
fn finish<R: Reply>(
    state: &Arc<AppState>,
    reply: R,
    commit: AutoCommit<R>,
    started: Started,
    timing: bool,
    respond: impl FnOnce(R, Trailer) + Send + 'static,
) {
    let metric = crate::cypher::CYPHER_METRIC;
    let Some(batch) = commit.writes else {
        return respond(
            reply,
            Trailer::with_timing(timing.then(|| started.timing())),
        );
    };
    let answer = move |reply, info: CommitInfo, _| {
        let trailer = Trailer {
            timing: timing.then(|| started.timing()),
            commit: Some(crate::cypher::commit_summary(&info)),
            plan: None,
            notifications: Vec::new(),
        };
        respond(reply, trailer);
    };
    let checked = Checked {
        check: commit.check,
        retry: commit.retry,
    };
    reply.committing();
    submit_commit(state, reply, batch, checked, metric, answer);
}

/// An auto-commit query's writes, what the writer checks first, and how to run the
/// query again if that check finds a conflict.
struct AutoCommit<R> {
    writes: Option<WriteBatch>,
    check: Option<ReadCheck>,
    retry: Option<Retry<R>>,
}

/// The `busy` error of a full worker queue.
fn queue_full(state: &AppState) -> ExecError {
    let message = format!(
        "the server's queue is full ({} requests waiting, queue_depth_max); retry later",
        state.config.queue_depth_max
    );
    ExecError::new(Code::Busy, message)
}

/// The error of a request that waited for a worker past `query_timeout_ms`.
fn waited_too_long(waited: Duration, limit: Duration) -> ExecError {
    let message = format!(
        "waited {} ms for a worker, more than query_timeout_ms ({} ms); not run",
        waited.as_millis(),
        limit.as_millis()
    );
    ExecError::new(Code::Timeout, message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// What a reply was sent: the metric, and the error's code if it failed.
    type Sent = (String, Option<Code>);

    /// A reply that records what it was sent.
    #[derive(Clone, Default)]
    struct Recorded(Arc<Mutex<Vec<Sent>>>);

    impl Recorded {
        fn sent(&self) -> Vec<Sent> {
            self.0.lock().expect("lock").clone()
        }
    }

    impl Reply for Recorded {
        fn arrived(&self) -> Instant {
            Instant::now()
        }
        fn answer(self, metric: &str, _: &[String], _: &[Value], _: Trailer) {
            self.0.lock().expect("lock").push((metric.to_owned(), None));
        }
        fn fail(self, metric: &str, error: &ExecError) {
            let sent = (metric.to_owned(), Some(error.code));
            self.0.lock().expect("lock").push(sent);
        }
        fn refuse(self, error: &ExecError) {
            self.0
                .lock()
                .expect("lock")
                .push(("".into(), Some(error.code)));
        }
        fn in_flight(&self) -> usize {
            1
        }
    }

    #[test]
    fn a_job_that_panics_is_answered_internal() {
        let reply = Recorded::default();
        answer_a_panic(reply.clone(), |_reply| panic!("an engine bug"));
        assert_eq!(
            reply.sent(),
            vec![(PANIC_METRIC.to_owned(), Some(Code::Internal))]
        );
    }

    #[test]
    fn a_job_that_does_not_panic_gets_only_its_own_answer() {
        let reply = Recorded::default();
        answer_a_panic(reply.clone(), |reply| {
            reply.answer("friends", &[], &[], Trailer::default())
        });
        assert_eq!(reply.sent(), vec![("friends".to_owned(), None)]);
    }

    /// HTTP and Bolt send through it: a second answer (a job that panicked after
    /// handing its reply to the writer) is neither sent nor counted in the metrics.
    #[test]
    fn a_once_sender_sends_and_counts_only_the_first_answer() {
        let (done, mut outcome) = OnceSender::new();
        let counted = std::cell::Cell::new(0);
        done.clone()
            .send("committed", || counted.set(counted.get() + 1));
        done.send("internal", || counted.set(counted.get() + 1));
        assert_eq!(outcome.try_recv().ok(), Some("committed"));
        assert_eq!(counted.get(), 1);
    }
}
