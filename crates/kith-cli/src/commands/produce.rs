//! `kith produce ldbc STREAM_DIR kafka://HOST:PORT/TOPIC`: publishes an LDBC update
//! stream (both files, merged in timestamp order) into Kafka, one line a message, for
//! a server started with `--ingest` (S4's update path). With `--layout DIR` (a `kith
//! shard split` output) each event goes to its shard's partition instead (S5's).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Subcommand;
use kith_ldbc::shard::{Placement, Shard, PLACEMENT_FILE};
use kith_ldbc::UpdateEvent;
use kith_replication::KafkaUrl;

/// What to produce.
#[derive(Subcommand)]
pub enum Source {
    /// The LDBC SNB update streams of a directory (updateStream_*_{person,forum}.csv).
    Ldbc {
        /// The directory holding the streams.
        streams: PathBuf,
        /// The topic: kafka://HOST:PORT[,HOST:PORT]/TOPIC.
        topic: String,
        /// Produce only the first N events.
        #[arg(long)]
        limit: Option<usize>,
        /// A sharded graph's directory (`kith shard split --out`): each event goes to
        /// its shard's partition (0: the person shard, i + 1: forum shard i), and the
        /// directory's message placement is extended by the stream's posts and
        /// comments.
        #[arg(long, value_name = "DIR")]
        layout: Option<PathBuf>,
    },
}

pub fn run(source: Source) -> Result<()> {
    let Source::Ldbc {
        streams,
        topic,
        limit,
        layout,
    } = source;
    let url: KafkaUrl = topic.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    // Every line is parsed first: a damaged stream is refused before anything is sent.
    let mut events = kith_ldbc::read_stream_lines(&streams)
        .with_context(|| format!("reading the update streams in {}", streams.display()))?;
    events.truncate(limit.unwrap_or(usize::MAX));
    match layout {
        None => produce_ldbc(&url, events),
        Some(dir) => produce_sharded(&url, events, &dir),
    }
}

fn produce_ldbc(url: &KafkaUrl, events: Vec<(UpdateEvent, String)>) -> Result<()> {
    let started = Instant::now();
    let count = events.len();
    let sent =
        kith_replication::produce_all(url, events.into_iter().map(|(_, line)| line.into_bytes()))
            .with_context(|| format!("producing to {url}"))?;
    debug_assert_eq!(sent as usize, count);
    report(sent, url, started);
    Ok(())
}

fn report(sent: u64, url: &KafkaUrl, started: Instant) {
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{sent} update events produced to {url} in {seconds:.2} s ({:.0} events/s)",
        sent as f64 / seconds.max(1e-9)
    );
}

/// Routes every event first (one naming a message no shard holds refuses the whole
/// stream before anything is sent), produces, then keeps the extended placement.
fn produce_sharded(url: &KafkaUrl, events: Vec<(UpdateEvent, String)>, dir: &Path) -> Result<()> {
    let started = Instant::now();
    let forum_shards = crate::commands::shard::forum_shards(dir)?;
    let path = dir.join(PLACEMENT_FILE);
    let mut placement = Placement::read(&path)?;
    if placement.forum_shards() != forum_shards {
        anyhow::bail!(
            "{} places messages on {} forum shards, but the layout has {forum_shards}",
            path.display(),
            placement.forum_shards()
        );
    }
    let mut per_shard = vec![0u64; forum_shards + 1];
    let mut routed = Vec::with_capacity(events.len());
    for (i, (event, line)) in events.into_iter().enumerate() {
        let shard = placement.route(&event).with_context(|| {
            format!(
                "event {} of the stream (timestamp {})",
                i + 1,
                event.timestamp
            )
        })?;
        per_shard[shard.partition() as usize] += 1;
        routed.push((shard.partition(), line.into_bytes()));
    }
    let sent = kith_replication::produce_partitioned(url, forum_shards + 1, routed)
        .with_context(|| format!("producing to {url}"))?;
    placement
        .write(&path)
        .with_context(|| format!("keeping the message placement in {}", path.display()))?;
    report(sent, url, started);
    for (partition, count) in per_shard.iter().enumerate() {
        let shard = match partition {
            0 => Shard::Person,
            p => Shard::Forum(p - 1),
        };
        println!("  partition {partition} ({}): {count} events", shard.name());
    }
    Ok(())
}
