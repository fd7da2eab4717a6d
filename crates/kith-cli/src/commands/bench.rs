//! `kith bench`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Subcommand;
use kith_core::GraphView;
use kith_storage::Store;

use crate::data_dir;

/// Benchmarks.
#[derive(Subcommand)]
pub enum Bench {
    /// Round trips and throughput of the profile query over WS-BSON and HTTP-JSON,
    /// against a raw WebSocket echo (the floor), all in one run on loopback.
    Transport {
        /// Data directory (default ./kith-data, generated at scale 1 if absent).
        #[arg(long)]
        data: Option<PathBuf>,
        /// Sequential calls per round-trip measurement (plus 10 % warm-up).
        #[arg(long, default_value_t = 5_000)]
        round_trips: usize,
        /// Concurrent requests in the throughput measurements.
        #[arg(long, default_value_t = 64)]
        concurrency: usize,
        /// Seconds per throughput measurement.
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// Server worker threads [default: cores].
        #[arg(long)]
        workers: Option<usize>,
    },
}

pub fn run(bench: Bench) -> Result<()> {
    match bench {
        Bench::Transport {
            data,
            round_trips,
            concurrency,
            seconds,
            workers,
        } => {
            let loaded = data_dir::load_or_default(data)?;
            let people = loaded
                .snapshot
                .label_id(kith_core::shindig_schema::label::PERSON)
                .map(|p| {
                    loaded
                        .snapshot
                        .node_ids()
                        .filter(|n| loaded.snapshot.has_label(*n, p))
                        .count()
                })
                .unwrap_or(0) as i64;
            anyhow::ensure!(
                people > 0,
                "the data set has no Person nodes; use a Shindig data set"
            );
            let store = Arc::new(Store::new(loaded.snapshot));
            let options = kith_bench::transport::Options {
                round_trips: round_trips.max(10),
                concurrency: concurrency.max(1),
                throughput_duration: Duration::from_secs_f64(seconds.max(0.1)),
                workers: workers.unwrap_or_else(|| kith_server::ServerConfig::default().workers),
                people,
            };
            eprintln!(
                "measuring: {} round trips per path, {} concurrent for {:.1} s per throughput case, {} workers",
                options.round_trips,
                options.concurrency,
                seconds,
                options.workers
            );
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .context("starting the runtime")?;
            let report = runtime.block_on(kith_bench::transport::run(store, options))?;
            print!("{}", report.markdown());
            Ok(())
        }
    }
}
