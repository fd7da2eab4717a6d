//! A transaction's private version of the graph, and the batch that commits it.
//!
//! A query that writes runs over a [`Tx`]: a copy-on-write clone of the version it
//! started from, to which its writes apply at once, so its later clauses (and an
//! explicit transaction's later statements) read them. Nobody else sees that clone.
//! What it wrote is also kept as one [`WriteBatch`] for the single writer, which
//! applies it to the newest version through the log: ids the clone handed out are
//! turned into references the batch can make again (`NodeRef::Created`), and a
//! relationship the transaction both created and changed is written once, as it
//! ended.

use std::sync::Arc;

use kith_core::write_op::{NodeRef, WriteCounts, WriteOp};
use kith_core::{Applied, GraphTx, GraphView, RelId, TxError, TxErrorKind, Value};
use rustc_hash::FxHashMap;

use crate::{Snapshot, StorageError, WriteBatch};

mod rebase;

pub use rebase::RebaseRefused;

/// Something the server keeps with a transaction for as long as any copy of it lives
/// (its locks): dropped with the last copy, whether it commits, rolls back or is lost.
pub type Owner = Arc<dyn std::any::Any + Send + Sync>;

/// A private version and the batch that makes it.
///
/// A clone is a savepoint: the statement that follows can be undone by going back
/// to it (copy-on-write pages make the clone cheap; the batch is copied).
#[derive(Clone)]
pub struct Tx {
    version: Snapshot,
    /// The version it started from, as it was (what its writes are checked against).
    base: Snapshot,
    /// The version it started from.
    base_version: u64,
    /// Ids at or past these were handed out by this transaction.
    node_base: u32,
    rel_base: u32,
    /// The batch so far; `None` where a relationship it created was deleted again.
    ops: Vec<Option<WriteOp>>,
    /// Nodes created so far (the next `NodeRef::Created` index).
    nodes_created: usize,
    /// The `CreateRel` operation of each relationship this transaction created.
    rel_ops: FxHashMap<RelId, usize>,
    counts: WriteCounts,
    failed: bool,
    /// Operations the batch may hold: a statement that would make more fails as
    /// it writes, before it holds more memory.
    ops_max: usize,
    /// Kept for the server, shared by every clone (see [`Owner`]).
    owner: Option<Owner>,
    /// Whether a statement has read this version: moving onto a newer one would then
    /// break snapshot isolation (see [`Tx::rebase`]).
    read: bool,
}

impl Tx {
    /// A transaction reading and writing a private copy of `base`.
    pub fn new(base: &Snapshot) -> Tx {
        Tx {
            version: base.clone(),
            base: base.clone(),
            base_version: base.version,
            node_base: base.nodes.len() as u32,
            rel_base: base.rels.len() as u32,
            ops: Vec::new(),
            nodes_created: 0,
            rel_ops: FxHashMap::default(),
            counts: WriteCounts::default(),
            failed: false,
            ops_max: usize::MAX,
            owner: None,
            read: false,
        }
    }

    /// A transaction whose batch may hold at most `ops_max` operations.
    pub fn with_ops_max(base: &Snapshot, ops_max: usize) -> Tx {
        Tx {
            ops_max,
            ..Tx::new(base)
        }
    }

    /// The version the transaction started from.
    pub fn base_version(&self) -> u64 {
        self.base_version
    }

    /// Whether it wrote nothing.
    pub fn is_empty(&self) -> bool {
        self.ops.iter().all(Option::is_none)
    }

    /// Operations in the batch so far.
    pub fn op_count(&self) -> usize {
        self.ops.iter().flatten().count()
    }

    /// What its statements changed, counted as they ran (Neo4j's statistics).
    pub fn counts(&self) -> WriteCounts {
        self.counts
    }

    /// Whether a write was refused (the transaction can only be rolled back).
    pub fn failed(&self) -> bool {
        self.failed
    }

    /// The batch that commits it.
    pub fn into_batch(self) -> WriteBatch {
        WriteBatch {
            ops: self.ops.into_iter().flatten().collect(),
        }
    }

    /// Records that a statement read the transaction's version.
    pub fn mark_read(&mut self) {
        self.read = true;
    }

    /// What the server keeps with it, if anything.
    pub fn owner(&self) -> Option<&Owner> {
        self.owner.as_ref()
    }

    /// Keeps `owner` with it (and its clones) until the last of them is dropped.
    pub fn set_owner(&mut self, owner: Owner) {
        self.owner = Some(owner);
    }

    /// Takes what the server keeps with it: a commit holds it until it is answered.
    pub fn take_owner(&mut self) -> Option<Owner> {
        self.owner.take()
    }

    /// What its writes change of the version it read (see [`crate::WriteSet`]).
    pub fn write_set(&self) -> crate::WriteSet {
        self.writes_after(0)
    }

    /// Where its batch ends now: [`Tx::writes_after`] this mark is what the
    /// statements after it changed.
    pub fn mark(&self) -> usize {
        self.ops.len()
    }

    /// What the operations recorded after `mark` change of the version it read (a
    /// later statement may rewrite an earlier creation, never an earlier change to
    /// something that existed, so this covers everything new since `mark`).
    pub fn writes_after(&self, mark: usize) -> crate::WriteSet {
        let ops = self.ops.get(mark..).unwrap_or_default();
        crate::WriteSet::of(ops.iter().flatten(), &self.base)
    }

    /// The batch that commits it, and what the writer checks first: the version it
    /// read and what it changed of it (see [`crate::History`]).
    pub fn into_commit(self) -> (WriteBatch, crate::ReadCheck) {
        let check = crate::ReadCheck {
            read: self.base_version,
            writes: self.write_set(),
        };
        (self.into_batch(), check)
    }

    /// The batch so far, leaving the transaction as it is (a statement's writes are
    /// checked against limits before it is answered).
    pub fn batch_ops(&self) -> impl Iterator<Item = &WriteOp> {
        self.ops.iter().flatten()
    }

    /// Records `op` (already applied to the private version) in the batch.
    fn record(&mut self, op: &WriteOp, first_created: usize) {
        let node = |r: &NodeRef| self.node_ref(r, first_created);
        let recorded = match op {
            WriteOp::CreateNode { .. } => {
                self.nodes_created += 1;
                op.clone()
            }
            WriteOp::CreateRel {
                rel_type,
                src,
                dst,
                properties,
            } => WriteOp::CreateRel {
                rel_type: rel_type.clone(),
                src: node(src),
                dst: node(dst),
                properties: properties.clone(),
            },
            WriteOp::SetNodeProperty {
                node: n,
                key,
                value,
            } => WriteOp::SetNodeProperty {
                node: node(n),
                key: key.clone(),
                value: value.clone(),
            },
            WriteOp::AddLabel { node: n, label } => WriteOp::AddLabel {
                node: node(n),
                label: label.clone(),
            },
            WriteOp::RemoveLabel { node: n, label } => WriteOp::RemoveLabel {
                node: node(n),
                label: label.clone(),
            },
            WriteOp::DeleteNode { node: n, detach } => WriteOp::DeleteNode {
                node: node(n),
                detach: *detach,
            },
            WriteOp::SetRelProperty { rel, key, value } => {
                if let Some(&i) = self.rel_ops.get(rel) {
                    // Its creation is in the batch: it is created as it ends.
                    if let Some(WriteOp::CreateRel { properties, .. }) = &mut self.ops[i] {
                        set_in(properties, key, value);
                    }
                    return;
                }
                op.clone()
            }
            WriteOp::DeleteRel { rel } => {
                if let Some(i) = self.rel_ops.remove(rel) {
                    self.ops[i] = None;
                    return;
                }
                op.clone()
            }
            WriteOp::Require(_)
            | WriteOp::EnsureNode { .. }
            | WriteOp::CreateIndex { .. }
            | WriteOp::DropIndex { .. }
            | WriteOp::Schema(_) => op.clone(),
        };
        self.ops.push(Some(recorded));
    }

    /// A node reference of one `apply` call as the whole batch sees it: nodes this
    /// transaction created are `Created(n)`, counted over the batch.
    fn node_ref(&self, r: &NodeRef, first_created: usize) -> NodeRef {
        match r {
            NodeRef::Node(id) if id.0 >= self.node_base => {
                NodeRef::Created((id.0 - self.node_base) as usize)
            }
            NodeRef::Created(i) => NodeRef::Created(first_created + i),
            other => other.clone(),
        }
    }
}

impl std::fmt::Debug for Tx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tx")
            .field("base_version", &self.base_version)
            .field("ops", &self.op_count())
            .field("failed", &self.failed)
            .finish()
    }
}

impl GraphTx for Tx {
    fn view(&self) -> &(dyn GraphView + 'static) {
        &self.version
    }

    fn apply(&mut self, ops: &[WriteOp]) -> Result<Applied, TxError> {
        if self.failed {
            return Err(TxError {
                kind: TxErrorKind::Failed,
                message: "the transaction failed earlier; roll it back".to_owned(),
            });
        }
        if self.ops.len() + ops.len() > self.ops_max {
            self.failed = true;
            return Err(TxError {
                kind: TxErrorKind::Other,
                message: format!(
                    "the transaction would make more than {} write operations (write_ops_max)",
                    self.ops_max
                ),
            });
        }
        // An ensured node takes a slot no `Created(n)` counts, which would shift the
        // references this transaction records: it is for batches (a shard's ingest),
        // not transactions.
        if ops
            .iter()
            .any(|op| matches!(op, WriteOp::EnsureNode { .. }))
        {
            return Err(TxError {
                kind: TxErrorKind::Other,
                message: "EnsureNode is for write batches, not transactions".to_owned(),
            });
        }
        let first_created = self.nodes_created;
        let mut created = crate::write::Created::default();
        let mut unchanged = WriteCounts::default();
        for op in ops {
            unchanged += self.unchanged(op);
            if let Err(e) = self.version.apply_op(op, &mut created) {
                self.failed = true;
                return Err(tx_error(&e));
            }
            self.record(op, first_created);
            if let WriteOp::CreateRel { .. } = op {
                let rel = *created.rels.last().expect("a CreateRel creates");
                debug_assert!(rel.0 >= self.rel_base, "a created relationship is new");
                self.rel_ops.insert(rel, self.ops.len() - 1);
            }
        }
        self.counts += WriteCounts::of(ops).since(unchanged);
        self.counts.relationships_deleted += created.detached_rels;
        Ok(Applied {
            nodes: created.nodes,
            rels: created.rels,
        })
    }
}

impl Tx {
    /// What `op` would be counted for that Neo4j does not count, because it changes
    /// nothing: a label the node already has (or, removed, lacks), or null set where
    /// there is no property. Read before `op` applies.
    fn unchanged(&self, op: &WriteOp) -> WriteCounts {
        let g = &self.version;
        let has_label = |n, label: &str| g.label_id(label).is_some_and(|l| g.has_label(n, l));
        let mut c = WriteCounts::default();
        match op {
            WriteOp::AddLabel {
                node: NodeRef::Node(n),
                label,
            } if has_label(*n, label) => c.labels_added = 1,
            WriteOp::RemoveLabel {
                node: NodeRef::Node(n),
                label,
            } if !has_label(*n, label) => c.labels_removed = 1,
            WriteOp::SetNodeProperty {
                node: NodeRef::Node(n),
                key,
                value: Value::Null,
            } if g
                .prop_key_id(key)
                .and_then(|k| g.node_property(*n, k))
                .is_none() =>
            {
                c.properties_set = 1
            }
            WriteOp::SetRelProperty {
                rel,
                key,
                value: Value::Null,
            } if g
                .prop_key_id(key)
                .and_then(|k| g.rel_property(*rel, k))
                .is_none() =>
            {
                c.properties_set = 1
            }
            _ => {}
        }
        c
    }
}

/// Sets `key` in a property list (`Null` removes it).
fn set_in(properties: &mut Vec<(kith_core::write_op::Name, Value)>, key: &Arc<str>, value: &Value) {
    properties.retain(|(k, _)| k != key);
    if !matches!(value, Value::Null) {
        properties.push((key.clone(), value.clone()));
    }
}

/// The engine's view of a storage error.
fn tx_error(e: &StorageError) -> TxError {
    let kind = match e {
        StorageError::NodeNotFound(_)
        | StorageError::RelNotFound(_)
        | StorageError::NoNodeWithId { .. }
        | StorageError::BadBatchReference(_)
        | StorageError::NoSuchIndex { .. } => TxErrorKind::NotFound,
        StorageError::NodeHasRelationships(_) => TxErrorKind::HasRelationships,
        StorageError::IdNotInt(_)
        | StorageError::UnsupportedPropertyValue { .. }
        | StorageError::InvalidName { .. } => TxErrorKind::InvalidValue,
        StorageError::DuplicateId { .. } | StorageError::NotUnique { .. } => {
            TxErrorKind::DuplicateId
        }
        StorageError::ConditionFailed(_) => TxErrorKind::ConditionFailed,
        StorageError::ConstraintCreationFailed { .. } => TxErrorKind::ConstraintCreationFailed,
        _ => TxErrorKind::Other,
    };
    TxError {
        kind,
        message: e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use kith_core::NodeId;

    use super::*;
    use crate::Store;

    fn name(s: &str) -> kith_core::write_op::Name {
        Arc::from(s)
    }

    fn node(labels: &[&str]) -> WriteOp {
        WriteOp::CreateNode {
            labels: labels.iter().map(|l| name(l)).collect(),
            properties: Vec::new(),
        }
    }

    fn rel(src: NodeRef, dst: NodeRef) -> WriteOp {
        WriteOp::CreateRel {
            rel_type: name("T"),
            src,
            dst,
            properties: Vec::new(),
        }
    }

    /// A store holding one node, so created ids do not start at 0.
    fn store() -> Store {
        let store = Store::new(Snapshot::empty());
        store
            .apply(&WriteBatch {
                ops: vec![node(&["Old"])],
            })
            .expect("applies");
        store
    }

    #[test]
    fn writes_are_read_back_at_once_and_nobody_else_sees_them() {
        let store = store();
        let mut tx = Tx::new(&store.snapshot());
        let made = tx.apply(&[node(&["A"])]).expect("applies");
        assert_eq!(made.nodes, [NodeId(1)]);
        let a = tx.view().label_id("A").expect("the label exists in the tx");
        assert!(tx.view().has_label(NodeId(1), a));
        assert_eq!(store.snapshot().node_count(), 1, "the store is unchanged");
        assert_eq!(tx.view().node_count(), 2);
    }

    #[test]
    fn the_batch_refers_to_created_nodes_by_their_place_across_statements() {
        let store = store();
        let mut tx = Tx::new(&store.snapshot());
        let first = tx.apply(&[node(&["A"])]).expect("applies").nodes[0];
        // A second statement: its own creations, one linked to the first statement's.
        tx.apply(&[
            node(&["B"]),
            rel(NodeRef::Node(first), NodeRef::Created(0)),
            rel(NodeRef::Node(NodeId(0)), NodeRef::Node(first)),
        ])
        .expect("applies");
        let batch = tx.into_batch();
        assert_eq!(batch.ops[2], rel(NodeRef::Created(0), NodeRef::Created(1)));
        assert_eq!(
            batch.ops[3],
            rel(NodeRef::Node(NodeId(0)), NodeRef::Created(0))
        );
        // Another commit first: the batch still applies, to the nodes it made.
        store
            .apply(&WriteBatch {
                ops: vec![node(&["Other"])],
            })
            .expect("applies");
        let info = store.apply(&batch).expect("applies");
        let g = store.snapshot();
        let t = g.rel_type_id("T").expect("type");
        let out = g.neighbors(info.created[0], t, kith_core::Direction::Out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].node, info.created[1]);
    }

    #[test]
    fn a_created_relationship_is_committed_as_it_ended() {
        let store = store();
        let mut tx = Tx::new(&store.snapshot());
        let r = tx
            .apply(&[rel(NodeRef::Node(NodeId(0)), NodeRef::Node(NodeId(0)))])
            .expect("applies")
            .rels[0];
        let gone = tx
            .apply(&[rel(NodeRef::Node(NodeId(0)), NodeRef::Node(NodeId(0)))])
            .expect("applies")
            .rels[0];
        let set = |key: &str, value: Value| WriteOp::SetRelProperty {
            rel: r,
            key: name(key),
            value,
        };
        tx.apply(&[set("w", Value::Int(1)), set("x", Value::Int(2))])
            .expect("applies");
        tx.apply(&[set("w", Value::Null), WriteOp::DeleteRel { rel: gone }])
            .expect("applies");
        assert_eq!(tx.counts().relationships_created, 2);
        let batch = tx.into_batch();
        assert_eq!(batch.ops.len(), 1, "{:?}", batch.ops);
        let WriteOp::CreateRel { properties, .. } = &batch.ops[0] else {
            panic!("a CreateRel: {:?}", batch.ops);
        };
        assert_eq!(properties, &[(name("x"), Value::Int(2))]);
    }

    #[test]
    fn a_transaction_holds_at_most_its_operations() {
        let store = store();
        let mut tx = Tx::with_ops_max(&store.snapshot(), 2);
        tx.apply(&[node(&["A"]), node(&["A"])]).expect("two fit");
        let err = tx.apply(&[node(&["A"])]).expect_err("a third does not");
        assert!(err.message.contains("write_ops_max"), "{err}");
        assert!(tx.failed());
    }

    #[test]
    fn a_refused_write_fails_the_transaction() {
        let store = store();
        let mut tx = Tx::new(&store.snapshot());
        let err = tx
            .apply(&[WriteOp::DeleteNode {
                node: NodeRef::Node(NodeId(7)),
                detach: false,
            }])
            .expect_err("no such node");
        assert_eq!(err.kind, TxErrorKind::NotFound);
        assert!(tx.failed());
        let again = tx.apply(&[node(&["A"])]).expect_err("failed before");
        assert_eq!(again.kind, TxErrorKind::Failed);
    }
}
