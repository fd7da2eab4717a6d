//! The HTTP transport: the REST baseline of S1, health and metrics
//! (`docs/protocol.md` 2).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use axum::body::{to_bytes, Body};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use kith_core::GraphView;
use kith_protocol::message::{cypher_from_json, encode_chunk, params_from_json};
use kith_protocol::{Encoding, ErrorCode as Code, Request, Trailer};

use crate::auth;
use crate::dispatch::{dispatch, Job, OnceSender, Reply};
use crate::error::ExecError;
use crate::metrics::Transport;
use crate::state::AppState;

/// Every code has its status: a new code does not compile until it gets one.
fn status_of(code: Code) -> StatusCode {
    match code {
        Code::UnknownProcedure | Code::NotFound => StatusCode::NOT_FOUND,
        Code::FrameTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        Code::ResultTooLarge => StatusCode::UNPROCESSABLE_ENTITY,
        Code::Busy | Code::ShardUnavailable => StatusCode::SERVICE_UNAVAILABLE,
        Code::ConditionFailed | Code::DuplicateId | Code::Conflict | Code::Deadlock => {
            StatusCode::CONFLICT
        }
        Code::ReadOnly => StatusCode::METHOD_NOT_ALLOWED,
        Code::Unauthorized => StatusCode::UNAUTHORIZED,
        Code::Forbidden => StatusCode::FORBIDDEN,
        // Not 503: a generic client retries that, and the write may be committed.
        Code::StorageFailure | Code::Internal | Code::ReplicationFailed => {
            StatusCode::INTERNAL_SERVER_ERROR
        }
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

/// The error answer for a failed request, with a Cypher error's detail. A 401 says
/// how to authenticate (RFC 9110 11.6.1).
pub(crate) fn fail(state: &AppState, error: &ExecError) -> Response {
    state.metrics.error(Transport::Http, error.code);
    let mut response = json(status(error), error.body().encode(Encoding::Json));
    if error.code == Code::Unauthorized {
        response.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            header::HeaderValue::from_static(auth::CHALLENGE),
        );
    }
    response
}

/// 408 and the end of the connection: the body did not arrive within
/// `message_read_timeout_ms` (a client trickling it must not hold the connection).
fn body_too_slow(state: &AppState, read_timeout: std::time::Duration) -> Response {
    let message = format!(
        "the request body did not arrive whole within {} ms (message_read_timeout_ms)",
        read_timeout.as_millis()
    );
    crate::admission::http::ends_for(crate::metrics::CloseReason::ReadDeadline);
    let mut response = error(state, Code::Timeout, &message);
    *response.status_mut() = StatusCode::REQUEST_TIMEOUT;
    response.headers_mut().insert(
        header::CONNECTION,
        header::HeaderValue::from_static("close"),
    );
    response
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
    headers: HeaderMap,
    body: Body,
) -> Response {
    serve(state, &headers, body, |body| {
        let params = params_from_json(body).map_err(bad_request)?;
        // An update procedure (LDBC's IU1..IU8) becomes a write in `Job::of`.
        Ok(Request::Call {
            procedure,
            params,
            timing: false,
        })
    })
    .await
}

/// One HTTP request through the one request path: its sender authenticated, its
/// body read within `frame_bytes_max`, made a request by `decode`, run with the
/// sender's role, and answered as JSON.
async fn serve(
    state: Arc<AppState>,
    headers: &HeaderMap,
    body: Body,
    decode: impl FnOnce(&[u8]) -> Result<Request, ExecError>,
) -> Response {
    let arrived = Instant::now();
    let who = match auth::of_headers(&state, headers).await {
        Ok(who) => who,
        Err(e) => return fail(&state, &e),
    };
    let limit = state.config.frame_bytes_max;
    let read_timeout = state.config.message_read_timeout();
    let body = match tokio::time::timeout(read_timeout, to_bytes(body, limit)).await {
        Ok(Ok(body)) => body,
        Ok(Err(_)) => {
            let message =
                format!("the request body is over the {limit}-byte limit (frame_bytes_max)");
            return error(&state, Code::FrameTooLarge, &message);
        }
        Err(_) => return body_too_slow(&state, read_timeout),
    };
    state.metrics.bytes_in(body.len());
    let request = min_version(headers)
        .and_then(|version| Ok((version, decode(&body)?)))
        .and_then(|(version, request)| {
            let in_tx = matches!(
                &request,
                Request::Cypher { tx: Some(_), .. }
                    | Request::Commit { .. }
                    | Request::Rollback { .. }
            );
            if version.is_some() && in_tx {
                return Err(bad_request(
                    "Kith-Min-Version goes with a read or a transaction's begin, not with a \
                     statement, commit or rollback of an open transaction (it reads the version \
                     its begin took)",
                ));
            }
            Ok((version, request))
        });
    let (version, request) = match request {
        Ok(ready) => ready,
        Err(e) => return fail(&state, &e),
    };
    // The wait comes first: what the request names may arrive with the version.
    if let Some(version) = version {
        let gone = CancelOnDrop(Arc::default());
        if let Err(e) = crate::consistency::reach(&state, version, Some(&gone.0)).await {
            return fail(&state, &e);
        }
    }
    let origin = crate::running::Origin::of("http", who.user.as_deref());
    match Job::of(&state, request, who.role) {
        Ok(job) => run(state, job, arrived, origin).await,
        Err(e) => fail(&state, &e),
    }
}

/// The header naming the version a request must see (read-your-writes).
pub(crate) const MIN_VERSION_HEADER: &str = "kith-min-version";

/// The request's `Kith-Min-Version`, if it has one.
fn min_version(headers: &HeaderMap) -> Result<Option<u64>, ExecError> {
    let Some(value) = headers.get(MIN_VERSION_HEADER) else {
        return Ok(None);
    };
    value
        .to_str()
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(Some)
        .ok_or_else(|| {
            bad_request(format!(
                "the {MIN_VERSION_HEADER} header must be a version (an integer from 0), got {value:?}"
            ))
        })
}

fn bad_request(e: impl std::fmt::Display) -> ExecError {
    ExecError::new(Code::BadRequest, e.to_string())
}

/// `GET /health`.
pub(crate) async fn health(State(state): State<Arc<AppState>>) -> Response {
    let snapshot = state.store.snapshot();
    let mut body = serde_json::json!({
        "status": "ok",
        "nodes": snapshot.node_count(),
        "relationships": snapshot.rel_count(),
        "version": snapshot.version(),
        "writable": state.takes_writes(),
        "durability": state.config.durability,
    });
    if let Some(why) = state.writes.as_ref().and_then(|w| w.failure()) {
        body["status"] = "degraded".into();
        body["writer_failure"] = why.into();
    }
    if let Some(p) = state.writes.as_ref().and_then(|w| w.publishing()) {
        body["replication"] = serde_json::json!({
            "role": "primary",
            "publish": state.config.publish,
            "mode": if p.sync { "sync" } else { "async" },
            "acknowledged_version": p.publisher.acknowledged(),
            "backlog_bytes": p.publisher.backlog_bytes(),
        });
    }
    if let Some(source) = &state.ingest {
        use std::sync::atomic::Ordering::Relaxed;
        let status = &source.status;
        body["ingest"] = serde_json::json!({
            "topic": source.url.to_string(),
            "partition": source.partition(),
            "shard": source.shard.map(|s| s.name()),
            "next_offset": status.next_offset.load(Relaxed),
            "applied": status.applied.load(Relaxed),
            "failed": status.failed.load(Relaxed),
            "last_error": status.last_error(),
        });
    }
    if let Some(replica) = &state.replica {
        let (following, failure) = match replica.state() {
            kith_replication::FollowState::Following => ("following", None),
            kith_replication::FollowState::Bootstrapping => ("bootstrapping", None),
            kith_replication::FollowState::Failed(why) => ("failed", Some(why)),
        };
        body["replication"] = serde_json::json!({
            "role": "replica",
            "replica_of": replica.url().to_string(),
            "primary": replica.primary(),
            "state": following,
            "failure": failure,
            "applied_version": snapshot.version(),
            "offset": replica.offset(),
            "messages_behind": replica.messages_behind(),
        });
    }
    json(StatusCode::OK, body.to_string().into_bytes())
}

/// `GET /metrics`.
pub(crate) async fn metrics(State(state): State<Arc<AppState>>, headers: HeaderMap) -> Response {
    if let Err(e) = auth::of_headers(&state, &headers).await {
        return fail(&state, &e);
    }
    let mut text = state
        .metrics
        .render(state.pool.queued(), state.config.workers);
    text.push_str(&format!(
        "# HELP kith_transactions_open Explicit WebSocket and HTTP transactions open.\n\
         # TYPE kith_transactions_open gauge\nkith_transactions_open {}\n\
         # HELP kith_lock_waits Statements of explicit transactions waiting for another's locks.\n\
         # TYPE kith_lock_waits gauge\nkith_lock_waits {}\n",
        state.transactions.len(),
        state.locks.waiting()
    ));
    if let Some(writes) = &state.writes {
        text.push_str(&format!(
            "# HELP kith_write_queue_depth Transactions waiting for the writer.\n\
             # TYPE kith_write_queue_depth gauge\nkith_write_queue_depth {}\n\
             # HELP kith_graph_version The commit version being served.\n\
             # TYPE kith_graph_version gauge\nkith_graph_version {}\n\
             # HELP kith_writer_failed 1 once a server bug stopped writing until a restart.\n\
             # TYPE kith_writer_failed gauge\nkith_writer_failed {}\n",
            writes.queued(),
            state.store.snapshot().version(),
            u8::from(writes.failure().is_some())
        ));
        writes.times().render(&mut text);
        if let Some(p) = writes.publishing() {
            text.push_str(&format!(
                "# HELP kith_replication_acknowledged_version The last version Kafka acknowledged.\n\
                 # TYPE kith_replication_acknowledged_version gauge\nkith_replication_acknowledged_version {}\n\
                 # HELP kith_replication_backlog_bytes Log record bytes waiting for Kafka.\n\
                 # TYPE kith_replication_backlog_bytes gauge\nkith_replication_backlog_bytes {}\n",
                p.publisher.acknowledged(),
                p.publisher.backlog_bytes()
            ));
        }
    }
    if let Some(behind) = state.replica.as_ref().and_then(|r| r.messages_behind()) {
        text.push_str(&format!(
            "# HELP kith_replica_messages_behind Messages of the primary's log this replica has not applied.\n\
             # TYPE kith_replica_messages_behind gauge\nkith_replica_messages_behind {behind}\n"
        ));
    }
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text).into_response()
}

/// `POST /v1/write`: one transaction as a JSON write request (`{"write": [ops]}`),
/// answered after its group is durable. There is no query timeout here: an answer
/// `timeout` could not tell the client whether the write committed, so the request
/// waits for the writer (the bounded write queue answers `busy` instead of growing).
pub(crate) async fn write(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    serve(state, &headers, body, |body| {
        let (request, min_version) =
            Request::decode_at(Encoding::Json, body).map_err(bad_request)?;
        if min_version.is_some() {
            return Err(bad_request(
                "over HTTP a request's minimum version goes in the Kith-Min-Version header, \
                 not the body",
            ));
        }
        match request {
            Request::Write { ops, .. } => Ok(Request::Write { ops, timing: false }),
            Request::Call { .. }
            | Request::Cypher { .. }
            | Request::Begin { .. }
            | Request::Commit { .. }
            | Request::Rollback { .. } => Err(bad_request(
                "POST /v1/write takes a write request ({\"write\": [...]}); calls go to \
                 /v1/call/{procedure}, queries to /v1/cypher",
            )),
        }
    })
    .await
}

/// An HTTP request's [`Reply`]: the answer is encoded as JSON on the thread that
/// finishes the request and handed to the waiting handler.
#[derive(Clone)]
struct HttpReply {
    state: Arc<AppState>,
    arrived: Instant,
    /// Taken by the one outcome (clones exist only to refuse a request the worker
    /// queue would not take).
    done: OnceSender<Result<Vec<u8>, ExecError>>,
}

impl HttpReply {
    /// Sends the outcome, counted in `metric`'s latency (`None`: not counted), if it
    /// is the request's first.
    fn send(&self, outcome: Result<Vec<u8>, ExecError>, metric: Option<&str>) {
        self.done.send(outcome, || {
            if let Some(metric) = metric {
                let elapsed = self.arrived.elapsed();
                self.state.metrics.observe(Transport::Http, metric, elapsed);
            }
        });
    }
}

impl Reply for HttpReply {
    /// One request at a time per connection.
    fn in_flight(&self) -> usize {
        1
    }

    fn arrived(&self) -> Instant {
        self.arrived
    }

    fn answer(
        self,
        metric: &str,
        columns: &[String],
        values: &[kith_core::Value],
        trailer: Trailer,
    ) {
        let body = rows_json(columns, values, &trailer);
        self.send(Ok(body), Some(metric));
    }

    fn fail(self, metric: &str, error: &ExecError) {
        self.send(Err(error.clone()), Some(metric));
    }

    fn refuse(self, error: &ExecError) {
        self.send(Err(error.clone()), None);
    }
}

/// Runs `job` through the one request path and waits for its answer. There is no
/// wait limit here: the worker answers `timeout` for a request that waited too long,
/// and a write waits for the writer, since an answer `timeout` could not tell the
/// client whether it committed (the bounded queues answer `busy` instead of growing).
/// A client that disconnects drops this future, which cancels its Cypher query.
async fn run(
    state: Arc<AppState>,
    job: Job,
    arrived: Instant,
    origin: crate::running::Origin,
) -> Response {
    let cancel = CancelOnDrop(Arc::default());
    let (done, answer) = OnceSender::new();
    let reply = HttpReply {
        state: state.clone(),
        arrived,
        done,
    };
    dispatch(&state, job, reply, cancel.0.clone(), origin);
    let response = match answer.await {
        Ok(Ok(bytes)) => {
            state.metrics.bytes_out(bytes.len());
            json(StatusCode::OK, bytes)
        }
        Ok(Err(e)) => fail(&state, &e),
        Err(_) => error(&state, Code::Internal, "the request was dropped unanswered"),
    };
    drop(cancel);
    response
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
pub(crate) async fn cypher(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    serve(state, &headers, body, |body| cypher_body(body, None)).await
}

/// The Cypher request of a `/v1/cypher` body (`{"query": ..., "params": ...}`), as
/// a statement of transaction `tx` if given.
fn cypher_body(body: &[u8], tx: Option<String>) -> Result<Request, ExecError> {
    let (query, params) = cypher_from_json(body).map_err(bad_request)?;
    Ok(Request::Cypher {
        query,
        params,
        timing: false,
        tx,
    })
}

/// `POST /v1/tx`: opens a transaction, `{"timeout_ms": n}` optional; answered
/// `{"columns": ["tx"], "rows": [["<id>"]]}`.
pub(crate) async fn begin(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    serve(state, &headers, body, |body| {
        if body.iter().all(u8::is_ascii_whitespace) {
            return Ok(Request::Begin { timeout_ms: None });
        }
        let doc = format!(r#"{{"begin": {}}}"#, String::from_utf8_lossy(body));
        Request::decode(Encoding::Json, doc.as_bytes()).map_err(bad_request)
    })
    .await
}

/// `POST /v1/tx/{id}/cypher`: a statement of the transaction, the body as for
/// `/v1/cypher`; what it writes waits for the commit.
pub(crate) async fn cypher_in(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    serve(state, &headers, body, |body| cypher_body(body, Some(id))).await
}

/// `POST /v1/tx/{id}/commit`: answered `{"columns": [], "rows": [], "commit": {...}}`
/// once durable, or `conflict` (409) if it collides with a later commit.
pub(crate) async fn commit(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    serve(state, &headers, body, |_| Ok(Request::Commit { tx: id })).await
}

/// `POST /v1/tx/{id}/rollback`.
pub(crate) async fn rollback(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    serve(state, &headers, body, |_| Ok(Request::Rollback { tx: id })).await
}

/// `POST /v1/auth/token`: a bearer token for the user of the request's Basic
/// credentials, `{"token": "...", "expires_in_s": 3600, "user": ..., "role": ...}`.
pub(crate) async fn token(State(state): State<Arc<AppState>>, headers: HeaderMap) -> Response {
    let issued = match auth::of_headers(&state, &headers).await {
        Ok(who) => state.auth.issue_token(&who).map(|t| (who, t)),
        Err(e) => Err(e),
    };
    match issued {
        Ok((who, (token, lifetime))) => {
            let body = serde_json::json!({
                "token": token,
                "expires_in_s": lifetime.as_secs(),
                "user": who.user,
                "role": who.role.as_str(),
            });
            json(StatusCode::OK, body.to_string().into_bytes())
        }
        Err(e) => fail(&state, &e),
    }
}
