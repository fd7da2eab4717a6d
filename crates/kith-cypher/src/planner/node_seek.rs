//! `WHERE id(n) = $x` and `WHERE elementId(n) = $x`: the node is found by its slot
//! instead of by scanning every node and filtering; `id(r)` / `elementId(r)` of a
//! relationship likewise finds its ends. (The conjunct still runs after the seek, so
//! the answer is the filter's whatever the value.)

use rustc_hash::FxHashSet;

use crate::ast::CompareOp;
use crate::binder::{needed_slots, BExpr, BPart};
use crate::functions::Function;

/// How a seek names its node: by `id(n)` (an integer) or `elementId(n)` (its text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKey {
    /// `id(n)`.
    Id,
    /// `elementId(n)`.
    ElementId,
}

/// Nodes of the pattern a WHERE conjunct pins to one id known before the pattern:
/// (slot, how, value).
pub(super) fn node_seeks(
    parts: &[BPart],
    filters: &[(Option<FxHashSet<usize>>, BExpr)],
    pre: &FxHashSet<usize>,
) -> Vec<(usize, NodeKey, BExpr)> {
    let new_nodes = new_nodes(parts);
    let mut out: Vec<(usize, NodeKey, BExpr)> = Vec::new();
    for (_, f) in filters {
        if let Some(seek) = pinned(f, &new_nodes, pre) {
            if !out.iter().any(|(s, ..)| *s == seek.0) {
                out.push(seek);
            }
        }
    }
    out
}

/// Single-hop relationships of the pattern, not bound before it, that a WHERE
/// conjunct pins to one `id(r)` or `elementId(r)`: ((part, relationship), how, value).
pub(super) fn rel_seeks(
    parts: &[BPart],
    filters: &[(Option<FxHashSet<usize>>, BExpr)],
    pre: &FxHashSet<usize>,
) -> Vec<((usize, usize), NodeKey, BExpr)> {
    let mut slots = FxHashSet::default();
    let mut at = Vec::new();
    for (pi, part) in parts.iter().enumerate() {
        if part.kind != crate::ast::PathKind::Plain {
            continue;
        }
        for (ri, rel) in part.rels.iter().enumerate() {
            if !rel.bound && rel.length.is_none() && !pre.contains(&rel.slot) {
                slots.insert(rel.slot);
                at.push((rel.slot, (pi, ri)));
            }
        }
    }
    let mut out: Vec<((usize, usize), NodeKey, BExpr)> = Vec::new();
    for (_, f) in filters {
        if let Some((slot, key, value)) = pinned(f, &slots, pre) {
            let place = at.iter().find(|(s, _)| *s == slot).map(|(_, p)| *p);
            if let Some(place) = place.filter(|p| !out.iter().any(|(q, ..)| q == p)) {
                out.push((place, key, value));
            }
        }
    }
    out
}

/// The slots of the pattern's nodes not bound before it: what a seek may start from.
pub(super) fn new_nodes(parts: &[BPart]) -> FxHashSet<usize> {
    parts
        .iter()
        .flat_map(|p| p.nodes.iter())
        .filter(|n| !n.bound)
        .map(|n| n.slot)
        .collect()
}

/// Whether `e` calls `rand()`: the filter after the seek would draw another value, so
/// such a conjunct stays a filter over a scan (each node drawn once, as the naive
/// plan draws).
pub(super) fn random(e: &BExpr) -> bool {
    let mut found = false;
    super::prefetch::visit(e, &mut |x| {
        found |= matches!(x, BExpr::Call(Function::Rand, _));
        !found
    });
    found
}

/// `id(x) = e` or `elementId(x) = e` (either way round), `x` one of `new_slots` (new
/// nodes, or new relationships) and `e` known before the pattern.
fn pinned(
    t: &BExpr,
    new_nodes: &FxHashSet<usize>,
    pre: &FxHashSet<usize>,
) -> Option<(usize, NodeKey, BExpr)> {
    let BExpr::Compare(left, chain) = t else {
        return None;
    };
    let [(CompareOp::Eq, right)] = chain.as_slice() else {
        return None;
    };
    let side = |call: &BExpr, value: &BExpr| {
        let BExpr::Call(f, args) = call else {
            return None;
        };
        let key = match f {
            Function::Id => NodeKey::Id,
            Function::ElementId => NodeKey::ElementId,
            _ => return None,
        };
        let [BExpr::Slot(s)] = args.as_slice() else {
            return None;
        };
        let known = needed_slots(value).is_some_and(|need| need.iter().all(|x| pre.contains(x)));
        (new_nodes.contains(s) && known && !random(value)).then(|| (*s, key, value.clone()))
    };
    side(left, right).or_else(|| side(right, left))
}
