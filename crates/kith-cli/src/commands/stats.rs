//! `kith stats`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::Result;
use kith_core::shindig_schema::{label, rel};
use kith_core::{Direction, GraphView, RelId};

use crate::{alloc_counter, data_dir};

/// Summary of a degree sequence.
#[derive(Debug)]
struct Degrees {
    min: usize,
    median: usize,
    mean: f64,
    p90: usize,
    max: usize,
}

fn degrees(mut d: Vec<usize>) -> Option<Degrees> {
    if d.is_empty() {
        return None;
    }
    d.sort_unstable();
    let at = |q: f64| d[((d.len() - 1) as f64 * q).round() as usize];
    Some(Degrees {
        min: d[0],
        median: at(0.5),
        mean: d.iter().sum::<usize>() as f64 / d.len() as f64,
        p90: at(0.9),
        max: d[d.len() - 1],
    })
}

pub fn run(dir: Option<PathBuf>, memory: bool, json: bool) -> Result<()> {
    alloc_counter::start_counting();
    let before = alloc_counter::live_bytes();
    let loaded = data_dir::load_or_default(dir)?;
    let heap_bytes = alloc_counter::live_bytes().saturating_sub(before);
    let g = &loaded.snapshot;

    let mut labels: BTreeMap<String, usize> = BTreeMap::new();
    for n in g.node_ids() {
        for l in g.node_labels(n) {
            *labels.entry(g.label_name(*l).to_owned()).or_default() += 1;
        }
    }
    let mut types: BTreeMap<String, usize> = BTreeMap::new();
    for r in 0..g.rel_id_bound() as u32 {
        if let Some(r) = g.relationship(RelId(r)) {
            *types
                .entry(g.rel_type_name(r.rel_type).to_owned())
                .or_default() += 1;
        }
    }
    let friend_degrees = match (g.label_id(label::PERSON), g.rel_type_id(rel::FRIEND_OF)) {
        (Some(person), Some(friend_of)) => degrees(
            g.node_ids()
                .filter(|n| g.has_label(*n, person))
                .map(|n| g.neighbors(n, friend_of, Direction::Out).len())
                .collect(),
        ),
        _ => None,
    };
    let report = memory.then(|| g.memory_report());

    if json {
        let mut out = serde_json::json!({
            "nodes": g.node_count(),
            "relationships": g.rel_count(),
            "labels": labels,
            "relationship_types": types,
            "version": g.version(),
            "load_seconds": { "checkpoint": loaded.checkpoint_seconds, "log_replay": loaded.replay_seconds },
        });
        if let Some(d) = &friend_degrees {
            out["friend_degree"] = serde_json::json!({
                "min": d.min, "median": d.median, "mean": d.mean, "p90": d.p90, "max": d.max,
            });
        }
        if let Some(m) = &report {
            out["memory"] = serde_json::json!({
                "heap_bytes_counted": heap_bytes,
                "walked": {
                    "node_records": m.node_record_bytes,
                    "node_properties": m.node_property_bytes,
                    "adjacency": m.adjacency_bytes,
                    "relationships": m.rel_bytes,
                    "id_index": m.index_bytes,
                    "total": m.total(),
                },
                "string_bytes": m.node_string_bytes + m.rel_string_bytes,
                "bytes_per_node": per_node(m, g.node_count()),
                "bytes_per_node_excluding_strings": per_node_without_strings(m, g.node_count()),
                "bytes_per_relationship": per_rel(m, g.rel_count()),
                "bytes_per_relationship_excluding_strings": per_rel_without_strings(m, g.rel_count()),
            });
        }
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }

    println!(
        "nodes: {}   relationships: {}",
        g.node_count(),
        g.rel_count()
    );
    println!(
        "version {}, loaded in {:.3} s (checkpoint {:.3} s, log replay {:.3} s)",
        g.version(),
        loaded.checkpoint_seconds + loaded.replay_seconds,
        loaded.checkpoint_seconds,
        loaded.replay_seconds
    );
    println!("\nnodes per label:");
    for (name, count) in &labels {
        println!("  {name:<20} {count:>10}");
    }
    println!("\nrelationships per type:");
    for (name, count) in &types {
        println!("  {name:<20} {count:>10}");
    }
    if let Some(d) = friend_degrees {
        println!(
            "\nfriends per person: min {} / median {} / mean {:.1} / p90 {} / max {}",
            d.min, d.median, d.mean, d.p90, d.max
        );
    }
    if let Some(m) = report {
        let mib = |b: usize| b as f64 / (1024.0 * 1024.0);
        println!("\nmemory (heap, this version):");
        println!("  counted by the allocator  {:>10.1} MiB", mib(heap_bytes));
        println!("  walked, by part:");
        println!(
            "    node records            {:>10.1} MiB",
            mib(m.node_record_bytes)
        );
        println!(
            "    node labels+properties  {:>10.1} MiB",
            mib(m.node_property_bytes)
        );
        println!(
            "    adjacency lists         {:>10.1} MiB",
            mib(m.adjacency_bytes)
        );
        println!("    relationship records    {:>10.1} MiB", mib(m.rel_bytes));
        println!(
            "    external-id index (est) {:>10.1} MiB",
            mib(m.index_bytes)
        );
        println!(
            "    string bytes among them {:>10.1} MiB",
            mib(m.node_string_bytes + m.rel_string_bytes)
        );
        println!(
            "  bytes per node {:.0} (record, labels, properties, index), {:.0} without string \
             bytes; bytes per relationship {:.0} (record, properties, both adjacency entries), \
             {:.0} without string bytes",
            per_node(&m, g.node_count()),
            per_node_without_strings(&m, g.node_count()),
            per_rel(&m, g.rel_count()),
            per_rel_without_strings(&m, g.rel_count())
        );
    }
    Ok(())
}

fn per_node(m: &kith_storage::MemoryReport, nodes: usize) -> f64 {
    (m.node_record_bytes + m.node_property_bytes + m.index_bytes) as f64 / nodes.max(1) as f64
}

fn per_rel(m: &kith_storage::MemoryReport, rels: usize) -> f64 {
    (m.rel_bytes + m.adjacency_bytes) as f64 / rels.max(1) as f64
}

/// Issue 17's measure: the layout's cost per node, the data's string bytes apart.
fn per_node_without_strings(m: &kith_storage::MemoryReport, nodes: usize) -> f64 {
    per_node(m, nodes) - m.node_string_bytes as f64 / nodes.max(1) as f64
}

fn per_rel_without_strings(m: &kith_storage::MemoryReport, rels: usize) -> f64 {
    per_rel(m, rels) - m.rel_string_bytes as f64 / rels.max(1) as f64
}
