//! Shortest paths that must satisfy WHERE conjuncts no single relationship or node
//! decides (`length(p) >= 3`, a sum over `relationships(p)`, anything in the naive
//! plan): paths from the start are enumerated length by length, as variable-length
//! walks (no relationship twice, the element filters pruning them), and the first
//! length at which some path to the end satisfies the conjuncts gives the answer:
//! the first such path, or all of them. As in Neo4j this is an exhaustive search;
//! it stops at the bound, or at the first length no walk from the start reaches.

use std::sync::Arc;

use super::eval::{eval, truth};
use super::paths::{var_expand, Trail};
use super::steps::extend_path;
use super::Ctx;
use crate::binder::BExpr;
use crate::error::Result;
use crate::planner::Expand;
use crate::value::{Path, Val};

/// A path found and its relationship list.
type Found = (Val, Arc<Path>);

/// The shortest paths from the row's `e.from` to its `e.to` that make every
/// `residual` conjunct true, handed to `next` one row each.
pub(crate) fn shortest_by_length(
    e: &Expand,
    all: bool,
    path_slot: Option<usize>,
    residual: &[BExpr],
    row: &mut [Val],
    cx: &Ctx<'_>,
    next: &mut impl FnMut(&mut [Val]) -> Result<bool>,
) -> Result<bool> {
    let (Val::Node(a), Val::Node(b)) = (&row[e.from], &row[e.to]) else {
        return Ok(true);
    };
    let (a, b) = (*a, *b);
    if a == b && e.min > 0 {
        return Err(super::paths::same_node_shortest());
    }
    let mut walk = e.clone();
    walk.into = false;
    walk.bind_rel = true;
    let mut trail = Trail::default();
    let mut scratch = row.to_vec();
    for length in e.min..=e.max {
        walk.min = length;
        walk.max = length;
        let mut reached = false;
        let mut found: Vec<Found> = Vec::new();
        var_expand(&walk, &mut trail, &mut scratch, cx, &mut |r| {
            reached = true;
            if !matches!(r[e.to], Val::Node(end) if end == b) {
                return Ok(true);
            }
            let Some(path) = path_of(a, &r[e.rel], cx) else {
                return Ok(true);
            };
            let path = Arc::new(path);
            if let Some(s) = path_slot {
                r[s] = Val::Path(path.clone());
            }
            if satisfies(residual, r, cx)? {
                found.push((r[e.rel].clone(), path));
                cx.check_len(found.len())?;
                return Ok(all); // one path is the answer of shortestPath
            }
            Ok(true)
        })?;
        if !found.is_empty() {
            return emit(e, path_slot, found, row, next);
        }
        if !reached {
            return Ok(true); // no walk from the start is this long: none longer is
        }
    }
    Ok(true)
}

fn path_of(start: kith_core::NodeId, rels: &Val, cx: &Ctx<'_>) -> Option<Path> {
    let mut path = Path {
        nodes: vec![start],
        rels: Vec::new(),
    };
    let Val::List(rels) = rels else { return None };
    for r in rels.iter() {
        let Val::Rel(r) = r else { return None };
        extend_path(&mut path, *r, cx)?;
    }
    Some(path)
}

fn satisfies(residual: &[BExpr], row: &[Val], cx: &Ctx<'_>) -> Result<bool> {
    for c in residual {
        if truth(&eval(c, row, cx)?)? != Some(true) {
            return Ok(false);
        }
    }
    Ok(true)
}

fn emit(
    e: &Expand,
    path_slot: Option<usize>,
    found: Vec<Found>,
    row: &mut [Val],
    next: &mut impl FnMut(&mut [Val]) -> Result<bool>,
) -> Result<bool> {
    for (rels, path) in found {
        row[e.rel] = if e.bind_rel { rels } else { Val::Null };
        if let Some(s) = path_slot {
            row[s] = Val::Path(path);
        }
        if !next(row)? {
            return Ok(false);
        }
    }
    Ok(true)
}
