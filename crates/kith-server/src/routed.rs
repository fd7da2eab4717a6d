//! A router's jobs (`kith route`, docs/sharding.md): LDBC reads and Cypher across
//! the shards, each on a task of its own (it waits on the network, not on a worker).

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kith_core::Value;
use kith_cypher::GraphValue;
use kith_protocol::{CypherErrorDetail, ErrorCode as Code, Timing, Trailer};
use kith_router::RouteError;
use kith_storage::Tx;

use crate::dispatch::{GraphAnswer, Reply};
use crate::error::ExecError;
use crate::exec::metric_name;
use crate::state::AppState;

/// The metric a router's Cypher queries are counted under.
const CYPHER_METRIC: &str = "cypher";

/// What stops a routed request: its client leaving, or `TERMINATE TRANSACTION`.
pub(crate) struct Stop {
    pub(crate) cancel: Arc<AtomicBool>,
    pub(crate) terminate: Option<Arc<AtomicBool>>,
}

impl Stop {
    /// Why to stop now, if at all.
    fn reason(&self) -> Option<&'static str> {
        if self.cancel.load(Ordering::Relaxed) {
            return Some("the client is gone");
        }
        let terminated = self
            .terminate
            .as_ref()
            .is_some_and(|t| t.load(Ordering::Relaxed));
        terminated.then_some("terminated (TERMINATE TRANSACTION)")
    }
}

/// Runs an LDBC read across the shards; the answer goes to `reply` from its task.
pub(crate) fn read<R: Reply>(
    state: &Arc<AppState>,
    reply: R,
    procedure: String,
    params: Vec<(String, Value)>,
    timing: bool,
    stop: Stop,
) {
    let Some(shards) = state.shards.clone() else {
        return reply.refuse(&ExecError::new(Code::Internal, "routed without shards"));
    };
    let state = state.clone();
    tokio::spawn(async move {
        let metric = if kith_router::Router::routes(&procedure) {
            metric_name(&state, &procedure)
        } else {
            "<unknown>"
        };
        let (begun, work) = (Instant::now(), shards.run(&procedure, &params));
        let ran = within_limit(&state, &procedure, work, stop).await;
        let slow = crate::slow::Ran::Routed(&procedure);
        crate::slow::note(&state, slow, &params, begun.elapsed(), Duration::ZERO);
        let (started, result) = match ran {
            Ok(done) => done,
            Err(e) => return reply.fail(metric, &e),
        };
        let trailer = trailer(timing, started, reply.arrived());
        reply.answer(metric, result.columns(), result.values(), trailer);
    });
}

/// Runs a Cypher query across the shards (`Router::cypher`); a Bolt transaction's
/// (empty, never written) transaction is handed back with the answer.
pub(crate) fn cypher<R: Reply>(
    state: &Arc<AppState>,
    reply: R,
    query: String,
    params: Vec<(String, Value)>,
    timing: bool,
    within: Option<Box<Tx>>,
    stop: Stop,
) {
    let Some(shards) = state.shards.clone() else {
        return reply.refuse(&ExecError::new(Code::Internal, "routed without shards"));
    };
    let state = state.clone();
    tokio::spawn(async move {
        let (begun, work) = (Instant::now(), shards.cypher(&query, &params));
        let ran = within_limit(&state, "the query", work, stop).await;
        let slow = crate::slow::Ran::Cypher(&query);
        crate::slow::note(&state, slow, &params, begun.elapsed(), Duration::ZERO);
        let (started, answer) = match ran {
            Ok(done) => done,
            Err(e) => return reply.fail(CYPHER_METRIC, &e),
        };
        let trailer = trailer(timing, started, reply.arrived());
        if R::GRAPH {
            let rows = (answer.rows.into_iter())
                .map(|r| r.into_iter().map(GraphValue::Plain).collect())
                .collect();
            let graph = GraphAnswer {
                columns: answer.columns,
                rows,
                tx: within,
                counts: None,
            };
            return reply.answer_graph(CYPHER_METRIC, graph, trailer);
        }
        let values: Vec<Value> = answer.rows.into_iter().flatten().collect();
        reply.answer(CYPHER_METRIC, &answer.columns, &values, trailer);
    });
}

/// Awaits `work` within the server's query time limit, or until `cancel` is set
/// (the client is gone): when it started, and its answer, or the error to send.
/// Dropping `work` stops it (the router's engine sees its cancel flag).
async fn within_limit<T>(
    state: &AppState,
    what: &str,
    work: impl Future<Output = Result<T, RouteError>>,
    stop: Stop,
) -> Result<(Instant, T), ExecError> {
    let started = Instant::now();
    let limit = Duration::from_millis(state.config.query_timeout_ms);
    let gone = async move {
        loop {
            if let Some(why) = stop.reason() {
                return why;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    tokio::select! {
        outcome = tokio::time::timeout(limit, work) => match outcome {
            Ok(Ok(done)) => Ok((started, done)),
            Ok(Err(e)) => Err(exec_error(e)),
            Err(_) => Err(ExecError::new(
                Code::Timeout,
                format!(
                    "{what} ran past query_timeout_ms ({} ms) across the shards; stopped",
                    limit.as_millis()
                ),
            )),
        },
        why = gone => Err(ExecError::new(Code::Timeout, format!("{what}: {why}; stopped"))),
    }
}

fn trailer(timing: bool, started: Instant, arrived: Instant) -> Trailer {
    let timing = timing.then(|| Timing {
        queue_us: started.duration_since(arrived).as_micros() as u64,
        exec_us: started.elapsed().as_micros() as u64,
        encode_us: 0,
    });
    Trailer::with_timing(timing)
}

fn exec_error(e: RouteError) -> ExecError {
    let cypher = e.cypher.map(|d| {
        Box::new(CypherErrorDetail {
            code: d.code,
            line: d.position.map(|p| p.0),
            column: d.position.map(|p| p.1),
            gql_status: None,
        })
    });
    ExecError {
        cypher,
        ..ExecError::new(e.code, e.message)
    }
}
