//! What the binder hands the planner: a statement's operator pipeline with every
//! pattern still a pattern. The binder resolves names to slots, scopes, aggregates
//! and types; choosing how to match a pattern (seeks, expand order, pruned walks)
//! is the planner's, which turns each [`BoundMatch`] into steps. One operator type
//! serves both stages, parameterised by what a MATCH is at that stage ([`Stage`]).

use std::fmt::Debug;
use std::sync::Arc;

use rustc_hash::FxHashSet;

use super::{AggSpec, BExpr, BPart, Names};

/// What a pipeline holds in a stage: its MATCH, and a stored procedure's plan.
pub trait Stage: Clone + Debug {
    /// A MATCH (or MERGE's pattern).
    type Match: Clone + Debug;
    /// What a CALL of a stored procedure runs.
    type Stored: Clone + Debug;
}

/// The binder's stage: patterns unplanned, stored procedures not yet linked.
#[derive(Clone, Debug)]
pub struct Bound;

impl Stage for Bound {
    type Match = BoundMatch;
    type Stored = ();
}

/// An operator as the binder leaves it.
pub type BoundOp = Pipe<Bound>;

/// One MATCH (or a pattern inside an expression, or MERGE's), bound: its parts, the
/// WHERE split at its ANDs, and the slots bound before it.
#[derive(Clone, Debug)]
pub struct BoundMatch {
    /// The pattern's parts.
    pub parts: Vec<BPart>,
    /// WHERE conjuncts (and equalities for relationships bound before it).
    pub conjuncts: Vec<BExpr>,
    /// Slots bound before the pattern.
    pub pre: FxHashSet<usize>,
}

/// A pattern or subquery inside an expression, bound: an expression names it by its
/// index ([`Sub`]) in its statement's table, and the planner plans the table.
#[derive(Clone, Debug)]
pub enum BoundSub {
    /// A pattern predicate or comprehension.
    Pattern(BoundMatch),
    /// An `EXISTS`/`COUNT`/`COLLECT { ... }` body.
    Query(Vec<BoundOp>),
}

/// The index of a pattern or subquery in its statement's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sub(pub usize);

/// A bound statement (one part of a UNION, the others in `unions`).
#[derive(Clone, Debug)]
pub struct BoundQuery {
    /// The pipeline.
    pub ops: Vec<BoundOp>,
    /// Slots per row.
    pub width: usize,
    /// The names it uses.
    pub names: Names,
    /// Output columns and their slots.
    pub columns: Vec<(String, usize)>,
    /// Whether it writes.
    pub writes: bool,
    /// `UNION [ALL]` parts.
    pub unions: Vec<(bool, BoundQuery)>,
    /// Each slot's variable name, where it has one.
    pub slot_names: Vec<String>,
    /// The patterns and subqueries its expressions name.
    pub subs: Vec<BoundSub>,
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
    /// Its properties taken whole from a map parameter (`CREATE (n $props)`), in
    /// place of `props`.
    pub map: Option<BExpr>,
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
    /// Its properties from a map parameter (see [`CreateNode`]).
    pub map: Option<BExpr>,
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
    /// Path variables (`CREATE p = (a)-[:R]->(b)`): each one's slot and the slots of
    /// its nodes and relationships, in the pattern's order.
    pub paths: Vec<PathSlots>,
}

/// A path variable's slot, with the slots of its nodes and relationships in order.
#[derive(Clone, Debug)]
pub struct PathSlots {
    /// The path's own slot.
    pub slot: usize,
    /// Its nodes' slots.
    pub nodes: Vec<usize>,
    /// Its relationships' slots.
    pub rels: Vec<usize>,
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
pub struct MergeSpec<S: Stage> {
    /// The pattern as a MATCH.
    pub pattern: S::Match,
    /// The pattern as a CREATE, when nothing matches.
    pub create: CreateSpec,
    /// ON CREATE SET.
    pub on_create: Vec<SetOp>,
    /// ON MATCH SET.
    pub on_match: Vec<SetOp>,
}

/// A procedure call: per row, the arguments, the call, and a row per result row.
#[derive(Clone, Debug)]
pub struct CallSpec<S: Stage> {
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
    /// A stored Cypher procedure's plan, run inside the query, once planned.
    pub stored: S::Stored,
}

/// `CALL { ... }`: per row, the subquery's parts (several when joined by UNION).
#[derive(Clone, Debug)]
pub struct SubquerySpec<S: Stage> {
    /// Each part's operators and the slots of its returned columns.
    pub parts: Vec<(Vec<Pipe<S>>, Vec<usize>)>,
    /// Where the returned columns go in the outer row (empty: a unit subquery, whose
    /// rows pass unchanged).
    pub columns: Vec<usize>,
    /// UNION (not ALL): one row per distinct result of each outer row.
    pub distinct: bool,
    /// Whether it writes.
    pub writes: bool,
}

/// A pipeline operator; a MATCH in it is what stage `S` makes of one.
#[derive(Clone, Debug)]
pub enum Pipe<S: Stage> {
    /// A MATCH.
    Match(S::Match),
    /// An OPTIONAL MATCH: rows with no match keep one row with `slots` null.
    Optional {
        /// The pattern.
        pattern: S::Match,
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
    Merge(Box<MergeSpec<S>>),
    /// `CALL proc(...)`.
    Call(Box<CallSpec<S>>),
    /// `CALL { ... }`.
    Subquery(Box<SubquerySpec<S>>),
    /// A schema command: its writes are worked out against the schema when it runs.
    Schema(crate::ast::SchemaCommand),
    /// FOREACH: runs `ops` for each element of the list, and passes its row on.
    Foreach {
        /// Where each element goes.
        slot: usize,
        /// The list.
        list: BExpr,
        /// The update clauses.
        ops: Vec<Pipe<S>>,
    },
}

impl<S: Stage> Pipe<S> {
    /// Whether the operator writes: it then first collects all its input rows, so no
    /// read of the graph is in progress when it writes (and a LIMIT after it does not
    /// stop its writes).
    pub fn writes(&self) -> bool {
        match self {
            Pipe::Create(_)
            | Pipe::Set(_)
            | Pipe::Delete { .. }
            | Pipe::Merge(_)
            | Pipe::Foreach { .. }
            | Pipe::Schema(_) => true,
            Pipe::Call(c) => c.writes,
            Pipe::Subquery(s) => s.writes,
            _ => false,
        }
    }
}
