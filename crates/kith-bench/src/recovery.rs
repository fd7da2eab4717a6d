//! Recovery: how long a graph file takes to load, in the current format (version 7,
//! an image of the in-memory layout) beside the record format it replaced (version
//! 3, one record per element, rebuilt element by element). The same graph is written
//! in both formats to a scratch directory, then each is loaded in turn, alternating,
//! so both see the same machine. The files sit in the page cache after the first
//! load: these are warm-cache times (a restart after a crash; a cold start adds the
//! disk's read time of the file size).

use std::path::Path;
use std::time::Instant;

use kith_core::GraphView;

use crate::ldbc::median;
use kith_storage::{load_snapshot, write_graph_file_version, Snapshot, GRAPH_FILE_VERSION};

/// The record format measured beside the current one.
const RECORDS_VERSION: u32 = 3;

/// One format's measurements.
pub struct Format {
    /// Format version.
    pub version: u32,
    /// File size, bytes.
    pub bytes: u64,
    /// Seconds to write the file (once).
    pub write_seconds: f64,
    /// Seconds per load, in run order.
    pub load_seconds: Vec<f64>,
}

/// Writes `graph` in both formats to a directory made under `scratch` (default: the
/// temp directory) and removed afterwards, then loads each `runs` times (after one
/// unmeasured load each), alternating. Each load is checked to hold the graph's node
/// and relationship counts.
pub fn run(graph: &Snapshot, scratch: Option<&Path>, runs: usize) -> Result<Vec<Format>, String> {
    let dir = match scratch {
        Some(parent) => tempfile::tempdir_in(parent),
        None => tempfile::tempdir(),
    }
    .map_err(|e| format!("making the scratch directory: {e}"))?;
    let scratch = dir.path();
    let mut formats = Vec::new();
    for version in [RECORDS_VERSION, GRAPH_FILE_VERSION] {
        let path = scratch.join(format!("graph-v{version}.kith"));
        let start = Instant::now();
        write_graph_file_version(graph, &path, version).map_err(|e| e.to_string())?;
        let write_seconds = start.elapsed().as_secs_f64();
        let bytes = std::fs::metadata(&path).map_err(|e| e.to_string())?.len();
        formats.push(Format {
            version,
            bytes,
            write_seconds,
            load_seconds: Vec::with_capacity(runs),
        });
    }
    for round in 0..=runs {
        for format in &mut formats {
            let path = scratch.join(format!("graph-v{}.kith", format.version));
            let start = Instant::now();
            let loaded = load_snapshot(&path).map_err(|e| e.to_string())?;
            let seconds = start.elapsed().as_secs_f64();
            let counts = (loaded.node_count(), loaded.rel_count());
            if counts != (graph.node_count(), graph.rel_count()) {
                return Err(format!(
                    "version {} loaded {counts:?} nodes and relationships, not {:?}",
                    format.version,
                    (graph.node_count(), graph.rel_count())
                ));
            }
            // Freed before the next load, as a restarting process would start empty.
            drop(loaded);
            if round > 0 {
                format.load_seconds.push(seconds);
            }
        }
    }
    Ok(formats)
}

/// A table: per format, size, write time and load time (median, min, max).
pub fn markdown(graph: &Snapshot, formats: &[Format]) -> String {
    let mut out = format!(
        "Recovery of a graph file: {} nodes, {} relationships; warm page cache, \
         {} loads per format, alternating.\n\n\
         | format | file MiB | write s | load s median | min | max |\n\
         |---|---:|---:|---:|---:|---:|\n",
        graph.node_count(),
        graph.rel_count(),
        formats.first().map_or(0, |f| f.load_seconds.len())
    );
    for f in formats {
        let min = f.load_seconds.iter().copied().fold(f64::INFINITY, f64::min);
        let max = f.load_seconds.iter().copied().fold(0.0, f64::max);
        out.push_str(&format!(
            "| version {} | {:.0} | {:.2} | {:.3} | {:.3} | {:.3} |\n",
            f.version,
            f.bytes as f64 / (1024.0 * 1024.0),
            f.write_seconds,
            median(f.load_seconds.clone()),
            min,
            max
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_formats_load_the_graph_they_were_written_from() {
        let graph = kith_datagen::shindig::generate(kith_datagen::shindig::ShindigConfig {
            scale: 0.05,
            seed: 7,
        })
        .map(|raw| Snapshot::from_raw(raw).expect("builds"))
        .expect("generates");
        let scratch = tempfile::tempdir().expect("scratch");
        let formats = run(&graph, Some(scratch.path()), 2).expect("runs");
        assert_eq!(formats.len(), 2);
        for f in &formats {
            assert_eq!(f.load_seconds.len(), 2);
            assert!(f.bytes > 0);
        }
        let table = markdown(&graph, &formats);
        assert!(
            table.contains("| version 3 |") && table.contains("| version 7 |"),
            "{table}"
        );
    }
}
