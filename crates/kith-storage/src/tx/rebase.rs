//! Moving a transaction onto a newer version, as if it had begun there.
//!
//! A transaction's first statement that must change what another transaction
//! committed after this one began (having waited for that commit: the server's
//! locks) runs again on the newer version instead of failing the commit. Only a
//! transaction none of whose statements has read yet moves: one that read the older
//! version would otherwise write what it computed from values since changed (a lost
//! update), so it keeps snapshot isolation and conflicts at commit. Writes made
//! before (by a statement that is being run again, say) are replayed from the batch.

use super::Tx;
use crate::Snapshot;

/// Why a transaction cannot be moved onto a newer version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RebaseRefused {
    /// A statement has read the older version.
    ReadBefore,
    /// It created nodes or relationships and the newer version holds others its
    /// ids would now name: its statements have seen ids it could not keep.
    IdsTaken,
    /// Its writes do not apply to the newer version (a uniqueness constraint now
    /// taken, say).
    DoesNotApply(String),
}

impl std::fmt::Display for RebaseRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RebaseRefused::ReadBefore => {
                f.write_str("an earlier statement of it read the older version")
            }
            RebaseRefused::IdsTaken => f.write_str(
                "it created nodes or relationships whose ids another commit has taken since",
            ),
            RebaseRefused::DoesNotApply(why) => write!(f, "its writes no longer apply: {why}"),
        }
    }
}

impl Tx {
    /// Makes the transaction's writes again on `newer` and reads that from now on,
    /// keeping the ids it handed out. Unchanged when refused.
    pub fn rebase(&mut self, newer: &Snapshot) -> Result<(), RebaseRefused> {
        debug_assert!(newer.version >= self.base_version, "a rebase moves forward");
        if self.read {
            return Err(RebaseRefused::ReadBefore);
        }
        let created_any = self.version.nodes.len() as u32 > self.node_base
            || self.version.rels.len() as u32 > self.rel_base;
        let same_ids =
            newer.nodes.len() as u32 == self.node_base && newer.rels.len() as u32 == self.rel_base;
        if created_any && !same_ids {
            return Err(RebaseRefused::IdsTaken);
        }
        let mut version = newer.clone();
        let mut created = crate::write::Created::default();
        for op in self.ops.iter().flatten() {
            version
                .apply_op(op, &mut created)
                .map_err(|e| RebaseRefused::DoesNotApply(e.to_string()))?;
        }
        assert!(
            created
                .nodes
                .iter()
                .enumerate()
                .all(|(i, n)| n.0 == self.node_base + i as u32),
            "a replayed creation keeps its id"
        );
        self.version = version;
        self.base = newer.clone();
        self.base_version = newer.version;
        self.node_base = newer.nodes.len() as u32;
        self.rel_base = newer.rels.len() as u32;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use kith_core::write_op::{NodeRef, WriteOp};
    use kith_core::{GraphTx, GraphView, NodeId, Value};

    use super::*;
    use crate::{Store, WriteBatch};

    fn set(node: u32, value: i64) -> WriteOp {
        WriteOp::SetNodeProperty {
            node: NodeRef::Node(NodeId(node)),
            key: Arc::from("p"),
            value: Value::Int(value),
        }
    }

    fn create() -> WriteOp {
        WriteOp::CreateNode {
            labels: vec![Arc::from("A")],
            properties: Vec::new(),
        }
    }

    fn prop(g: &dyn GraphView, node: u32) -> Option<Value> {
        let key = g.prop_key_id("p")?;
        g.node_property(NodeId(node), key)
    }

    fn store(nodes: usize) -> Store {
        let store = Store::new(Snapshot::empty());
        let ops = (0..nodes).map(|_| create()).collect();
        store.apply(&WriteBatch { ops }).expect("applies");
        store
    }

    #[test]
    fn a_rebased_transaction_reads_the_newer_commit_and_keeps_its_writes() {
        let store = store(2);
        let mut tx = Tx::new(&store.snapshot());
        tx.apply(&[set(0, 10)]).expect("applies");
        store
            .apply(&WriteBatch {
                ops: vec![set(1, 7)],
            })
            .expect("commits");
        assert_eq!(prop(tx.view(), 1), None, "its snapshot");
        tx.rebase(&store.snapshot()).expect("rebases");
        assert_eq!(prop(tx.view(), 1), Some(Value::Int(7)), "the newer commit");
        assert_eq!(prop(tx.view(), 0), Some(Value::Int(10)), "its own write");
        assert_eq!(tx.base_version(), store.snapshot().version());
        let (_, check) = tx.into_commit();
        assert_eq!(check.read, store.snapshot().version());
    }

    #[test]
    fn created_ids_survive_a_rebase_only_where_nobody_took_them() {
        let store = store(1);
        let mut tx = Tx::new(&store.snapshot());
        let made = tx.apply(&[create()]).expect("applies").nodes[0];
        store
            .apply(&WriteBatch {
                ops: vec![set(0, 1)],
            })
            .expect("commits");
        tx.rebase(&store.snapshot())
            .expect("no node was created meanwhile");
        assert!(
            !tx.view().node_labels(made).is_empty(),
            "still there, same id"
        );
        store
            .apply(&WriteBatch {
                ops: vec![create()],
            })
            .expect("commits");
        let before = tx.base_version();
        assert_eq!(tx.rebase(&store.snapshot()), Err(RebaseRefused::IdsTaken));
        assert_eq!(tx.base_version(), before, "unchanged");
        // A transaction that created nothing moves past others' creations.
        let mut other = Tx::new(&store.snapshot());
        other.apply(&[set(0, 2)]).expect("applies");
        store
            .apply(&WriteBatch {
                ops: vec![create()],
            })
            .expect("commits");
        other.rebase(&store.snapshot()).expect("rebases");
        let (batch, _) = other.into_commit();
        assert_eq!(batch.ops, vec![set(0, 2)]);
    }

    #[test]
    fn a_transaction_that_read_stays_on_its_version() {
        let store = store(1);
        let mut tx = Tx::new(&store.snapshot());
        tx.mark_read();
        store
            .apply(&WriteBatch {
                ops: vec![set(0, 1)],
            })
            .expect("commits");
        assert_eq!(tx.rebase(&store.snapshot()), Err(RebaseRefused::ReadBefore));
    }

    #[test]
    fn writes_that_no_longer_apply_refuse_the_rebase() {
        let store = store(1);
        let mut tx = Tx::new(&store.snapshot());
        tx.apply(&[set(0, 1)]).expect("applies");
        store
            .apply(&WriteBatch {
                ops: vec![WriteOp::DeleteNode {
                    node: NodeRef::Node(NodeId(0)),
                    detach: true,
                }],
            })
            .expect("commits");
        let refused = tx.rebase(&store.snapshot()).expect_err("the node is gone");
        assert!(
            matches!(refused, RebaseRefused::DoesNotApply(_)),
            "{refused}"
        );
    }
}
