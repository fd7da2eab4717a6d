//! Names to row slots: every variable of the query gets one slot in a fixed-width row,
//! scopes follow WITH/RETURN, functions are resolved, aggregates are pulled out of
//! projections, and the errors a query has before it runs are found here (an unknown
//! variable, a wrong number of arguments, an aggregate inside WHERE).

mod bound;
mod call;
mod clause;
mod expr;
mod pattern;
mod show;
mod slots;
mod update;

use std::sync::Arc;

use crate::ast::{CompareOp, PathKind, Quantifier, RelDirection};
use crate::catalog::Catalog;
use crate::error::{CypherError, ErrorCode, Result};
use crate::functions::{Aggregate, Function};
use crate::value::Val;

pub use bound::{
    Bound, BoundMatch, BoundOp, BoundQuery, BoundSub, CallSpec, CreateNode, CreateRel, CreateSpec,
    MergeSpec, PathSlots, Pipe, PropKey, SetOp, Stage, Sub, SubquerySpec,
};
pub use clause::bind_statement;
pub(crate) use slots::needed_slots;

/// Names the query uses, interned: expressions refer to them by index, and each run
/// resolves them against the graph's catalog once.
#[derive(Clone, Debug, Default)]
pub struct Names {
    /// Property keys.
    pub keys: Vec<Arc<str>>,
    /// Labels.
    pub labels: Vec<Arc<str>>,
    /// Relationship types.
    pub types: Vec<Arc<str>>,
    /// Parameters.
    pub params: Vec<String>,
}

fn intern(list: &mut Vec<Arc<str>>, name: &str) -> usize {
    if let Some(i) = list.iter().position(|n| &**n == name) {
        return i;
    }
    list.push(Arc::from(name));
    list.len() - 1
}

impl Names {
    /// The index of a property key.
    pub fn key(&mut self, name: &str) -> usize {
        intern(&mut self.keys, name)
    }
    /// The index of a label.
    pub fn label(&mut self, name: &str) -> usize {
        intern(&mut self.labels, name)
    }
    /// The index of a relationship type.
    pub fn rel_type(&mut self, name: &str) -> usize {
        intern(&mut self.types, name)
    }
    /// The index of a parameter.
    pub fn param(&mut self, name: &str) -> usize {
        if let Some(i) = self.params.iter().position(|n| n == name) {
            return i;
        }
        self.params.push(name.to_owned());
        self.params.len() - 1
    }
}

/// A bound expression: variables are slots, names are indexes into [`Names`].
#[derive(Clone, Debug)]
pub enum BExpr {
    /// A constant.
    Const(Val),
    /// The graph's indexes or constraints, a map each (`SHOW INDEXES`).
    Listing(crate::ast::Show),
    /// A parameter by index.
    Param(usize),
    /// A row slot.
    Slot(usize),
    /// A property by key index.
    Prop(Box<BExpr>, usize),
    /// `e[i]`.
    Index(Box<BExpr>, Box<BExpr>),
    /// `e[a..b]`.
    Slice(Box<BExpr>, Option<Box<BExpr>>, Option<Box<BExpr>>),
    /// `e:A:B` (label indexes).
    HasLabels(Box<BExpr>, Vec<usize>),
    /// `[a, b]`.
    List(Vec<BExpr>),
    /// `{k: v}`.
    Map(Vec<(Arc<str>, BExpr)>),
    /// `NOT e`.
    Not(Box<BExpr>),
    /// `-e`.
    Neg(Box<BExpr>),
    /// `a AND b`.
    And(Box<BExpr>, Box<BExpr>),
    /// `a OR b`.
    Or(Box<BExpr>, Box<BExpr>),
    /// `a XOR b`.
    Xor(Box<BExpr>, Box<BExpr>),
    /// Arithmetic and string/list operators.
    Binary(BinOp, Box<BExpr>, Box<BExpr>),
    /// A chain of comparisons.
    Compare(Box<BExpr>, Vec<(CompareOp, BExpr)>),
    /// `e IS [NOT] NULL`.
    IsNull(Box<BExpr>, bool),
    /// `e IS [NOT] :: type`.
    IsType(Box<BExpr>, bool, Arc<crate::ast::types::CypherType>),
    /// A scalar function.
    Call(Function, Vec<BExpr>),
    /// `CASE`.
    Case {
        /// The simple form's operand.
        operand: Option<Box<BExpr>>,
        /// WHEN / THEN.
        whens: Vec<(BExpr, BExpr)>,
        /// ELSE.
        else_: Option<Box<BExpr>>,
    },
    /// `[x IN list WHERE f | m]`, `x` in `slot`.
    ListComp {
        /// The element's slot.
        slot: usize,
        /// The list.
        list: Box<BExpr>,
        /// WHERE.
        filter: Option<Box<BExpr>>,
        /// The mapping.
        map: Option<Box<BExpr>>,
    },
    /// `reduce(acc = init, x IN list | e)`.
    Reduce {
        /// The accumulator's slot.
        acc: usize,
        /// The first value.
        init: Box<BExpr>,
        /// The element's slot.
        slot: usize,
        /// The list.
        list: Box<BExpr>,
        /// The step.
        expr: Box<BExpr>,
    },
    /// `all/any/none/single(x IN list WHERE p)`.
    Quantifier {
        /// Which.
        kind: Quantifier,
        /// The element's slot.
        slot: usize,
        /// The list.
        list: Box<BExpr>,
        /// The predicate.
        pred: Box<BExpr>,
    },
    /// A pattern predicate: true when the pattern matches from this row.
    Exists(Sub),
    /// A pattern comprehension: the map expression for every row the pattern matches.
    PatternComp(Sub, Box<BExpr>),
    /// A subquery run per row: `EXISTS`, `COUNT`, or `COLLECT` of `column`.
    Subquery {
        /// Which.
        kind: crate::ast::SubqueryKind,
        /// Its body, run from a batch of the current row.
        sub: Sub,
        /// The column COLLECT collects.
        column: Option<usize>,
    },
    /// `n {.a, k: e, .*}`.
    MapProjection(Box<BExpr>, Vec<MapItem>),
    /// A regular expression known when the query was bound.
    RegexConst(Box<BExpr>, Arc<regex::Regex>),
}

/// An entry of a bound map projection.
#[derive(Clone, Debug)]
pub enum MapItem {
    /// `.key`: the name and its key index.
    Property(Arc<str>, usize),
    /// `.*`.
    All,
    /// `key: expr`.
    Entry(Arc<str>, BExpr),
}

/// Binary operators other than the logical ones and comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`.
    Add,
    /// `||`: strings or lists joined.
    Concat,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// `%`.
    Mod,
    /// `^`.
    Pow,
    /// `IN`.
    In,
    /// `STARTS WITH`.
    StartsWith,
    /// `ENDS WITH`.
    EndsWith,
    /// `CONTAINS`.
    Contains,
    /// `=~`.
    Regex,
}

/// A node of a bound pattern.
#[derive(Clone, Debug)]
pub struct BNode {
    /// Its slot.
    pub slot: usize,
    /// Whether the slot is bound before the pattern (an earlier clause, or the outer row).
    pub bound: bool,
    /// Label indexes it must carry.
    pub labels: Vec<usize>,
    /// Property equalities it must satisfy.
    pub props: Vec<(usize, BExpr)>,
    /// A parameter map of properties it must satisfy (`(n $props)`).
    pub props_map: Option<BExpr>,
}

/// A relationship of a bound pattern.
#[derive(Clone, Debug)]
pub struct BRel {
    /// Its slot (a list of relationships when variable-length).
    pub slot: usize,
    /// Whether the query names it (else its value is needed only for paths and
    /// uniqueness).
    pub named: bool,
    /// Whether the slot was bound before the pattern.
    pub bound: bool,
    /// Allowed type indexes (any when empty).
    pub types: Vec<usize>,
    /// Property equalities.
    pub props: Vec<(usize, BExpr)>,
    /// Direction, left to right.
    pub direction: RelDirection,
    /// `(min, max)` hops when variable-length.
    pub length: Option<(u32, u32)>,
}

/// One part of a bound pattern: `nodes[i] -rels[i]- nodes[i+1]`.
#[derive(Clone, Debug)]
pub struct BPart {
    /// The path variable's slot.
    pub path_slot: Option<usize>,
    /// Plain or shortest.
    pub kind: PathKind,
    /// The nodes.
    pub nodes: Vec<BNode>,
    /// The relationships.
    pub rels: Vec<BRel>,
}

/// Everything a variable-length pattern without an upper bound may walk: a limit so a
/// `*` on a dense graph stays a bounded search.
pub const VAR_LENGTH_HOPS_MAX: u32 = 1_000_000;

/// A scope: the variables visible, innermost last.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scope {
    vars: Vec<(String, usize)>,
}

impl Scope {
    fn get(&self, name: &str) -> Option<usize> {
        self.vars
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, s)| *s)
    }

    fn define(&mut self, name: &str, slot: usize) {
        self.vars.push((name.to_owned(), slot));
    }

    /// The visible names, each once, with its slot.
    pub(crate) fn visible(&self) -> Vec<(String, usize)> {
        let mut out: Vec<(String, usize)> = Vec::new();
        for (n, s) in self.vars.iter().rev() {
            if !out.iter().any(|(m, _)| m == n) && !n.starts_with(' ') {
                out.push((n.clone(), *s));
            }
        }
        out.sort();
        out
    }
}

/// The binder's state over one statement.
pub(crate) struct Binder<'t> {
    pub(crate) text: &'t str,
    pub(crate) names: Names,
    pub(crate) scope: Scope,
    pub(crate) width: usize,
    /// Where aggregates found in a projection go; `None` where none may stand.
    pub(crate) aggs: Option<Vec<AggSpec>>,
    /// While an aggregating projection's items bind: its property grouping keys
    /// (`c.n` in `RETURN c.n, c.n + count(*)`) by canonical text, and the slot that
    /// holds each. Read beside an aggregate, such a key is its group's value; the
    /// variable itself (`c`) is not kept by the grouping.
    pub(crate) group_keys: Vec<(String, usize)>,
    /// What each variable's slot holds, where known.
    pub(crate) kinds: rustc_hash::FxHashMap<usize, Kind>,
    /// The variable name of each slot, where it has one.
    pub(crate) slot_names: Vec<String>,
    /// Equalities between relationships bound before a pattern and the slots the
    /// pattern matches them into, for the pattern's WHERE.
    pub(crate) bound_rel_checks: Vec<BExpr>,
    /// The procedures CALL may name.
    pub(crate) catalog: &'t dyn Catalog,
    /// The patterns and subqueries expressions name, by [`Sub`].
    pub(crate) subs: Vec<BoundSub>,
}

/// What a variable holds, as far as the binder knows: patterns may only reuse a
/// variable as the same kind of thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A node.
    Node,
    /// A relationship.
    Rel,
    /// The relationships of a variable-length pattern.
    RelList,
    /// A path.
    Path,
    /// A list (of relationships, perhaps: a variable-length pattern may take one).
    List,
    /// A value that is none of these (a literal, a map).
    Value,
    /// Not known before running.
    Unknown,
}

impl Kind {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Node => "node",
            Kind::Rel => "relationship",
            Kind::RelList => "list of relationships",
            Kind::Path => "path",
            Kind::List => "list",
            Kind::Value => "value",
            Kind::Unknown => "value of unknown type",
        }
    }

    /// The kind of what an expression yields, given the kinds of slots.
    pub(crate) fn of(e: &BExpr, kinds: &rustc_hash::FxHashMap<usize, Kind>) -> Kind {
        match e {
            BExpr::Slot(s) => kinds.get(s).copied().unwrap_or(Kind::Unknown),
            BExpr::Const(Val::Null) => Kind::Unknown,
            BExpr::Const(Val::List(_)) | BExpr::List(_) => Kind::List,
            BExpr::Const(_) | BExpr::Map(_) => Kind::Value,
            _ => Kind::Unknown,
        }
    }
}

/// An aggregate pulled out of a projection: its result lands in `slot`.
#[derive(Clone, Debug)]
pub struct AggSpec {
    /// The result's slot.
    pub slot: usize,
    /// The function.
    pub func: Aggregate,
    /// DISTINCT.
    pub distinct: bool,
    /// The argument (`None` for `count(*)`).
    pub arg: Option<BExpr>,
    /// A percentile's percentile (its second argument).
    pub param: Option<BExpr>,
}

impl<'t> Binder<'t> {
    pub(crate) fn new(text: &'t str, catalog: &'t dyn Catalog) -> Binder<'t> {
        Binder {
            catalog,
            subs: Vec::new(),
            text,
            names: Names::default(),
            scope: Scope::default(),
            width: 0,
            aggs: None,
            group_keys: Vec::new(),
            kinds: Default::default(),
            slot_names: Vec::new(),
            bound_rel_checks: Vec::new(),
        }
    }

    /// Adds a pattern or subquery an expression names to the statement's table.
    pub(crate) fn sub(&mut self, sub: BoundSub) -> Sub {
        self.subs.push(sub);
        Sub(self.subs.len() - 1)
    }

    /// A fresh slot.
    pub(crate) fn slot(&mut self) -> usize {
        self.width += 1;
        self.width - 1
    }

    /// Defines `name` in scope at `slot`, and remembers it as the slot's name (what
    /// EXPLAIN prints).
    pub(crate) fn define(&mut self, name: &str, slot: usize) {
        if self.slot_names.len() <= slot {
            self.slot_names.resize(slot + 1, String::new());
        }
        if self.slot_names[slot].is_empty() && !name.starts_with(' ') {
            self.slot_names[slot] = name.to_owned();
        }
        self.scope.define(name, slot);
    }

    pub(crate) fn error(
        &self,
        code: ErrorCode,
        message: impl Into<String>,
        pos: usize,
    ) -> CypherError {
        CypherError::at(code, message, self.text, pos)
    }

    pub(crate) fn lookup(&self, name: &str, pos: usize) -> Result<usize> {
        self.scope.get(name).ok_or_else(|| {
            self.error(
                ErrorCode::SyntaxError,
                format!("variable `{name}` not defined"),
                pos,
            )
        })
    }
}

/// Whether an aggregate function is called anywhere in the expression (outside of
/// nested comprehensions' own scopes, which Cypher also counts).
pub(crate) fn has_aggregate(e: &crate::ast::Expr) -> bool {
    use crate::ast::ExprKind as K;
    match &e.kind {
        K::CountStar => true,
        K::Call { name, args, .. } => {
            Aggregate::lookup(&name.to_ascii_lowercase()).is_some()
                || args.iter().any(has_aggregate)
        }
        K::Property(b, _)
        | K::HasLabels(b, _)
        | K::Unary(_, b)
        | K::IsNull(b, _)
        | K::IsType(b, ..) => has_aggregate(b),
        K::Index(a, b) | K::Binary(_, a, b) => has_aggregate(a) || has_aggregate(b),
        K::Slice(a, b, c) => {
            has_aggregate(a)
                || b.as_deref().is_some_and(has_aggregate)
                || c.as_deref().is_some_and(has_aggregate)
        }
        K::List(items) => items.iter().any(has_aggregate),
        K::Map(entries) => entries.iter().any(|(_, v)| has_aggregate(v)),
        K::Compare(first, rest) => {
            has_aggregate(first) || rest.iter().any(|(_, e)| has_aggregate(e))
        }
        K::Case {
            operand,
            whens,
            else_,
        } => {
            operand.as_deref().is_some_and(has_aggregate)
                || whens
                    .iter()
                    .any(|(a, b)| has_aggregate(a) || has_aggregate(b))
                || else_.as_deref().is_some_and(has_aggregate)
        }
        _ => false,
    }
}
