//! The WebSocket transport (`docs/protocol.md` 1).
//!
//! Per connection: a reader loop decodes frames and hands requests to the worker
//! pool; a waiter task per request applies the timeout and forwards the encoded
//! answer; one writer task interleaves the answers' frames round-robin, so a long
//! result never holds back a short one, and closes the connection if the client stops
//! reading for `write_stall_timeout_ms`.

use std::collections::{HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::{FutureExt, SinkExt, StreamExt};
use kith_protocol::{ErrorCode as Code, FrameHeader, Kind, Subprotocol, Trailer, Wire};
use tokio::sync::mpsc;

use crate::admission::activity::Activity;
use crate::auth::{Credentials, Role};
use crate::dispatch::{dispatch, dispatch_after, Job, Reply};
use crate::error::ExecError;
use crate::metrics::{CloseReason, Transport};
use crate::running::Origin;
use crate::state::{AppState, ConnectionSlot};

/// Close code for a message over the size limit (RFC 6455 "message too big").
const CLOSE_TOO_BIG: u16 = 1009;
/// Close code for a client that stopped reading (policy violation).
const CLOSE_POLICY: u16 = 1008;
/// Close code when the server shuts down ("going away").
const CLOSE_GOING_AWAY: u16 = 1001;

/// What the writer task sends.
enum Outgoing {
    /// The frames of one answer, in order.
    Frames(Vec<Vec<u8>>),
    /// Close the connection after everything queued before (code, text, and why,
    /// for the metrics).
    Close(u16, String, CloseReason),
}

/// `GET /v1/ws`: negotiates the subprotocol and upgrades.
pub(crate) async fn upgrade(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    uri: axum::http::Uri,
    ws: WebSocketUpgrade,
) -> Response {
    // Credentials come with the handshake: the `Authorization` header, or (browsers
    // cannot set headers here) an `access_token` query parameter.
    let caller = match handshake_principal(&state, &headers, &uri).await {
        Ok(who) => Caller {
            role: who.role,
            origin: Origin::of("websocket", who.user.as_deref()),
        },
        Err(e) => return refuse_handshake(&state, &e),
    };
    let Some(slot) = ConnectionSlot::take(&state, Transport::Ws) else {
        let connections = &state.metrics.connections;
        connections.closed(Transport::Ws, CloseReason::ConnectionsMax);
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "busy: {} connections are open (connections_max)",
                state.config.connections_max
            ),
        )
            .into_response();
    };
    let offers: Vec<&str> = headers
        .get_all(header::SEC_WEBSOCKET_PROTOCOL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    let (subprotocol, echo) = if offers.is_empty() {
        (Subprotocol::DEFAULT, false)
    } else {
        match Subprotocol::choose(&offers.join(",")) {
            Some(p) => (p, true),
            None => {
                let supported: Vec<String> = Subprotocol::all().map(|p| p.to_string()).collect();
                // `Connection: close` so a refused client is not left waiting on a socket.
                return (
                    StatusCode::BAD_REQUEST,
                    [(header::CONNECTION, "close")],
                    format!(
                        "none of the offered subprotocols ({}) is supported; kith speaks: {}",
                        offers.join(", "),
                        supported.join(", ")
                    ),
                )
                    .into_response();
            }
        }
    };
    let limit = state.config.frame_bytes_max;
    // tungstenite zero-fills its whole read buffer before every read; the 128 KiB
    // default made that a measurable share of a small round trip.
    let mut ws = ws
        .max_message_size(limit)
        .max_frame_size(limit)
        .read_buffer_size(kith_protocol::READ_BUFFER_BYTES);
    if echo {
        if let Ok(value) = HeaderValue::from_str(&subprotocol.to_string()) {
            ws.set_selected_protocol(value);
        }
    }
    // The socket's message clock goes with it: a WebSocket message has
    // `message_read_timeout_ms` to arrive whole.
    let activity = crate::admission::http::upgrading().unwrap_or_else(Activity::new);
    let opened = Opened {
        subprotocol,
        caller,
        activity,
        _slot: slot,
    };
    ws.on_upgrade(move |socket| connection(state, socket, opened))
}

async fn handshake_principal(
    state: &Arc<AppState>,
    headers: &HeaderMap,
    uri: &axum::http::Uri,
) -> Result<crate::auth::Principal, ExecError> {
    if let (None, Some(token)) = (
        headers.get(header::AUTHORIZATION),
        Credentials::from_query(uri.query()),
    ) {
        return crate::auth::who(state, token).await;
    }
    crate::auth::of_headers(state, headers).await
}

/// A refused handshake: 401 with the error document as JSON, before any upgrade.
fn refuse_handshake(state: &AppState, error: &ExecError) -> Response {
    state.metrics.error(Transport::Ws, error.code);
    crate::admission::http::ends_for(CloseReason::AuthFailed);
    (
        StatusCode::UNAUTHORIZED,
        [
            (header::WWW_AUTHENTICATE, crate::auth::CHALLENGE),
            (header::CONTENT_TYPE, "application/json"),
            (header::CONNECTION, "close"),
        ],
        error.body().encode(kith_protocol::Encoding::Json),
    )
        .into_response()
}

/// Who a connection's requests run as, and where they come from.
struct Caller {
    role: Role,
    origin: Origin,
}

/// What an upgraded connection starts with.
struct Opened {
    subprotocol: Subprotocol,
    caller: Caller,
    activity: Arc<Activity>,
    _slot: ConnectionSlot,
}

async fn connection(state: Arc<AppState>, mut socket: WebSocket, opened: Opened) {
    let Opened {
        subprotocol,
        caller,
        activity,
        ..
    } = &opened;
    let (subprotocol, caller) = (*subprotocol, caller);
    tracing::debug!(%subprotocol, "connection opened");
    // From here the socket carries frames, which the clock follows.
    activity.follow_frames();
    let read_timeout = state.config.message_read_timeout();
    let mut reason = CloseReason::Client;
    let wire = Wire::new(subprotocol, state.config.frame_bytes_max);
    let (out, mut answers) = mpsc::unbounded_channel::<Outgoing>();
    let stall = Duration::from_millis(state.config.write_stall_timeout_ms);
    let inflight: Arc<Mutex<HashSet<u64>>> = Arc::default();
    // Set once no answer can reach the client any more: stops its Cypher queries.
    let gone = Gone::default();
    let mut shutdown = state.shutdown.clone();
    // One task owns the socket and both reads requests and writes answers: splitting
    // it between a reader and a writer task made them wake each other through the
    // split's lock on every frame. While answers are queued it writes them, taking in
    // requests that have already arrived between frames; otherwise it waits for
    // either.
    let mut queues = AnswerQueue::default();
    let room = state.config.answer_queue_bytes_max;
    let mut pacing = Pacing::new(state.config.inflight_per_connection_max);
    let mut reading = true;
    let mut closing: Option<(u16, String, CloseReason)> = None;
    loop {
        while let Ok(answer) = answers.try_recv() {
            match answer {
                Outgoing::Frames(frames) => queues.push(frames),
                Outgoing::Close(code, text, why) => closing = Some((code, text, why)),
            }
        }
        pacing.refresh(&inflight);
        // The message clock runs only while the socket is read: a client whose
        // request waits behind its own answers is not late.
        activity
            .set_reading(reading && closing.is_none() && pacing.may_read() && queues.bytes < room);
        if !queues.is_empty() {
            // Requests are taken in between frames only while the unsent answers fit
            // `answer_queue_bytes_max`: past it the client is paced by its own reading.
            while reading && closing.is_none() && queues.bytes < room && pacing.may_read() {
                match socket.next().now_or_never() {
                    Some(message) => {
                        let full = pacing.before_read(&inflight);
                        reading =
                            on_message(&state, &wire, caller, &inflight, &out, &gone, message);
                        pacing.after_read(full);
                    }
                    None => break,
                }
            }
            if let Err(why) = write_next(&mut socket, &mut queues, stall, &state).await {
                reason = why;
                break;
            }
            continue;
        }
        if let Some((code, text, why)) = closing.take() {
            let frame = CloseFrame {
                code,
                reason: text.into(),
            };
            let _ = tokio::time::timeout(stall, socket.send(Message::Close(Some(frame)))).await;
            reason = why;
            break;
        }
        if !reading
            && inflight
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .is_empty()
        {
            break; // the client is gone and nothing is left to answer
        }
        // A message that began arriving has `message_read_timeout_ms` to end.
        let partial = activity.deadline(read_timeout);
        tokio::select! {
            // A message that has arrived whole is taken before its deadline is looked at.
            biased;
            message = socket.next(), if reading && pacing.may_read() => {
                let full = pacing.before_read(&inflight);
                reading = on_message(&state, &wire, caller, &inflight, &out, &gone, message);
                pacing.after_read(full);
            }
            answer = answers.recv() => match answer {
                Some(Outgoing::Frames(frames)) => queues.push(frames),
                Some(Outgoing::Close(code, text, why)) => closing = Some((code, text, why)),
                None => break,
            },
            _ = shutdown.changed() => {
                let close = Outgoing::Close(
                    CLOSE_GOING_AWAY,
                    "server shutting down".into(),
                    CloseReason::Shutdown,
                );
                let _ = out.send(close);
                reading = false;
            }
            () = activity.began(), if reading && pacing.may_read() && partial.is_none() => {}
            () = sleep_until_or_never(partial), if reading && pacing.may_read() => {
                if activity.deadline(read_timeout).is_some_and(|at| at <= Instant::now()) {
                    let text = format!(
                        "a message did not arrive whole within {} ms (message_read_timeout_ms)",
                        read_timeout.as_millis()
                    );
                    let _ = out.send(Outgoing::Close(CLOSE_POLICY, text, CloseReason::ReadDeadline));
                    reading = false;
                }
            }
        }
    }
    tracing::debug!(reason = reason.name(), "connection closed");
    state.metrics.connections.closed(Transport::Ws, reason);
}

/// Completes at `at`, or never without one.
async fn sleep_until_or_never(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(tokio::time::Instant::from_std(at)).await,
        None => std::future::pending().await,
    }
}

/// Reading paced by the in-flight limit: a request that arrives while
/// `inflight_per_connection_max` are in flight is answered `busy`, and then no more of
/// the connection's requests are read until one of its requests finishes. A flood
/// costs the server one `busy` per finished request, not one per request sent (an
/// unpaced flood of 4 connections drew 5 million `busy` answers in 15 s and starved
/// every other client: `kith bench overload`); the rest wait in TCP.
struct Pacing {
    cap: usize,
    busy_sent: bool,
}

impl Pacing {
    fn new(cap: usize) -> Pacing {
        // With no slot, no answer would ever resume reading (the config refuses 0).
        assert!(cap > 0, "inflight_per_connection_max must be at least 1");
        Pacing {
            cap,
            busy_sent: false,
        }
    }

    fn in_flight(inflight: &Mutex<HashSet<u64>>) -> usize {
        inflight.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// Reading resumes once a request has finished since the last `busy`.
    fn refresh(&mut self, inflight: &Mutex<HashSet<u64>>) {
        if self.busy_sent && Self::in_flight(inflight) < self.cap {
            self.busy_sent = false;
        }
    }

    fn may_read(&self) -> bool {
        !self.busy_sent
    }

    /// Whether the connection is at its limit as a message is read: a request read
    /// now is answered `busy`.
    fn before_read(&self, inflight: &Mutex<HashSet<u64>>) -> bool {
        Self::in_flight(inflight) >= self.cap
    }

    fn after_read(&mut self, was_full: bool) {
        self.busy_sent |= was_full;
    }
}

/// A connection's "client gone" flag, the cancel flag of its Cypher queries. It is set
/// when the client closes or fails and, through `Drop`, whenever the connection task
/// ends (shutdown, a stalled writer, a panic).
#[derive(Default)]
struct Gone(Arc<AtomicBool>);

impl Gone {
    fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl Drop for Gone {
    fn drop(&mut self) {
        self.set();
    }
}

/// The answers waiting for the socket, one queue of frames each, and their size.
#[derive(Default)]
struct AnswerQueue {
    answers: VecDeque<VecDeque<Vec<u8>>>,
    /// Bytes of every frame queued.
    bytes: usize,
}

impl AnswerQueue {
    fn push(&mut self, frames: Vec<Vec<u8>>) {
        self.bytes += frames.iter().map(Vec::len).sum::<usize>();
        self.answers.push_back(frames.into());
    }

    fn is_empty(&self) -> bool {
        self.answers.is_empty()
    }

    /// The first answer's next frame; the answer goes to the back if it has more
    /// (answers that finish interleave rather than wait behind a long one).
    fn pop_frame(&mut self) -> Option<Vec<u8>> {
        let mut queue = self.answers.pop_front()?;
        let frame = queue.pop_front()?;
        if !queue.is_empty() {
            self.answers.push_back(queue);
        }
        assert!(self.bytes >= frame.len(), "the queue's byte count is off");
        self.bytes -= frame.len();
        Some(frame)
    }
}

/// Sends one frame from the first queued answer and rotates the queue; why not if the
/// connection is unusable (closed, or stalled past `stall`, then closed with 1008).
async fn write_next(
    socket: &mut WebSocket,
    queues: &mut AnswerQueue,
    stall: Duration,
    state: &AppState,
) -> Result<(), CloseReason> {
    let Some(frame) = queues.pop_frame() else {
        return Ok(());
    };
    state.metrics.bytes_out(frame.len());
    let flush_now = queues.is_empty();
    let sent = tokio::time::timeout(stall, async {
        socket.feed(Message::Binary(frame.into())).await?;
        if flush_now {
            socket.flush().await?;
        }
        Ok::<(), axum::Error>(())
    })
    .await;
    match sent {
        Ok(Ok(())) => Ok(()),
        Ok(Err(_)) => Err(CloseReason::Client),
        Err(_) => {
            tracing::info!("closing a connection whose client stopped reading");
            let frame = CloseFrame {
                code: CLOSE_POLICY,
                reason: "write stalled".into(),
            };
            let _ = tokio::time::timeout(
                Duration::from_millis(100),
                socket.send(Message::Close(Some(frame))),
            )
            .await;
            Err(CloseReason::WriteStall)
        }
    }
}

/// Handles one received message; false once the client will send no more (and then
/// sets `gone`).
fn on_message(
    state: &Arc<AppState>,
    wire: &Wire,
    caller: &Caller,
    inflight: &Arc<Mutex<HashSet<u64>>>,
    out: &mpsc::UnboundedSender<Outgoing>,
    gone: &Gone,
    message: Option<Result<Message, axum::Error>>,
) -> bool {
    let reading = read_message(state, wire, caller, inflight, out, &gone.0, message);
    if !reading {
        gone.set();
    }
    reading
}

/// [`on_message`] without the flag's bookkeeping.
fn read_message(
    state: &Arc<AppState>,
    wire: &Wire,
    caller: &Caller,
    inflight: &Arc<Mutex<HashSet<u64>>>,
    out: &mpsc::UnboundedSender<Outgoing>,
    gone: &Arc<AtomicBool>,
    message: Option<Result<Message, axum::Error>>,
) -> bool {
    match message {
        Some(Ok(Message::Binary(bytes))) => {
            state.metrics.bytes_in(bytes.len());
            handle_frame(state, wire, caller, &bytes, inflight, out, gone);
            true
        }
        Some(Ok(Message::Text(_))) => {
            let message = "text messages are not part of the kith protocol; send binary frames";
            send_error(state, out, wire, 0, Code::BadFrame, message);
            true
        }
        Some(Ok(Message::Ping(_) | Message::Pong(_))) => true,
        Some(Ok(Message::Close(_))) | None => false,
        Some(Err(e)) => {
            let text = e.to_string();
            if text.contains("too long") || text.contains("too big") || text.contains("Space limit")
            {
                let message = format!(
                    "a message is over the {}-byte limit (frame_bytes_max): {text}",
                    state.config.frame_bytes_max
                );
                send_error(state, out, wire, 0, Code::FrameTooLarge, &message);
                let close = Outgoing::Close(
                    CLOSE_TOO_BIG,
                    "message too big".into(),
                    CloseReason::Invalid,
                );
                let _ = out.send(close);
            } else {
                tracing::debug!(error = %text, "connection read failed");
            }
            false
        }
    }
}

fn send_error(
    state: &AppState,
    out: &mpsc::UnboundedSender<Outgoing>,
    wire: &Wire,
    request_id: u64,
    code: Code,
    message: &str,
) {
    state.metrics.error(Transport::Ws, code);
    let _ = out.send(Outgoing::Frames(
        vec![wire.error(request_id, code, message)],
    ));
}

fn handle_frame(
    state: &Arc<AppState>,
    wire: &Wire,
    caller: &Caller,
    bytes: &[u8],
    inflight: &Arc<Mutex<HashSet<u64>>>,
    out: &mpsc::UnboundedSender<Outgoing>,
    gone: &Arc<AtomicBool>,
) {
    let arrived = Instant::now();
    let request_id = FrameHeader::request_id_of(bytes);
    let (header, payload) = match wire.open(bytes) {
        Ok(opened) => opened,
        Err(e) => return send_error(state, out, wire, request_id, e.code(), &e.to_string()),
    };
    if header.kind != Kind::Request {
        return send_error(
            state,
            out,
            wire,
            request_id,
            Code::BadFrame,
            "clients send only REQUEST frames (kind 1)",
        );
    }
    let (request, min_version) = match wire.decode_request_at(&payload) {
        Ok(r) => r,
        Err(e) => return send_error(state, out, wire, request_id, e.code(), &e.to_string()),
    };
    // Writes convert before they take an in-flight slot: a malformed one is answered
    // at once and never queued. A request waiting for a version becomes a job after
    // the wait (what it names may arrive with that version).
    let waiting = min_version.filter(|v| !crate::consistency::reached(state, Some(*v)));
    let work = match waiting {
        Some(version) => Err((version, request)),
        None => match Job::of(state, request, caller.role) {
            Ok(job) => Ok(job),
            Err(ExecError { code, message, .. }) => {
                return send_error(state, out, wire, request_id, code, &message)
            }
        },
    };
    {
        let mut ids = inflight.lock().unwrap_or_else(|p| p.into_inner());
        if ids.contains(&request_id) {
            drop(ids);
            let message =
                format!("request id {request_id} is already in flight on this connection");
            return send_error(state, out, wire, request_id, Code::BadRequest, &message);
        }
        if ids.len() >= state.config.inflight_per_connection_max {
            drop(ids);
            let message = format!(
                "{} requests are in flight on this connection (inflight_per_connection_max); retry later",
                state.config.inflight_per_connection_max
            );
            return send_error(state, out, wire, request_id, Code::Busy, &message);
        }
        ids.insert(request_id);
    }
    let responder = Responder {
        state: state.clone(),
        wire: *wire,
        request_id,
        arrived,
        inflight: inflight.clone(),
        out: out.clone(),
        answered: Arc::default(),
    };
    match work {
        Ok(job) => dispatch(state, job, responder, gone.clone(), caller.origin.clone()),
        Err((version, request)) => {
            let (role, origin) = (caller.role, caller.origin.clone());
            dispatch_after(
                state,
                version,
                request,
                role,
                responder,
                gone.clone(),
                origin,
            )
        }
    }
}

/// Everything needed to answer one request from whichever thread finishes it (a
/// worker, the writer): its connection's writer, wire and in-flight set.
#[derive(Clone)]
struct Responder {
    state: Arc<AppState>,
    wire: Wire,
    request_id: u64,
    arrived: Instant,
    inflight: Arc<Mutex<HashSet<u64>>>,
    out: mpsc::UnboundedSender<Outgoing>,
    /// Set by the first answer of this request's clones (see `Responder::first`).
    answered: Arc<AtomicBool>,
}

impl Responder {
    /// Whether this is the request's first answer. A request is answered once: a
    /// second answer (a job that panicked after passing its reply on is answered
    /// `internal` too) would reach the client under an id it may have reused, and
    /// would free that id's in-flight slot.
    fn first(&self) -> bool {
        !self.answered.swap(true, Ordering::AcqRel)
    }

    /// Sends the answer, records its latency under `metric` (and its error's code, if
    /// it failed) and frees the request id; nothing if the request was answered.
    fn finish(self, metric: &str, frames: Vec<Vec<u8>>, error: Option<Code>) {
        if !self.first() {
            return;
        }
        if let Some(code) = error {
            self.state.metrics.error(Transport::Ws, code);
        }
        self.state
            .metrics
            .observe(Transport::Ws, metric, self.arrived.elapsed());
        self.inflight
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&self.request_id);
        let _ = self.out.send(Outgoing::Frames(frames));
    }
}

impl Reply for Responder {
    fn arrived(&self) -> Instant {
        self.arrived
    }

    fn in_flight(&self) -> usize {
        Pacing::in_flight(&self.inflight)
    }

    /// The rows as frames, chunked as every result is, encoded on this thread.
    fn answer(
        self,
        metric: &str,
        columns: &[String],
        values: &[kith_core::Value],
        trailer: Trailer,
    ) {
        let chunk_rows = self.state.config.chunk_rows;
        let frames = self
            .wire
            .result_with(self.request_id, columns, values, chunk_rows, trailer);
        self.finish(metric, frames, None);
    }

    fn fail(self, metric: &str, error: &ExecError) {
        let frame = self.wire.error_body(self.request_id, &error.body());
        self.finish(metric, vec![frame], Some(error.code));
    }

    fn refuse(self, error: &ExecError) {
        if !self.first() {
            return;
        }
        self.inflight
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&self.request_id);
        send_error(
            &self.state,
            &self.out,
            &self.wire,
            self.request_id,
            error.code,
            &error.message,
        );
    }
}
