//! The HTTP transport: the REST baseline of S1, health and metrics
//! (`docs/protocol.md` 2).

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::{to_bytes, Body};
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use kith_core::GraphView;
use kith_protocol::message::{encode_chunk, params_from_json};
use kith_protocol::{Encoding, ErrorBody};
use tokio::sync::oneshot;

use crate::exec::{execute, metric_name, ExecError};
use crate::metrics::Transport;
use crate::router::AppState;

fn status_of(code: &str) -> StatusCode {
    match code {
        "unknown_procedure" | "not_found" => StatusCode::NOT_FOUND,
        "frame_too_large" => StatusCode::PAYLOAD_TOO_LARGE,
        "result_too_large" => StatusCode::UNPROCESSABLE_ENTITY,
        "busy" => StatusCode::SERVICE_UNAVAILABLE,
        "condition_failed" | "duplicate_id" => StatusCode::CONFLICT,
        "read_only" => StatusCode::METHOD_NOT_ALLOWED,
        "storage_failure" => StatusCode::INTERNAL_SERVER_ERROR,
        "timeout" => StatusCode::GATEWAY_TIMEOUT,
        "internal" => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::BAD_REQUEST,
    }
}

fn json(status: StatusCode, body: Vec<u8>) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

fn error(state: &AppState, code: &'static str, message: &str) -> Response {
    state.metrics.error(Transport::Http, code);
    let body = ErrorBody {
        code: code.into(),
        message: message.into(),
    }
    .encode(Encoding::Json);
    json(status_of(code), body)
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
        return error(&state, "frame_too_large", &message);
    };
    state.metrics.bytes_in(body.len());
    let params = match params_from_json(&body) {
        Ok(p) => p,
        Err(e) => return error(&state, "bad_request", &e.to_string()),
    };
    // An update procedure (LDBC's IU1..IU8) is a write: its operations go through
    // the write queue like POST /v1/write's.
    if state.registry.update(&procedure).is_some() {
        return match crate::exec::update_batch(&state, &procedure, &params) {
            Ok(batch) => commit(state, batch, arrived).await,
            Err(ExecError { code, message }) => error(&state, code, &message),
        };
    }
    let (done, answer) = oneshot::channel::<Result<Vec<u8>, ExecError>>();
    let job_state = state.clone();
    let submitted = state.pool.submit(move || {
        let outcome = execute(&job_state, &procedure, &params).map(|result| {
            let width = result.columns().len();
            encode_chunk(
                Encoding::Json,
                Some(result.columns()),
                result.values(),
                width,
                None,
            )
        });
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
        return error(&state, "busy", &message);
    }
    let timeout = Duration::from_millis(state.config.query_timeout_ms);
    match tokio::time::timeout(timeout, answer).await {
        Ok(Ok(Ok(bytes))) => {
            state.metrics.bytes_out(bytes.len());
            json(StatusCode::OK, bytes)
        }
        Ok(Ok(Err(ExecError { code, message }))) => error(&state, code, &message),
        Ok(Err(_)) => error(&state, "internal", "the worker dropped the request"),
        Err(_) => {
            let message = format!(
                "no answer within {} ms (query_timeout_ms)",
                timeout.as_millis()
            );
            error(&state, "timeout", &message)
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
        return error(&state, "frame_too_large", &message);
    };
    state.metrics.bytes_in(body.len());
    let ops = match kith_protocol::Request::decode(Encoding::Json, &body) {
        Ok(kith_protocol::Request::Write { ops, .. }) => ops,
        Ok(kith_protocol::Request::Call { .. }) => {
            let message = "POST /v1/write takes a write request ({\"write\": [...]}); calls go to /v1/call/{procedure}";
            return error(&state, "bad_request", message);
        }
        Err(e) => return error(&state, "bad_request", &e.to_string()),
    };
    let batch = match crate::write_ops::to_batch(ops, state.config.write_ops_max) {
        Ok(batch) => batch,
        Err(message) => return error(&state, "bad_request", &message),
    };
    commit(state, batch, arrived).await
}

/// Queues one transaction for the writer and answers once its group is durable.
async fn commit(
    state: Arc<AppState>,
    batch: kith_storage::WriteBatch,
    arrived: Instant,
) -> Response {
    let Some(writes) = state.writes.as_ref() else {
        let message = "this server is read-only (started without a data directory to write to)";
        return error(&state, "read_only", message);
    };
    let (done, answer) = oneshot::channel::<Result<Vec<u8>, ExecError>>();
    let job_state = state.clone();
    let reply: crate::write_queue::Reply = Box::new(move |outcome, _| {
        let encoded = outcome.map(|info| {
            let (columns, row) = crate::exec::commit_row(&info);
            encode_chunk(Encoding::Json, Some(&columns), &row, columns.len(), None)
        });
        job_state.metrics.observe(
            Transport::Http,
            crate::exec::WRITE_METRIC,
            arrived.elapsed(),
        );
        let _ = done.send(encoded);
    });
    let job = crate::write_queue::WriteJob {
        batch,
        arrived,
        reply,
    };
    if let Err((_, ExecError { code, message })) = writes.submit(job) {
        return error(&state, code, &message);
    }
    match answer.await {
        Ok(Ok(bytes)) => {
            state.metrics.bytes_out(bytes.len());
            json(StatusCode::OK, bytes)
        }
        Ok(Err(ExecError { code, message })) => error(&state, code, &message),
        Err(_) => error(&state, "internal", "the writer dropped the request"),
    }
}
