//! Runs a plan: a pipeline of operators over fixed-width rows (one slot per variable).
//!
//! Rows flow one at a time, depth first: an operator or MATCH step binds its slots in
//! the row it was handed and passes the same row on, so nothing is copied between
//! steps and a large intermediate result is never held unless an operator must hold
//! it (sorting, aggregation). Rows that are held live in [`Rows`]: one flat `Vec<Val>`
//! with `width` values a row. Every operator checks the query's budget: rows it
//! produced, time, cancellation.

mod eval;
mod graph_output;
mod ops;
mod paths;
mod steps;

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use kith_core::write_op::WriteOp;
use kith_core::{GraphView, LabelId, PropKeyId, RelTypeId};
use rustc_hash::{FxHashMap, FxHashSet};

pub use eval::eval;
pub(crate) use eval::output_value;
pub(crate) use graph_output::graph_value;

use crate::binder::Names;
use crate::error::{CypherError, ErrorCode, Result};
use crate::planner::Plan;
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
}

/// A node CREATE made in this run, not yet in the graph.
#[derive(Clone, Debug)]
pub struct PendingNode {
    /// Its labels.
    pub labels: Vec<Arc<str>>,
    /// Its properties.
    pub props: Vec<(Arc<str>, Val)>,
}

/// A relationship CREATE made in this run, not yet in the graph.
#[derive(Clone, Debug)]
pub struct PendingRel {
    /// Its type.
    pub rel_type: Arc<str>,
    /// Source node (a graph node, or one of this run's).
    pub src: kith_core::NodeId,
    /// Target node.
    pub dst: kith_core::NodeId,
    /// Its properties.
    pub props: Vec<(Arc<str>, Val)>,
}

/// Relationships this run creates get ids counting down from here: dense slot ids
/// never come near it, and the store hands out the real ids when it commits.
pub const PENDING_REL_TOP: u32 = u32::MAX;

/// A list and the set of its values.
pub(crate) type InSet = (Arc<Vec<Val>>, FxHashSet<Key>);

/// What a run needs besides the rows.
pub struct Ctx<'g> {
    /// The graph.
    pub graph: &'g dyn GraphView,
    /// Parameter values by index.
    pub params: Vec<Val>,
    /// Property keys resolved in this graph.
    pub keys: Vec<Option<PropKeyId>>,
    /// Labels resolved.
    pub labels: Vec<Option<LabelId>>,
    /// Relationship types resolved.
    pub types: Vec<Option<RelTypeId>>,
    /// The names.
    pub names: &'g Names,
    /// Row width.
    pub width: usize,
    /// Node ids at or past this are nodes created by this run.
    pub node_bound: u32,
    /// Created nodes.
    pub pending: RefCell<Vec<PendingNode>>,
    /// Created relationships.
    pub pending_rels: RefCell<Vec<PendingRel>>,
    /// Writes made.
    pub writes: RefCell<Vec<WriteOp>>,
    budget: Budget,
    ticks: Cell<u32>,
    /// The last large list `IN` tested against, as a set (the list kept alive so its
    /// address names it).
    pub(crate) in_set: RefCell<Option<InSet>>,
    /// Answers of patterns inside expressions, by pattern (see [`steps::Memo`]).
    pub(crate) memo: RefCell<FxHashMap<usize, steps::Memo>>,
}

impl<'g> Ctx<'g> {
    /// The pending node behind a node id, if this run created it.
    pub fn pending_node(&self, n: kith_core::NodeId) -> Option<PendingNode> {
        let i = n.0.checked_sub(self.node_bound)?;
        self.pending.borrow().get(i as usize).cloned()
    }

    /// The pending relationship behind a relationship id, if this run created it.
    pub fn pending_rel(&self, r: kith_core::RelId) -> Option<PendingRel> {
        let i = PENDING_REL_TOP - r.0;
        self.pending_rels.borrow().get(i as usize).cloned()
    }

    /// A context for `plan` over `graph`.
    pub fn new(
        graph: &'g dyn GraphView,
        plan: &'g Plan,
        params: Vec<Val>,
        budget: Budget,
    ) -> Ctx<'g> {
        let names = &plan.names;
        Ctx {
            graph,
            params,
            keys: names.keys.iter().map(|k| graph.prop_key_id(k)).collect(),
            labels: names.labels.iter().map(|l| graph.label_id(l)).collect(),
            types: names.types.iter().map(|t| graph.rel_type_id(t)).collect(),
            names,
            width: plan.width,
            node_bound: u32::try_from(graph.node_id_bound()).unwrap_or(u32::MAX),
            pending: RefCell::new(Vec::new()),
            pending_rels: RefCell::new(Vec::new()),
            writes: RefCell::new(Vec::new()),
            budget,
            ticks: Cell::new(0),
            in_set: RefCell::new(None),
            memo: RefCell::new(FxHashMap::default()),
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
