//! `kith shard split SRC --forum-shards N --out DIR`: an LDBC graph as S5's shards
//! (docs/sharding.md): `DIR/person`, `DIR/forum-0` .. `DIR/forum-{N-1}`, each an
//! ordinary data directory for `kith serve`, and `DIR/shards.json` saying which is which.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Subcommand;
use kith_core::ldbc_schema::{key, label};
use kith_core::write_op::WriteOp;
use kith_core::GraphView;
use kith_ldbc::shard::Shard;
use kith_storage::{create_data_dir, RawGraph, Snapshot, Store, WriteBatch};

use crate::data_dir::{GRAPH_FILE, MANIFEST_FILE};

/// The layout file of a split.
pub const LAYOUT_FILE: &str = "shards.json";

/// How many forum shards the split in `dir` has, from its layout file.
pub fn forum_shards(dir: &Path) -> Result<usize> {
    let path = dir.join(LAYOUT_FILE);
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "reading {} (is {} the --out of `kith shard split`?)",
            path.display(),
            dir.display()
        )
    })?;
    let layout: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
    let n = layout["forum_shards"]
        .as_u64()
        .with_context(|| format!("{} has no forum_shards count", path.display()))?;
    if !(1..=64).contains(&n) {
        bail!("{}: forum_shards is {n}, not 1 to 64", path.display());
    }
    Ok(n as usize)
}

#[derive(Subcommand)]
pub enum Action {
    /// Split an LDBC graph into a person shard and N forum shards.
    Split {
        /// A data directory (a running server's: its last checkpoint is split), or a
        /// checkpoint file (`graph.kith`, or one fetched from GET /v1/checkpoint).
        /// Omit it with --from.
        src: Option<PathBuf>,
        /// Fetch the checkpoint of a live server (its HTTP base URL, e.g.
        /// http://127.0.0.1:7600, a primary or a replica) and split that.
        #[arg(long, conflicts_with = "src")]
        from: Option<String>,
        /// How many forum shards (1 to 64).
        #[arg(long)]
        forum_shards: usize,
        /// Directory to create; it must not exist or be empty.
        #[arg(long)]
        out: PathBuf,
    },
}

pub fn run(action: Action) -> Result<()> {
    let Action::Split {
        src,
        from,
        forum_shards,
        out,
    } = action;
    if !(1..=64).contains(&forum_shards) {
        bail!("--forum-shards must be between 1 and 64, not {forum_shards}");
    }
    crate::commands::load::refuse_non_empty(&out)?;
    let started = Instant::now();
    let (whole, source) = read_source(src.as_deref(), from.as_deref(), &out)?;
    // The source's users, for every shard (the router connects as one of them).
    let users = src
        .as_deref()
        .map(|d| d.join(kith_server::auth::USERS_FILE))
        .filter(|f| f.is_file());
    let read = started.elapsed().as_secs_f64();
    let version = whole.version();
    let split = kith_ldbc::shard::split(&whole.to_raw(), forum_shards)?;
    drop(whole);
    let staging = crate::commands::load::staging_dir(&out)?;
    let written = write_split(&staging, split, &source, version).and_then(|layout| {
        if let Some(file) = &users {
            copy_users(file, &staging, forum_shards)?;
        }
        crate::commands::load::publish(&staging, &out)?;
        Ok(layout)
    });
    let layout = match written {
        Ok(layout) => layout,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(e);
        }
    };
    println!(
        "split {source} (version {version}) into {} forum shards -> {} (read {read:.2} s, total {:.2} s)",
        forum_shards,
        out.display(),
        started.elapsed().as_secs_f64()
    );
    for shard in layout {
        println!("  {shard}");
    }
    Ok(())
}

/// The whole graph: from a data directory, a checkpoint file or a live server.
fn read_source(src: Option<&Path>, from: Option<&str>, out: &Path) -> Result<(Snapshot, String)> {
    match (src, from) {
        (Some(dir), None) if dir.is_dir() => {
            let loaded = crate::data_dir::load(dir)?;
            Ok((loaded.snapshot, dir.display().to_string()))
        }
        (Some(file), None) if file.is_file() => {
            let snapshot = kith_storage::load_snapshot(file)
                .with_context(|| format!("reading the checkpoint {}", file.display()))?;
            Ok((snapshot, file.display().to_string()))
        }
        (Some(path), None) => bail!(
            "{} is neither a data directory nor a checkpoint file",
            path.display()
        ),
        (None, Some(url)) => {
            // Beside OUT, removed when read (a failed read leaves nothing either).
            let mut name = out.file_name().unwrap_or_default().to_os_string();
            name.push(format!(".checkpoint-{}", std::process::id()));
            let scratch = out.with_file_name(name);
            let fetched = kith_replication::bootstrap::fetch(url, &scratch, None);
            let snapshot = fetched
                .as_ref()
                .ok()
                .map(|_| kith_storage::load_snapshot(&scratch));
            let _ = std::fs::remove_file(&scratch);
            let fetched = fetched?;
            let snapshot = snapshot
                .expect("read once fetched")
                .context("reading the fetched checkpoint")?;
            let shown = kith_replication::bootstrap::without_credentials(url);
            Ok((
                snapshot,
                format!("{shown} (checkpoint of version {})", fetched.version),
            ))
        }
        _ => bail!("give a data directory or checkpoint file, or --from URL"),
    }
}

/// Writes every shard and the layout; returns a line per shard.
fn write_split(
    dir: &Path,
    split: kith_ldbc::shard::Split,
    source: &str,
    version: u64,
) -> Result<Vec<String>> {
    let count = split.forums.len();
    let placement_path = dir.join(kith_ldbc::shard::PLACEMENT_FILE);
    split
        .placement
        .write(&placement_path)
        .with_context(|| format!("writing {}", placement_path.display()))?;
    let mut lines = Vec::new();
    let mut forums = Vec::new();
    let split_id = split_id();
    let shards = std::iter::once((Shard::Person, split.person))
        .chain((split.forums.into_iter().enumerate()).map(|(i, g)| (Shard::Forum(i), g)));
    for (shard, raw) in shards {
        let name = shard.name();
        let identity = kith_ldbc::shard::identity_ops(shard, count, split_id);
        let about = serde_json::json!({
            "generator": "kith shard split",
            "source": source,
            "source_version": version,
            "shard": name,
            "forum_shards": count,
        });
        let (nodes, rels) = write_shard(&dir.join(&name), raw, about, identity)?;
        lines.push(format!("{name}: {nodes} nodes, {rels} relationships"));
        if name != "person" {
            forums.push(name);
        }
    }
    let layout = serde_json::json!({
        "scheme": "S5: person shard + forum shards (docs/sharding.md)",
        "placement": "forum shard = splitmix64(forum id) mod forum_shards",
        "forum_shards": count,
        "person": "person",
        "forums": forums,
        "split": split_id,
        "message_placement": kith_ldbc::shard::PLACEMENT_FILE,
        "source": source,
        "source_version": version,
    });
    let path = dir.join(LAYOUT_FILE);
    std::fs::write(&path, serde_json::to_string_pretty(&layout)? + "\n")
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(lines)
}

/// The source's users file into every shard's directory.
fn copy_users(file: &Path, dir: &Path, forum_shards: usize) -> Result<()> {
    let names = std::iter::once(Shard::Person)
        .chain((0..forum_shards).map(Shard::Forum))
        .map(Shard::name);
    for name in names {
        let to = dir.join(name).join(kith_server::auth::USERS_FILE);
        std::fs::copy(file, &to)
            .with_context(|| format!("copying {} to {}", file.display(), to.display()))?;
    }
    Ok(())
}

/// An id for one split, the same on all its shards (the router refuses to mix
/// shards of two splits): the clock and the process, mixed.
fn split_id() -> i64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut z = nanos ^ (u64::from(std::process::id()) << 32);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    ((z ^ (z >> 31)) >> 1) as i64
}

/// One shard as a data directory, with the name indexes `kith load ldbc` makes and
/// its identity (`identity`: `shard.info`).
fn write_shard(
    dir: &Path,
    raw: RawGraph,
    about: serde_json::Value,
    identity: Vec<WriteOp>,
) -> Result<(usize, usize)> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let store = Store::new(Snapshot::from_raw(raw)?);
    let mut batch = WriteBatch { ops: identity };
    for l in [label::COUNTRY, label::TAG, label::TAG_CLASS] {
        batch.push(WriteOp::CreateIndex {
            label: Arc::from(l),
            key: Arc::from(key::NAME),
        });
    }
    store.apply(&batch)?;
    let snapshot = store.snapshot();
    create_data_dir(dir, &snapshot)
        .with_context(|| format!("writing the graph into {}", dir.display()))?;
    let mut manifest = about;
    manifest["graph_file"] = GRAPH_FILE.into();
    manifest["graph_file_version"] = kith_storage::GRAPH_FILE_VERSION.into();
    manifest["nodes"] = snapshot.node_count().into();
    manifest["relationships"] = snapshot.rel_count().into();
    let path = dir.join(MANIFEST_FILE);
    std::fs::write(&path, serde_json::to_string_pretty(&manifest)? + "\n")
        .with_context(|| format!("writing {}", path.display()))?;
    for file in [GRAPH_FILE, MANIFEST_FILE] {
        std::fs::File::open(dir.join(file))
            .and_then(|f| f.sync_all())
            .with_context(|| format!("syncing {}", dir.join(file).display()))?;
    }
    Ok((snapshot.node_count(), snapshot.rel_count()))
}
