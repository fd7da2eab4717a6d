//! The operator pipeline a query runs as.
//!
//! A query is a list of [`Op`]s over batches of fixed-width rows (one slot per
//! variable). Each MATCH becomes a list of [`Step`]s chosen by [`plan_match`]: start
//! from what is bound, else from the most selective node (an id seek, then a property
//! seek, then a label scan), expand along relationships from bound nodes, check labels
//! and properties as nodes are bound, and run each WHERE conjunct as soon as its
//! variables are bound.

mod describe;
mod index_seek;
mod match_plan;
mod node_seek;
mod plan;
mod prefetch;
mod walk_filters;

pub(crate) use describe::key_of;
pub use describe::{describe, Counted, PlanNode};

use std::sync::Arc;

pub use index_seek::IndexSeek;
pub(crate) use match_plan::free_slots;
pub use match_plan::{plan_match, PlanMode};
pub use node_seek::NodeKey;
pub use plan::{plan, Link};

use crate::binder::{BExpr, Names, Pipe, Stage};

/// The planner's stage: every pattern planned into steps, every CALL of a stored
/// procedure linked to the plan it runs.
#[derive(Clone, Debug)]
pub struct Planned;

impl Stage for Planned {
    type Match = Vec<Step>;
    type Stored = Option<Arc<Plan>>;
}

/// A pipeline operator as it runs.
pub type Op = Pipe<Planned>;
/// A MERGE as it runs.
pub type MergeSpec = crate::binder::MergeSpec<Planned>;
/// A procedure call as it runs.
pub type CallSpec = crate::binder::CallSpec<Planned>;
/// `CALL { ... }` as it runs.
pub type SubquerySpec = crate::binder::SubquerySpec<Planned>;

/// A pattern or subquery inside an expression, planned (see [`crate::binder::Sub`]).
#[derive(Clone, Debug)]
pub enum SubPlan {
    /// A pattern predicate's or comprehension's steps.
    Steps(Vec<Step>),
    /// A subquery expression's operators.
    Ops(Vec<Op>),
}

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
    /// The node whose `id(n)` or `elementId(n)` is the value (`WHERE id(n) = $x`).
    SeekNode {
        /// Where the node goes.
        slot: usize,
        /// Which of the two the value is.
        key: NodeKey,
        /// The id.
        value: BExpr,
    },
    /// The ends of the relationship whose `id(r)` or `elementId(r)` is the value
    /// (`MATCH (a)-[r]->(b) WHERE id(r) = $x`): `left` and `right` are bound to them as
    /// the pattern's direction has them, both ways round when it has none (one way for
    /// a self-loop); the expand into them that follows binds the relationship itself
    /// and checks its type and properties.
    SeekRelEnds {
        /// The pattern's node left of the relationship.
        left: usize,
        /// The node right of it.
        right: usize,
        /// The pattern's direction, left to right.
        direction: crate::ast::RelDirection,
        /// Which of the two the value is.
        key: NodeKey,
        /// The id.
        value: BExpr,
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
    /// Nodes of `label` a WHERE conjunct on `key` may hold, from the index on the
    /// pair (a scan of the label when there is none): the conjunct still runs after.
    SeekIndex {
        /// Where the node goes.
        slot: usize,
        /// The label's name index.
        label: usize,
        /// The key's name index.
        key: usize,
        /// What the conjunct asks.
        seek: IndexSeek,
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
    /// The patterns and subqueries its expressions name, by index.
    pub subs: Vec<SubPlan>,
}
