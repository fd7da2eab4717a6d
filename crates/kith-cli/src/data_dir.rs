//! Data directories: a graph file plus a manifest saying what made it.
//!
//! ```text
//! DIR/graph.kith      the graph (format: docs/storage-format.md)
//! DIR/dataset.json    {"generator": "shindig", "scale": 1.0, "seed": 42, ...}
//! ```

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use kith_datagen::shindig::{self, ShindigConfig};
use kith_storage::{read_graph_file, write_graph_file, Snapshot};

/// The graph file inside a data directory.
pub const GRAPH_FILE: &str = "graph.kith";
/// The manifest inside a data directory.
pub const MANIFEST_FILE: &str = "dataset.json";
/// Where kith looks when no directory is given.
pub const DEFAULT_DIR: &str = "kith-data";

/// A loaded graph and how long loading took.
pub struct Loaded {
    pub snapshot: Snapshot,
    pub read_seconds: f64,
    pub build_seconds: f64,
}

/// Loads a data directory, generating the default Shindig graph first if the default
/// directory does not exist yet (so a newcomer's first command works as it is).
pub fn load_or_default(dir: Option<PathBuf>) -> Result<Loaded> {
    let dir = match dir {
        Some(dir) => dir,
        None => {
            let dir = PathBuf::from(DEFAULT_DIR);
            if !dir.join(GRAPH_FILE).exists() {
                eprintln!("{DEFAULT_DIR}/ is empty: generating the Shindig graph at scale 1 there");
                generate_shindig(&dir, ShindigConfig::default())?;
            }
            dir
        }
    };
    load(&dir)
}

/// Loads a data directory.
pub fn load(dir: &Path) -> Result<Loaded> {
    let path = dir.join(GRAPH_FILE);
    if !path.exists() {
        bail!(
            "{} has no {GRAPH_FILE}; create one with `kith generate shindig --out {}`",
            dir.display(),
            dir.display()
        );
    }
    let started = Instant::now();
    let raw = read_graph_file(&path)?;
    let read_seconds = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let snapshot =
        Snapshot::from_raw(raw).with_context(|| format!("loading {}", path.display()))?;
    Ok(Loaded {
        snapshot,
        read_seconds,
        build_seconds: started.elapsed().as_secs_f64(),
    })
}

/// Generates a Shindig graph into `dir` and writes its manifest. Returns the snapshot
/// and the generation time in seconds.
pub fn generate_shindig(dir: &Path, config: ShindigConfig) -> Result<(Snapshot, f64)> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let started = Instant::now();
    let raw = shindig::generate(config)?;
    let snapshot = Snapshot::from_raw(raw)?;
    let seconds = started.elapsed().as_secs_f64();
    write_graph_file(&snapshot, &dir.join(GRAPH_FILE))?;
    let manifest = serde_json::json!({
        "generator": "shindig",
        "scale": config.scale,
        "seed": config.seed,
        "graph_file": GRAPH_FILE,
        "graph_file_version": kith_storage::GRAPH_FILE_VERSION,
        "nodes": kith_core::GraphView::node_count(&snapshot),
        "relationships": kith_core::GraphView::rel_count(&snapshot),
    });
    let text = serde_json::to_string_pretty(&manifest)?;
    std::fs::write(dir.join(MANIFEST_FILE), text + "\n")
        .with_context(|| format!("writing {}", dir.join(MANIFEST_FILE).display()))?;
    Ok((snapshot, seconds))
}
