//! `kith backup` and `kith restore`: a consistent copy of a graph, taken from a
//! running server (`GET /v1/backup`: one snapshot, written while writes go on) or from
//! a data directory no server holds, and a new data directory made from it.
//!
//! ```text
//! BACKUP/graph.kith     the graph at one version (the graph-file format, checksummed)
//! BACKUP/backup.json    {"version": ..., "source": ..., "crc32": ..., "taken_at": ...}
//! ```

use std::path::Path;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context, Result};
use kith_core::GraphView;
use kith_storage::{load_snapshot, Database, DatabaseOptions, Snapshot, StorageError};

use crate::commands::load::{publish, refuse_non_empty, staging_dir, write_graph_and_manifest};
use crate::data_dir::GRAPH_FILE;

/// The backup's description beside its graph file.
const BACKUP_FILE: &str = "backup.json";

/// `kith backup SOURCE --out DIR`.
pub fn backup(source: &str, out: &Path) -> Result<()> {
    refuse_non_empty(out)?;
    let started = Instant::now();
    let staging = staging_dir(out)?;
    let taken = take(source, &staging).and_then(|meta| {
        // A backup that does not load is no backup: check it before calling it one.
        let snapshot = load_snapshot(&staging.join(GRAPH_FILE))
            .context("the backup's graph file does not load")?;
        write_meta(&staging, &meta)?;
        publish(&staging, out)?;
        Ok((meta, snapshot))
    });
    let (meta, snapshot) = match taken {
        Ok(done) => done,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(e);
        }
    };
    println!(
        "backed up version {} of {} ({} nodes, {} relationships, {:.1} MB) into {} in {:.2} s",
        meta["version"],
        meta["source"].as_str().unwrap_or_default(),
        snapshot.node_count(),
        snapshot.rel_count(),
        meta["bytes"].as_u64().unwrap_or(0) as f64 / 1e6,
        out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Writes the graph into `dir/graph.kith` and says what it is.
fn take(source: &str, dir: &Path) -> Result<serde_json::Value> {
    let file = dir.join(GRAPH_FILE);
    if source.starts_with("http://") || source.starts_with("https://") {
        let got = kith_replication::bootstrap::download(source, "/v1/backup", &file, None)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        return Ok(serde_json::json!({
            "source": kith_replication::bootstrap::without_credentials(source),
            "version": got.version,
            "bytes": got.bytes,
            "crc32": format!("{:08x}", got.crc32),
        }));
    }
    let data = Path::new(source);
    if !data.join(GRAPH_FILE).exists() {
        bail!("{source} is neither a server's http(s):// address nor a data directory holding a graph");
    }
    // The directory's own recovery (checkpoint and log), under its lock: a server that
    // holds it has writes only its log knows.
    let (database, _) = match Database::open(data, DatabaseOptions::default()) {
        Ok(opened) => opened,
        Err(StorageError::Locked(_)) => bail!(
            "a running server holds {source}: back it up online, `kith backup http://HOST:PORT --out DIR`"
        ),
        Err(e) => return Err(e).with_context(|| format!("opening {source}")),
    };
    let snapshot = database.store().snapshot();
    kith_storage::write_graph_file(&snapshot, &file)
        .with_context(|| format!("writing {}", file.display()))?;
    std::fs::File::open(&file)
        .and_then(|f| f.sync_all())
        .with_context(|| format!("syncing {}", file.display()))?;
    Ok(serde_json::json!({
        "source": std::fs::canonicalize(data).unwrap_or_else(|_| data.to_owned()),
        "version": snapshot.version(),
        "bytes": std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0),
    }))
}

fn write_meta(dir: &Path, meta: &serde_json::Value) -> Result<()> {
    let mut meta = meta.clone();
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    meta["taken_at"] = kith_core::format_epoch_millis(now).into();
    meta["graph_file"] = GRAPH_FILE.into();
    let path = dir.join(BACKUP_FILE);
    std::fs::write(&path, serde_json::to_string_pretty(&meta)? + "\n")
        .with_context(|| format!("writing {}", path.display()))?;
    std::fs::File::open(&path)
        .and_then(|f| f.sync_all())
        .with_context(|| format!("syncing {}", path.display()))
}

/// `kith restore BACKUP --data DIR`: a new data directory holding the backup's graph
/// (the directory must not exist or be empty: a restore never overwrites data).
pub fn restore(backup: &Path, data: &Path) -> Result<()> {
    let meta_path = backup.join(BACKUP_FILE);
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&meta_path).with_context(|| {
            format!(
                "{} is not a kith backup (no {BACKUP_FILE})",
                backup.display()
            )
        })?)
        .with_context(|| format!("reading {}", meta_path.display()))?;
    refuse_non_empty(data)?;
    let started = Instant::now();
    let graph = backup.join(GRAPH_FILE);
    let snapshot: Snapshot = load_snapshot(&graph)
        .with_context(|| format!("the backup's {GRAPH_FILE} does not load"))?;
    let staging = staging_dir(data)?;
    let manifest = serde_json::json!({ "generator": "kith-restore", "backup": meta });
    let written = write_graph_and_manifest(&staging, &snapshot, &manifest)
        .and_then(|()| publish(&staging, data));
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(e);
    }
    println!(
        "restored version {} ({} nodes, {} relationships) from {} into {} in {:.2} s; users are not part of a backup (see docs/operations.md)",
        snapshot.version(),
        snapshot.node_count(),
        snapshot.rel_count(),
        backup.display(),
        data.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
