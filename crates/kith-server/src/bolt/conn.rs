//! One Bolt connection's bytes: the handshake, then messages read chunk by chunk and
//! answered in order. Answers collect in a buffer that is written when no more
//! requests are waiting (a driver pipelines RUN and PULL in one packet, and gets their
//! answers in one), or when a long result fills it (the socket's pace is the
//! result's pace).

use std::sync::Arc;
use std::time::Duration;

use kith_protocol::bolt::chunk::{self, Chunk, Dechunker};
use kith_protocol::bolt::handshake::{self, Answer, Version};
use kith_protocol::bolt::message::{self, tag};
use kith_protocol::bolt::packstream::unpack;
use kith_protocol::bolt::{Pack, Packer, Request};
use tokio::io::{AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::time::Instant;

use super::session::{Flow, Session};
use crate::admission::Pending;
use crate::metrics::{CloseReason, Transport};
use crate::state::AppState;
use crate::tls::{Reader, Tls, Writer};

/// Answer bytes buffered before they are written mid-result.
const FLUSH_BYTES: usize = 64 * 1024;

/// Where a connection's answers go.
pub(crate) struct Out {
    buf: Vec<u8>,
    writer: Writer,
    stall: Duration,
    state: Arc<AppState>,
}

impl Out {
    /// Writes one message: a structure `tag` whose fields `fields` packs.
    pub(crate) fn message(
        &mut self,
        tag: u8,
        field_count: usize,
        fields: impl FnOnce(&mut Packer),
    ) {
        let start = chunk::begin_message(&mut self.buf);
        let mut packer = Packer::new(&mut self.buf);
        packer.struct_header(tag, field_count);
        fields(&mut packer);
        chunk::end_message(&mut self.buf, start);
    }

    /// SUCCESS with `metadata` (a map).
    pub(crate) fn success(&mut self, metadata: Pack) {
        self.message(tag::SUCCESS, 1, |p| p.pack(&metadata));
    }

    /// FAILURE with `metadata`.
    pub(crate) fn failure(&mut self, metadata: Pack) {
        self.message(tag::FAILURE, 1, |p| p.pack(&metadata));
    }

    /// IGNORED.
    pub(crate) fn ignored(&mut self) {
        self.message(tag::IGNORED, 0, |_| {});
    }

    /// Writes what is buffered if it has grown past [`FLUSH_BYTES`].
    pub(crate) async fn flush_if_full(&mut self) -> std::io::Result<()> {
        if self.buf.len() >= FLUSH_BYTES {
            self.flush().await?;
        }
        Ok(())
    }

    /// Ends the sending side (TLS: with its close_notify), so the client reads the
    /// end of what it was sent at once; bounded like a flush.
    pub(crate) async fn shutdown(&mut self) {
        let _ = tokio::time::timeout(self.stall, self.writer.shutdown()).await;
    }

    /// Writes what is buffered; a client that takes none of it for
    /// `write_stall_timeout_ms` is disconnected.
    pub(crate) async fn flush(&mut self) -> std::io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        // TLS may keep what it accepted until flushed: write and flush are one step.
        let writing = async {
            self.writer.write_all(&self.buf).await?;
            self.writer.flush().await
        };
        let written = tokio::time::timeout(self.stall, writing).await;
        match written {
            Ok(Ok(())) => {
                self.state.metrics.bytes_out(self.buf.len());
                self.buf.clear();
                Ok(())
            }
            Ok(Err(e)) => Err(e),
            Err(_) => Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the client read nothing for write_stall_timeout_ms",
            )),
        }
    }
}

/// Writes `bytes` at once (the handshake's answers, outside the message buffer).
async fn send_now(writer: &mut Writer, bytes: &[u8]) -> std::io::Result<()> {
    writer.write_all(bytes).await?;
    writer.flush().await
}

/// Before a connection authenticated, the largest message it may send: HELLO and
/// LOGON are maps of a few hundred bytes, and a client nobody knows yet must not make
/// the server buffer `frame_bytes_max` for it.
const UNAUTHENTICATED_MESSAGE_BYTES_MAX: usize = 16 * 1024;

/// Serves one accepted connection until it closes, fails or the server shuts down;
/// counts why it ended.
pub(crate) async fn connection(
    state: Arc<AppState>,
    stream: TcpStream,
    tls: Option<Tls>,
    pending: Pending,
    id: u64,
) {
    let reason = run(&state, stream, tls, pending, id).await;
    tracing::debug!(id, reason = reason.name(), "bolt connection ended");
    state.metrics.connections.closed(Transport::Bolt, reason);
}

async fn run(
    state: &Arc<AppState>,
    stream: TcpStream,
    tls: Option<Tls>,
    pending: Pending,
    id: u64,
) -> CloseReason {
    let _ = stream.set_nodelay(true);
    let local = stream.local_addr().ok();
    let peer = stream.peer_addr().ok().map(|a| a.to_string());
    // TLS's handshake and Bolt's run inside the connection's auth deadline.
    let deadline = Instant::from_std(pending.deadline());
    let opening = tokio::time::timeout_at(deadline, open(state, stream, tls.as_ref(), id));
    let opened = tokio::select! {
        opened = opening => opened,
        () = pending.evicted() => return CloseReason::Evicted,
    };
    let (mut reader, mut out, version) = match opened {
        Ok(Some(opened)) => opened,
        // No common version, not Bolt, not TLS, or gone: nothing to serve.
        Ok(None) => return CloseReason::Handshake,
        Err(_) => return CloseReason::AuthDeadline,
    };
    tracing::debug!(id, %version, "bolt connection negotiated");
    let address = local.map_or_else(|| state.config.listen.to_string(), |a| a.to_string());
    let mut session = Session::new(state.clone(), version, id, address);
    session.set_peer(peer);
    let mut connection = Connection {
        reader: &mut reader,
        out: &mut out,
        session: &mut session,
        pending: Some(pending),
        dechunker: Dechunker::named(
            UNAUTHENTICATED_MESSAGE_BYTES_MAX.min(state.config.frame_bytes_max),
            "before authentication",
        ),
    };
    let reason = connection.serve(state).await;
    session.close();
    // Under TLS this also sends close_notify, so the client sees a clean end.
    let _ = tokio::time::timeout(out.stall, out.writer.shutdown()).await;
    reason
}
/// TLS when configured, then Bolt's handshake: the connection's halves and version,
/// or `None` when either fails.
async fn open(
    state: &Arc<AppState>,
    stream: TcpStream,
    tls: Option<&Tls>,
    id: u64,
) -> Option<(BufReader<Reader>, Out, Version)> {
    let (reader, writer) = match crate::tls::open(stream, tls).await {
        Ok(halves) => halves,
        Err(e) => {
            tracing::debug!(id, error = %e, "bolt TLS handshake failed");
            return None;
        }
    };
    let mut reader = BufReader::with_capacity(kith_protocol::READ_BUFFER_BYTES, reader);
    let mut out = Out {
        buf: Vec::new(),
        writer,
        stall: Duration::from_millis(state.config.write_stall_timeout_ms),
        state: state.clone(),
    };
    match handshake(&mut reader, &mut out).await {
        Ok(Some(version)) => Some((reader, out, version)),
        _ => None,
    }
}

/// Reads the preamble and the offers and answers them; `None` when the client speaks
/// no version kith does (or is not a Bolt client at all).
async fn handshake(
    reader: &mut BufReader<Reader>,
    out: &mut Out,
) -> std::io::Result<Option<Version>> {
    let mut preamble = [0u8; 20];
    reader.read_exact(&mut preamble).await?;
    if preamble[..4] != handshake::MAGIC {
        tracing::debug!("not a Bolt client: closing");
        return Ok(None);
    }
    let offers: [u8; 16] = preamble[4..].try_into().expect("16 bytes");
    match handshake::choose(&offers) {
        Answer::Version(v) => {
            send_now(&mut out.writer, &v.to_bytes()).await?;
            Ok(Some(v))
        }
        Answer::Manifest => {
            // One write: some drivers parse the whole manifest from the packet that
            // brought its first bytes.
            send_now(&mut out.writer, &handshake::manifest()).await?;
            let mut choice = Vec::with_capacity(16);
            loop {
                choice.push(reader.read_u8().await?);
                match handshake::read_choice(&choice) {
                    Ok(Some((version, _))) => return Ok(Some(version)),
                    Ok(None) => {}
                    Err(reason) => {
                        tracing::debug!(%reason, "bolt manifest refused");
                        return Ok(None);
                    }
                }
            }
        }
        Answer::None => {
            send_now(&mut out.writer, &[0, 0, 0, 0]).await?;
            Ok(None)
        }
    }
}

/// A message that could not be read.
enum Unreadable {
    /// Its bytes are not a Bolt message (or it is over its limit).
    Invalid(String),
    /// It began and did not arrive whole within `message_read_timeout_ms`.
    TooSlow,
}

/// A negotiated connection: its halves, its protocol state and, until it
/// authenticates, its place in the pending pool.
struct Connection<'a> {
    reader: &'a mut BufReader<Reader>,
    out: &'a mut Out,
    session: &'a mut Session,
    pending: Option<Pending>,
    dechunker: Dechunker,
}

impl Connection<'_> {
    /// The message loop; says why the connection ended.
    async fn serve(&mut self, state: &Arc<AppState>) -> CloseReason {
        let read_timeout = state.config.message_read_timeout();
        let mut shutdown = state.shutdown.clone();
        let mut auth_deadline = self
            .pending
            .as_ref()
            .map(|p| Instant::from_std(p.deadline()));
        loop {
            if self.reader.buffer().is_empty() {
                if let Err(e) = self.out.flush().await {
                    return io_reason(&e);
                }
            }
            // HELLO and LOGON (again after a LOGOFF) have `auth_deadline_ms`.
            let waiting = self.session.awaiting_authentication();
            auth_deadline = match (waiting, auth_deadline) {
                (false, _) => None,
                (true, None) => Some(Instant::now() + state.config.auth_deadline()),
                (true, Some(at)) => Some(at),
            };
            let deadline = auth_deadline.unwrap_or_else(Instant::now);
            let pending = self.pending.as_ref();
            let message = tokio::select! {
                m = read_message(self.reader, &mut self.dechunker, read_timeout) => m,
                _ = shutdown.changed() => return CloseReason::Shutdown,
                () = tokio::time::sleep_until(deadline), if waiting => {
                    let ms = state.config.auth_deadline_ms;
                    let reason = format!("not authenticated within {ms} ms (auth_deadline_ms)");
                    return self.refuse(&reason, CloseReason::AuthDeadline).await;
                }
                () = evicted(pending), if pending.is_some() => return CloseReason::Evicted,
            };
            let message = match message {
                Ok(message) => message,
                Err(e) => return io_reason(&e),
            };
            if let (Some(pending), Ok(_)) = (&self.pending, &message) {
                // A whole message after the handshake: no silent socket.
                pending.made_progress();
            }
            let flow = match self.decode(state, message, read_timeout) {
                Ok(request) => self.session.handle(request, self.out).await,
                Err((reason, why)) => return self.refuse(&why, reason).await,
            };
            match flow {
                Ok(Flow::Continue) => {}
                Ok(Flow::Close(reason)) => return self.finish(reason).await,
                Ok(Flow::Defunct(reason)) => {
                    let _ = self.ignore_pipelined().await;
                    return reason;
                }
                Err(e) => return io_reason(&e),
            }
            if self.pending.is_some() && self.session.authenticated_once() {
                // Out of the pending pool: it holds a `connections_max` slot now.
                self.pending = None;
                self.dechunker = Dechunker::named(
                    state.config.bolt_message_bytes_max,
                    "bolt_message_bytes_max",
                )
                .with_budget(state.bolt_budget.clone());
            }
        }
    }

    /// A request from a message read, or why the connection must end.
    fn decode(
        &self,
        state: &AppState,
        message: Result<Vec<u8>, Unreadable>,
        read_timeout: Duration,
    ) -> Result<Request, (CloseReason, String)> {
        state.metrics.bytes_in(message.as_ref().map_or(0, Vec::len));
        match message {
            Ok(bytes) => unpack(&bytes)
                .and_then(Request::from_pack)
                .map_err(|e| (CloseReason::Invalid, e.to_string())),
            Err(Unreadable::Invalid(why)) => Err((CloseReason::Invalid, why)),
            Err(Unreadable::TooSlow) => Err((
                CloseReason::ReadDeadline,
                format!(
                    "a message did not arrive whole within {} ms (message_read_timeout_ms)",
                    read_timeout.as_millis()
                ),
            )),
        }
    }

    /// FAILURE naming `why`, then the end: the framing may be lost (as Neo4j does).
    async fn refuse(&mut self, why: &str, reason: CloseReason) -> CloseReason {
        self.session.protocol_violation(self.out, why);
        let invalid = reason == CloseReason::Invalid;
        let reason = self.finish(reason).await;
        if invalid {
            // The client may be part-way through sending what was refused.
            self.out.shutdown().await;
            self.linger().await;
        }
        reason
    }

    /// Reads and drops, for a moment and up to a bound, what the client is still
    /// sending (the rest of a message over `bolt_message_bytes_max`) until it closes:
    /// closing with its bytes unread would reset the connection, and the client could
    /// lose the FAILURE that says why before it reads it (it has read the end of the
    /// stream after the FAILURE already: the sending side is shut).
    async fn linger(&mut self) {
        const LINGER: Duration = Duration::from_secs(1);
        const LINGER_BYTES_MAX: usize = 64 << 20;
        let deadline = Instant::now() + LINGER;
        let mut sink = vec![0u8; 64 << 10];
        let mut left = LINGER_BYTES_MAX;
        while left > 0 {
            match tokio::time::timeout_at(deadline, self.reader.read(&mut sink)).await {
                Ok(Ok(n)) if n > 0 => left = left.saturating_sub(n),
                _ => break,
            }
        }
    }

    /// Sends what is buffered; `reason` unless that fails.
    async fn finish(&mut self, reason: CloseReason) -> CloseReason {
        match self.out.flush().await {
            Ok(()) => reason,
            Err(e) => io_reason(&e),
        }
    }

    /// Answers IGNORED to the messages already received whole, then ends the
    /// connection. Nothing more is read from the socket: a client that sent half a
    /// message behind its refused HELLO must not keep the connection open.
    async fn ignore_pipelined(&mut self) -> std::io::Result<()> {
        for _ in 0..chunk::whole_messages(self.reader.buffer()) {
            self.out.ignored();
        }
        self.out.flush().await
    }
}

/// Completes when the pending connection is evicted (never without one).
async fn evicted(pending: Option<&Pending>) {
    match pending {
        Some(pending) => pending.evicted().await,
        None => std::future::pending().await,
    }
}

/// Why a connection whose socket failed ended: a write that stalled, or the client.
fn io_reason(e: &std::io::Error) -> CloseReason {
    match e.kind() {
        std::io::ErrorKind::TimedOut => CloseReason::WriteStall,
        _ => CloseReason::Client,
    }
}

/// The next message's bytes, or why it cannot be read. Between messages the
/// connection may stay idle as long as it likes (keep-alive NOOPs included); from the
/// first byte of a message on, the rest must arrive within `timeout`.
async fn read_message(
    reader: &mut BufReader<Reader>,
    dechunker: &mut Dechunker,
    timeout: Duration,
) -> std::io::Result<Result<Vec<u8>, Unreadable>> {
    let (first, deadline) = loop {
        let high = reader.read_u8().await?;
        let deadline = Instant::now() + timeout;
        let Ok(low) = tokio::time::timeout_at(deadline, reader.read_u8()).await else {
            return Ok(Err(Unreadable::TooSlow));
        };
        match dechunker.header(u16::from_be_bytes([high, low?])) {
            Ok(Chunk::Noop) => {}
            Ok(Chunk::Data(n)) => break (n, deadline),
            Ok(Chunk::End) => return Ok(Ok(dechunker.take())),
            Err(reason) => return Ok(Err(Unreadable::Invalid(reason))),
        }
    };
    match tokio::time::timeout_at(deadline, rest_of_message(reader, dechunker, first)).await {
        Ok(read) => read,
        Err(_) => Ok(Err(Unreadable::TooSlow)),
    }
}

/// A message whose first chunk of `first` bytes was announced. Its first two bytes
/// say whether it can be a request at all: they are checked as soon as they are in
/// (even split over chunks), so bytes that are no message are refused at once rather
/// than waited for.
async fn rest_of_message(
    reader: &mut BufReader<Reader>,
    dechunker: &mut Dechunker,
    first: usize,
) -> std::io::Result<Result<Vec<u8>, Unreadable>> {
    let head = first.min(2);
    let mut start = [0u8; 2];
    reader.read_exact(&mut start[..head]).await?;
    let mut checked = false;
    if let Err(reason) = check_start(&start[..head], &mut checked) {
        return Ok(Err(Unreadable::Invalid(reason)));
    }
    let room = dechunker.room(first);
    room[..head].copy_from_slice(&start[..head]);
    reader.read_exact(&mut room[head..]).await?;
    loop {
        let size = reader.read_u16().await?;
        match dechunker.header(size) {
            Ok(Chunk::End | Chunk::Noop) => return Ok(Ok(dechunker.take())),
            Ok(Chunk::Data(n)) => {
                reader.read_exact(dechunker.room(n)).await?;
                if let Err(reason) = check_start(dechunker.message(), &mut checked) {
                    return Ok(Err(Unreadable::Invalid(reason)));
                }
            }
            Err(reason) => return Ok(Err(Unreadable::Invalid(reason))),
        }
    }
}

/// Checks a message's first two bytes once they are there (`checked` says whether
/// that was done).
fn check_start(message: &[u8], checked: &mut bool) -> Result<(), String> {
    match message {
        [marker, tag, ..] if !*checked => {
            *checked = true;
            message::check_start(*marker, *tag)
        }
        _ => Ok(()),
    }
}
