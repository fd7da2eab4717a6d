//! Runs a plan: a pipeline of operators over fixed-width rows (one slot per variable).
//!
//! Rows flow one at a time, depth first: an operator or MATCH step binds its slots in
//! the row it was handed and passes the same row on, so nothing is copied between
//! steps and a large intermediate result is never held unless an operator must hold
//! it (sorting, aggregation). Rows that are held live in [`Rows`]: one flat `Vec<Val>`
//! with `width` values a row. Every operator checks the query's budget: rows it
//! produced, time, cancellation.

mod call;
mod eval;
mod graph_output;
mod index_seek;
mod ops;
mod paths;
pub(crate) mod profile;
mod schema;
mod shortest_by_length;
mod steps;
mod update;
mod walk_guard;

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use std::cell::Ref;

use kith_core::write_op::WriteOp;
use kith_core::{Applied, GraphTx, GraphView, LabelId, PropKeyId, RelTypeId, TxError, TxErrorKind};
use rustc_hash::{FxHashMap, FxHashSet};

pub use eval::eval;
pub(crate) use eval::output_value;
pub(crate) use graph_output::graph_value;

use crate::binder::{Names, Sub};
use crate::error::{CypherError, ErrorCode, Result};
use crate::planner::{Op, Plan, Step, SubPlan};
use crate::procedures::ProcedureSet;
use crate::value::{Key, Val};

/// Rows of one width, stored flat.
#[derive(Clone, Debug, Default)]
pub struct Rows {
    width: usize,
    data: Vec<Val>,
}

impl Rows {
    /// No rows.
    pub fn new(width: usize) -> Rows {
        Rows {
            width,
            data: Vec::new(),
        }
    }

    /// One row of nulls: the input of a query's first clause.
    pub fn unit(width: usize) -> Rows {
        Rows {
            width,
            data: vec![Val::Null; width],
        }
    }

    /// How many rows.
    pub fn len(&self) -> usize {
        self.data
            .len()
            .checked_div(self.width)
            .unwrap_or(usize::from(!self.data.is_empty()))
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Values a row.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Row `i`.
    pub fn row(&self, i: usize) -> &[Val] {
        &self.data[i * self.width..(i + 1) * self.width]
    }

    /// Iterates the rows.
    pub fn iter(&self) -> impl Iterator<Item = &[Val]> {
        self.data.chunks_exact(self.width.max(1))
    }

    /// Appends a row.
    pub fn push(&mut self, row: &[Val]) {
        debug_assert_eq!(row.len(), self.width);
        self.data.extend_from_slice(row);
    }

    /// Appends a copy of `row` with one slot replaced.
    pub fn push_with(&mut self, row: &[Val], slot: usize, v: Val) {
        let start = self.data.len();
        self.data.extend_from_slice(row);
        self.data[start + slot] = v;
    }

    /// Appends a copy of `row` with two slots replaced.
    pub fn push_with2(&mut self, row: &[Val], a: (usize, Val), b: (usize, Val)) {
        let start = self.data.len();
        self.data.extend_from_slice(row);
        self.data[start + a.0] = a.1;
        self.data[start + b.0] = b.1;
    }

    /// The last row, to change it.
    pub fn last_mut(&mut self) -> &mut [Val] {
        let start = self.data.len() - self.width;
        &mut self.data[start..]
    }

    /// Keeps the rows `keep` accepts, in order, moving rather than copying them.
    pub fn retain(&mut self, mut keep: impl FnMut(&[Val]) -> Result<bool>) -> Result<()> {
        let w = self.width;
        let n = self.len();
        let mut kept = 0;
        for i in 0..n {
            if keep(&self.data[i * w..(i + 1) * w])? {
                if kept != i {
                    let (front, back) = self.data.split_at_mut(i * w);
                    front[kept * w..(kept + 1) * w].swap_with_slice(&mut back[..w]);
                }
                kept += 1;
            }
        }
        self.data.truncate(kept * w);
        Ok(())
    }

    /// Row `i`, to change it.
    pub fn row_mut(&mut self, i: usize) -> &mut [Val] {
        &mut self.data[i * self.width..(i + 1) * self.width]
    }

    /// Keeps the first `n` rows.
    pub fn truncate(&mut self, n: usize) {
        self.data.truncate(n * self.width);
    }
}

/// Limits of one run.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Rows one operator may hold.
    pub rows_max: usize,
    /// When the query must stop.
    pub deadline: Option<Instant>,
    /// Set by another thread to stop the query.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Set by `TERMINATE TRANSACTION` to stop the query.
    pub terminate: Option<Arc<AtomicBool>>,
    /// The transaction's metadata, for `tx.getMetaData()` / `tx.setMetaData()`.
    pub metadata: Option<crate::TxMetadata>,
}

/// A list and the set of its values.
pub(crate) type InSet = (Arc<Vec<Val>>, FxHashSet<Key>);

/// What a run deleted.
#[derive(Default)]
pub(crate) struct Deleted {
    nodes: FxHashSet<kith_core::NodeId>,
    rels: FxHashMap<kith_core::RelId, DeletedRel>,
}

/// What stays known of a relationship a run deleted: its type (`type(r)` answers
/// it) and its ends (a path through it is still a walk the answer can show).
#[derive(Clone, Debug)]
pub(crate) struct DeletedRel {
    pub(crate) rel_type: Arc<str>,
    pub(crate) src: kith_core::NodeId,
    pub(crate) dst: kith_core::NodeId,
    /// Named by the DELETE, not taken by a DETACH with its node.
    pub(crate) named: bool,
}

/// The graph a run reads: a plain view (a query that only reads), or a transaction's
/// private version, which its write operators change between rows.
pub enum Source<'g> {
    /// Read only.
    Read(&'g dyn GraphView),
    /// A transaction: reads see its writes.
    Tx(RefCell<&'g mut dyn GraphTx>),
}

/// A borrowed view of the run's graph. For a transaction it holds the borrow that
/// keeps writes out while a read is in progress; writes happen only in operators that
/// have collected all their input rows first (see `ops.rs`), when no read is. Under
/// PROFILE every read through it (each method call) counts as a db hit.
pub struct GraphRef<'a> {
    view: View<'a>,
    hits: Option<&'a profile::Profiler>,
}

enum View<'a> {
    /// A plain view.
    Plain(&'a dyn GraphView),
    /// A transaction's version, borrowed.
    Tx(Ref<'a, dyn GraphView>),
}

impl<'a> std::ops::Deref for GraphRef<'a> {
    type Target = dyn GraphView + 'a;

    #[inline]
    fn deref(&self) -> &(dyn GraphView + 'a) {
        if let Some(p) = self.hits {
            p.hit();
        }
        match &self.view {
            View::Plain(g) => *g,
            View::Tx(t) => &**t,
        }
    }
}

/// What a run needs besides the rows.
pub struct Ctx<'g> {
    source: Source<'g>,
    /// Parameter values by index.
    pub params: Vec<Val>,
    /// Property keys resolved in this graph (a write may add names).
    keys: Vec<Cell<Option<PropKeyId>>>,
    /// Labels resolved.
    labels: Vec<Cell<Option<LabelId>>>,
    /// Relationship types resolved.
    types: Vec<Cell<Option<RelTypeId>>>,
    /// The names.
    pub names: &'g Names,
    /// Row width.
    pub width: usize,
    /// Writes applied so far.
    writes: Cell<u64>,
    /// What this run deleted: nodes, and relationships with their type's name.
    deleted: RefCell<Deleted>,
    budget: Budget,
    ticks: Cell<u32>,
    /// The last large list `IN` tested against, as a set (the list kept alive so its
    /// address names it).
    pub(crate) in_set: RefCell<Option<InSet>>,
    /// Answers of patterns inside expressions, by pattern (see [`steps::Memo`]).
    pub(crate) memo: RefCell<FxHashMap<usize, steps::Memo>>,
    /// PROFILE's counters, when profiling.
    profiler: Option<&'g profile::Profiler>,
    /// The patterns and subqueries the plan's expressions name.
    subs: &'g [SubPlan],
    /// The procedures CALL runs (`None`: none at all).
    procs: Option<&'g ProcedureSet>,
    /// The statement's instant, read from the clock once at its first use, so that
    /// `date()` is one value throughout a statement.
    now: Cell<Option<chrono::NaiveDateTime>>,
    /// Notifications only running finds (a schema command that did nothing).
    pub(crate) notices: RefCell<Vec<crate::notices::Notification>>,
}

impl<'g> Ctx<'g> {
    /// A context for `plan` over `source`.
    pub fn new(source: Source<'g>, plan: &'g Plan, params: Vec<Val>, budget: Budget) -> Ctx<'g> {
        let names = &plan.names;
        let cx = Ctx {
            source,
            params,
            keys: vec![Cell::new(None); names.keys.len()],
            labels: vec![Cell::new(None); names.labels.len()],
            types: vec![Cell::new(None); names.types.len()],
            names,
            width: plan.width,
            writes: Cell::new(0),
            deleted: RefCell::new(Deleted::default()),
            budget,
            ticks: Cell::new(0),
            in_set: RefCell::new(None),
            memo: RefCell::new(FxHashMap::default()),
            profiler: None,
            subs: &plan.subs,
            procs: None,
            now: Cell::new(None),
            notices: RefCell::new(Vec::new()),
        };
        cx.resolve();
        cx
    }

    /// This context, calling native procedures through `procs`.
    pub fn with_procedures(mut self, procs: &'g ProcedureSet) -> Ctx<'g> {
        self.procs = Some(procs);
        self
    }

    /// The procedures CALL runs through.
    pub(crate) fn procedures(&self) -> Option<&'g ProcedureSet> {
        self.procs
    }

    /// The steps of a pattern an expression names.
    pub(crate) fn pattern(&self, sub: Sub) -> Result<&'g [Step]> {
        match self.subs.get(sub.0) {
            Some(SubPlan::Steps(steps)) => Ok(steps),
            _ => Err(not_planned(sub)),
        }
    }

    /// The operators of a subquery an expression names.
    pub(crate) fn subquery(&self, sub: Sub) -> Result<&'g [Op]> {
        match self.subs.get(sub.0) {
            Some(SubPlan::Ops(ops)) => Ok(ops),
            _ => Err(not_planned(sub)),
        }
    }

    /// The statement's instant (UTC).
    pub(crate) fn now(&self) -> chrono::NaiveDateTime {
        if let Some(t) = self.now.get() {
            return t;
        }
        let t = crate::temporal::realtime();
        self.now.set(Some(t));
        t
    }

    /// This context, counting into `profiler` (PROFILE).
    pub(crate) fn profiled(mut self, profiler: Option<&'g profile::Profiler>) -> Ctx<'g> {
        self.profiler = profiler;
        self
    }

    /// PROFILE's counters, when profiling.
    #[inline]
    pub(crate) fn profiler(&self) -> Option<&'g profile::Profiler> {
        self.profiler
    }

    /// Runs `f` as a row's visit to the plan element `of` (an operator, a step):
    /// under PROFILE its time and graph reads are charged to it.
    #[inline]
    pub(crate) fn charged<T, R>(&self, of: Option<&T>, f: impl FnOnce() -> R) -> R {
        match (self.profiler, of) {
            (Some(p), Some(of)) => {
                let previous = p.enter(crate::planner::key_of(of));
                let r = f();
                p.leave(previous);
                r
            }
            _ => f(),
        }
    }

    /// The graph as the run sees it now.
    #[inline]
    pub fn graph(&self) -> GraphRef<'_> {
        let view = match &self.source {
            Source::Read(g) => View::Plain(*g),
            Source::Tx(t) => View::Tx(Ref::map(t.borrow(), |t| t.view())),
        };
        GraphRef {
            view,
            hits: self.profiler,
        }
    }

    /// Counts a db hit under PROFILE (a scan's node, which one call yields many of).
    #[inline]
    pub(crate) fn hit(&self) {
        if let Some(p) = self.profiler {
            p.hit();
        }
    }

    /// Applies writes to the run's transaction; what follows reads them.
    pub fn write(&self, ops: &[WriteOp]) -> Result<Applied> {
        let Source::Tx(tx) = &self.source else {
            return Err(CypherError::new(
                ErrorCode::ExecutionFailed,
                "this query writes: run it in a transaction",
            ));
        };
        let applied = {
            let mut tx = tx.try_borrow_mut().map_err(|_| {
                CypherError::new(
                    ErrorCode::ExecutionFailed,
                    "a write while a read was in progress (an engine bug)",
                )
            })?;
            tx.apply(ops).map_err(from_tx)?
        };
        self.written();
        Ok(applied)
    }

    /// After a write: patterns may now match otherwise, and new names may exist.
    fn written(&self) {
        self.writes.set(self.writes.get() + 1);
        self.memo.borrow_mut().clear();
        self.resolve();
    }

    /// Records what a DELETE is about to delete: the nodes, the relationships it
    /// names (their type stays readable after, as in Neo4j) and those DETACH takes
    /// with the nodes (`detached`: `type()` of one fails, as in Neo4j).
    pub(crate) fn deleting(
        &self,
        nodes: &[kith_core::NodeId],
        named: &[kith_core::RelId],
        detached: &[kith_core::RelId],
    ) {
        let g = self.graph();
        let mut d = self.deleted.borrow_mut();
        d.nodes.extend(nodes.iter().copied());
        let rels = detached
            .iter()
            .map(|r| (r, false))
            .chain(named.iter().map(|r| (r, true)));
        for (r, named) in rels {
            if let Some(rel) = g.relationship(*r) {
                let gone = DeletedRel {
                    rel_type: Arc::from(g.rel_type_name(rel.rel_type)),
                    src: rel.src,
                    dst: rel.dst,
                    named,
                };
                d.rels.insert(*r, gone);
            }
        }
    }

    /// Fails when `v` is a node or relationship this run deleted: what it held is
    /// gone. Called only after a read found nothing, so reads pay nothing for it.
    pub(crate) fn check_not_deleted(&self, v: &Val) -> Result<()> {
        let d = self.deleted.borrow();
        let gone = match v {
            Val::Node(n) => d.nodes.contains(n),
            Val::Rel(r) => d.rels.contains_key(r),
            _ => false,
        };
        if gone {
            return Err(CypherError::new(
                ErrorCode::EntityNotFound,
                format!(
                    "the {} was deleted by this query: its properties and labels are gone",
                    v.type_name().to_lowercase()
                ),
            ));
        }
        Ok(())
    }

    /// What stays known of a relationship this run deleted.
    pub(crate) fn deleted_rel(&self, r: kith_core::RelId) -> Option<DeletedRel> {
        self.deleted.borrow().rels.get(&r).cloned()
    }

    /// Whether the run has written anything yet.
    pub fn has_written(&self) -> bool {
        self.writes.get() > 0
    }

    /// The property key of name index `i`, if the graph has it.
    #[inline]
    pub fn key(&self, i: usize) -> Option<PropKeyId> {
        self.keys[i].get()
    }

    /// The label of name index `i`.
    #[inline]
    pub fn label(&self, i: usize) -> Option<LabelId> {
        self.labels[i].get()
    }

    /// The relationship type of name index `i`.
    #[inline]
    pub fn rel_type(&self, i: usize) -> Option<RelTypeId> {
        self.types[i].get()
    }

    /// Resolves the names not yet known in the graph (ids never change once given).
    fn resolve(&self) {
        let g = self.graph();
        for (cell, name) in self.keys.iter().zip(&self.names.keys) {
            if cell.get().is_none() {
                cell.set(g.prop_key_id(name));
            }
        }
        for (cell, name) in self.labels.iter().zip(&self.names.labels) {
            if cell.get().is_none() {
                cell.set(g.label_id(name));
            }
        }
        for (cell, name) in self.types.iter().zip(&self.names.types) {
            if cell.get().is_none() {
                cell.set(g.rel_type_id(name));
            }
        }
    }

    /// Checks time and cancellation every few thousand calls.
    #[inline]
    pub fn tick(&self) -> Result<()> {
        let t = self.ticks.get().wrapping_add(1);
        self.ticks.set(t);
        if !t.is_multiple_of(4096) {
            return Ok(());
        }
        self.check_budget()
    }

    fn check_budget(&self) -> Result<()> {
        if let Some(t) = &self.budget.terminate {
            if t.load(Ordering::Relaxed) {
                return Err(CypherError::new(
                    ErrorCode::Cancelled,
                    "the query was terminated (TERMINATE TRANSACTION)",
                ));
            }
        }
        if let Some(c) = &self.budget.cancel {
            if c.load(Ordering::Relaxed) {
                return Err(CypherError::new(
                    ErrorCode::Cancelled,
                    "the query was cancelled",
                ));
            }
        }
        if let Some(d) = self.budget.deadline {
            if Instant::now() >= d {
                return Err(CypherError::new(
                    ErrorCode::Timeout,
                    "the query ran past its time limit",
                ));
            }
        }
        Ok(())
    }

    /// Fails when a batch holds more rows than allowed.
    pub fn check_rows(&self, rows: &Rows) -> Result<()> {
        self.check_len(rows.len())
    }

    /// Fails when an operator produced or holds more than the allowed rows.
    #[inline]
    pub fn check_len(&self, rows: usize) -> Result<()> {
        if rows > self.budget.rows_max {
            return Err(self.too_many_rows());
        }
        Ok(())
    }

    #[cold]
    fn too_many_rows(&self) -> CypherError {
        CypherError::new(
            ErrorCode::LimitExceeded,
            format!(
                "the query held more than {} rows in one operator",
                self.budget.rows_max
            ),
        )
    }
}

/// Runs a stored procedure's plan (UNION parts included) inside the query `cx`
/// runs: on its graph, in its transaction; the result columns of each row. `args`
/// are its arguments by parameter name (each UNION part has its own parameters).
pub(crate) fn run_nested(
    stored: &Plan,
    args: &[(&str, Val)],
    cx: &Ctx<'_>,
) -> Result<Vec<Vec<Val>>> {
    let mut out = Vec::new();
    let parts =
        std::iter::once((true, stored)).chain(stored.unions.iter().map(|(all, p)| (*all, p)));
    for (all, plan) in parts {
        let params = plan
            .names
            .params
            .iter()
            .map(|name| {
                let found = args.iter().find(|(n, _)| n == name);
                found.map(|(_, v)| v.clone()).unwrap_or(Val::Null)
            })
            .collect();
        let rows = match &cx.source {
            Source::Tx(tx) if writes(stored) => {
                // A writing operator runs this with no read in progress (it collected
                // its input first), so the transaction is free to lend.
                let mut tx = tx.try_borrow_mut().map_err(|_| {
                    CypherError::new(
                        ErrorCode::ExecutionFailed,
                        "a stored procedure wrote while a read was in progress (an engine bug)",
                    )
                })?;
                let source = Source::Tx(RefCell::new(&mut **tx));
                nested_rows(plan, params, source, cx)?
            }
            _ => {
                let g = cx.graph();
                nested_rows(plan, params, Source::Read(&*g), cx)?
            }
        };
        out.extend(rows);
        if !all {
            // UNION (not ALL): each answer row once.
            let mut seen = FxHashSet::default();
            let mut kept = Vec::with_capacity(out.len());
            for row in out {
                if seen.insert(ops::GroupKey::new(row.iter().cloned().map(Ok))?) {
                    kept.push(row);
                }
            }
            out = kept;
        }
    }
    if writes(stored) {
        cx.written();
    }
    Ok(out)
}

/// Whether a plan writes, in any of its UNION parts.
pub(crate) fn writes(plan: &Plan) -> bool {
    plan.writes || plan.unions.iter().any(|(_, p)| p.writes)
}

fn nested_rows<'a, 'g: 'a>(
    plan: &'a Plan,
    params: Vec<Val>,
    source: Source<'a>,
    cx: &Ctx<'g>,
) -> Result<Vec<Vec<Val>>> {
    let profiler: Option<&'a profile::Profiler> = cx.profiler;
    let mut inner = Ctx::new(source, plan, params, cx.budget.clone()).profiled(profiler);
    inner.procs = cx.procs;
    let rows = run(plan, &inner)?;
    Ok(rows
        .iter()
        .map(|r| plan.columns.iter().map(|(_, s)| r[*s].clone()).collect())
        .collect())
}

/// Runs the plan's pipeline; the result rows (all slots).
pub fn run(plan: &Plan, cx: &Ctx<'_>) -> Result<Rows> {
    let rows = ops::run_ops(&plan.ops, Rows::unit(plan.width), cx)?;
    if trace() {
        for m in cx.memo.borrow().values() {
            eprintln!("{}", m.describe());
        }
    }
    cx.check_budget()?;
    Ok(rows)
}

/// Whether `KITH_CYPHER_TRACE` asks for the rows that reached each operator and step,
/// on stderr.
pub(crate) fn trace() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("KITH_CYPHER_TRACE").is_some())
}

/// An expression names a pattern or subquery its plan does not hold as that: the
/// planner plans every entry of the binder's table in order, so this is an engine bug.
fn not_planned(sub: Sub) -> CypherError {
    CypherError::new(
        ErrorCode::ExecutionFailed,
        format!(
            "the plan holds no pattern or subquery {} of that kind (an engine bug)",
            sub.0
        ),
    )
}

/// The engine error for a write the transaction refused.
fn from_tx(e: TxError) -> CypherError {
    let code = match e.kind {
        TxErrorKind::InvalidValue => ErrorCode::TypeError,
        TxErrorKind::Failed => ErrorCode::ExecutionFailed,
        TxErrorKind::ConstraintCreationFailed => ErrorCode::ConstraintCreationFailed,
        _ => ErrorCode::ConstraintViolation,
    };
    CypherError {
        refused: Some(e.kind),
        ..CypherError::new(code, e.message)
    }
}
