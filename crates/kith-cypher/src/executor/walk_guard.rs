//! What a walk checks of each relationship it takes and each node it enters: the
//! pattern's relationship properties (`[r:KNOWS {since: 2010}*]`) and the WHERE's
//! element predicates the planner gave it (`planner::WalkFilters`).

use std::cell::RefCell;

use kith_core::{Edge, NodeId, RelId};

use super::eval::{eval, truth};
use super::steps::rel_matches;
use super::Ctx;
use crate::error::Result;
use crate::planner::{ElementFilter, Expand};
use crate::value::Val;

/// A walk's checks, over a copy of the row it started from: the predicates read only
/// slots bound before the walk, and the walk itself writes its own slots as it goes.
pub(crate) struct Guard<'a, 'g> {
    e: &'a Expand,
    cx: &'a Ctx<'g>,
    /// The row, with the element being checked in its predicate's slot; empty when
    /// there is nothing to check.
    scratch: RefCell<Vec<Val>>,
}

impl<'a, 'g> Guard<'a, 'g> {
    pub(crate) fn new(e: &'a Expand, row: &[Val], cx: &'a Ctx<'g>) -> Guard<'a, 'g> {
        let trivial = e.rel_props.is_empty() && e.filters.is_empty();
        let scratch = if trivial { Vec::new() } else { row.to_vec() };
        Guard {
            e,
            cx,
            scratch: RefCell::new(scratch),
        }
    }

    /// Whether every relationship and node passes (nothing to check).
    pub(crate) fn is_trivial(&self) -> bool {
        self.e.rel_props.is_empty() && self.e.filters.is_empty()
    }

    /// Whether the walk may take `edge`: its relationship, and the node it reaches.
    pub(crate) fn edge(&self, edge: &Edge) -> Result<bool> {
        Ok(self.rel(edge.rel)? && self.node(edge.node)?)
    }

    /// Whether the walk may take relationship `rel`.
    pub(crate) fn rel(&self, rel: RelId) -> Result<bool> {
        if self.is_trivial() {
            return Ok(true);
        }
        let scratch = &mut *self.scratch.borrow_mut();
        if !self.e.rel_props.is_empty() && !rel_matches(rel, &self.e.rel_props, scratch, self.cx)? {
            return Ok(false);
        }
        holds(&self.e.filters.rels, Val::Rel(rel), scratch, self.cx)
    }

    /// Whether the walk may enter node `node` (its start and end included).
    pub(crate) fn node(&self, node: NodeId) -> Result<bool> {
        if self.e.filters.nodes.is_empty() {
            return Ok(true);
        }
        let scratch = &mut *self.scratch.borrow_mut();
        holds(&self.e.filters.nodes, Val::Node(node), scratch, self.cx)
    }
}

/// Whether `element` makes every filter's predicate what it wants (null never does).
fn holds(filters: &[ElementFilter], element: Val, row: &mut [Val], cx: &Ctx<'_>) -> Result<bool> {
    for f in filters {
        row[f.slot] = element.clone();
        if truth(&eval(&f.pred, row, cx)?)? != Some(f.want) {
            return Ok(false);
        }
    }
    Ok(true)
}
