//! `kith produce ldbc STREAM_DIR kafka://HOST:PORT/TOPIC`: publishes an LDBC update
//! stream (both files, merged in timestamp order) into Kafka, one line a message, for
//! a server started with `--ingest` (S4's update path).

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Subcommand;
use kith_replication::KafkaUrl;

/// What to produce.
#[derive(Subcommand)]
pub enum Source {
    /// The LDBC SNB update streams of a directory (updateStream_*_{person,forum}.csv).
    Ldbc {
        /// The directory holding the streams.
        streams: std::path::PathBuf,
        /// The topic: kafka://HOST:PORT[,HOST:PORT]/TOPIC.
        topic: String,
        /// Produce only the first N events.
        #[arg(long)]
        limit: Option<usize>,
    },
}

pub fn run(source: Source) -> Result<()> {
    let Source::Ldbc {
        streams,
        topic,
        limit,
    } = source;
    let url: KafkaUrl = topic.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    produce_ldbc(&streams, &url, limit)
}

fn produce_ldbc(streams: &Path, url: &KafkaUrl, limit: Option<usize>) -> Result<()> {
    // Every line is parsed first: a damaged stream is refused before anything is sent.
    let mut events = kith_ldbc::read_stream_lines(streams)
        .with_context(|| format!("reading the update streams in {}", streams.display()))?;
    events.truncate(limit.unwrap_or(usize::MAX));
    let started = Instant::now();
    let count = events.len();
    let sent =
        kith_replication::produce_all(url, events.into_iter().map(|(_, line)| line.into_bytes()))
            .with_context(|| format!("producing to {url}"))?;
    let seconds = started.elapsed().as_secs_f64();
    debug_assert_eq!(sent as usize, count);
    println!(
        "{sent} update events produced to {url} in {seconds:.2} s ({:.0} events/s)",
        sent as f64 / seconds.max(1e-9)
    );
    Ok(())
}
