//! Pipeline operators other than MATCH steps.

use std::cmp::Ordering;
use std::sync::Arc;

use kith_core::write_op::{NodeRef, WriteOp};
use kith_core::{NodeId, Value};
use rustc_hash::{FxHashMap, FxHashSet};

use super::eval::{eval, truth};
use super::{steps, Ctx, PendingNode, Rows};
use crate::binder::{AggSpec, BExpr};
use crate::error::{CypherError, ErrorCode, Result};
use crate::functions::Aggregate;
use crate::planner::{CreateSpec, Op};
use crate::value::{order, Key, Val};

pub(crate) fn run_op(op: &Op, rows: Rows, cx: &Ctx<'_>) -> Result<Rows> {
    match op {
        Op::Match(s) => steps::run_steps(s, rows, cx),
        Op::Optional { steps: s, slots } => optional(rows, s, slots, cx),
        Op::Unwind { expr, slot } => unwind(rows, expr, *slot, cx),
        Op::Project(items) => project(rows, items, cx),
        Op::Aggregate { keys, aggs } => aggregate(rows, keys, aggs, cx),
        Op::Distinct(slots) => distinct(rows, slots, cx),
        Op::Sort { keys, skip, limit } => sort(rows, keys, skip.as_ref(), limit.as_ref(), cx),
        Op::Skip(e) => {
            let n = count_arg(e, "SKIP", cx)?;
            let mut out = Rows::new(cx.width);
            for row in rows.iter().skip(n) {
                out.push(row);
            }
            Ok(out)
        }
        Op::Limit(e) => {
            let n = count_arg(e, "LIMIT", cx)?;
            let mut rows = rows;
            rows.truncate(n.min(rows.len()));
            Ok(rows)
        }
        Op::Filter(f) => {
            let mut rows = rows;
            rows.retain(|row| Ok(truth(&eval(f, row, cx)?)? == Some(true)))?;
            Ok(rows)
        }
        Op::Create(spec) => create(rows, spec, cx),
    }
}

fn optional(rows: Rows, s: &[crate::planner::Step], slots: &[usize], cx: &Ctx<'_>) -> Result<Rows> {
    let mut out = Rows::new(cx.width);
    for row in rows.iter() {
        let mut one = Rows::new(cx.width);
        one.push(row);
        let matched = steps::run_steps(s, one, cx)?;
        if matched.is_empty() {
            out.push(row);
            let last = out.last_mut();
            for s in slots {
                last[*s] = Val::Null;
            }
        } else {
            for r in matched.iter() {
                out.push(r);
            }
        }
        cx.check_rows(&out)?;
    }
    Ok(out)
}

fn unwind(rows: Rows, expr: &BExpr, slot: usize, cx: &Ctx<'_>) -> Result<Rows> {
    let mut out = Rows::new(cx.width);
    for row in rows.iter() {
        match eval(expr, row, cx)? {
            Val::Null => {}
            Val::List(items) => {
                for item in items.iter() {
                    out.push_with(row, slot, item.clone());
                }
            }
            other => out.push_with(row, slot, other),
        }
        cx.check_rows(&out)?;
    }
    Ok(out)
}

fn project(mut rows: Rows, items: &[(usize, BExpr)], cx: &Ctx<'_>) -> Result<Rows> {
    let mut values = Vec::with_capacity(items.len());
    for i in 0..rows.len() {
        cx.tick()?;
        // Items of one projection read only the input's slots, never each other's.
        values.clear();
        for (_, e) in items {
            values.push(eval(e, rows.row(i), cx)?);
        }
        let row = rows.row_mut(i);
        for ((slot, _), v) in items.iter().zip(values.drain(..)) {
            row[*slot] = v;
        }
    }
    Ok(rows)
}

/// One aggregate's running state.
enum State {
    Count(i64),
    Sum(Val),
    Avg(f64, i64),
    Extreme(Val),
    Collect(Vec<Val>),
}

impl State {
    fn new(f: Aggregate) -> State {
        match f {
            Aggregate::Count => State::Count(0),
            Aggregate::Sum => State::Sum(Val::Int(0)),
            Aggregate::Avg => State::Avg(0.0, 0),
            Aggregate::Min | Aggregate::Max => State::Extreme(Val::Null),
            Aggregate::Collect => State::Collect(Vec::new()),
        }
    }

    fn add(&mut self, f: Aggregate, v: Val) -> Result<()> {
        match self {
            State::Count(n) => *n += 1,
            State::Sum(acc) => {
                *acc = super::eval::binary(
                    crate::binder::BinOp::Add,
                    std::mem::take(acc),
                    number(v, "sum")?,
                )?
            }
            State::Avg(sum, n) => {
                *sum += match number(v, "avg")? {
                    Val::Int(i) => i as f64,
                    Val::Float(x) => x,
                    _ => 0.0,
                };
                *n += 1;
            }
            State::Extreme(best) => {
                let wanted = if f == Aggregate::Min {
                    Ordering::Less
                } else {
                    Ordering::Greater
                };
                if best.is_null() || order(&v, best) == wanted {
                    *best = v;
                }
            }
            State::Collect(items) => items.push(v),
        }
        Ok(())
    }

    fn finish(self) -> Val {
        match self {
            State::Count(n) => Val::Int(n),
            State::Sum(v) | State::Extreme(v) => v,
            State::Avg(_, 0) => Val::Null,
            State::Avg(sum, n) => Val::Float(sum / n as f64),
            State::Collect(items) => Val::list(items),
        }
    }
}

fn number(v: Val, f: &str) -> Result<Val> {
    match v {
        Val::Int(_) | Val::Float(_) => Ok(v),
        other => Err(CypherError::type_error(format!(
            "{f}() needs numbers, got {}",
            other.type_name()
        ))),
    }
}

struct Group {
    keys: Vec<Val>,
    states: Vec<State>,
    seen: Vec<FxHashSet<Key>>,
}

fn aggregate(rows: Rows, keys: &[(usize, BExpr)], aggs: &[AggSpec], cx: &Ctx<'_>) -> Result<Rows> {
    let mut index: FxHashMap<Vec<Key>, usize> = FxHashMap::default();
    let mut groups: Vec<Group> = Vec::new();
    let new_group = |keys: Vec<Val>| Group {
        keys,
        states: aggs.iter().map(|a| State::new(a.func)).collect(),
        seen: aggs.iter().map(|_| FxHashSet::default()).collect(),
    };
    if keys.is_empty() {
        groups.push(new_group(Vec::new()));
    }
    for row in rows.iter() {
        cx.tick()?;
        let g = if keys.is_empty() {
            0
        } else {
            let mut kv = Vec::with_capacity(keys.len());
            for (_, e) in keys {
                kv.push(eval(e, row, cx)?);
            }
            let key: Vec<Key> = kv.iter().cloned().map(Key).collect();
            *index.entry(key).or_insert_with(|| {
                groups.push(new_group(kv));
                groups.len() - 1
            })
        };
        let group = &mut groups[g];
        for (i, a) in aggs.iter().enumerate() {
            let v = match &a.arg {
                None => Val::Bool(true),
                Some(e) => eval(e, row, cx)?,
            };
            if v.is_null() {
                continue;
            }
            if a.distinct && !group.seen[i].insert(Key(v.clone())) {
                continue;
            }
            group.states[i].add(a.func, v)?;
        }
    }
    let mut out = Rows::new(cx.width);
    let blank = vec![Val::Null; cx.width];
    for g in groups {
        out.push(&blank);
        let last = out.last_mut();
        for ((slot, _), v) in keys.iter().zip(g.keys) {
            last[*slot] = v;
        }
        for (a, s) in aggs.iter().zip(g.states) {
            last[a.slot] = s.finish();
        }
    }
    Ok(out)
}

fn distinct(rows: Rows, slots: &[usize], cx: &Ctx<'_>) -> Result<Rows> {
    let mut seen: FxHashSet<Vec<Key>> = FxHashSet::default();
    let mut out = Rows::new(cx.width);
    for row in rows.iter() {
        cx.tick()?;
        let key: Vec<Key> = slots.iter().map(|s| Key(row[*s].clone())).collect();
        if seen.insert(key) {
            out.push(row);
        }
    }
    Ok(out)
}

fn count_arg(e: &BExpr, what: &str, cx: &Ctx<'_>) -> Result<usize> {
    let empty = vec![Val::Null; cx.width];
    match eval(e, &empty, cx)? {
        Val::Int(n) if n >= 0 => Ok(n as usize),
        other => Err(CypherError::new(
            ErrorCode::ArgumentError,
            format!(
                "{what} needs a non-negative integer, got {}",
                describe(&other)
            ),
        )),
    }
}

fn describe(v: &Val) -> String {
    match v {
        Val::Int(i) => i.to_string(),
        other => other.type_name().to_owned(),
    }
}

fn sort(
    rows: Rows,
    keys: &[(BExpr, bool)],
    skip: Option<&BExpr>,
    limit: Option<&BExpr>,
    cx: &Ctx<'_>,
) -> Result<Rows> {
    let n = rows.len();
    let k = keys.len();
    let mut values = Vec::with_capacity(n * k);
    for row in rows.iter() {
        cx.tick()?;
        for (e, _) in keys {
            values.push(eval(e, row, cx)?);
        }
    }
    let cmp = |a: &usize, b: &usize| {
        for (i, (_, desc)) in keys.iter().enumerate() {
            let o = order(&values[a * k + i], &values[b * k + i]);
            let o = if *desc { o.reverse() } else { o };
            if o != Ordering::Equal {
                return o;
            }
        }
        a.cmp(b)
    };
    let mut idx: Vec<usize> = (0..n).collect();
    let keep = match limit {
        Some(l) => count_arg(l, "LIMIT", cx)?
            .saturating_add(skip.map_or(Ok(0), |s| count_arg(s, "SKIP", cx))?),
        None => n,
    };
    if keep < n {
        if keep > 0 {
            idx.select_nth_unstable_by(keep - 1, cmp);
        }
        idx.truncate(keep);
    }
    idx.sort_by(cmp);
    let mut out = Rows::new(cx.width);
    for i in idx {
        out.push(rows.row(i));
    }
    Ok(out)
}

fn create(rows: Rows, spec: &CreateSpec, cx: &Ctx<'_>) -> Result<Rows> {
    let mut out = Rows::new(cx.width);
    for row in rows.iter() {
        out.push(row);
        let mut current = out.last_mut().to_vec();
        for node in &spec.nodes {
            let props = eval_props(&node.props, &current, cx)?;
            let mut pending = cx.pending.borrow_mut();
            let id = cx.node_bound + pending.len() as u32;
            cx.writes.borrow_mut().push(WriteOp::CreateNode {
                labels: node.labels.clone(),
                properties: stored_props(&props)?,
            });
            pending.push(PendingNode {
                labels: node.labels.clone(),
                props,
            });
            current[node.slot] = Val::Node(NodeId(id));
        }
        for rel in &spec.rels {
            let props = eval_props(&rel.props, &current, cx)?;
            let (from, to) = (
                node_ref(&current[rel.from], cx)?,
                node_ref(&current[rel.to], cx)?,
            );
            cx.writes.borrow_mut().push(WriteOp::CreateRel {
                rel_type: rel.rel_type.clone(),
                src: from,
                dst: to,
                properties: stored_props(&props)?,
            });
        }
        out.last_mut().clone_from_slice(&current);
    }
    Ok(out)
}

fn eval_props(
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

fn node_ref(v: &Val, cx: &Ctx<'_>) -> Result<NodeRef> {
    match v {
        Val::Node(n) if n.0 >= cx.node_bound => {
            Ok(NodeRef::Created((n.0 - cx.node_bound) as usize))
        }
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
        Val::Float(f) => Value::Float(*f),
        Val::Str(s) => Value::String(s.clone()),
        Val::DateTime(t) => Value::DateTime(*t),
        Val::List(items) => Value::List(
            items
                .iter()
                .map(|i| stored(key, i))
                .collect::<Result<_>>()?,
        ),
        other => {
            return Err(CypherError::type_error(format!(
                "property `{key}` cannot hold a {}",
                other.type_name()
            )))
        }
    })
}
