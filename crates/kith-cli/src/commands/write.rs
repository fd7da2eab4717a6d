//! `kith write`: commit one transaction, to a running server or to a data directory.

use std::path::Path;

use anyhow::{bail, Context, Result};
use kith_protocol::{Encoding, Request};
use kith_storage::{Database, DatabaseOptions, StorageError};

/// Where the transaction goes.
enum Target<'a> {
    Server(&'a str),
    Directory(&'a Path),
}

pub fn run(target: &str, ops_text: Option<&str>, file: Option<&Path>, json: bool) -> Result<()> {
    let text = match (ops_text, file) {
        (Some(_), Some(_)) => bail!("give the operations either inline or with --file, not both"),
        (Some(text), None) => text.to_owned(),
        (None, Some(path)) if path == Path::new("-") => {
            std::io::read_to_string(std::io::stdin()).context("reading stdin")?
        }
        (None, Some(path)) => {
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?
        }
        (None, None) => {
            bail!("no operations: give a JSON list inline or with --file (- for stdin)")
        }
    };
    let ops = parse_ops(&text)?;
    let target = if target.starts_with("ws://") || target.starts_with("wss://") {
        Target::Server(target)
    } else {
        Target::Directory(Path::new(target))
    };
    let (version, nodes, rels) = match target {
        Target::Server(url) => {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .context("starting the client runtime")?;
            runtime.block_on(async {
                let client = kith_client::Client::connect(kith_client::ClientConfig::new(url))
                    .await
                    .with_context(|| format!("connecting to {}", kith_client::redacted(url)))?;
                let done = client.write(ops).await?;
                Ok::<_, anyhow::Error>((done.version, done.nodes, done.rels))
            })?
        }
        Target::Directory(dir) => {
            let batch = kith_protocol::ops::decode(ops, usize::MAX)
                .map(|ops| kith_storage::WriteBatch { ops })
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            let (database, _) = match Database::open(dir, DatabaseOptions::default()) {
                Err(StorageError::Locked(_)) => bail!(
                    "a running server holds {}; send the write to it instead: kith write ws://HOST:PORT/v1/ws ...",
                    dir.display()
                ),
                other => other.with_context(|| format!("opening {}", dir.display()))?,
            };
            let info = database.commit_one(&batch)?;
            database.close()?;
            (
                info.version,
                info.created.iter().map(|n| n.0).collect(),
                info.created_rels.iter().map(|r| r.0).collect(),
            )
        }
    };
    if json {
        let out = serde_json::json!({ "version": version, "nodes": nodes, "rels": rels });
        println!("{out}");
    } else {
        println!("committed version {version}: created nodes {nodes:?}, relationships {rels:?}");
    }
    Ok(())
}

/// Accepts a JSON list of operations or a whole write request (`{"write": [...]}`).
fn parse_ops(text: &str) -> Result<Vec<kith_core::Value>> {
    let trimmed = text.trim_start();
    let document = if trimmed.starts_with('[') {
        format!("{{\"write\": {text}}}")
    } else {
        text.to_owned()
    };
    match Request::decode(Encoding::Json, document.as_bytes()) {
        Ok(Request::Write { ops, .. }) => Ok(ops),
        Ok(Request::Call { .. }) => {
            bail!("that is a procedure call, not a list of write operations")
        }
        Ok(Request::Cypher { .. }) => {
            bail!(
                "that is a Cypher query, not a list of write operations; run it with `kith query`"
            )
        }
        Ok(Request::Begin { .. } | Request::Commit { .. } | Request::Rollback { .. }) => {
            bail!("that is a transaction request, not a list of write operations")
        }
        Err(e) => bail!("the operations are not valid: {e}"),
    }
}
