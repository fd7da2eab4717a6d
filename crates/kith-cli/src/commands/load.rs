//! `kith load ldbc SRC_DIR --out DATA_DIR`: the official LDBC SNB data set as a kith
//! data directory.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Subcommand;
use kith_core::ldbc_schema::{key, label};
use kith_core::write_op::WriteOp;
use kith_core::GraphView;
use kith_storage::{create_data_dir, Snapshot, Store, WriteBatch};

use crate::data_dir::{GRAPH_FILE, MANIFEST_FILE};

/// Data sets kith can load.
#[derive(Subcommand)]
pub enum Source {
    /// LDBC SNB Interactive v1: the `csv_composite` layout with `LongDateFormatter`
    /// dates (SRC_DIR holds `static/` and `dynamic/`). Schema: docs/ldbc.md.
    Ldbc {
        /// The data set's directory (e.g. sf0.1/social_network).
        src: PathBuf,
        /// Data directory to create; it must not exist or be empty.
        #[arg(long)]
        out: PathBuf,
    },
}

/// Property indexes the LDBC queries look names up in.
const NAME_INDEXES: &[&str] = &[label::COUNTRY, label::TAG, label::TAG_CLASS];

pub fn run(source: Source) -> Result<()> {
    let Source::Ldbc { src, out } = source;
    refuse_non_empty(&out)?;
    let started = Instant::now();
    let (raw, stats) = kith_ldbc::load(&src)?;
    let parsed = started.elapsed().as_secs_f64();
    let snapshot = Snapshot::from_raw(raw)?;
    let store = Store::new(snapshot);
    let mut batch = WriteBatch::new();
    for l in NAME_INDEXES {
        batch.push(WriteOp::CreateIndex {
            label: Arc::from(*l),
            key: Arc::from(key::NAME),
        });
    }
    store.apply(&batch)?;
    let snapshot = store.snapshot();
    let built = started.elapsed().as_secs_f64();
    let elements = (snapshot.node_count() + snapshot.rel_count()) as f64;

    // Write into a sibling directory and rename it into place at the end, so a
    // failed or interrupted load never leaves a half-written data directory.
    let staging = staging_dir(&out)?;
    let written =
        write_data_dir(&staging, &snapshot, &src, &stats).and_then(|()| publish(&staging, &out));
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(e);
    }
    let total = started.elapsed().as_secs_f64();
    println!(
        "loaded {}: {} nodes, {} relationships from {} files -> {}",
        src.display(),
        snapshot.node_count(),
        snapshot.rel_count(),
        stats.tables.iter().map(|t| t.1).sum::<usize>(),
        out.display()
    );
    println!(
        "  parse {parsed:.2} s, build {:.2} s, write {:.2} s: {:.0} elements/s in memory, {:.0} elements/s including the checkpoint",
        built - parsed,
        total - built,
        elements / built,
        elements / total
    );
    Ok(())
}

/// Refuses an `out` that exists and is not an empty directory.
pub(crate) fn refuse_non_empty(out: &Path) -> Result<()> {
    if out.exists()
        && std::fs::read_dir(out)
            .with_context(|| format!("reading {}", out.display()))?
            .next()
            .is_some()
    {
        bail!(
            "{} already exists and is not empty; write into a new directory",
            out.display()
        );
    }
    Ok(())
}

/// Moves a finished `staging` directory to `out` (an empty `out` is replaced).
pub(crate) fn publish(staging: &Path, out: &Path) -> Result<()> {
    if out.exists() {
        std::fs::remove_dir(out).with_context(|| format!("replacing {}", out.display()))?;
    }
    std::fs::rename(staging, out)
        .with_context(|| format!("moving {} to {}", staging.display(), out.display()))
}

/// `OUT.loading-PID` beside `out`.
pub(crate) fn staging_dir(out: &Path) -> Result<PathBuf> {
    let name = out
        .file_name()
        .with_context(|| format!("{} has no directory name", out.display()))?;
    let mut staged = name.to_os_string();
    staged.push(format!(".loading-{}", std::process::id()));
    let staging = out.with_file_name(staged);
    if staging.exists() {
        std::fs::remove_dir_all(&staging)
            .with_context(|| format!("removing {}", staging.display()))?;
    }
    std::fs::create_dir_all(&staging).with_context(|| format!("creating {}", staging.display()))?;
    Ok(staging)
}

fn write_data_dir(
    dir: &Path,
    snapshot: &Snapshot,
    src: &Path,
    stats: &kith_ldbc::LoadStats,
) -> Result<()> {
    let tables: serde_json::Map<String, serde_json::Value> = stats
        .tables
        .iter()
        .map(|(stem, files, records)| {
            (
                (*stem).to_owned(),
                serde_json::json!({ "files": files, "records": records }),
            )
        })
        .collect();
    let manifest = serde_json::json!({
        "generator": "ldbc-snb-interactive-v1",
        "source": std::fs::canonicalize(src).unwrap_or_else(|_| src.to_owned()),
        "tables": tables,
    });
    write_graph_and_manifest(dir, snapshot, &manifest)
}

/// Writes `snapshot` as the directory's checkpoint and `manifest` (with the graph
/// file's name, version and counts added) beside it, both synced.
pub(crate) fn write_graph_and_manifest(
    dir: &Path,
    snapshot: &Snapshot,
    manifest: &serde_json::Value,
) -> Result<()> {
    create_data_dir(dir, snapshot)
        .with_context(|| format!("writing the graph into {}", dir.display()))?;
    let mut manifest = manifest.clone();
    if let Some(fields) = manifest.as_object_mut() {
        fields.insert("graph_file".into(), GRAPH_FILE.into());
        fields.insert(
            "graph_file_version".into(),
            kith_storage::GRAPH_FILE_VERSION.into(),
        );
        fields.insert("nodes".into(), snapshot.node_count().into());
        fields.insert("relationships".into(), snapshot.rel_count().into());
    }
    let path = dir.join(MANIFEST_FILE);
    std::fs::write(&path, serde_json::to_string_pretty(&manifest)? + "\n")
        .with_context(|| format!("writing {}", path.display()))?;
    // The rename that publishes the directory must not overtake the files' data.
    for file in [GRAPH_FILE, MANIFEST_FILE] {
        std::fs::File::open(dir.join(file))
            .and_then(|f| f.sync_all())
            .with_context(|| format!("syncing {}", dir.join(file).display()))?;
    }
    Ok(())
}
