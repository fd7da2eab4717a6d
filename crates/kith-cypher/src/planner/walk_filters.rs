//! The WHERE conjuncts a variable-length walk or a shortest path takes into its
//! search. Neo4j answers `shortestPath(...) WHERE <a predicate over the path>` with
//! the shortest path *that satisfies it*, not the shortest path dropped when it fails:
//!
//! - a predicate on each relationship or each node (`all(r IN rels WHERE ...)`,
//!   `none(n IN nodes(p) WHERE ...)`) prunes the search (`WalkFilters`), which is
//!   exact for shortest paths and for variable-length walks alike (a walk through an
//!   element that fails can never satisfy the conjunct), so the conjunct leaves the
//!   WHERE;
//! - for a shortest path, any other conjunct reading the path or its relationships
//!   (its *residual*) is checked on each candidate as paths are enumerated by
//!   increasing length.

use rustc_hash::FxHashSet;

use super::{ElementFilter, WalkFilters};
use crate::ast::Quantifier;
use crate::binder::needed_slots;
use crate::binder::BExpr;
use crate::functions::Function;

/// WHERE conjuncts not yet placed, with the slots each reads (`None`: unknown).
pub(super) type Pending = Vec<(Option<FxHashSet<usize>>, BExpr)>;

/// A walk being planned.
pub(super) struct Walk<'a> {
    /// The slot of its relationship list.
    pub(super) rel: usize,
    /// The path's slot, when the path is this walk alone (so `relationships(p)` and
    /// `nodes(p)` are the walk's own).
    pub(super) path: Option<usize>,
    /// The slots bound before the walk.
    pub(super) bound: &'a FxHashSet<usize>,
}

impl Walk<'_> {
    /// Takes out of `pending` the conjuncts the walk checks element by element.
    pub(super) fn take_element_filters(&self, pending: &mut Pending) -> WalkFilters {
        let mut filters = WalkFilters::default();
        pending.retain(|(_, c)| match self.element_filter(c) {
            Some((true, f)) => {
                filters.rels.push(f);
                false
            }
            Some((false, f)) => {
                filters.nodes.push(f);
                false
            }
            None => true,
        });
        filters
    }

    /// Takes out of `pending` the conjuncts that read the walk's path or
    /// relationship list and otherwise only slots bound before it.
    pub(super) fn take_residual(&self, pending: &mut Pending) -> Vec<BExpr> {
        let mut residual = Vec::new();
        pending.retain(|(need, c)| {
            let Some(need) = need else { return true };
            let own = |s: &usize| *s == self.rel || Some(*s) == self.path;
            let reads_walk = need.iter().any(own);
            let rest_bound = need.iter().all(|s| own(s) || self.bound.contains(s));
            if reads_walk && rest_bound {
                residual.push(c.clone());
                false
            } else {
                true
            }
        });
        residual
    }

    /// `all` / `none` over the walk's relationships or nodes, whose predicate reads
    /// only its element and slots bound before: (whether over relationships, the
    /// filter).
    fn element_filter(&self, c: &BExpr) -> Option<(bool, ElementFilter)> {
        let BExpr::Quantifier {
            kind,
            slot,
            list,
            pred,
        } = c
        else {
            return None;
        };
        let want = match kind {
            Quantifier::All => true,
            Quantifier::None => false,
            Quantifier::Any | Quantifier::Single => return None,
        };
        let of_path = |args: &[BExpr]| matches!(args, [BExpr::Slot(s)] if Some(*s) == self.path);
        let on_rels = match &**list {
            BExpr::Slot(s) if *s == self.rel => true,
            BExpr::Call(Function::Relationships, args) if of_path(args) => true,
            BExpr::Call(Function::Nodes, args) if of_path(args) => false,
            _ => return None,
        };
        let mut need = needed_slots(pred)?;
        need.remove(slot);
        if !need.iter().all(|s| self.bound.contains(s)) {
            return None;
        }
        let filter = ElementFilter {
            slot: *slot,
            pred: (**pred).clone(),
            want,
        };
        Some((on_rels, filter))
    }
}
