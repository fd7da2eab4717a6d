//! The HTTP transport: the REST baseline of S1, health and metrics
//! (`docs/protocol.md` 2).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::{to_bytes, Body};
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use kith_core::GraphView;
use kith_protocol::message::{cypher_from_json, encode_chunk, params_from_json};
use kith_protocol::{Encoding, ErrorCode as Code, Trailer};
use tokio::sync::oneshot;

use crate::error::ExecError;
use crate::exec::{execute, metric_name};
use crate::metrics::Transport;
use crate::state::AppState;

/// Every code has its status: a new code does not compile until it gets one.
fn status_of(code: Code) -> StatusCode {
    match code {
        Code::UnknownProcedure | Code::NotFound => StatusCode::NOT_FOUND,
        Code::FrameTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        Code::ResultTooLarge => StatusCode::UNPROCESSABLE_ENTITY,
        Code::Busy => StatusCode::SERVICE_UNAVAILABLE,
        Code::ConditionFailed | Code::DuplicateId => StatusCode::CONFLICT,
        Code::ReadOnly => StatusCode::METHOD_NOT_ALLOWED,
        Code::StorageFailure | Code::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        Code::Timeout => StatusCode::GATEWAY_TIMEOUT,
        Code::BadFrame
        | Code::BadRequest
        | Code::MissingParameter
        | Code::UnknownParameter
        | Code::WrongParameterType
        | Code::ParameterOutOfRange
        | Code::SchemaMismatch
        | Code::CypherError
        | Code::InvalidWrite => StatusCode::BAD_REQUEST,
    }
}

/// The status of an error answer: by its code, and for a Cypher error refused by the
/// graph (a write to a node that is gone) 409 like the other refused writes.
fn status(error: &ExecError) -> StatusCode {
    match &error.cypher {
        Some(c) if c.code == kith_cypher::ErrorCode::ConstraintViolation.as_str() => {
            StatusCode::CONFLICT
        }
        _ => status_of(error.code),
    }
}

fn json(status: StatusCode, body: Vec<u8>) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

fn error(state: &AppState, code: Code, message: &str) -> Response {
    fail(state, &ExecError::new(code, message))
}

/// The error answer for a failed request, with a Cypher error's detail.
fn fail(state: &AppState, error: &ExecError) -> Response {
    state.metrics.error(Transport::Http, error.code);
    json(status(error), error.body().encode(Encoding::Json))
}

/// A body of JSON rows (and the trailer of a Cypher query that wrote).
fn rows_json(columns: &[String], values: &[kith_core::Value], trailer: &Trailer) -> Vec<u8> {
    encode_chunk(
        Encoding::Json,
        Some(columns),
        values,
        columns.len(),
        trailer,
    )
}

/// `POST /v1/call/{procedure}`: one JSON request, one JSON answer, executed and
/// encoded on a worker like a WebSocket request.
pub(crate) async fn call(
    State(state): State<Arc<AppState>>,
    Path(procedure): Path<String>,
    body: Body,
) -> Response {
    let arrived = Instant::now();
    let limit = state.config.frame_bytes_max;
    let Ok(body) = to_bytes(body, limit).await else {
        let message = format!("the request body is over the {limit}-byte limit (frame_bytes_max)");
        return error(&state, Code::FrameTooLarge, &message);
    };
    state.metrics.bytes_in(body.len());
    let params = match params_from_json(&body) {
        Ok(p) => p,
        Err(e) => return error(&state, Code::BadRequest, &e.to_string()),
    };
    // An update procedure (LDBC's IU1..IU8) is a write: its operations go through
    // the write queue like POST /v1/write's.
    if state.registry.update(&procedure).is_some() {
        return match crate::exec::update_batch(&state, &procedure, &params) {
            Ok(batch) => commit(state, batch, arrived).await,
            Err(e) => fail(&state, &e),
        };
    }
    let (done, answer) = oneshot::channel::<Result<Vec<u8>, ExecError>>();
    let job_state = state.clone();
    let submitted = state.pool.submit(move || {
        let outcome = execute(&job_state, &procedure, &params)
            .map(|result| rows_json(result.columns(), result.values(), &Trailer::default()));
        job_state.metrics.observe(
            Transport::Http,
            metric_name(&job_state, &procedure),
            arrived.elapsed(),
        );
        let _ = done.send(outcome);
    });
    if submitted.is_err() {
        let message = format!(
            "the server's queue is full ({} requests waiting, queue_depth_max); retry later",
            state.config.queue_depth_max
        );
        return error(&state, Code::Busy, &message);
    }
    let timeout = Duration::from_millis(state.config.query_timeout_ms);
    match tokio::time::timeout(timeout, answer).await {
        Ok(Ok(Ok(bytes))) => {
            state.metrics.bytes_out(bytes.len());
            json(StatusCode::OK, bytes)
        }
        Ok(Ok(Err(e))) => fail(&state, &e),
        Ok(Err(_)) => error(&state, Code::Internal, "the worker dropped the request"),
        Err(_) => {
            let message = format!(
                "no answer within {} ms (query_timeout_ms)",
                timeout.as_millis()
            );
            error(&state, Code::Timeout, &message)
        }
    }
}

/// `GET /health`.
pub(crate) async fn health(State(state): State<Arc<AppState>>) -> Response {
    let snapshot = state.store.snapshot();
    let body = serde_json::json!({
        "status": "ok",
        "nodes": snapshot.node_count(),
        "relationships": snapshot.rel_count(),
        "version": snapshot.version(),
        "writable": state.writes.is_some(),
        "durability": state.config.durability,
    });
    json(StatusCode::OK, body.to_string().into_bytes())
}

/// `GET /metrics`.
pub(crate) async fn metrics(State(state): State<Arc<AppState>>) -> Response {
    let mut text = state
        .metrics
        .render(state.pool.queued(), state.config.workers);
    if let Some(writes) = &state.writes {
        text.push_str(&format!(
            "# HELP kith_write_queue_depth Transactions waiting for the writer.\n\
             # TYPE kith_write_queue_depth gauge\nkith_write_queue_depth {}\n\
             # HELP kith_graph_version The commit version being served.\n\
             # TYPE kith_graph_version gauge\nkith_graph_version {}\n",
            writes.queued(),
            state.store.snapshot().version()
        ));
    }
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text).into_response()
}

/// `POST /v1/write`: one transaction as a JSON write request (`{"write": [ops]}`),
/// answered after its group is durable. There is no query timeout here: an answer
/// `timeout` could not tell the client whether the write committed, so the request
/// waits for the writer (the bounded write queue answers `busy` instead of growing).
pub(crate) async fn write(State(state): State<Arc<AppState>>, body: Body) -> Response {
    let arrived = Instant::now();
    let limit = state.config.frame_bytes_max;
    let Ok(body) = to_bytes(body, limit).await else {
        let message = format!("the request body is over the {limit}-byte limit (frame_bytes_max)");
        return error(&state, Code::FrameTooLarge, &message);
    };
    state.metrics.bytes_in(body.len());
    let ops = match kith_protocol::Request::decode(Encoding::Json, &body) {
        Ok(kith_protocol::Request::Write { ops, .. }) => ops,
        Ok(kith_protocol::Request::Call { .. } | kith_protocol::Request::Cypher { .. }) => {
            let message = "POST /v1/write takes a write request ({\"write\": [...]}); calls go to \
                           /v1/call/{procedure}, queries to /v1/cypher";
            return error(&state, Code::BadRequest, message);
        }
        Err(e) => return error(&state, Code::BadRequest, &e.to_string()),
    };
    let batch = match kith_protocol::ops::decode(ops, state.config.write_ops_max)
        .map(|ops| kith_storage::WriteBatch { ops })
    {
        Ok(batch) => batch,
        Err(message) => return error(&state, Code::BadRequest, &message),
    };
    commit(state, batch, arrived).await
}

/// Where a worker or the writer sends an HTTP request's answer body.
type Done = oneshot::Sender<Result<Vec<u8>, ExecError>>;

/// Queues one transaction for the writer and answers once its group is durable.
async fn commit(
    state: Arc<AppState>,
    batch: kith_storage::WriteBatch,
    arrived: Instant,
) -> Response {
    let (done, answer) = oneshot::channel();
    let encode = |info: &kith_storage::CommitInfo| {
        let (columns, row) = crate::exec::commit_row(info);
        rows_json(&columns, &row, &Trailer::default())
    };
    queue_commit(
        &state,
        batch,
        arrived,
        crate::exec::WRITE_METRIC,
        encode,
        done,
    );
    respond(&state, answer).await
}

/// Queues `batch` for the writer. Once its group is durable, `encode` makes the
/// answer body from the commit (on the writer thread) and it goes to `done`; a
/// refused or failed commit sends its error.
fn queue_commit(
    state: &Arc<AppState>,
    batch: kith_storage::WriteBatch,
    arrived: Instant,
    metric: &'static str,
    encode: impl FnOnce(&kith_storage::CommitInfo) -> Vec<u8> + Send + 'static,
    done: Done,
) {
    let Some(writes) = state.writes.as_ref() else {
        let message = "this server is read-only (started without a data directory to write to)";
        let _ = done.send(Err(ExecError::new(Code::ReadOnly, message)));
        return;
    };
    let job_state = state.clone();
    let reply: crate::write_queue::Reply = Box::new(move |outcome, _| {
        let encoded = outcome.map(|info| encode(&info));
        job_state
            .metrics
            .observe(Transport::Http, metric, arrived.elapsed());
        let _ = done.send(encoded);
    });
    let job = crate::write_queue::WriteJob {
        batch,
        arrived,
        reply,
    };
    if let Err((job, error)) = writes.submit(job) {
        (job.reply)(Err(error), crate::write_queue::WriteTiming::default());
    }
}

/// Waits for an answer body (no timeout: whoever sends it bounds the wait).
async fn respond(
    state: &AppState,
    answer: oneshot::Receiver<Result<Vec<u8>, ExecError>>,
) -> Response {
    match answer.await {
        Ok(Ok(bytes)) => {
            state.metrics.bytes_out(bytes.len());
            json(StatusCode::OK, bytes)
        }
        Ok(Err(e)) => fail(state, &e),
        Err(_) => error(state, Code::Internal, "the request was dropped unanswered"),
    }
}

/// Sets its flag when dropped: an HTTP handler is dropped when its client
/// disconnects, and then the query it started is cancelled.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// `POST /v1/cypher`: `{"query": "...", "params": {...}}`, answered
/// `{"columns": [...], "rows": [...]}` (plus `"commit"` for a query that wrote, once
/// it is durable). The query runs on a worker within `query_timeout_ms`; the engine
/// enforces that limit itself, so the handler waits for its answer, and a query that
/// finished in time and writes is always answered with its commit.
pub(crate) async fn cypher(State(state): State<Arc<AppState>>, body: Body) -> Response {
    let arrived = Instant::now();
    let limit = state.config.frame_bytes_max;
    let Ok(body) = to_bytes(body, limit).await else {
        let message = format!("the request body is over the {limit}-byte limit (frame_bytes_max)");
        return error(&state, Code::FrameTooLarge, &message);
    };
    state.metrics.bytes_in(body.len());
    let (query, params) = match cypher_from_json(&body) {
        Ok(request) => request,
        Err(e) => return error(&state, Code::BadRequest, &e.to_string()),
    };
    let cancel = CancelOnDrop(Arc::default());
    let (done, answer) = oneshot::channel();
    let (job_state, job_cancel) = (state.clone(), cancel.0.clone());
    let submitted = state.pool.submit(move || {
        run_cypher(&job_state, &query, &params, arrived, job_cancel, done);
    });
    if submitted.is_err() {
        let message = format!(
            "the server's queue is full ({} requests waiting, queue_depth_max); retry later",
            state.config.queue_depth_max
        );
        return error(&state, Code::Busy, &message);
    }
    respond(&state, answer).await
}

/// A Cypher request's work on a worker: run, then answer or queue the commit.
fn run_cypher(
    state: &Arc<AppState>,
    query: &str,
    params: &[(String, kith_core::Value)],
    arrived: Instant,
    cancel: Arc<AtomicBool>,
    done: Done,
) {
    let metric = crate::cypher::CYPHER_METRIC;
    let limit = Duration::from_millis(state.config.query_timeout_ms);
    let waited = arrived.elapsed();
    let outcome = match limit.checked_sub(waited) {
        Some(budget) => crate::cypher::run(state, query, params, budget, cancel),
        None => Err(ExecError::new(
            Code::Timeout,
            format!(
                "waited {} ms for a worker, more than query_timeout_ms ({} ms); not run",
                waited.as_millis(),
                limit.as_millis()
            ),
        )),
    };
    match outcome {
        Ok(answer) => match answer.writes {
            None => {
                let body = rows_json(&answer.columns, &answer.values, &Trailer::default());
                state
                    .metrics
                    .observe(Transport::Http, metric, arrived.elapsed());
                let _ = done.send(Ok(body));
            }
            Some(batch) => {
                let encode = move |info: &kith_storage::CommitInfo| {
                    let trailer = Trailer {
                        timing: None,
                        commit: Some(crate::cypher::commit_summary(info)),
                    };
                    rows_json(&answer.columns, &answer.values, &trailer)
                };
                queue_commit(state, batch, arrived, metric, encode, done);
            }
        },
        Err(e) => {
            state
                .metrics
                .observe(Transport::Http, metric, arrived.elapsed());
            let _ = done.send(Err(e));
        }
    }
}
