//! The graph file a checkpoint writes and every start (and replica) reads.

use kith_core::{Direction, GraphView, RelId};
use kith_storage::{snapshot_from_bytes, Snapshot};

/// The trailer: the body's checksum (4 bytes) and the end marker (8).
const TRAILER_BYTES: usize = 12;

/// The trailer's checksum is recomputed over the input first, so the fuzzer reaches
/// the decoder; a graph that decodes must then read without a panic everywhere.
pub fn graph_file(data: &[u8]) {
    let mut bytes = data.to_vec();
    if bytes.len() >= 16 + TRAILER_BYTES {
        let body_end = bytes.len() - TRAILER_BYTES;
        let crc = super::wal::crc32(&bytes[..body_end]);
        bytes[body_end..body_end + 4].copy_from_slice(&crc.to_le_bytes());
    }
    if let Ok(snapshot) = snapshot_from_bytes(&bytes) {
        walk(&snapshot);
    }
}

/// Reads every node's labels, properties and adjacency, and every relationship,
/// checking that each relationship's ends list it.
pub(crate) fn walk(g: &Snapshot) {
    for n in g.node_ids() {
        for l in g.node_labels(n) {
            let _ = g.label_name(*l);
        }
        for (k, _) in g.node_properties(n).iter() {
            let _ = g.prop_key_name(*k);
        }
        for direction in [Direction::Out, Direction::In] {
            for t in g.rel_types_at(n, direction) {
                let _ = g.rel_type_name(t);
                let _ = g.neighbors(n, t, direction);
            }
        }
    }
    for r in 0..g.rel_id_bound() as u32 {
        let Some(rel) = g.relationship(RelId(r)) else {
            continue;
        };
        let listed = g
            .neighbors(rel.src, rel.rel_type, Direction::Out)
            .iter()
            .any(|e| e.rel == rel.id && e.node == rel.dst);
        assert!(listed, "relationship {r} is missing from its source's list");
    }
}
