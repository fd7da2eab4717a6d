//! `GET /v1/checkpoint`: the current version as a graph file, for a replica to start
//! from (docs/replication.md); `GET /v1/backup`: the same file for `kith backup`
//! (an admin's, on any server).
//!
//! The graph file is written to a temporary file first (on a blocking thread, from an
//! immutable snapshot, while writers go on), then streamed a megabyte at a time
//! through a bounded channel, so a slow replica holds one file, not memory. The
//! headers say the version, the topic, where in the topic the records after it
//! start, and the body's CRC-32.

use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use axum::body::Body;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use kith_protocol::ErrorCode as Code;
use kith_replication::bootstrap::header as names;

use crate::error::ExecError;
use crate::http::fail;
use crate::state::AppState;

/// Exports at once: each writes a whole graph file and keeps a snapshot alive.
const EXPORTS_MAX: usize = 2;
static EXPORTS: AtomicUsize = AtomicUsize::new(0);

/// One of the `EXPORTS_MAX` slots, given back when the answer is sent (or dropped).
struct Slot;

impl Slot {
    fn take() -> Option<Slot> {
        EXPORTS
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < EXPORTS_MAX).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        EXPORTS.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Chunks of the file in flight to one replica.
const CHUNKS_IN_FLIGHT: usize = 4;
const CHUNK_BYTES: usize = 1 << 20;

/// `GET /v1/checkpoint`.
pub(crate) async fn checkpoint(State(state): State<Arc<AppState>>, headers: HeaderMap) -> Response {
    if let Err(e) = crate::auth::of_headers(&state, &headers).await {
        return fail(&state, &e);
    }
    let Some(publishing) = state.writes.as_ref().and_then(|w| w.publishing()) else {
        let message = "this server does not publish its log (start it with --publish \
                       kafka://HOST:PORT/TOPIC); a replica needs a primary that does";
        return fail(&state, &ExecError::new(Code::NotFound, message));
    };
    // Read before the snapshot: the snapshot's version is then at least the
    // acknowledged one, so reading from the offset misses nothing after it.
    let Some((_, offset)) = publishing.publisher.resume_point() else {
        let message = "the primary has not reached Kafka yet; retry in a moment";
        return fail(&state, &ExecError::new(Code::Busy, message));
    };
    let topic = publishing.publisher.url().topic.clone();
    send_snapshot(
        &state,
        vec![(names::TOPIC, topic), (names::OFFSET, offset.to_string())],
    )
    .await
}

/// `GET /v1/backup`: the current version as a graph file, consistent (one immutable
/// snapshot, written while writers go on), for an admin.
pub(crate) async fn backup(State(state): State<Arc<AppState>>, headers: HeaderMap) -> Response {
    if state.shards.is_some() {
        let message = "this server is a router and holds no graph: back up each shard";
        return fail(&state, &ExecError::new(Code::NotFound, message));
    }
    match crate::auth::of_headers(&state, &headers).await {
        Ok(who) if who.role == crate::auth::Role::Admin => send_snapshot(&state, Vec::new()).await,
        Ok(who) => {
            let message = format!(
                "a backup holds the whole graph: it needs an admin, and {} is a {}",
                who.user.as_deref().unwrap_or("this user"),
                who.role.as_str()
            );
            fail(&state, &ExecError::new(Code::Forbidden, message))
        }
        Err(e) => fail(&state, &e),
    }
}

/// Answers the current snapshot as a graph file with its version, CRC-32, length and
/// `extra` headers.
async fn send_snapshot(state: &Arc<AppState>, extra: Vec<(&'static str, String)>) -> Response {
    let Some(slot) = Slot::take() else {
        let message = format!("{EXPORTS_MAX} checkpoints are being sent already; retry later");
        return fail(state, &ExecError::new(Code::Busy, message));
    };
    let snapshot = state.store.snapshot();
    let version = snapshot.version();
    // In the data directory's file system, not /tmp (which may be memory).
    let dir = state.config.data.clone().unwrap_or_else(std::env::temp_dir);
    // The slot goes with the work: a client that leaves does not free it while the
    // file is still being written.
    let written =
        tokio::task::spawn_blocking(move || write_file(&snapshot, &dir).map(|done| (done, slot)))
            .await;
    let ((file, crc, len), slot) = match written {
        Ok(Ok(done)) => done,
        Ok(Err(e)) => return fail(state, &ExecError::new(Code::StorageFailure, e)),
        Err(e) => return fail(state, &ExecError::new(Code::Internal, e.to_string())),
    };
    let mut response = Body::from_stream(stream(file, slot)).into_response();
    *response.status_mut() = StatusCode::OK;
    let set = |response: &mut Response, name: &'static str, value: String| {
        if let Ok(value) = HeaderValue::from_str(&value) {
            response.headers_mut().insert(name, value);
        }
    };
    set(&mut response, names::VERSION, version.to_string());
    for (name, value) in extra {
        set(&mut response, name, value);
    }
    set(&mut response, names::CRC32, format!("{crc:08x}"));
    set(&mut response, "content-length", len.to_string());
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/octet-stream"),
    );
    response
}

/// Removes exports a crashed server left in its data directory.
pub(crate) fn remove_leftovers(data: &std::path::Path) {
    let Ok(entries) = std::fs::read_dir(data) else {
        return;
    };
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with(".export-") {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Writes `snapshot` to a temporary file (removed once the answer is sent) and
/// answers it with its CRC-32 and length.
fn write_file(
    snapshot: &kith_storage::Snapshot,
    under: &std::path::Path,
) -> Result<(Export, u32, u64), String> {
    let dir = tempfile::Builder::new()
        .prefix(".export-")
        .tempdir_in(under)
        .map_err(|e| format!("creating a temporary directory: {e}"))?;
    let file = Export(dir);
    kith_storage::write_graph_file(snapshot, &file.path()).map_err(|e| e.to_string())?;
    let mut reader = file.open().map_err(|e| e.to_string())?;
    let mut hasher = crc32fast::Hasher::new();
    let mut buf = vec![0u8; CHUNK_BYTES];
    let mut len = 0u64;
    loop {
        let n = reader.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        len += n as u64;
    }
    Ok((file, hasher.finalize(), len))
}

/// A graph file in a temporary directory, removed with it when dropped.
struct Export(tempfile::TempDir);

impl Export {
    fn path(&self) -> std::path::PathBuf {
        self.0.path().join("checkpoint.kith")
    }

    fn open(&self) -> std::io::Result<std::fs::File> {
        std::fs::File::open(self.path())
    }
}

/// The file's bytes, read on a blocking thread into a bounded channel.
fn stream(
    file: Export,
    slot: Slot,
) -> impl futures_util::Stream<Item = Result<Vec<u8>, std::io::Error>> {
    let (sender, receiver) = tokio::sync::mpsc::channel(CHUNKS_IN_FLIGHT);
    tokio::task::spawn_blocking(move || {
        let _slot = slot;
        let mut reader = match file.open() {
            Ok(reader) => reader,
            Err(e) => {
                let _ = sender.blocking_send(Err(e));
                return;
            }
        };
        loop {
            let mut buf = vec![0u8; CHUNK_BYTES];
            let chunk = match reader.read(&mut buf) {
                Ok(0) => return,
                Ok(n) => {
                    buf.truncate(n);
                    Ok(buf)
                }
                Err(e) => Err(e),
            };
            let stop = chunk.is_err();
            // The replica went away: stop reading (the file is removed on return).
            if sender.blocking_send(chunk).is_err() || stop {
                return;
            }
        }
    });
    futures_util::stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|chunk| (chunk, receiver))
    })
}
