//! The writing operators: CREATE, SET and REMOVE, DELETE, MERGE, FOREACH.
//!
//! Each gets all its input rows before it writes (`ops.rs` collects them): a read of
//! the graph is never in progress while it writes, every row's writes happen even
//! when a LIMIT after it wants fewer rows, and the rows it hands on read the graph
//! as its writes left it. Within the operator, rows are written in order, each seeing
//! the writes of the rows before it.

use std::sync::Arc;

use kith_core::write_op::{NodeRef, WriteOp};
use kith_core::{Direction, GraphView, NodeId, RelId, Value};

use super::eval::eval;
use super::ops::run_ops;
use super::steps;
use super::{Ctx, Rows};
use crate::binder::BExpr;
use crate::binder::{CreateSpec, PathSlots, PropKey, SetOp};
use crate::error::{CypherError, ErrorCode, Result};
use crate::planner::{MergeSpec, Op};
use crate::value::Val;

/// Where a writing operator hands each row once written: the rest of the pipeline.
pub(crate) type Emit<'a> = dyn FnMut(&mut [Val]) -> Result<()> + 'a;

/// Runs a writing operator over all its input rows, handing each on to `emit` once
/// its writes are made.
pub(crate) fn write(op: &Op, rows: Rows, cx: &Ctx<'_>, emit: &mut Emit<'_>) -> Result<()> {
    let mut row = vec![Val::Null; cx.width];
    match op {
        Op::Create(spec) => {
            let mut pending = Pending::default();
            for r in rows.iter() {
                row.clone_from_slice(r);
                create_row(&mut row, spec, cx, &mut pending)?;
                emit(&mut row)?;
            }
        }
        Op::Set(items) => {
            for r in rows.iter() {
                cx.tick()?;
                set_row(items, r, cx)?;
                row.clone_from_slice(r);
                emit(&mut row)?;
            }
        }
        Op::Delete { exprs, detach } => {
            delete(&rows, exprs, *detach, cx)?;
            for r in rows.iter() {
                row.clone_from_slice(r);
                emit(&mut row)?;
            }
        }
        Op::Merge(spec) => merge(&rows, spec, cx, emit)?,
        Op::Call(spec) => {
            for r in rows.iter() {
                row.clone_from_slice(r);
                super::call::call_row(spec, &mut row, cx, &mut |r| emit(r).map(|()| true))?;
            }
        }
        Op::Subquery(spec) => {
            for r in rows.iter() {
                row.clone_from_slice(r);
                super::call::subquery_row(spec, &mut row, cx, &mut |r| emit(r).map(|()| true))?;
            }
        }
        Op::Foreach { slot, list, ops } => {
            for r in rows.iter() {
                foreach_row(r, *slot, list, ops, cx)?;
                row.clone_from_slice(r);
                emit(&mut row)?;
            }
        }
        Op::Schema(command) => {
            let writes = super::schema::writes_of(command, &*cx.graph())?;
            cx.write(&writes.ops)?;
            if let Some(notice) = writes.no_effect {
                cx.notices.borrow_mut().push(notice);
            }
            for r in rows.iter() {
                row.clone_from_slice(r);
                emit(&mut row)?;
            }
        }
        _ => unreachable!("only writing operators come here"),
    }
    Ok(())
}

/// SET and REMOVE items on one row, in order: each item's writes are made before
/// the next item is read.
fn set_row(items: &[SetOp], row: &[Val], cx: &Ctx<'_>) -> Result<()> {
    let mut ops = Vec::new();
    for item in items {
        set_item(item, row, cx, &mut ops)?;
        if !ops.is_empty() {
            cx.write(&ops)?;
            ops.clear();
        }
    }
    Ok(())
}

/// The node or relationship a SET item changes; `None` for null (nothing to do).
fn target(e: &BExpr, row: &[Val], cx: &Ctx<'_>, what: &str) -> Result<Option<Entity>> {
    match eval(e, row, cx)? {
        Val::Null => Ok(None),
        Val::Node(n) => Ok(Some(Entity::Node(n))),
        Val::Rel(r) => Ok(Some(Entity::Rel(r))),
        other => Err(CypherError::type_error(format!(
            "{what} needs a node or relationship, got {}",
            other.type_name()
        ))),
    }
}

#[derive(Clone, Copy)]
enum Entity {
    Node(NodeId),
    Rel(RelId),
}

impl Entity {
    fn set(self, key: Arc<str>, value: Value) -> WriteOp {
        match self {
            Entity::Node(n) => WriteOp::SetNodeProperty {
                node: NodeRef::Node(n),
                key,
                value,
            },
            Entity::Rel(rel) => WriteOp::SetRelProperty { rel, key, value },
        }
    }

    /// Its property names now.
    fn keys(self, cx: &Ctx<'_>) -> Vec<Arc<str>> {
        let g = cx.graph();
        let props = match self {
            Entity::Node(n) => g.node_properties(n),
            Entity::Rel(r) => g.rel_properties(r),
        };
        props
            .iter()
            .map(|(k, _)| Arc::from(g.prop_key_name(*k)))
            .collect()
    }
}

fn set_item(item: &SetOp, row: &[Val], cx: &Ctx<'_>, ops: &mut Vec<WriteOp>) -> Result<()> {
    match item {
        SetOp::Prop {
            target: t,
            key,
            value,
        } => {
            let Some(entity) = target(t, row, cx, "SET")? else {
                return Ok(());
            };
            let key = match key {
                PropKey::Name(k) => k.clone(),
                PropKey::Dynamic(e) => match eval(e, row, cx)? {
                    Val::Str(k) => Arc::from(k),
                    other => {
                        return Err(CypherError::type_error(format!(
                            "a property key must be a String, got {}",
                            other.type_name()
                        )))
                    }
                },
            };
            let value = match value {
                Some(v) => stored_or_null(&key, &eval(v, row, cx)?)?,
                None => Value::Null,
            };
            ops.push(entity.set(key, value));
        }
        SetOp::Replace { target: t, value } | SetOp::Merge { target: t, value } => {
            let Some(entity) = target(t, row, cx, "SET")? else {
                return Ok(());
            };
            let entries = map_entries(&eval(value, row, cx)?, cx)?;
            if matches!(item, SetOp::Replace { .. }) {
                for key in entity.keys(cx) {
                    if !entries.iter().any(|(k, _)| *k == key) {
                        ops.push(entity.set(key, Value::Null));
                    }
                }
            }
            for (k, v) in entries {
                let value = stored_or_null(&k, &v)?;
                ops.push(entity.set(k, value));
            }
        }
        SetOp::Labels {
            target: t,
            labels,
            add,
        } => {
            let node = match eval(t, row, cx)? {
                Val::Null => return Ok(()),
                Val::Node(n) => NodeRef::Node(n),
                other => {
                    return Err(CypherError::type_error(format!(
                        "labels belong to nodes, not to a {}",
                        other.type_name()
                    )))
                }
            };
            for label in labels {
                let (node, label) = (node.clone(), label.clone());
                ops.push(if *add {
                    WriteOp::AddLabel { node, label }
                } else {
                    WriteOp::RemoveLabel { node, label }
                });
            }
        }
    }
    Ok(())
}

/// A value to set: null removes the property.
fn stored_or_null(key: &str, v: &Val) -> Result<Value> {
    match v {
        Val::Null => Ok(Value::Null),
        v => stored(key, v),
    }
}

/// The entries `SET n = v` / `SET n += v` set: a map's, or a node's or
/// relationship's properties.
fn map_entries(v: &Val, cx: &Ctx<'_>) -> Result<Vec<(Arc<str>, Val)>> {
    let g = cx.graph();
    let props = match v {
        Val::Null => return Ok(Vec::new()),
        Val::Map(entries) => return Ok(entries.to_vec()),
        Val::Node(n) => g.node_properties(*n),
        Val::Rel(r) => g.rel_properties(*r),
        other => {
            return Err(CypherError::type_error(format!(
                "SET = and += need a map, node or relationship, got {}",
                other.type_name()
            )))
        }
    };
    Ok(props
        .iter()
        .map(|(k, v)| (Arc::from(g.prop_key_name(*k)), Val::from_value(v)))
        .collect())
}

/// DELETE over all rows at once: relationships first, then nodes, so a node whose
/// relationships the same clause deletes (`DELETE n, r` over every `r`) goes too.
/// What is already gone (deleted by an earlier row, or twice in a row) is skipped.
fn delete(rows: &Rows, exprs: &[BExpr], detach: bool, cx: &Ctx<'_>) -> Result<()> {
    let mut nodes = Vec::new();
    let mut rels = Vec::new();
    for row in rows.iter() {
        cx.tick()?;
        for e in exprs {
            doomed(&eval(e, row, cx)?, &mut nodes, &mut rels)?;
        }
    }
    nodes.sort_unstable();
    nodes.dedup();
    rels.sort_unstable();
    rels.dedup();
    let detached = {
        let g = cx.graph();
        rels.retain(|r| g.relationship(*r).is_some());
        nodes.retain(|n| g.contains_node(*n));
        // What DETACH takes with the nodes is gone too: a path through it is still
        // returned whole.
        match detach {
            true => attached(&*g, &nodes),
            false => Vec::new(),
        }
    };
    cx.deleting(&nodes, &rels, &detached);
    let rels = rels.into_iter().map(|rel| WriteOp::DeleteRel { rel });
    let nodes = nodes.into_iter().map(|n| WriteOp::DeleteNode {
        node: NodeRef::Node(n),
        detach,
    });
    let ops: Vec<WriteOp> = rels.chain(nodes).collect();
    if !ops.is_empty() {
        // A node with relationships left, without DETACH, is refused by the graph:
        // "node n still has relationships; delete them first or use a detach delete".
        cx.write(&ops)?;
    }
    Ok(())
}

/// The relationships at `nodes`, either way.
fn attached(g: &dyn GraphView, nodes: &[NodeId]) -> Vec<RelId> {
    let mut out = Vec::new();
    for &n in nodes {
        for direction in [Direction::Out, Direction::In] {
            for t in g.rel_types_at(n, direction) {
                out.extend(g.neighbors(n, t, direction).iter().map(|e| e.rel));
            }
        }
    }
    out
}

/// Collects what a DELETE item names.
fn doomed(v: &Val, nodes: &mut Vec<NodeId>, rels: &mut Vec<RelId>) -> Result<()> {
    match v {
        Val::Null => {}
        Val::Node(n) => nodes.push(*n),
        Val::Rel(r) => rels.push(*r),
        Val::Path(p) => {
            nodes.extend(p.nodes.iter().copied());
            rels.extend(p.rels.iter().copied());
        }
        other => {
            return Err(CypherError::type_error(format!(
                "DELETE needs a node, relationship or path, got {}",
                other.type_name()
            )))
        }
    }
    Ok(())
}

/// MERGE, row by row: the pattern's matches (ON MATCH SET on each), or, when it has
/// none, the pattern created (ON CREATE SET on it). A later row sees what an earlier
/// one created, so `UNWIND [1, 1] AS k MERGE (:K {k: k})` makes one node.
fn merge(rows: &Rows, spec: &MergeSpec, cx: &Ctx<'_>, emit: &mut Emit<'_>) -> Result<()> {
    let mut states = steps::states(&spec.pattern);
    let mut matches = Rows::new(cx.width);
    let mut pending = Pending::default();
    for row in rows.iter() {
        cx.tick()?;
        check_merge_nulls(&spec.create, row, cx)?;
        matches.truncate(0);
        let mut scratch = row.to_vec();
        steps::push_steps(&spec.pattern, &mut states, &mut scratch, cx, &mut |m| {
            matches.push(m);
            cx.check_len(matches.len())?;
            Ok(true)
        })?;
        if !matches.is_empty() {
            for i in 0..matches.len() {
                set_row(&spec.on_match, matches.row(i), cx)?;
                emit(matches.row_mut(i))?;
            }
            continue;
        }
        scratch.clone_from_slice(row);
        create_row(&mut scratch, &spec.create, cx, &mut pending)?;
        set_row(&spec.on_create, &scratch, cx)?;
        emit(&mut scratch)?;
    }
    Ok(())
}

/// A path CREATE or MERGE made, from the slots of its nodes and relationships: null
/// when an end was a null it could not create from (refused before this).
fn created_path(row: &[Val], path: &PathSlots) -> Val {
    let node = |s: &usize| match row[*s] {
        Val::Node(n) => Some(n),
        _ => None,
    };
    let rel = |s: &usize| match row[*s] {
        Val::Rel(r) => Some(r),
        _ => None,
    };
    let nodes: Option<Vec<NodeId>> = path.nodes.iter().map(node).collect();
    let rels: Option<Vec<RelId>> = path.rels.iter().map(rel).collect();
    match (nodes, rels) {
        (Some(nodes), Some(rels)) => Val::Path(Arc::new(crate::value::Path { nodes, rels })),
        _ => Val::Null,
    }
}

/// A MERGE property that is null could never match what MERGE creates: Neo4j refuses
/// it, and so does kith.
fn check_merge_nulls(spec: &CreateSpec, row: &[Val], cx: &Ctx<'_>) -> Result<()> {
    let props = spec.nodes.iter().flat_map(|n| &n.props);
    let rel_props = spec.rels.iter().flat_map(|r| &r.props);
    for (key, e) in props.chain(rel_props) {
        if eval(e, row, cx)?.is_null() {
            return Err(CypherError::new(
                ErrorCode::SemanticError,
                format!("MERGE cannot use a null property value for `{key}`"),
            ));
        }
    }
    Ok(())
}

/// FOREACH on one row: its update operators once per list element.
fn foreach_row(row: &[Val], slot: usize, list: &BExpr, ops: &[Op], cx: &Ctx<'_>) -> Result<()> {
    {
        let items = match crate::value::listed(eval(list, row, cx)?) {
            Val::Null => return Ok(()),
            Val::List(items) => items,
            other => {
                return Err(CypherError::type_error(format!(
                    "FOREACH needs a list, got {}",
                    other.type_name()
                )))
            }
        };
        for item in items.iter() {
            cx.tick()?;
            let mut input = Rows::new(cx.width);
            input.push_with(row, slot, item.clone());
            run_ops(ops, input, cx)?;
        }
    }
    Ok(())
}

/// CREATE on one row: its nodes, then its relationships, are written before
/// the next row is read, so a later row's expressions see what earlier rows made.
/// Within a row they are written together, unless one reads another (`flush`).
fn create_row(row: &mut [Val], spec: &CreateSpec, cx: &Ctx<'_>, p: &mut Pending) -> Result<()> {
    for node in &spec.nodes {
        if node.flush {
            write_created(p, row, cx)?;
        }
        let props = created_props(&node.props, node.map.as_ref(), row, cx, "node")?;
        p.ops.push(WriteOp::CreateNode {
            labels: node.labels.clone(),
            properties: stored_props(&props)?,
        });
        p.slots.push(node.slot);
    }
    write_created(p, row, cx)?;
    for rel in &spec.rels {
        if rel.flush {
            write_created(p, row, cx)?;
        }
        let props = created_props(&rel.props, rel.map.as_ref(), row, cx, "relationship")?;
        p.ops.push(WriteOp::CreateRel {
            rel_type: rel.rel_type.clone(),
            src: node_ref(&row[rel.from])?,
            dst: node_ref(&row[rel.to])?,
            properties: stored_props(&props)?,
        });
        p.slots.push(rel.slot);
    }
    write_created(p, row, cx)?;
    for path in &spec.paths {
        row[path.slot] = created_path(row, path);
    }
    Ok(())
}

/// A created element's properties: its named ones, or a map parameter's entries (not
/// null ones, as for named ones). Anything but a map is refused with Neo4j's error.
fn created_props(
    named: &[(Arc<str>, BExpr)],
    map: Option<&BExpr>,
    row: &[Val],
    cx: &Ctx<'_>,
    what: &str,
) -> Result<Vec<(Arc<str>, Val)>> {
    let Some(map) = map else {
        return eval_props(named, row, cx);
    };
    match eval(map, row, cx)? {
        Val::Map(entries) => Ok(entries
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()),
        Val::Null => Err(CypherError::type_error(format!(
            "the parameter for {what} creation is not a map, but null"
        ))),
        // Neo4j checks a parameter's type as it plans, so this is its SyntaxError.
        other => Err(CypherError::new(
            ErrorCode::SyntaxError,
            format!(
                "type mismatch: the parameter for {what} creation must be a map, not {}",
                other.type_name()
            ),
        )),
    }
}

/// Creations of one row not yet written, and the slots they go to (reused between
/// rows).
#[derive(Default)]
struct Pending {
    ops: Vec<WriteOp>,
    slots: Vec<usize>,
}

/// Writes the creations in `ops` (all nodes or all relationships) and binds what
/// they created to `slots`, in order.
fn write_created(p: &mut Pending, row: &mut [Val], cx: &Ctx<'_>) -> Result<()> {
    if p.ops.is_empty() {
        return Ok(());
    }
    let applied = cx.write(&p.ops)?;
    let created = applied
        .nodes
        .into_iter()
        .map(Val::Node)
        .chain(applied.rels.into_iter().map(Val::Rel));
    for (slot, v) in p.slots.drain(..).zip(created) {
        row[slot] = v;
    }
    p.ops.clear();
    Ok(())
}

pub(crate) fn eval_props(
    props: &[(Arc<str>, BExpr)],
    row: &[Val],
    cx: &Ctx<'_>,
) -> Result<Vec<(Arc<str>, Val)>> {
    let mut out = Vec::with_capacity(props.len());
    for (k, e) in props {
        let v = eval(e, row, cx)?;
        if !v.is_null() {
            out.push((k.clone(), v));
        }
    }
    Ok(out)
}

fn node_ref(v: &Val) -> Result<NodeRef> {
    match v {
        Val::Node(n) => Ok(NodeRef::Node(*n)),
        other => Err(CypherError::new(
            ErrorCode::ConstraintViolation,
            format!(
                "failed to create a relationship: an end is {} rather than a node",
                other.type_name()
            ),
        )),
    }
}

fn stored_props(props: &[(Arc<str>, Val)]) -> Result<Vec<(Arc<str>, Value)>> {
    props
        .iter()
        .map(|(k, v)| Ok((k.clone(), stored(k, v)?)))
        .collect()
}

/// A value a property may hold: scalars and lists of them.
fn stored(key: &str, v: &Val) -> Result<Value> {
    Ok(match v {
        Val::Bool(b) => Value::Bool(*b),
        Val::Int(i) => Value::Int(*i),
        Val::Float(f) => Value::Float(crate::value::canonical(*f)),
        Val::Str(s) => Value::String(s.clone()),
        Val::DateTime(t) => Value::DateTime(*t),
        Val::Temporal(t) => Value::Temporal(t.clone()),
        Val::Point(p) => Value::Point(p.clone()),
        Val::Bytes(b) => Value::Bytes(b.clone()),
        Val::List(items) => stored_list(key, items)?,
        other => {
            return Err(CypherError::type_error(format!(
                "property `{key}` cannot hold a {}",
                other.type_name()
            )))
        }
    })
}

/// A list a property may hold, as Neo4j stores one: non-null scalars of one type
/// (integers among floats become floats; points of one coordinate system).
fn stored_list(key: &str, items: &[Val]) -> Result<Value> {
    let refuse = |why: &str| Err(CypherError::type_error(format!("property `{key}`: {why}")));
    if items.iter().any(Val::is_null) {
        return refuse("Collections containing null values can not be stored in properties.");
    }
    if items
        .iter()
        .any(|i| matches!(i, Val::List(_) | Val::Bytes(_) | Val::Map(_)))
    {
        return refuse("Collections containing collections can not be stored in properties.");
    }
    let numbers = items
        .iter()
        .all(|i| matches!(i, Val::Int(_) | Val::Float(_)));
    if numbers && items.iter().any(|i| matches!(i, Val::Float(_))) {
        let floats = items
            .iter()
            .map(|i| Value::Float(crate::value::canonical(crate::value::as_f64(i))));
        return Ok(Value::List(floats.collect()));
    }
    if let Some(first) = items.first() {
        let kind = storage_kind(first);
        if items.iter().any(|i| storage_kind(i) != kind) {
            let points =
                matches!(first, Val::Point(_)) && items.iter().all(|i| matches!(i, Val::Point(_)));
            return refuse(if points {
                "Collections containing point values with different CRS can not be stored in \
                 properties."
            } else {
                "Neo4j only supports a subset of Cypher types for storage as singleton or \
                 array properties."
            });
        }
    }
    let stored: Result<Vec<Value>> = items.iter().map(|i| stored(key, i)).collect();
    Ok(Value::List(stored?))
}

/// What must agree between a stored list's items: the value's type, a temporal
/// value's kind (kith's epoch-millisecond datetime is a zoned datetime), a point's
/// system.
fn storage_kind(v: &Val) -> (u8, u8) {
    match v {
        Val::Bool(_) => (0, 0),
        Val::Int(_) => (1, 0),
        Val::Float(_) => (2, 0),
        Val::Str(_) => (3, 0),
        Val::DateTime(_) => (4, 0),
        Val::Temporal(t) => (4, t.kind_rank()),
        Val::Point(p) => (5, p.crs() as u8),
        // Nodes, relationships, paths: `stored` refuses them by name.
        _ => (6, 0),
    }
}
