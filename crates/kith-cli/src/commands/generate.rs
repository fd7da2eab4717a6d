//! `kith generate`.

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Subcommand;
use kith_core::GraphView;
use kith_datagen::shindig::ShindigConfig;

use crate::data_dir;

/// Data sets kith can generate.
#[derive(Subcommand)]
pub enum Dataset {
    /// The Shindig intranet social network of S1 (scale 1 = 2,011 people, 83,500 nodes).
    Shindig {
        /// Multiplies every count (fractions allowed).
        #[arg(long, default_value_t = 1.0)]
        scale: f64,
        /// Random seed; the same seed and scale always give the same graph.
        #[arg(long, default_value_t = 42)]
        seed: u64,
        /// Data directory to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// S2's traversal tree: root A, levels alternating B and A (HAS_B, HAS_A), each
    /// node a random boolean `flag` (10 levels of 4 = 1,398,101 nodes).
    Tree {
        /// Levels below the root.
        #[arg(long, default_value_t = 10)]
        levels: u32,
        /// Children per node.
        #[arg(long, default_value_t = 4)]
        fanout: u32,
        /// Random seed of the flags.
        #[arg(long, default_value_t = 42)]
        seed: u64,
        /// Data directory to write.
        #[arg(long)]
        out: PathBuf,
    },
}

pub fn run(dataset: Dataset) -> Result<()> {
    match dataset {
        Dataset::Shindig { scale, seed, out } => {
            if !(scale > 0.0 && scale.is_finite()) {
                bail!("--scale must be a positive number, got {scale}");
            }
            let started = std::time::Instant::now();
            let (snapshot, generate_seconds) =
                data_dir::generate_shindig(&out, ShindigConfig { scale, seed })?;
            println!(
                "generated shindig scale {scale} seed {seed}: {} nodes, {} relationships in {:.2} s \
                 ({:.2} s total with writing) -> {}",
                snapshot.node_count(),
                snapshot.rel_count(),
                generate_seconds,
                started.elapsed().as_secs_f64(),
                out.display()
            );
            Ok(())
        }
        Dataset::Tree {
            levels,
            fanout,
            seed,
            out,
        } => {
            if fanout == 0 {
                bail!("--fanout must be at least 1");
            }
            let config = kith_datagen::tree::TreeConfig {
                levels,
                fanout,
                seed,
            };
            let started = std::time::Instant::now();
            let (snapshot, seconds) = data_dir::generate_tree(&out, config)?;
            println!(
                "generated tree of {levels} levels of {fanout} (seed {seed}): {} nodes, {} \
                 relationships in {seconds:.2} s ({:.2} s total with writing) -> {}",
                snapshot.node_count(),
                snapshot.rel_count(),
                started.elapsed().as_secs_f64(),
                out.display()
            );
            Ok(())
        }
    }
}
