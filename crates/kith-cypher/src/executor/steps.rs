//! MATCH steps: scans, seeks, checks, expands.

use kith_core::{Direction, Edge, NodeId, RelId, RelTypeId, Value};

use super::eval::{eval, property};
use super::{paths, Ctx, Rows};
use crate::binder::BExpr;
use crate::error::Result;
use crate::planner::{Dir, Expand, Step};
use crate::value::{equals, Path, Val};

/// Runs a MATCH's steps over a batch.
pub(crate) fn run_steps(steps: &[Step], mut rows: Rows, cx: &Ctx<'_>) -> Result<Rows> {
    for step in steps {
        if rows.is_empty() {
            return Ok(rows);
        }
        rows = run_step(step, rows, cx)?;
        cx.check_rows(&rows)?;
    }
    Ok(rows)
}

fn run_step(step: &Step, rows: Rows, cx: &Ctx<'_>) -> Result<Rows> {
    match step {
        Step::ScanAll { slot } => scan(rows, *slot, cx, |_| true),
        Step::ScanLabel { slot, label } => match cx.labels[*label] {
            Some(l) => scan_nodes(rows, *slot, &cx.nodes_with_label(l), cx),
            None => Ok(Rows::new(cx.width)),
        },
        Step::SeekId { slot, label, value } => seek_id(rows, *slot, *label, value, cx),
        Step::SeekIdAny {
            slot,
            label,
            values,
        } => seek_id_any(rows, *slot, *label, values, cx),
        Step::SeekProp {
            slot,
            label,
            key,
            value,
        } => seek_prop(rows, *slot, *label, *key, value, cx),
        Step::CheckNode {
            slot,
            labels,
            props,
            props_map,
        } => filter(rows, cx, |row| {
            check_node(row, *slot, labels, props, props_map.as_ref(), cx)
        }),
        Step::Expand(e) => expand(rows, e, cx),
        Step::VarExpand(e) => paths::var_expand(rows, e, cx),
        Step::Shortest { expand, all, path } => paths::shortest(rows, expand, *all, *path, cx),
        Step::Filter(f) => filter(rows, cx, |row| {
            Ok(super::eval::truth(&eval(f, row, cx)?)? == Some(true))
        }),
        Step::DistinctRels(slots) => filter(rows, cx, |row| Ok(distinct_rels(row, slots))),
        Step::BuildPath { slot, start, hops } => build_paths(rows, *slot, *start, hops, cx),
    }
}

fn filter(
    mut rows: Rows,
    cx: &Ctx<'_>,
    mut keep: impl FnMut(&[Val]) -> Result<bool>,
) -> Result<Rows> {
    rows.retain(|row| {
        cx.tick()?;
        keep(row)
    })?;
    Ok(rows)
}

fn scan(rows: Rows, slot: usize, cx: &Ctx<'_>, keep: impl Fn(NodeId) -> bool) -> Result<Rows> {
    let nodes: Vec<NodeId> = cx.graph.node_ids().filter(|n| keep(*n)).collect();
    scan_nodes(rows, slot, &nodes, cx)
}

fn scan_nodes(rows: Rows, slot: usize, nodes: &[NodeId], cx: &Ctx<'_>) -> Result<Rows> {
    let mut out = Rows::new(cx.width);
    for row in rows.iter() {
        for n in nodes {
            cx.tick()?;
            out.push_with(row, slot, Val::Node(*n));
        }
        cx.check_rows(&out)?;
    }
    Ok(out)
}

fn seek_id(rows: Rows, slot: usize, label: usize, value: &BExpr, cx: &Ctx<'_>) -> Result<Rows> {
    let mut out = Rows::new(cx.width);
    let Some(l) = cx.labels[label] else {
        return Ok(out);
    };
    for row in rows.iter() {
        match eval(value, row, cx)? {
            Val::Int(id) => {
                if let Some(n) = cx.graph.node_by_id(l, id) {
                    out.push_with(row, slot, Val::Node(n));
                }
            }
            Val::Null => {}
            other => {
                // Not an integer: no id index entry, but a node may hold it all the same.
                let Some(key) = cx.graph.prop_key_id("id") else {
                    continue;
                };
                for &n in cx.nodes_with_label(l).iter() {
                    if cx
                        .graph
                        .node_property(n, key)
                        .is_some_and(|v| equals(&Val::from_value(v), &other) == Some(true))
                    {
                        out.push_with(row, slot, Val::Node(n));
                    }
                }
            }
        }
    }
    Ok(out)
}

fn seek_id_any(
    rows: Rows,
    slot: usize,
    label: usize,
    values: &[BExpr],
    cx: &Ctx<'_>,
) -> Result<Rows> {
    let mut out = Rows::new(cx.width);
    let Some(l) = cx.labels[label] else {
        return Ok(out);
    };
    let mut found: Vec<NodeId> = Vec::with_capacity(values.len());
    for row in rows.iter() {
        found.clear();
        for v in values {
            match eval(v, row, cx)? {
                Val::Int(id) => found.extend(cx.graph.node_by_id(l, id)),
                Val::Null => {}
                // The id index holds integers only: any other value means every node
                // of the label is a candidate, and the WHERE decides.
                _ => found.extend(cx.nodes_with_label(l).iter().copied()),
            }
        }
        found.sort_unstable();
        found.dedup();
        for n in &found {
            out.push_with(row, slot, Val::Node(*n));
        }
    }
    Ok(out)
}

fn seek_prop(
    rows: Rows,
    slot: usize,
    label: usize,
    key: usize,
    value: &BExpr,
    cx: &Ctx<'_>,
) -> Result<Rows> {
    let mut out = Rows::new(cx.width);
    let (Some(l), Some(k)) = (cx.labels[label], cx.keys[key]) else {
        return Ok(out);
    };
    let indexed = cx.graph.is_indexed(l, k);
    let mut candidates = None;
    for row in rows.iter() {
        let v = eval(value, row, cx)?;
        if v.is_null() {
            continue;
        }
        if indexed {
            if let Some(stored) = to_stored(&v) {
                for n in cx.graph.nodes_with_property(l, k, &stored, usize::MAX) {
                    out.push_with(row, slot, Val::Node(n));
                }
                continue;
            }
        }
        let nodes = candidates.get_or_insert_with(|| cx.nodes_with_label(l));
        for n in nodes.iter() {
            cx.tick()?;
            if cx
                .graph
                .node_property(*n, k)
                .is_some_and(|p| equals(&Val::from_value(p), &v) == Some(true))
            {
                out.push_with(row, slot, Val::Node(*n));
            }
        }
        cx.check_rows(&out)?;
    }
    Ok(out)
}

/// A runtime value as a stored one, when it can be stored.
fn to_stored(v: &Val) -> Option<Value> {
    Some(match v {
        Val::Bool(b) => Value::Bool(*b),
        Val::Int(i) => Value::Int(*i),
        Val::Float(f) => Value::Float(*f),
        Val::Str(s) => Value::String(s.clone()),
        _ => return None,
    })
}

fn check_node(
    row: &[Val],
    slot: usize,
    labels: &[usize],
    props: &[(usize, BExpr)],
    props_map: Option<&BExpr>,
    cx: &Ctx<'_>,
) -> Result<bool> {
    let Val::Node(n) = row[slot] else {
        return Ok(false);
    };
    for l in labels {
        if !cx.labels[*l].is_some_and(|id| cx.graph.has_label(n, id)) {
            return Ok(false);
        }
    }
    for (key, value) in props {
        let want = eval(value, row, cx)?;
        if equals(&property(&row[slot], *key, cx)?, &want) != Some(true) {
            return Ok(false);
        }
    }
    if let Some(m) = props_map {
        match eval(m, row, cx)? {
            Val::Map(entries) => {
                for (k, want) in entries.iter() {
                    let have = cx
                        .graph
                        .prop_key_id(k)
                        .and_then(|id| cx.graph.node_property(n, id));
                    let have = have.map_or(Val::Null, Val::from_value);
                    if equals(&have, want) != Some(true) {
                        return Ok(false);
                    }
                }
            }
            Val::Null => return Ok(false),
            other => {
                return Err(crate::error::CypherError::type_error(format!(
                    "a property map must be a map, got {}",
                    other.type_name()
                )))
            }
        }
    }
    Ok(true)
}

/// The relationship types an expand follows from `node` in one direction.
pub(crate) fn types_at(e: &Expand, node: NodeId, dir: Direction, cx: &Ctx<'_>) -> Vec<RelTypeId> {
    if e.types.is_empty() {
        return cx.graph.rel_types_at(node, dir);
    }
    e.types.iter().filter_map(|t| cx.types[*t]).collect()
}

/// The graph directions a pattern direction covers.
pub(crate) fn directions(dir: Dir) -> &'static [Direction] {
    match dir {
        Dir::Out => &[Direction::Out],
        Dir::In => &[Direction::In],
        Dir::Both => &[Direction::Out, Direction::In],
    }
}

/// Calls `f` with every (edge) of `node` the expand follows, in type and direction order.
pub(crate) fn for_each_edge(
    e: &Expand,
    node: NodeId,
    cx: &Ctx<'_>,
    mut f: impl FnMut(Edge) -> Result<()>,
) -> Result<()> {
    for &d in directions(e.dir) {
        for t in types_at(e, node, d, cx) {
            for edge in cx.graph.neighbors(node, t, d) {
                // An undirected self-loop is one relationship: count it once.
                if e.dir == Dir::Both && d == Direction::In && edge.node == node {
                    continue;
                }
                f(*edge)?;
            }
        }
    }
    Ok(())
}

/// Whether a relationship's properties match the pattern's.
pub(crate) fn rel_matches(
    rel: RelId,
    props: &[(usize, BExpr)],
    row: &[Val],
    cx: &Ctx<'_>,
) -> Result<bool> {
    for (key, value) in props {
        let want = eval(value, row, cx)?;
        if equals(&property(&Val::Rel(rel), *key, cx)?, &want) != Some(true) {
            return Ok(false);
        }
    }
    Ok(true)
}

fn expand(rows: Rows, e: &Expand, cx: &Ctx<'_>) -> Result<Rows> {
    let mut out = Rows::new(cx.width);
    for row in rows.iter() {
        let Val::Node(from) = row[e.from] else {
            continue;
        };
        let target = if e.into {
            match row[e.to] {
                Val::Node(t) => Some(t),
                _ => continue,
            }
        } else {
            None
        };
        for_each_edge(e, from, cx, |edge| {
            cx.tick()?;
            if target.is_some_and(|t| t != edge.node) {
                return Ok(());
            }
            if !e.rel_props.is_empty() && !rel_matches(edge.rel, &e.rel_props, row, cx)? {
                return Ok(());
            }
            let rel = if e.bind_rel {
                Val::Rel(edge.rel)
            } else {
                Val::Null
            };
            out.push_with2(row, (e.rel, rel), (e.to, Val::Node(edge.node)));
            Ok(())
        })?;
        cx.check_rows(&out)?;
    }
    Ok(out)
}

fn distinct_rels(row: &[Val], slots: &[usize]) -> bool {
    let mut seen: Vec<RelId> = Vec::new();
    for s in slots {
        match &row[*s] {
            Val::Rel(r) => seen.push(*r),
            Val::List(l) => {
                seen.extend(
                    l.iter()
                        .filter_map(|v| if let Val::Rel(r) = v { Some(*r) } else { None }),
                )
            }
            _ => {}
        }
    }
    seen.sort_unstable();
    seen.windows(2).all(|w| w[0] != w[1])
}

fn build_paths(
    rows: Rows,
    slot: usize,
    start: usize,
    hops: &[usize],
    cx: &Ctx<'_>,
) -> Result<Rows> {
    let mut out = Rows::new(cx.width);
    for row in rows.iter() {
        let path = build_path(row, start, hops, cx)
            .map_or(Val::Null, |p| Val::Path(std::sync::Arc::new(p)));
        out.push_with(row, slot, path);
    }
    Ok(out)
}

fn build_path(row: &[Val], start: usize, hops: &[usize], cx: &Ctx<'_>) -> Option<Path> {
    let Val::Node(first) = row[start] else {
        return None;
    };
    let mut path = Path {
        nodes: vec![first],
        rels: Vec::new(),
    };
    for h in hops {
        match &row[*h] {
            Val::Rel(r) => extend_path(&mut path, *r, cx)?,
            Val::List(l) => {
                for v in l.iter() {
                    let Val::Rel(r) = v else { return None };
                    extend_path(&mut path, *r, cx)?;
                }
            }
            _ => return None,
        }
    }
    Some(path)
}

/// Appends a relationship and the node at its far end from the path's last node.
fn extend_path(path: &mut Path, r: RelId, cx: &Ctx<'_>) -> Option<()> {
    let at = *path.nodes.last()?;
    let rel = cx.graph.relationship(r)?;
    path.rels.push(r);
    path.nodes
        .push(if rel.src == at { rel.dst } else { rel.src });
    Some(())
}
