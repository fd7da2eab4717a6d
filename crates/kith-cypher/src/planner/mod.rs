//! The operator pipeline a query runs as.
//!
//! A query is a list of [`Op`]s over batches of fixed-width rows (one slot per
//! variable). Each MATCH becomes a list of [`Step`]s chosen by [`plan_match`]: start
//! from what is bound, else from the most selective node (an id seek, then a property
//! seek, then a label scan), expand along relationships from bound nodes, check labels
//! and properties as nodes are bound, and run each WHERE conjunct as soon as its
//! variables are bound.

mod describe;
mod match_plan;
mod prefetch;
mod slots;
mod walk_filters;

pub(crate) use describe::key_of;
pub use describe::{describe, Counted, PlanNode};

use std::sync::Arc;

pub(crate) use match_plan::free_slots;
pub use match_plan::{plan_match, PlanMode};
pub use prefetch::annotate;
pub(crate) use slots::needed_slots;

use crate::binder::{AggSpec, BExpr, Names};

/// Which way an expand follows relationships, from the bound node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Outgoing.
    Out,
    /// Incoming.
    In,
    /// Either.
    Both,
}

impl Dir {
    /// The same relationships seen from their other end.
    pub fn reversed(self) -> Dir {
        match self {
            Dir::Out => Dir::In,
            Dir::In => Dir::Out,
            Dir::Both => Dir::Both,
        }
    }
}

/// One step of a MATCH.
#[derive(Clone, Debug)]
pub enum Step {
    /// Every node.
    ScanAll {
        /// Where the node goes.
        slot: usize,
    },
    /// Every node with a label.
    ScanLabel {
        /// Where the node goes.
        slot: usize,
        /// The label's name index.
        label: usize,
    },
    /// The node of `label` whose `id` is the value (the external-id index).
    SeekId {
        /// Where the node goes.
        slot: usize,
        /// The label's name index.
        label: usize,
        /// The id.
        value: BExpr,
    },
    /// The nodes of `label` whose `id` is any of the values (a WHERE of the form
    /// `(n.id = x AND ...) OR (n.id = y AND ...)`; the WHERE still runs after).
    SeekIdAny {
        /// Where the node goes.
        slot: usize,
        /// The label's name index.
        label: usize,
        /// The ids.
        values: Vec<BExpr>,
    },
    /// Nodes of `label` whose `key` equals the value (an index when declared).
    SeekProp {
        /// Where the node goes.
        slot: usize,
        /// The label's name index.
        label: usize,
        /// The key's name index.
        key: usize,
        /// The value.
        value: BExpr,
    },
    /// Drops rows whose node lacks a label or a property value.
    CheckNode {
        /// The node's slot.
        slot: usize,
        /// Labels it must have.
        labels: Vec<usize>,
        /// Properties it must have.
        props: Vec<(usize, BExpr)>,
        /// A parameter map of properties it must have.
        props_map: Option<BExpr>,
    },
    /// One hop.
    Expand(Expand),
    /// `min..max` hops, every trail (no relationship twice).
    VarExpand(Expand),
    /// The shortest path(s) between two bound nodes.
    Shortest {
        /// The hop description (`into` is always true).
        expand: Expand,
        /// Every shortest path, not one.
        all: bool,
        /// Where the path goes.
        path: Option<usize>,
        /// WHERE conjuncts over the path that no relationship or node alone decides
        /// (`length(p) > 2`, a sum over `relationships(p)`): the shortest paths that
        /// satisfy them are found by enumerating paths by increasing length, as
        /// Neo4j's planner falls back to.
        residual: Vec<BExpr>,
    },
    /// A WHERE conjunct.
    Filter(BExpr),
    /// Relationship uniqueness within one MATCH: slots hold a relationship or a list.
    DistinctRels(Vec<usize>),
    /// Builds a path value from its start node and its relationship slots.
    BuildPath {
        /// Where the path goes.
        slot: usize,
        /// The first node's slot.
        start: usize,
        /// Relationship slots in order (a relationship or a list of them).
        hops: Vec<usize>,
    },
}

/// An expand from a bound node.
#[derive(Clone, Debug)]
pub struct Expand {
    /// The bound node's slot.
    pub from: usize,
    /// The relationship's slot (a list when variable-length).
    pub rel: usize,
    /// The other node's slot.
    pub to: usize,
    /// Allowed type name indexes (any when empty).
    pub types: Vec<usize>,
    /// Direction from `from`.
    pub dir: Dir,
    /// `to` is already bound: keep rows where the two connect.
    pub into: bool,
    /// Property equalities on the relationship.
    pub rel_props: Vec<(usize, BExpr)>,
    /// Whether the relationship (or list of them) goes into its slot: only when the
    /// query names it, a path is built from it, or uniqueness checks it.
    pub bind_rel: bool,
    /// Fewest hops (variable-length).
    pub min: u32,
    /// Most hops (variable-length).
    pub max: u32,
    /// Predicates every relationship and node of a variable-length walk or shortest
    /// path must satisfy, taken from the WHERE: the walk prunes what fails them.
    pub filters: WalkFilters,
    /// What the rest of the pipeline reads of what the expand binds.
    pub prefetch: Prefetch,
}

/// What a walk checks of each relationship it takes and each node it enters (its
/// start and end included): `all(x IN rels WHERE p)` and `none(...)` conjuncts over
/// the walk's relationship list, `relationships(path)` or `nodes(path)`.
#[derive(Clone, Debug, Default)]
pub struct WalkFilters {
    /// Checked on each relationship.
    pub rels: Vec<ElementFilter>,
    /// Checked on each node.
    pub nodes: Vec<ElementFilter>,
}

impl WalkFilters {
    /// Whether there is nothing to check.
    pub fn is_empty(&self) -> bool {
        self.rels.is_empty() && self.nodes.is_empty()
    }
}

/// One element predicate: `pred`, with the element in `slot`, must be `want` (true
/// for `all`, false for `none`; null never passes, as it never passes the WHERE).
#[derive(Clone, Debug)]
pub struct ElementFilter {
    /// The quantifier's variable.
    pub slot: usize,
    /// Its predicate.
    pub pred: BExpr,
    /// What the predicate must be.
    pub want: bool,
}

/// What the steps and operators after an expand read of each node (and relationship)
/// it binds: the executor fetches those of a window of edges ahead (see
/// `prefetch.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Prefetch {
    /// The node's record (its adjacency is expanded).
    pub record: bool,
    /// The node's properties.
    pub props: bool,
    /// The node's labels.
    pub labels: bool,
    /// The relationship's properties.
    pub rel_props: bool,
}

impl Prefetch {
    /// Whether anything is read.
    pub fn any(&self) -> bool {
        self.record || self.props || self.labels || self.rel_props
    }
}

/// A node CREATE makes.
#[derive(Clone, Debug)]
pub struct CreateNode {
    /// Its slot.
    pub slot: usize,
    /// Its labels.
    pub labels: Vec<Arc<str>>,
    /// Its properties (null values are left out).
    pub props: Vec<(Arc<str>, BExpr)>,
    /// Its properties read what this clause created before it on the same row, so
    /// that must be written first.
    pub flush: bool,
}

/// A relationship CREATE makes.
#[derive(Clone, Debug)]
pub struct CreateRel {
    /// Its slot.
    pub slot: usize,
    /// Its type.
    pub rel_type: Arc<str>,
    /// Source node slot.
    pub from: usize,
    /// Target node slot.
    pub to: usize,
    /// Its properties.
    pub props: Vec<(Arc<str>, BExpr)>,
    /// Its properties read what this clause created before it (see [`CreateNode`]).
    pub flush: bool,
}

/// What one CREATE clause makes per row.
#[derive(Clone, Debug, Default)]
pub struct CreateSpec {
    /// Nodes, in order.
    pub nodes: Vec<CreateNode>,
    /// Relationships, in order.
    pub rels: Vec<CreateRel>,
}

/// A property key SET or REMOVE names.
#[derive(Clone, Debug)]
pub enum PropKey {
    /// `n.key`.
    Name(Arc<str>),
    /// `n[expr]`.
    Dynamic(BExpr),
}

/// One change of SET or REMOVE, made per row.
#[derive(Clone, Debug)]
pub enum SetOp {
    /// Sets a property (`None`: REMOVE it).
    Prop {
        /// The node or relationship.
        target: BExpr,
        /// The key.
        key: PropKey,
        /// The value; null removes.
        value: Option<BExpr>,
    },
    /// `n = map`: the map's entries become all the properties.
    Replace {
        /// The node or relationship.
        target: BExpr,
        /// A map, node or relationship.
        value: BExpr,
    },
    /// `n += map`: the map's entries are set (null entries removed).
    Merge {
        /// The node or relationship.
        target: BExpr,
        /// A map, node or relationship.
        value: BExpr,
    },
    /// Adds (SET) or removes (REMOVE) labels.
    Labels {
        /// The node.
        target: BExpr,
        /// The labels.
        labels: Vec<Arc<str>>,
        /// Add, or remove.
        add: bool,
    },
}

/// What a MERGE does per row.
#[derive(Clone, Debug)]
pub struct MergeSpec {
    /// The pattern as a MATCH.
    pub steps: Vec<Step>,
    /// The pattern as a CREATE, when nothing matches.
    pub create: CreateSpec,
    /// ON CREATE SET.
    pub on_create: Vec<SetOp>,
    /// ON MATCH SET.
    pub on_match: Vec<SetOp>,
    /// `p = ...`: the path's slot, and its node and relationship slots in order.
    pub path: Option<(usize, Vec<usize>, Vec<usize>)>,
}

/// A procedure call: per row, the arguments, the call, and a row per result row.
#[derive(Clone, Debug)]
pub struct CallSpec {
    /// Where the procedure lives.
    pub procs: crate::procedures::ProcedureSet,
    /// Its name.
    pub name: String,
    /// Arguments by parameter name.
    pub args: Vec<(String, BExpr)>,
    /// Result columns that go into slots: (column index, slot).
    pub yields: Vec<(usize, usize)>,
    /// A VOID procedure: each row passes once.
    pub void: bool,
    /// It writes (an update procedure).
    pub writes: bool,
    /// A stored Cypher procedure's plan, run inside the query (`None`: a native one).
    pub stored: Option<std::sync::Arc<crate::engine::Prepared>>,
}

/// `CALL { ... }`: per row, the subquery's parts (several when joined by UNION).
#[derive(Clone, Debug)]
pub struct SubquerySpec {
    /// Each part's operators and the slots of its returned columns.
    pub parts: Vec<(Vec<Op>, Vec<usize>)>,
    /// Where the returned columns go in the outer row (empty: a unit subquery, whose
    /// rows pass unchanged).
    pub columns: Vec<usize>,
    /// UNION (not ALL): one row per distinct result of each outer row.
    pub distinct: bool,
    /// Whether it writes.
    pub writes: bool,
}

/// A pipeline operator.
#[derive(Clone, Debug)]
pub enum Op {
    /// A MATCH.
    Match(Vec<Step>),
    /// An OPTIONAL MATCH: rows with no match keep one row with `slots` null.
    Optional {
        /// The steps.
        steps: Vec<Step>,
        /// The slots the match binds.
        slots: Vec<usize>,
    },
    /// UNWIND.
    Unwind {
        /// The list.
        expr: BExpr,
        /// Where each element goes.
        slot: usize,
    },
    /// Computes expressions into slots.
    Project(Vec<(usize, BExpr)>),
    /// Groups by the keys and computes the aggregates.
    Aggregate {
        /// Grouping keys, into their slots.
        keys: Vec<(usize, BExpr)>,
        /// The aggregates.
        aggs: Vec<AggSpec>,
    },
    /// Keeps the first row of each distinct combination of the slots.
    Distinct(Vec<usize>),
    /// Sorts (a top-k when a limit is known).
    Sort {
        /// Keys, each with whether descending.
        keys: Vec<(BExpr, bool)>,
        /// SKIP that follows.
        skip: Option<BExpr>,
        /// LIMIT that follows.
        limit: Option<BExpr>,
    },
    /// SKIP.
    Skip(BExpr),
    /// LIMIT.
    Limit(BExpr),
    /// WHERE after WITH.
    Filter(BExpr),
    /// CREATE.
    Create(CreateSpec),
    /// SET or REMOVE.
    Set(Vec<SetOp>),
    /// `[DETACH] DELETE`.
    Delete {
        /// What to delete.
        exprs: Vec<BExpr>,
        /// DETACH.
        detach: bool,
    },
    /// MERGE.
    Merge(Box<MergeSpec>),
    /// `CALL proc(...)`.
    Call(Box<CallSpec>),
    /// `CALL { ... }`.
    Subquery(Box<SubquerySpec>),
    /// A schema command: its writes are worked out against the schema when it runs.
    Schema(crate::ast::SchemaCommand),
    /// FOREACH: runs `ops` for each element of the list, and passes its row on.
    Foreach {
        /// Where each element goes.
        slot: usize,
        /// The list.
        list: BExpr,
        /// The update clauses.
        ops: Vec<Op>,
    },
}

impl Op {
    /// Whether the operator writes: it then first collects all its input rows, so no
    /// read of the graph is in progress when it writes (and a LIMIT after it does not
    /// stop its writes).
    pub fn writes(&self) -> bool {
        match self {
            Op::Create(_)
            | Op::Set(_)
            | Op::Delete { .. }
            | Op::Merge(_)
            | Op::Foreach { .. }
            | Op::Schema(_) => true,
            Op::Call(c) => c.writes,
            Op::Subquery(s) => s.writes,
            _ => false,
        }
    }
}

/// A planned statement.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The pipeline.
    pub ops: Vec<Op>,
    /// Slots per row.
    pub width: usize,
    /// The names it uses.
    pub names: Names,
    /// Output columns and their slots.
    pub columns: Vec<(String, usize)>,
    /// Whether it writes.
    pub writes: bool,
    /// `UNION [ALL]` parts.
    pub unions: Vec<(bool, Plan)>,
    /// Each slot's variable name, where it has one (what EXPLAIN prints).
    pub slot_names: Vec<String>,
}
