//! `kith replay TARGET STREAM_DIR`: applies LDBC update streams in timestamp order,
//! each event a call of its `ldbc.iuN` update procedure, through the durable write
//! path: offline into a data directory (group commit), or to a running server
//! (`ws://...`, where reads go on while it replays).

use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use futures_util::StreamExt;
use kith_procedures::Registry;
use kith_storage::{Database, DatabaseOptions, StorageError, WriteBatch};

use super::bench::progress_bar;

/// Failures printed in full; the rest are counted.
const SHOWN_FAILURES: usize = 5;

pub fn run(target: &str, streams: &Path, limit: Option<usize>, group: usize) -> Result<()> {
    if group == 0 {
        bail!("--group must be at least 1");
    }
    let mut events = kith_ldbc::read_streams(streams)?;
    if let Some(limit) = limit {
        events.truncate(limit);
    }
    let bar = progress_bar("events")?;
    bar.set_length(events.len() as u64);
    let started = Instant::now();
    let mut failures: Vec<String> = Vec::new();
    let mut failed = 0usize;
    let mut note = |what: String| {
        failed += 1;
        if failures.len() < SHOWN_FAILURES {
            failures.push(what);
        }
    };
    if target.starts_with("ws://") || target.starts_with("wss://") {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("starting the client runtime")?;
        runtime.block_on(async {
            let client = kith_client::Client::connect(kith_client::ClientConfig::new(target))
                .await
                .with_context(|| format!("connecting to {}", kith_client::redacted(target)))?;
            // One connection, calls sent in stream order and a window in flight: the
            // server queues them for its writer in arrival order.
            let mut answers = futures_util::stream::iter(events.iter())
                .map(|e| {
                    let client = &client;
                    async move { (e, client.call(e.procedure, e.params.clone()).await) }
                })
                .buffered(group);
            while let Some((e, answer)) = answers.next().await {
                if let Err(err) = answer {
                    note(format!("event at {} ({}): {err}", e.timestamp, e.procedure));
                }
                bar.inc(1);
            }
            Ok::<_, anyhow::Error>(())
        })?;
    } else {
        let dir = Path::new(target);
        let registry = Registry::with_builtins();
        let (database, _) = match Database::open(dir, DatabaseOptions::default()) {
            Err(StorageError::Locked(_)) => bail!(
                "a running server holds {}; replay to it instead: kith replay ws://HOST:PORT/v1/ws {}",
                dir.display(),
                streams.display()
            ),
            other => other.with_context(|| format!("opening {}", dir.display()))?,
        };
        for chunk in events.chunks(group) {
            let mut batches = Vec::with_capacity(chunk.len());
            let mut chunk_events = Vec::with_capacity(chunk.len());
            for e in chunk {
                match registry.build_update(e.procedure, &e.params) {
                    Ok(ops) => {
                        batches.push(WriteBatch { ops });
                        chunk_events.push(e);
                    }
                    Err(err) => note(format!("event at {} ({}): {err}", e.timestamp, e.procedure)),
                }
            }
            // One log record and fsync per chunk; each event commits or fails alone,
            // in order, so later events see earlier ones.
            let refs: Vec<&WriteBatch> = batches.iter().collect();
            let results = database.commit(&refs)?;
            for (e, result) in chunk_events.iter().zip(results) {
                if let Err(err) = result {
                    note(format!("event at {} ({}): {err}", e.timestamp, e.procedure));
                }
            }
            if database.checkpoint_due() {
                database.checkpoint()?;
            }
            bar.inc(chunk.len() as u64);
        }
        database.close()?;
    }
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let applied = events.len() - failed;
    println!(
        "replayed {} events from {} in {seconds:.1} s ({:.0} events/s): {applied} applied, {failed} failed",
        events.len(),
        streams.display(),
        events.len() as f64 / seconds.max(1e-9)
    );
    for f in &failures {
        println!("  failed: {f}");
    }
    if failed > failures.len() {
        println!("  ... and {} more failures", failed - failures.len());
    }
    if failed > 0 {
        bail!("{failed} of {} events failed", events.len());
    }
    Ok(())
}
