//! One Bolt connection's bytes: the handshake, then messages read chunk by chunk and
//! answered in order. Answers collect in a buffer that is written when no more
//! requests are waiting (a driver pipelines RUN and PULL in one packet, and gets their
//! answers in one), or when a long result fills it (the socket's pace is the
//! result's pace).

use std::sync::Arc;
use std::time::Duration;

use kith_protocol::bolt::chunk::{self, Chunk, Dechunker};
use kith_protocol::bolt::handshake::{self, Answer, Version};
use kith_protocol::bolt::message::tag;
use kith_protocol::bolt::packstream::unpack;
use kith_protocol::bolt::{Pack, Packer, Request};
use tokio::io::{AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use super::session::{Flow, Session};
use crate::state::{AppState, ConnectionSlot};
use crate::tls::{self, Reader, Tls, Writer};

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

/// Serves one accepted connection until it closes, fails or the server shuts down.
pub(crate) async fn connection(
    state: Arc<AppState>,
    stream: TcpStream,
    tls: Option<Tls>,
    slot: ConnectionSlot,
    id: u64,
) {
    let _slot = slot;
    let _ = stream.set_nodelay(true);
    let local = stream.local_addr().ok();
    let peer = stream.peer_addr().ok().map(|a| a.to_string());
    // One deadline for TLS's handshake and Bolt's: together they hold a connection slot.
    let opening = open(&state, stream, tls.as_ref(), id);
    let Ok(Some((mut reader, mut out, version))) =
        tokio::time::timeout(tls::HANDSHAKE_TIMEOUT, opening).await
    else {
        // No common version, not Bolt, not TLS, gone, or too slow: nothing to serve.
        return;
    };
    tracing::debug!(id, %version, "bolt connection negotiated");
    let address = local.map_or_else(|| state.config.listen.to_string(), |a| a.to_string());
    let mut session = Session::new(state.clone(), version, id, address);
    session.set_peer(peer);
    let _ = serve(&state, &mut reader, &mut out, &mut session).await;
    session.close();
    // Under TLS this also sends close_notify, so the client sees a clean end.
    let _ = tokio::time::timeout(out.stall, out.writer.shutdown()).await;
}

/// TLS when configured, then Bolt's handshake: the connection's halves and version,
/// or `None` when either fails.
async fn open(
    state: &Arc<AppState>,
    stream: TcpStream,
    tls: Option<&Tls>,
    id: u64,
) -> Option<(BufReader<Reader>, Out, Version)> {
    let (reader, writer) = match tls::open(stream, tls).await {
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

/// The message loop.
async fn serve(
    state: &Arc<AppState>,
    reader: &mut BufReader<Reader>,
    out: &mut Out,
    session: &mut Session,
) -> std::io::Result<()> {
    let mut dechunker = Dechunker::new(state.config.frame_bytes_max);
    let mut shutdown = state.shutdown.clone();
    loop {
        if reader.buffer().is_empty() {
            out.flush().await?;
        }
        let message = tokio::select! {
            m = read_message(reader, &mut dechunker) => m?,
            _ = shutdown.changed() => return Ok(()),
        };
        state.metrics.bytes_in(message.as_ref().map_or(0, Vec::len));
        let request = message.and_then(|bytes| {
            unpack(&bytes)
                .and_then(Request::from_pack)
                .map_err(|e| e.to_string())
        });
        let request = match request {
            Ok(request) => request,
            Err(reason) => {
                // The framing may be lost: answer and close, as Neo4j does.
                session.protocol_violation(out, &reason);
                return out.flush().await;
            }
        };
        match session.handle(request, out).await? {
            Flow::Continue => {}
            Flow::Close => return out.flush().await,
            Flow::Defunct => return ignore_pipelined(reader, &mut dechunker, out).await,
        }
    }
}

/// Answers IGNORED to the messages already received, then ends the connection.
async fn ignore_pipelined(
    reader: &mut BufReader<Reader>,
    dechunker: &mut Dechunker,
    out: &mut Out,
) -> std::io::Result<()> {
    while !reader.buffer().is_empty() {
        match read_message(reader, dechunker).await? {
            Ok(_) => out.ignored(),
            Err(_) => break,
        }
    }
    out.flush().await
}

/// The next message's bytes, or why it cannot be read (too large).
async fn read_message(
    reader: &mut BufReader<Reader>,
    dechunker: &mut Dechunker,
) -> std::io::Result<Result<Vec<u8>, String>> {
    loop {
        let size = reader.read_u16().await?;
        match dechunker.header(size) {
            Ok(Chunk::Noop) => {}
            Ok(Chunk::End) => return Ok(Ok(dechunker.take())),
            Ok(Chunk::Data(n)) => {
                reader.read_exact(dechunker.room(n)).await?;
            }
            Err(reason) => return Ok(Err(reason)),
        }
    }
}
