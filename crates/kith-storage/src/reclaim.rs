//! Forgetting names nothing uses, so that the catalog holds what the graph holds.
//!
//! Every label, relationship type and property key a write names is interned, and
//! interning one costs memory in the catalog and in each version's tables. A client
//! that writes a new name per request (a label per user, say) and deletes the element
//! again would otherwise grow the catalog for ever, up to its 65,536 ids a kind. The
//! writer calls [`Snapshot::reclaim_names`] on the version it is about to extend once
//! the catalog has grown by [`RECLAIM_AFTER`] names since it last did, and a store
//! does it as it opens: a name no node or relationship carries, and that no index,
//! constraint or edge-order rule names, is forgotten and its id given to the next new
//! name. Ids are internal (no client sees one); each version keeps its own catalog, so
//! a reader of an older version still reads the forgotten name there.

use kith_core::{LabelId, PropKeyId, RelTypeId, ORDER_RULES};
use rustc_hash::FxHashSet;

use crate::catalog::ID_KEY;
use crate::Snapshot;

/// New names after which the writer looks for names to forget.
pub(crate) const RECLAIM_AFTER: usize = 1_024;

/// What a reclaim forgot.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reclaimed {
    /// Labels forgotten.
    pub labels: usize,
    /// Relationship types forgotten.
    pub rel_types: usize,
    /// Property keys forgotten.
    pub prop_keys: usize,
}

/// Names kept whatever the graph holds: those indexes and order rules are built on.
struct Kept {
    labels: FxHashSet<LabelId>,
    rel_types: FxHashSet<RelTypeId>,
    keys: FxHashSet<PropKeyId>,
}

impl Snapshot {
    /// Forgets the names nothing uses (see the module's comment).
    pub fn reclaim_names(&mut self) -> Reclaimed {
        let kept = self.kept_names();
        let c = &self.catalog;
        let labels: Vec<LabelId> = c
            .labels
            .ids()
            .map(LabelId)
            .filter(|l| self.label_index.count(*l) == 0 && !kept.labels.contains(l))
            .collect();
        let keys: Vec<PropKeyId> = c
            .prop_keys
            .ids()
            .map(PropKeyId)
            .filter(|k| *k != ID_KEY && !kept.keys.contains(k))
            .filter(|k| !self.node_cols.has_key(*k) && !self.rel_cols.has_key(*k))
            .collect();
        let mut used = vec![false; c.rel_type_count()];
        for rel in self.rels.iter().flatten() {
            used[rel.rel_type.index()] = true;
        }
        let rel_types: Vec<RelTypeId> = c
            .rel_types
            .ids()
            .map(RelTypeId)
            .filter(|t| !used[t.index()] && !kept.rel_types.contains(t))
            .collect();
        let reclaimed = Reclaimed {
            labels: labels.len(),
            rel_types: rel_types.len(),
            prop_keys: keys.len(),
        };
        if reclaimed != Reclaimed::default() {
            std::sync::Arc::make_mut(&mut self.catalog).forget(&labels, &rel_types, &keys);
        }
        reclaimed
    }

    fn kept_names(&self) -> Kept {
        let c = &self.catalog;
        let mut kept = Kept {
            labels: FxHashSet::default(),
            rel_types: FxHashSet::default(),
            keys: FxHashSet::default(),
        };
        for (label, key) in self.prop_indexes.definitions() {
            kept.labels.insert(label);
            kept.keys.insert(key);
        }
        for (label, keys) in self.prop_indexes.composites() {
            kept.labels.insert(label);
            kept.keys.extend(keys);
        }
        for (label, keys) in self.unique_ids.iter() {
            kept.labels.insert(*label);
            kept.keys.extend(keys.iter().copied());
        }
        for rule in ORDER_RULES {
            kept.rel_types.extend(c.find_rel_type(rule.rel_type));
            kept.keys.extend(c.find_prop_key(rule.key));
            kept.labels.extend(rule.first.and_then(|l| c.find_label(l)));
        }
        kept
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use kith_core::write_op::{NodeRef, WriteOp};
    use kith_core::{GraphView, NodeId, Value};

    use crate::{Store, WriteBatch};

    use super::*;

    /// A node with a label and a key of its own, deleted in the same batch.
    fn passing(i: usize) -> WriteBatch {
        WriteBatch {
            ops: vec![
                WriteOp::CreateNode {
                    labels: vec![Arc::from(format!("L{i}"))],
                    properties: vec![(Arc::from(format!("k{i}")), Value::Int(1))],
                },
                WriteOp::DeleteNode {
                    node: NodeRef::Created(0),
                    detach: true,
                },
            ],
        }
    }

    fn kept_node() -> WriteBatch {
        WriteBatch {
            ops: vec![
                WriteOp::CreateNode {
                    labels: vec![Arc::from("Kept")],
                    properties: vec![(Arc::from("kept"), Value::Int(7))],
                },
                WriteOp::CreateRel {
                    rel_type: Arc::from("SELF"),
                    src: NodeRef::Created(0),
                    dst: NodeRef::Created(0),
                    properties: Vec::new(),
                },
            ],
        }
    }

    #[test]
    fn names_nothing_uses_are_forgotten_and_what_is_used_stays() {
        let store = Store::new(Snapshot::empty());
        store.apply(&kept_node()).expect("applies");
        for i in 0..10 {
            store.apply(&passing(i)).expect("applies");
        }
        let before = store.snapshot();
        let mut g = Snapshot::clone(&before);
        let forgot = g.reclaim_names();
        assert_eq!(
            (forgot.labels, forgot.prop_keys, forgot.rel_types),
            (10, 10, 0)
        );
        assert_eq!(g.label_names(), ["Kept"]);
        assert_eq!(g.prop_key_names(), ["id", "kept"]);
        assert_eq!(g.rel_type_names(), ["SELF"]);
        assert_eq!(
            before.label_id("L3").map(|l| before.label_name(l)),
            Some("L3"),
            "the older version keeps it"
        );
        // A new name takes a forgotten id; what was kept reads as before.
        let mut next = g.clone();
        next.apply_batch(&passing(99)).expect("applies");
        assert!(next.label_id("L99").expect("interned").index() < g.catalog.label_count());
        let kept = next.label_id("Kept").expect("kept");
        let node = next.nodes_with_label(kept).next().expect("one");
        let key = next.prop_key_id("kept").expect("kept");
        assert_eq!(next.node_property(node, key), Some(Value::Int(7)));
        assert_eq!(NodeId(0), node);
    }

    #[test]
    fn a_hundred_thousand_passing_names_never_fill_the_catalog() {
        let store = Store::new(Snapshot::empty());
        store.apply(&kept_node()).expect("applies");
        for i in 0..100_000 {
            store
                .apply(&passing(i))
                .expect("a free id for every new name");
        }
        let g = store.snapshot();
        // Forgotten every RECLAIM_AFTER names: the ids handed out stay near that.
        assert!(
            g.catalog.label_count() <= 2 * RECLAIM_AFTER + 2,
            "{}",
            g.catalog.label_count()
        );
        assert!(
            g.catalog.prop_key_count() <= 2 * RECLAIM_AFTER + 3,
            "{}",
            g.catalog.prop_key_count()
        );
        assert!(
            g.catalog.names_held() <= RECLAIM_AFTER + 8,
            "{}",
            g.catalog.names_held()
        );
        let kept = g.label_id("Kept").expect("kept");
        assert_eq!(g.nodes_with_label(kept).count(), 1);
        assert_eq!(g.node_count(), 1);
    }

    #[test]
    fn a_checkpoint_keeps_the_free_ids_and_gives_them_out_after_a_restart() {
        let store = Store::new(Snapshot::empty());
        store.apply(&kept_node()).expect("applies");
        for i in 0..5 {
            store.apply(&passing(i)).expect("applies");
        }
        let mut g = Snapshot::clone(&store.snapshot());
        g.reclaim_names();
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("graph.kith");
        crate::write_graph_file(&g, &path).expect("writes");
        let raw =
            Snapshot::from_raw(crate::read_graph_file(&path).expect("reads")).expect("builds");
        assert_eq!(
            raw.label_names(),
            ["Kept"],
            "the element-by-element reader too"
        );
        let mut back = crate::load_snapshot(&path).expect("reads");
        assert_eq!(back.label_names(), ["Kept"]);
        assert_eq!(back.prop_key_names(), ["id", "kept"]);
        assert_eq!(
            back.catalog.label_count(),
            g.catalog.label_count(),
            "ids as they were"
        );
        let kept = back.label_id("Kept").expect("kept");
        assert_eq!(back.nodes_with_label(kept).count(), 1);
        let bound = back.catalog.label_count();
        back.apply_batch(&passing(42)).expect("applies");
        assert_eq!(back.catalog.label_count(), bound, "a free id was taken");
    }

    #[test]
    fn a_kind_holds_65536_names_in_use_and_says_so_past_it() {
        let mut c = crate::Catalog::default();
        for i in 0..crate::NAMES_MAX {
            c.label(&format!("L{i}")).expect("fits");
        }
        let full = c.label("one more").expect_err("full");
        assert!(
            full.to_string()
                .contains("more than 65,536 labels in use at once"),
            "{full}"
        );
        c.forget(&[LabelId(7)], &[], &[]);
        assert_eq!(c.label("one more").expect("room again"), LabelId(7));
        assert_eq!(c.find_label("L7"), None);
    }

    #[test]
    fn names_indexes_and_order_rules_stand_on_are_kept() {
        let store = Store::new(Snapshot::empty());
        store
            .apply(&WriteBatch {
                ops: vec![WriteOp::CreateIndex {
                    label: Arc::from("Indexed"),
                    key: Arc::from("on"),
                }],
            })
            .expect("declares");
        let mut g = Snapshot::clone(&store.snapshot());
        g.reclaim_names();
        assert!(g.label_id("Indexed").is_some());
        assert!(g.prop_key_id("on").is_some());
        assert!(g.prop_key_id("id").is_some());
    }
}
