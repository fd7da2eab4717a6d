//! Data directories: the last checkpoint, the log after it, and a manifest saying
//! what made the data.
//!
//! ```text
//! DIR/graph.kith      the last checkpoint (format: docs/storage-format.md)
//! DIR/wal/*.wal       the write-ahead log after it
//! DIR/dataset.json    {"generator": "shindig", "scale": 1.0, "seed": 42, ...}
//! ```

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use kith_datagen::shindig::{self, ShindigConfig};
use kith_storage::{
    create_data_dir, load_snapshot, Database, DatabaseOptions, RecoveryReport, Snapshot,
    StorageError,
};

/// The graph file inside a data directory.
pub const GRAPH_FILE: &str = "graph.kith";
/// The manifest inside a data directory.
pub const MANIFEST_FILE: &str = "dataset.json";
/// Where kith looks when no directory is given.
pub const DEFAULT_DIR: &str = "kith-data";

/// A loaded graph and how long loading took.
pub struct Loaded {
    pub snapshot: Snapshot,
    /// Reading and building the checkpoint.
    pub checkpoint_seconds: f64,
    /// Replaying the log after it.
    pub replay_seconds: f64,
}

/// The directory to use: `dir`, or the default one, generated with the Shindig graph
/// at scale 1 if it does not exist yet (so a newcomer's first command works as it is).
pub fn resolve(dir: Option<PathBuf>) -> Result<PathBuf> {
    match dir {
        Some(dir) => Ok(dir),
        None => {
            let dir = PathBuf::from(DEFAULT_DIR);
            if !dir.join(GRAPH_FILE).exists() {
                eprintln!("{DEFAULT_DIR}/ is empty: generating the Shindig graph at scale 1 there");
                generate_shindig(&dir, ShindigConfig::default())?;
            }
            Ok(dir)
        }
    }
}

/// The shard a data directory is (`person`, `forum-3`), as `kith shard split` wrote
/// in its manifest; `None` for a whole graph (or no manifest).
pub fn shard_of(dir: &Path) -> Result<Option<String>> {
    let path = dir.join(MANIFEST_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let manifest: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
    Ok(manifest["shard"].as_str().map(str::to_owned))
}

/// Loads a data directory, or the default one (see [`resolve`]).
pub fn load_or_default(dir: Option<PathBuf>) -> Result<Loaded> {
    load(&resolve(dir)?)
}

/// A data directory opened for this process: the database itself, recovered and
/// locked, or its last checkpoint alone while a server holds it.
pub enum Opened {
    /// The directory's database, locked until dropped.
    Exclusive(Database, RecoveryReport),
    /// A server holds the directory: its last checkpoint, and the seconds loading
    /// took.
    Checkpoint(Snapshot, f64),
}

/// Opens a data directory that holds a graph, recovering it (checkpoint plus log).
/// While a server holds the directory, its log is the server's; then the last
/// checkpoint is read alone, and a warning says so.
pub fn open(dir: &Path) -> Result<Opened> {
    // `Database::open` would start an empty graph in a mistyped path.
    if !dir.join(GRAPH_FILE).exists() && !dir.join("wal").exists() {
        bail!(
            "{} holds no graph; create one with `kith generate shindig --out {}`",
            dir.display(),
            dir.display()
        );
    }
    match Database::open(dir, DatabaseOptions::default()) {
        Ok((database, report)) => {
            if let Some(cut) = &report.cut_tail {
                eprintln!("warning: {cut}");
            }
            Ok(Opened::Exclusive(database, report))
        }
        Err(StorageError::Locked(_)) => {
            let path = dir.join(GRAPH_FILE);
            let started = Instant::now();
            let snapshot =
                load_snapshot(&path).with_context(|| format!("loading {}", path.display()))?;
            eprintln!(
                "warning: a running server holds {}; showing its last checkpoint (version {}), \
                 without the writes logged since",
                dir.display(),
                snapshot.version()
            );
            Ok(Opened::Checkpoint(
                snapshot,
                started.elapsed().as_secs_f64(),
            ))
        }
        Err(e) => Err(e).with_context(|| format!("opening {}", dir.display())),
    }
}

/// Loads a data directory to read it (see [`open`]).
pub fn load(dir: &Path) -> Result<Loaded> {
    Ok(match open(dir)? {
        Opened::Exclusive(database, report) => Loaded {
            snapshot: Snapshot::clone(&database.store().snapshot()),
            checkpoint_seconds: report.load_time.as_secs_f64(),
            replay_seconds: report.replay_time.as_secs_f64(),
        },
        Opened::Checkpoint(snapshot, seconds) => Loaded {
            snapshot,
            checkpoint_seconds: seconds,
            replay_seconds: 0.0,
        },
    })
}

/// Generates a Shindig graph into `dir` and writes its manifest. Returns the snapshot
/// and the generation time in seconds.
pub fn generate_shindig(dir: &Path, config: ShindigConfig) -> Result<(Snapshot, f64)> {
    let started = Instant::now();
    let raw = shindig::generate(config)?;
    let about = serde_json::json!({
        "generator": "shindig",
        "scale": config.scale,
        "seed": config.seed,
    });
    generated(dir, raw, started, about)
}

/// Generates S2's traversal tree into a new data directory.
pub fn generate_tree(
    dir: &Path,
    config: kith_datagen::tree::TreeConfig,
) -> Result<(Snapshot, f64)> {
    let started = Instant::now();
    let raw = kith_datagen::tree::generate(config)?;
    let about = serde_json::json!({
        "generator": "tree",
        "levels": config.levels,
        "fanout": config.fanout,
        "seed": config.seed,
    });
    generated(dir, raw, started, about)
}

/// Writes a generated graph and its manifest (`about` plus the file's facts) into a
/// new data directory; the seconds are the generation's, writing excluded.
fn generated(
    dir: &Path,
    raw: kith_storage::RawGraph,
    started: Instant,
    mut about: serde_json::Value,
) -> Result<(Snapshot, f64)> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let snapshot = Snapshot::from_raw(raw)?;
    let seconds = started.elapsed().as_secs_f64();
    create_data_dir(dir, &snapshot)
        .with_context(|| format!("writing the generated graph into {}", dir.display()))?;
    let facts = serde_json::json!({
        "graph_file": GRAPH_FILE,
        "graph_file_version": kith_storage::GRAPH_FILE_VERSION,
        "nodes": kith_core::GraphView::node_count(&snapshot),
        "relationships": kith_core::GraphView::rel_count(&snapshot),
    });
    if let (Some(about), Some(facts)) = (about.as_object_mut(), facts.as_object()) {
        about.extend(facts.clone());
    }
    let text = serde_json::to_string_pretty(&about)?;
    std::fs::write(dir.join(MANIFEST_FILE), text + "\n")
        .with_context(|| format!("writing {}", dir.join(MANIFEST_FILE).display()))?;
    Ok((snapshot, seconds))
}
