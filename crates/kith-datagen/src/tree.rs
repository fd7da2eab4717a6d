//! S2's traversal tree (Pavageau, 2016): a root `A`, then levels alternating `B` and
//! `A`, every node with `fanout` children, reached by `HAS_B` from an `A` and by
//! `HAS_A` from a `B`; each node carries a random boolean `flag`. Ten levels of four
//! give S2's 1,398,101 nodes.
//!
//! Nodes are numbered level by level, so the root is node 0 and has `id` 0; the same
//! seed always gives the same flags.

use kith_core::{NodeId, Value};
use kith_storage::{RawGraph, StorageError, ID_KEY};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The tree's shape.
#[derive(Clone, Copy, Debug)]
pub struct TreeConfig {
    /// Levels below the root (S2: 10).
    pub levels: u32,
    /// Children of every node above the last level (S2: 4).
    pub fanout: u32,
    /// Seed of the flags.
    pub seed: u64,
}

impl TreeConfig {
    /// S2's tree: 10 levels of 4.
    pub const S2: TreeConfig = TreeConfig {
        levels: 10,
        fanout: 4,
        seed: 42,
    };

    /// Nodes in the tree: `1 + f + f^2 + ... + f^levels`, `None` past 2^32.
    pub fn node_count(&self) -> Option<u64> {
        let mut total: u64 = 0;
        let mut level: u64 = 1;
        for _ in 0..=self.levels {
            total = total.checked_add(level)?;
            level = level.checked_mul(u64::from(self.fanout))?;
        }
        (total <= u64::from(u32::MAX)).then_some(total)
    }
}

/// Builds the tree.
pub fn generate(config: TreeConfig) -> Result<RawGraph, StorageError> {
    let total = config.node_count().ok_or(StorageError::CapacityExceeded(
        "a tree of more than 2^32 nodes",
    ))?;
    let mut raw = RawGraph::default();
    let labels = [raw.catalog.label("A")?, raw.catalog.label("B")?];
    // The type leading into a level: HAS_B into B levels, HAS_A into A levels.
    let into = [
        raw.catalog.rel_type("HAS_A")?,
        raw.catalog.rel_type("HAS_B")?,
    ];
    let flag = raw.catalog.prop_key("flag")?;
    let mut rng = Pcg64Mcg::seed_from_u64(config.seed);
    raw.nodes.reserve(total as usize);
    raw.rels.reserve(total.saturating_sub(1) as usize);
    let node = |raw: &mut RawGraph, level: u32, rng: &mut Pcg64Mcg| {
        let id = raw.nodes.len() as i64;
        raw.add_node(
            vec![labels[level as usize % 2]],
            vec![(ID_KEY, Value::Int(id)), (flag, Value::Bool(rng.gen()))],
        )
    };
    let mut parents = vec![node(&mut raw, 0, &mut rng)?];
    for level in 1..=config.levels {
        let mut children = Vec::with_capacity(parents.len() * config.fanout as usize);
        for &parent in &parents {
            for _ in 0..config.fanout {
                let child: NodeId = node(&mut raw, level, &mut rng)?;
                raw.add_rel(into[level as usize % 2], parent, child, Vec::new())?;
                children.push(child);
            }
        }
        parents = children;
    }
    Ok(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_has_s2s_shape() {
        assert_eq!(TreeConfig::S2.node_count(), Some(1_398_101));
        assert_eq!(
            TreeConfig {
                levels: 40,
                fanout: 4,
                seed: 1
            }
            .node_count(),
            None
        );
        let raw = generate(TreeConfig {
            levels: 2,
            fanout: 3,
            seed: 7,
        })
        .expect("a tree");
        assert_eq!((raw.nodes.len(), raw.rels.len()), (13, 12));
        let name = |n: usize| {
            let node = raw.nodes[n].as_ref().expect("a node");
            raw.catalog.label_name(node.labels[0]).to_owned()
        };
        assert_eq!(
            (name(0), name(1), name(4), name(12)),
            ("A".into(), "B".into(), "A".into(), "A".into())
        );
        let rel = |r: usize| raw.rels[r].as_ref().expect("a relationship");
        assert_eq!(raw.catalog.rel_type_name(rel(0).rel_type), "HAS_B");
        assert_eq!(raw.catalog.rel_type_name(rel(3).rel_type), "HAS_A");
        assert_eq!((rel(3).src, rel(3).dst), (NodeId(1), NodeId(4)));
        // The same seed gives the same flags.
        let again = generate(TreeConfig {
            levels: 2,
            fanout: 3,
            seed: 7,
        })
        .expect("a tree");
        let flags = |g: &RawGraph| -> Vec<Value> {
            g.nodes
                .iter()
                .map(|n| n.as_ref().expect("a node").properties[1].1.clone())
                .collect()
        };
        assert_eq!(flags(&raw), flags(&again));
    }
}
