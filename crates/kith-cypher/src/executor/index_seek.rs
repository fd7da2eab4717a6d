//! Seeks of WHERE conjuncts (`Step::SeekIndex`, and `Step::SeekProp`'s index path):
//! the nodes a value, a list of values, a prefix, a part of a string, a range or an
//! area may hold, from the index on `(label, key)`. What no index answers (no index declared, or a value of a kind
//! the index does not order) is a scan of the label; the conjunct runs after either,
//! so the answer is the filter's.

use std::ops::Bound;

use kith_core::{LabelId, NodeId, PropKeyId, Value, ValueRange};

use super::eval::eval;
use super::Ctx;
use crate::error::Result;
use crate::planner::IndexSeek;
use crate::value::Val;

/// Binds `slot` to each node the seek finds and hands the row on.
pub(super) fn seek_index(
    row: &mut [Val],
    (slot, label, key): (usize, usize, usize),
    seek: &IndexSeek,
    cx: &Ctx<'_>,
    next: &mut impl FnMut(&mut [Val]) -> Result<bool>,
) -> Result<bool> {
    let Some(l) = cx.label(label) else {
        return Ok(true);
    };
    let found = match cx.key(key) {
        Some(k) => candidates(l, k, seek, row, cx)?,
        None => None,
    };
    match found {
        Some(nodes) => emit(row, slot, nodes.into_iter(), cx, next),
        None => emit(row, slot, cx.graph().nodes_with_label(l), cx, next),
    }
}

fn emit(
    row: &mut [Val],
    slot: usize,
    nodes: impl Iterator<Item = NodeId>,
    cx: &Ctx<'_>,
    next: &mut impl FnMut(&mut [Val]) -> Result<bool>,
) -> Result<bool> {
    for n in nodes {
        cx.hit();
        row[slot] = Val::Node(n);
        if !next(row)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The nodes the index finds for the seek, or `None` to scan the label.
fn candidates(
    l: LabelId,
    k: PropKeyId,
    seek: &IndexSeek,
    row: &[Val],
    cx: &Ctx<'_>,
) -> Result<Option<Vec<NodeId>>> {
    if let IndexSeek::All(pairs) = seek {
        return all_equal(l, pairs, row, cx);
    }
    if !cx.graph().is_indexed(l, k) {
        return Ok(None);
    }
    Ok(match seek {
        IndexSeek::All(_) => unreachable!("answered above"),
        IndexSeek::Equal(value) => equal_nodes(l, k, &eval(value, row, cx)?, cx),
        IndexSeek::Any(list) => match eval(list, row, cx)? {
            Val::Null => Some(Vec::new()),
            Val::List(items) => any_nodes(l, k, &items, cx),
            _ => None, // the filter says what is wrong with it
        },
        IndexSeek::Prefix(part) | IndexSeek::Contains(part) | IndexSeek::Suffix(part) => {
            match eval(part, row, cx)? {
                Val::Str(p) => {
                    let range = match seek {
                        IndexSeek::Prefix(_) => ValueRange::Prefix(&p),
                        IndexSeek::Contains(_) => ValueRange::Contains(&p),
                        _ => ValueRange::Suffix(&p),
                    };
                    cx.graph().nodes_in_range(l, k, &range)
                }
                Val::Null => Some(Vec::new()),
                _ => None,
            }
        }
        IndexSeek::Within(lower, upper) => match (eval(lower, row, cx)?, eval(upper, row, cx)?) {
            (Val::Null, _) | (_, Val::Null) => Some(Vec::new()),
            (Val::Point(lo), Val::Point(hi)) if lo.crs() == hi.crs() => {
                let range = ValueRange::Within {
                    crs: lo.crs(),
                    x_from: lo.x(),
                    x_to: hi.x(),
                };
                cx.graph().nodes_in_range(l, k, &range)
            }
            _ => None,
        },
        IndexSeek::Near {
            center,
            radius,
            inclusive,
        } => match (eval(center, row, cx)?, eval(radius, row, cx)?) {
            (Val::Null, _) | (_, Val::Null) => Some(Vec::new()),
            (Val::Point(c), r) => match number(&r) {
                Some(r) if r.is_nan() || r < 0.0 || (r == 0.0 && !inclusive) => Some(Vec::new()),
                Some(r) => {
                    let (x_from, x_to) = crate::functions::x_range_within(&c, r);
                    let range = ValueRange::Within {
                        crs: c.crs(),
                        x_from,
                        x_to,
                    };
                    cx.graph().nodes_in_range(l, k, &range)
                }
                None => None,
            },
            _ => None,
        },
        IndexSeek::Range { lower, upper } => {
            let lower = bound(lower.as_ref(), row, cx)?;
            let upper = bound(upper.as_ref(), row, cx)?;
            match (lower, upper) {
                // A null or NaN bound: the comparison holds for no node.
                (Some(None), _) | (_, Some(None)) => Some(Vec::new()),
                (lower, upper) => {
                    let (lower, upper) = (as_bound(&lower), as_bound(&upper));
                    let range = ValueRange::Between { lower, upper };
                    cx.graph().nodes_in_range(l, k, &range)
                }
            }
        }
    })
}

/// A bound evaluated: `None` when there is none, `Some(None)` when it is null or
/// NaN (nothing compares true with it), else the value and whether it is inclusive.
/// A value the index does not order is no bound (the filter still applies it).
fn bound(
    b: Option<&(crate::binder::BExpr, bool)>,
    row: &[Val],
    cx: &Ctx<'_>,
) -> Result<Option<Option<(Value, bool)>>> {
    let Some((e, inclusive)) = b else {
        return Ok(None);
    };
    Ok(match eval(e, row, cx)? {
        Val::Null => Some(None),
        Val::Float(f) if f.is_nan() => Some(None),
        Val::Int(i) => Some(Some((Value::Int(i), *inclusive))),
        Val::Float(f) => Some(Some((Value::Float(f), *inclusive))),
        Val::Str(s) => Some(Some((Value::String(s), *inclusive))),
        Val::DateTime(ms) => Some(Some((Value::DateTime(ms), *inclusive))),
        Val::Temporal(t) if t.utc_epoch_millis().is_some() => {
            Some(Some((Value::Temporal(t), *inclusive)))
        }
        _ => None,
    })
}

fn number(v: &Val) -> Option<f64> {
    match v {
        Val::Int(i) => Some(*i as f64),
        Val::Float(f) => Some(*f),
        _ => None,
    }
}

fn as_bound(b: &Option<Option<(Value, bool)>>) -> Bound<&Value> {
    match b {
        Some(Some((v, true))) => Bound::Included(v),
        Some(Some((v, false))) => Bound::Excluded(v),
        _ => Bound::Unbounded,
    }
}

/// The nodes whose value equals any of `items`, in id order; `None` when an item is
/// of a kind the index does not hold (a list equals a stored list).
fn any_nodes(l: LabelId, k: PropKeyId, items: &[Val], cx: &Ctx<'_>) -> Option<Vec<NodeId>> {
    let mut out = Vec::new();
    for item in items {
        out.extend(equal_nodes(l, k, item, cx)?);
    }
    out.sort_unstable();
    out.dedup();
    Some(out)
}

/// The nodes whose keys hold every one of the values (equalities on several keys),
/// from a composite index covering some of them, else from a one-key index on one
/// of them; `None` to scan the label. The conjuncts run after either.
fn all_equal(
    l: LabelId,
    pairs: &[(usize, crate::binder::BExpr)],
    row: &[Val],
    cx: &Ctx<'_>,
) -> Result<Option<Vec<NodeId>>> {
    let mut values: Vec<(Option<PropKeyId>, Val)> = Vec::with_capacity(pairs.len());
    for (key, e) in pairs {
        let v = eval(e, row, cx)?;
        if matches!(v, Val::Null) || matches!(v, Val::Float(f) if f.is_nan()) {
            return Ok(Some(Vec::new())); // `=` holds for no node
        }
        values.push((cx.key(*key), v));
    }
    if let Some(nodes) = composite_nodes(l, &values, cx) {
        return Ok(Some(nodes));
    }
    for (k, v) in &values {
        let Some(k) = *k else { continue };
        if cx.graph().is_indexed(l, k) {
            if let Some(nodes) = equal_nodes(l, k, v, cx) {
                return Ok(Some(nodes));
            }
        }
    }
    Ok(None)
}

/// The nodes the composite index of `l` that answers these equalities finds
/// ([`kith_core::Schema::composite_within`]), if there is one and it holds the values.
fn composite_nodes(
    l: LabelId,
    values: &[(Option<PropKeyId>, Val)],
    cx: &Ctx<'_>,
) -> Option<Vec<NodeId>> {
    let g = cx.graph();
    let names: Vec<&str> = values
        .iter()
        .filter_map(|(k, _)| k.map(|k| g.prop_key_name(k)))
        .collect();
    let (_, def) = g.schema().composite_within(g.label_name(l), &names)?;
    let keys: Vec<PropKeyId> = def
        .on
        .keys()
        .map(|k| g.prop_key_id(k))
        .collect::<Option<_>>()?;
    let held: Vec<Value> = keys
        .iter()
        .map(|k| {
            let (_, v) = values.iter().find(|(id, _)| *id == Some(*k))?;
            stored(v)
        })
        .collect::<Option<_>>()?;
    g.nodes_with_values(l, &keys, &held)
}

/// A value as an index holds it, or `None` for kinds no index holds (lists, maps,
/// temporal values other than instants: the caller looks elsewhere).
fn stored(v: &Val) -> Option<Value> {
    Some(match v {
        Val::Bool(b) => Value::Bool(*b),
        Val::Int(i) => Value::Int(*i),
        Val::Float(f) => Value::Float(crate::value::canonical(*f)),
        Val::Str(s) => Value::String(s.clone()),
        Val::Point(p) => Value::Point(p.clone()),
        _ => return None,
    })
}

/// The nodes whose value equals `v` by Cypher's `=`, from the index, in id order.
/// `None` when `v` is of a kind the index does not hold (the caller scans).
pub(super) fn equal_nodes(l: LabelId, k: PropKeyId, v: &Val, cx: &Ctx<'_>) -> Option<Vec<NodeId>> {
    let g = cx.graph();
    if matches!(v, Val::Null) || matches!(v, Val::Float(f) if f.is_nan()) {
        // Nothing equals null or NaN (an index keyed by a float's bits would find a
        // stored NaN).
        return Some(Vec::new());
    }
    let stored = stored(v)?;
    let exact = |stored: &Value| g.nodes_with_property(l, k, stored, usize::MAX);
    let number = matches!(stored, Value::Int(_) | Value::Float(_));
    if !number {
        return Some(exact(&stored));
    }
    // Cypher's `=` compares an integer with a float as floats: `1` finds a stored
    // `1.0`. The index keeps the stored types apart, so a number is looked up as
    // itself and its twin; beyond 2^53 many integers round to one float.
    if !kith_core::compares_exactly(&stored) {
        return beyond_exact(l, k, &stored, v, cx);
    }
    let mut out = exact(&stored);
    if let Some(twin) = kith_core::numeric_twin(&stored) {
        out.extend(exact(&twin));
        out.sort_unstable();
    }
    Some(out)
}

/// [`equal_nodes`] of a number beyond 2^53, where many integers round to one float:
/// both kinds are searched (a range of one value, widened) and `=` decides; an index
/// that holds no numbers answers `None`: scan.
fn beyond_exact(
    l: LabelId,
    k: PropKeyId,
    stored: &Value,
    v: &Val,
    cx: &Ctx<'_>,
) -> Option<Vec<NodeId>> {
    let g = cx.graph();
    let at = Bound::Included(stored);
    let range = ValueRange::Between {
        lower: at,
        upper: at,
    };
    let mut out: Vec<NodeId> = g
        .nodes_in_range(l, k, &range)?
        .into_iter()
        .filter(|&n| {
            g.node_property(n, k)
                .is_some_and(|p| crate::value::equals(&Val::from_owned(p), v) == Some(true))
        })
        .collect();
    out.sort_unstable();
    Some(out)
}
