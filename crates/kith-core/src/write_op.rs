//! Write operations as plain data: what a client sends, the log records and an update
//! procedure produces. They live here, not in the store, so procedures (which see only
//! kith-core) can describe updates that the storage layer then applies durably.

use std::sync::Arc;

use crate::{NodeId, RelId, SchemaOp, Value};

/// A label, relationship type or property key name in a write. Shared (`Arc<str>`), so
/// a request's thousand repetitions of one name, decoded once, are not copied a
/// thousand times on their way to the catalog.
pub type Name = Arc<str>;

/// How an operation names a node.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeRef {
    /// By internal id.
    Node(NodeId),
    /// By the external-id index: the node of `label` whose `id` property is `id`.
    ById {
        /// Label.
        label: Name,
        /// External id.
        id: i64,
    },
    /// The `n`-th node (counting from 0) created by earlier `CreateNode` operations
    /// of the same batch: the index into the storage layer's `CommitInfo::created`.
    Created(usize),
}

/// One change to the graph. Names are strings so a batch can introduce new labels,
/// types and keys; the writer interns them.
#[derive(Clone, Debug, PartialEq)]
pub enum WriteOp {
    /// Creates a node.
    CreateNode {
        /// Labels.
        labels: Vec<Name>,
        /// Properties; an Int `id` enters the external-id index under every label.
        properties: Vec<(Name, Value)>,
    },
    /// Creates a relationship.
    CreateRel {
        /// Type.
        rel_type: Name,
        /// Source.
        src: NodeRef,
        /// Target.
        dst: NodeRef,
        /// Properties.
        properties: Vec<(Name, Value)>,
    },
    /// Sets a node property; `Null` removes it.
    SetNodeProperty {
        /// The node.
        node: NodeRef,
        /// Key.
        key: Name,
        /// New value.
        value: Value,
    },
    /// Sets a relationship property; `Null` removes it.
    SetRelProperty {
        /// The relationship.
        rel: RelId,
        /// Key.
        key: Name,
        /// New value.
        value: Value,
    },
    /// Adds a label to a node.
    AddLabel {
        /// The node.
        node: NodeRef,
        /// Label.
        label: Name,
    },
    /// Removes a label from a node.
    RemoveLabel {
        /// The node.
        node: NodeRef,
        /// Label.
        label: Name,
    },
    /// Deletes a node; with `detach` its relationships go too, without it a node that
    /// still has relationships is an error.
    DeleteNode {
        /// The node.
        node: NodeRef,
        /// Delete its relationships first.
        detach: bool,
    },
    /// Deletes a relationship.
    DeleteRel {
        /// The relationship.
        rel: RelId,
    },
    /// Makes sure a node of `label` with external id `id` exists: when none does, it
    /// creates one with that label and the `id` alone (a shard's proxy of a node that
    /// lives on another shard, docs/sharding.md). The node it may create is not one of
    /// the batch's `Created` nodes, and is not in the batch's counts: whether it is
    /// made is known only when the batch applies.
    EnsureNode {
        /// Label.
        label: Name,
        /// External id.
        id: i64,
    },
    /// Aborts the whole batch unless the condition holds when this operation runs
    /// (after the batch's earlier operations). "Create if absent" is
    /// `Require(Absent{..})` followed by the `CreateNode`.
    Require(Condition),
    /// Declares a property index on `(label, key)` and fills it; declaring an existing
    /// index changes nothing.
    CreateIndex {
        /// Label.
        label: Name,
        /// Property key.
        key: Name,
    },
    /// Drops a property index; dropping one that does not exist is an error.
    DropIndex {
        /// Label.
        label: Name,
        /// Property key.
        key: Name,
    },
    /// Changes the schema: names an index, declares or drops a uniqueness
    /// constraint, stores or drops a Cypher procedure.
    Schema(SchemaOp),
}

/// A precondition of a batch.
#[derive(Clone, Debug, PartialEq)]
pub enum Condition {
    /// No node with `label` has property `key` equal to `value`.
    Absent {
        /// Label.
        label: Name,
        /// Property key.
        key: Name,
        /// Value.
        value: Value,
    },
    /// At least one node with `label` has property `key` equal to `value`.
    Present {
        /// Label.
        label: Name,
        /// Property key.
        key: Name,
        /// Value.
        value: Value,
    },
}

impl std::fmt::Display for Condition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (what, label, key, value) = match self {
            Condition::Absent { label, key, value } => ("no", label, key, value),
            Condition::Present { label, key, value } => ("some", label, key, value),
        };
        write!(f, "{what} :{label} node has {key} = {value}")
    }
}

/// What a batch changes, counted the way Neo4j's query statistics count it (the
/// counters Bolt drivers show in a result's summary).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteCounts {
    /// Nodes created.
    pub nodes_created: u64,
    /// Nodes deleted.
    pub nodes_deleted: u64,
    /// Relationships created.
    pub relationships_created: u64,
    /// Relationships deleted. [`WriteCounts::of`] counts those named; a detaching
    /// delete's, not known before it runs, are added by the transaction that ran it.
    pub relationships_deleted: u64,
    /// Properties set, at creation or after (removals included).
    pub properties_set: u64,
    /// Labels added, at creation or after.
    pub labels_added: u64,
    /// Labels removed.
    pub labels_removed: u64,
    /// Indexes declared.
    pub indexes_added: u64,
    /// Indexes dropped.
    pub indexes_removed: u64,
    /// Constraints declared.
    pub constraints_added: u64,
    /// Constraints dropped.
    pub constraints_removed: u64,
}

impl std::ops::AddAssign for WriteCounts {
    fn add_assign(&mut self, o: WriteCounts) {
        self.nodes_created += o.nodes_created;
        self.nodes_deleted += o.nodes_deleted;
        self.relationships_created += o.relationships_created;
        self.relationships_deleted += o.relationships_deleted;
        self.properties_set += o.properties_set;
        self.labels_added += o.labels_added;
        self.labels_removed += o.labels_removed;
        self.indexes_added += o.indexes_added;
        self.indexes_removed += o.indexes_removed;
        self.constraints_added += o.constraints_added;
        self.constraints_removed += o.constraints_removed;
    }
}

impl WriteCounts {
    /// What was counted after `earlier` (a statement's share of its transaction's).
    pub fn since(self, earlier: WriteCounts) -> WriteCounts {
        WriteCounts {
            nodes_created: self.nodes_created - earlier.nodes_created,
            nodes_deleted: self.nodes_deleted - earlier.nodes_deleted,
            relationships_created: self.relationships_created - earlier.relationships_created,
            relationships_deleted: self.relationships_deleted - earlier.relationships_deleted,
            properties_set: self.properties_set - earlier.properties_set,
            labels_added: self.labels_added - earlier.labels_added,
            labels_removed: self.labels_removed - earlier.labels_removed,
            indexes_added: self.indexes_added - earlier.indexes_added,
            indexes_removed: self.indexes_removed - earlier.indexes_removed,
            constraints_added: self.constraints_added - earlier.constraints_added,
            constraints_removed: self.constraints_removed - earlier.constraints_removed,
        }
    }

    /// The counts of `ops`.
    pub fn of(ops: &[WriteOp]) -> WriteCounts {
        let mut c = WriteCounts::default();
        for op in ops {
            match op {
                WriteOp::CreateNode { labels, properties } => {
                    c.nodes_created += 1;
                    c.labels_added += labels.len() as u64;
                    c.properties_set += properties.len() as u64;
                }
                WriteOp::CreateRel { properties, .. } => {
                    c.relationships_created += 1;
                    c.properties_set += properties.len() as u64;
                }
                WriteOp::SetNodeProperty { .. } | WriteOp::SetRelProperty { .. } => {
                    c.properties_set += 1;
                }
                WriteOp::AddLabel { .. } => c.labels_added += 1,
                WriteOp::RemoveLabel { .. } => c.labels_removed += 1,
                WriteOp::DeleteNode { .. } => c.nodes_deleted += 1,
                WriteOp::DeleteRel { .. } => c.relationships_deleted += 1,
                WriteOp::CreateIndex { .. } => c.indexes_added += 1,
                WriteOp::DropIndex { .. } => c.indexes_removed += 1,
                WriteOp::Schema(SchemaOp::CreateUnique { .. })
                | WriteOp::Schema(SchemaOp::CreateComposite { unique: true, .. }) => {
                    c.constraints_added += 1
                }
                WriteOp::Schema(SchemaOp::CreateComposite { unique: false, .. }) => {
                    c.indexes_added += 1
                }
                WriteOp::Schema(SchemaOp::DropComposite { .. }) => c.indexes_removed += 1,
                WriteOp::Schema(SchemaOp::DropConstraint { .. }) => c.constraints_removed += 1,
                WriteOp::Require(_) | WriteOp::EnsureNode { .. } | WriteOp::Schema(_) => {}
            }
        }
        c
    }
}
