//! Variable-length expands (every trail) and shortest paths (breadth-first).

use std::sync::Arc;

use kith_core::{Edge, NodeId, RelId};
use rustc_hash::{FxHashMap, FxHashSet};

use super::steps::{for_each_edge, rel_matches};
use super::{Ctx, Rows};
use crate::error::Result;
use crate::planner::Expand;
use crate::value::{Path, Val};

fn edges_of(e: &Expand, node: NodeId, row: &[Val], cx: &Ctx<'_>) -> Result<Vec<Edge>> {
    let mut out = Vec::new();
    for_each_edge(e, node, cx, |edge| {
        if e.rel_props.is_empty() || rel_matches(edge.rel, &e.rel_props, row, cx)? {
            out.push(edge);
        }
        Ok(())
    })?;
    Ok(out)
}

fn rel_list(rels: &[RelId]) -> Val {
    Val::list(rels.iter().map(|r| Val::Rel(*r)).collect())
}

/// `(a)-[*min..max]-(b)`: every path that uses no relationship twice, depth first.
pub(crate) fn var_expand(rows: Rows, e: &Expand, cx: &Ctx<'_>) -> Result<Rows> {
    let mut out = Rows::new(cx.width);
    for row in rows.iter() {
        let Val::Node(from) = row[e.from] else {
            continue;
        };
        let target = match (e.into, &row[e.to]) {
            (false, _) => None,
            (true, Val::Node(t)) => Some(*t),
            (true, _) => continue,
        };
        if e.min == 0 && target.is_none_or(|t| t == from) {
            out.push_with2(row, (e.rel, rel_list(&[])), (e.to, Val::Node(from)));
        }
        trails(row, from, target, e, cx, &mut out)?;
        cx.check_rows(&out)?;
    }
    Ok(out)
}

fn trails(
    row: &[Val],
    from: NodeId,
    target: Option<NodeId>,
    e: &Expand,
    cx: &Ctx<'_>,
    out: &mut Rows,
) -> Result<()> {
    if e.max == 0 {
        return Ok(());
    }
    let mut stack: Vec<(Vec<Edge>, usize)> = vec![(edges_of(e, from, row, cx)?, 0)];
    let mut path: Vec<RelId> = Vec::new();
    let mut on_path: FxHashSet<RelId> = FxHashSet::default();
    while let Some((edges, next)) = stack.last_mut() {
        let Some(edge) = edges.get(*next).copied() else {
            stack.pop();
            if let Some(r) = path.pop() {
                on_path.remove(&r);
            }
            continue;
        };
        *next += 1;
        cx.tick()?;
        if on_path.contains(&edge.rel) {
            continue;
        }
        path.push(edge.rel);
        on_path.insert(edge.rel);
        let depth = path.len() as u32;
        if depth >= e.min && target.is_none_or(|t| t == edge.node) {
            out.push_with2(row, (e.rel, rel_list(&path)), (e.to, Val::Node(edge.node)));
            if out.len().is_multiple_of(1024) {
                cx.check_rows(out)?;
            }
        }
        if depth < e.max {
            stack.push((edges_of(e, edge.node, row, cx)?, 0));
        } else if let Some(r) = path.pop() {
            on_path.remove(&r);
        }
    }
    Ok(())
}

/// `shortestPath` / `allShortestPaths` between two bound nodes.
pub(crate) fn shortest(
    rows: Rows,
    e: &Expand,
    all: bool,
    path_slot: Option<usize>,
    cx: &Ctx<'_>,
) -> Result<Rows> {
    let mut out = Rows::new(cx.width);
    for row in rows.iter() {
        let (Val::Node(a), Val::Node(b)) = (&row[e.from], &row[e.to]) else {
            continue;
        };
        for p in shortest_paths(*a, *b, e, all, row, cx)? {
            let rels = rel_list(&p.rels);
            out.push_with(row, e.rel, rels);
            if let Some(s) = path_slot {
                out.last_mut()[s] = Val::Path(Arc::new(p));
            }
        }
        cx.check_rows(&out)?;
    }
    Ok(out)
}

/// Breadth-first from `a` until the layer that reaches `b`; every predecessor on a
/// shortest path is kept when `all`, the first one otherwise.
fn shortest_paths(
    a: NodeId,
    b: NodeId,
    e: &Expand,
    all: bool,
    row: &[Val],
    cx: &Ctx<'_>,
) -> Result<Vec<Path>> {
    if a == b {
        return Ok(if e.min == 0 {
            vec![Path {
                nodes: vec![a],
                rels: Vec::new(),
            }]
        } else {
            Vec::new()
        });
    }
    let mut depth_of: FxHashMap<NodeId, u32> = FxHashMap::default();
    let mut preds: FxHashMap<NodeId, Vec<(NodeId, RelId)>> = FxHashMap::default();
    depth_of.insert(a, 0);
    let mut frontier = vec![a];
    let mut depth = 0;
    while !frontier.is_empty() && depth < e.max && !depth_of.contains_key(&b) {
        depth += 1;
        let mut next = Vec::new();
        for &n in &frontier {
            for edge in edges_of(e, n, row, cx)? {
                cx.tick()?;
                match depth_of.get(&edge.node) {
                    None => {
                        depth_of.insert(edge.node, depth);
                        preds.insert(edge.node, vec![(n, edge.rel)]);
                        next.push(edge.node);
                    }
                    Some(&d) if d == depth && all => {
                        preds.entry(edge.node).or_default().push((n, edge.rel));
                    }
                    Some(_) => {}
                }
            }
        }
        frontier = next;
    }
    if !depth_of.contains_key(&b) || depth < e.min.max(1) {
        return Ok(Vec::new());
    }
    let mut paths = Vec::new();
    let mut rev_nodes = vec![b];
    let mut rev_rels = Vec::new();
    unwind_preds(
        b,
        a,
        &preds,
        all,
        &mut rev_nodes,
        &mut rev_rels,
        &mut paths,
        cx,
    )?;
    Ok(paths)
}

#[allow(clippy::too_many_arguments)]
fn unwind_preds(
    at: NodeId,
    a: NodeId,
    preds: &FxHashMap<NodeId, Vec<(NodeId, RelId)>>,
    all: bool,
    nodes: &mut Vec<NodeId>,
    rels: &mut Vec<RelId>,
    out: &mut Vec<Path>,
    cx: &Ctx<'_>,
) -> Result<()> {
    if at == a {
        let mut p = Path {
            nodes: nodes.clone(),
            rels: rels.clone(),
        };
        p.nodes.reverse();
        p.rels.reverse();
        out.push(p);
        return Ok(());
    }
    let Some(list) = preds.get(&at) else {
        return Ok(());
    };
    let take = if all { list.len() } else { 1 };
    for &(prev, rel) in &list[..take] {
        cx.tick()?;
        nodes.push(prev);
        rels.push(rel);
        unwind_preds(prev, a, preds, all, nodes, rels, out, cx)?;
        nodes.pop();
        rels.pop();
        if !all && !out.is_empty() {
            break;
        }
    }
    Ok(())
}
