//! Evaluating bound expressions against one row.

use std::cmp::Ordering;
use std::sync::Arc;

use super::{steps, Ctx, Rows};
use crate::ast::{CompareOp, Quantifier, SubqueryKind};
use crate::binder::{BExpr, BinOp, MapItem};
use crate::error::{CypherError, ErrorCode, Result};
use crate::functions::{self, Function};
use crate::temporal;
use crate::value::{compare, equals, fresh_nan, listed, listed_ref, nan_of_node, renewed, Val};

/// The value of `e` in `row`.
pub fn eval(e: &BExpr, row: &[Val], cx: &Ctx<'_>) -> Result<Val> {
    Ok(match e {
        BExpr::Const(v) => v.clone(),
        BExpr::Listing(what) => super::schema::listing(what, &*cx.graph()),
        BExpr::Param(i) => cx.params[*i].clone(),
        BExpr::Slot(s) => row[*s].clone(),
        BExpr::Prop(base, key) => property(&eval(base, row, cx)?, *key, cx)?,
        BExpr::Index(a, i) => index(&eval(a, row, cx)?, &eval(i, row, cx)?, cx)?,
        BExpr::Slice(a, from, to) => {
            let from = from.as_deref().map(|f| eval(f, row, cx)).transpose()?;
            let to = to.as_deref().map(|t| eval(t, row, cx)).transpose()?;
            slice(&eval(a, row, cx)?, from, to)?
        }
        BExpr::HasLabels(a, labels) => match eval(a, row, cx)? {
            Val::Null => Val::Null,
            Val::Node(n) => {
                let g = cx.graph();
                Val::Bool(
                    labels
                        .iter()
                        .all(|l| cx.label(*l).is_some_and(|id| g.has_label(n, id))),
                )
            }
            other => {
                return Err(CypherError::type_error(format!(
                    "a label test needs a node, got {}",
                    other.type_name()
                )))
            }
        },
        BExpr::List(items) => {
            let mut out = Vec::with_capacity(items.len());
            for i in items {
                out.push(eval(i, row, cx)?);
            }
            Val::list(out)
        }
        BExpr::Map(entries) => {
            let mut out = Vec::with_capacity(entries.len());
            for (k, v) in entries {
                out.push((k.clone(), eval(v, row, cx)?));
            }
            Val::Map(Arc::new(out))
        }
        BExpr::Not(a) => match truth(&eval(a, row, cx)?)? {
            Some(b) => Val::Bool(!b),
            None => Val::Null,
        },
        BExpr::Neg(a) => computed(e, negate(eval(a, row, cx)?)?),
        BExpr::And(a, b) => logic(
            truth(&eval(a, row, cx)?)?,
            || truth(&eval(b, row, cx)?),
            true,
        )?,
        BExpr::Or(a, b) => logic(
            truth(&eval(a, row, cx)?)?,
            || truth(&eval(b, row, cx)?),
            false,
        )?,
        BExpr::Xor(a, b) => match (truth(&eval(a, row, cx)?)?, truth(&eval(b, row, cx)?)?) {
            (Some(x), Some(y)) => Val::Bool(x != y),
            _ => Val::Null,
        },
        BExpr::Binary(BinOp::In, a, b) => {
            // Nothing is in an empty list, whatever the left side would be: it is not
            // evaluated (as Neo4j answers `x IN []` false without computing x).
            let list = listed(eval(b, row, cx)?);
            if matches!(&list, Val::List(l) if l.is_empty()) {
                return Ok(Val::Bool(false));
            }
            membership_cached(eval(a, row, cx)?, list, cx)?
        }
        BExpr::Call(Function::Coalesce, args) => {
            // The first non-null argument: those after it are not evaluated.
            for a in args {
                let v = eval(a, row, cx)?;
                if !v.is_null() {
                    return Ok(v);
                }
            }
            Val::Null
        }
        BExpr::Binary(op, a, b) => computed(e, binary(*op, eval(a, row, cx)?, eval(b, row, cx)?)?),
        BExpr::Compare(first, chain) => compare_chain(first, chain, row, cx)?,
        BExpr::IsNull(a, negated) => Val::Bool(eval(a, row, cx)?.is_null() != *negated),
        BExpr::IsType(a, negated, t) => {
            Val::Bool(crate::functions::conforms(&eval(a, row, cx)?, t) != *negated)
        }
        BExpr::Call(Function::DateTime, args) if epoch_millis_arg(args).is_some() => {
            // `datetime({epochMillis: x})`, as the LDBC texts write it: no map a row.
            let (key, e) = epoch_millis_arg(args).expect("checked by the guard");
            match eval(e, row, cx)? {
                Val::Int(ms) => Val::DateTime(ms),
                other => functions::call(
                    Function::DateTime,
                    &[Val::Map(Arc::new(vec![(key.clone(), other)]))],
                    &*cx.graph(),
                )?,
            }
        }
        BExpr::Call(f, args) => {
            // Up to three arguments on the stack: a call runs once a row.
            let mut small: [Val; 3] = Default::default();
            let mut many = Vec::new();
            let vals: &[Val] = if args.len() <= small.len() {
                for (v, a) in small.iter_mut().zip(args) {
                    *v = argument(*f, eval(a, row, cx)?);
                }
                &small[..args.len()]
            } else {
                for a in args {
                    many.push(argument(*f, eval(a, row, cx)?));
                }
                &many
            };
            if cx.has_written() {
                if let Some(v) = on_deleted(*f, vals, cx)? {
                    return Ok(v);
                }
            }
            if f.is_temporal() {
                temporal::call(*f, vals, &|| cx.now())?
            } else {
                let v = functions::call(*f, vals, &*cx.graph())?;
                // A function that hands back one of its arguments hands back that
                // value, as Neo4j does (`head([x])` is `x`, not a NaN of its own).
                if hands_back_an_argument(*f, vals) {
                    v
                } else {
                    renewed(v)
                }
            }
        }
        BExpr::Case {
            operand,
            whens,
            else_,
        } => case(operand.as_deref(), whens, else_.as_deref(), row, cx)?,
        BExpr::ListComp {
            slot,
            list,
            filter,
            map,
        } => list_comprehension(*slot, list, filter.as_deref(), map.as_deref(), row, cx)?,
        BExpr::Reduce {
            acc,
            init,
            slot,
            list,
            expr,
        } => reduce(*acc, init, *slot, list, expr, row, cx)?,
        BExpr::Quantifier {
            kind,
            slot,
            list,
            pred,
        } => quantifier(*kind, *slot, list, pred, row, cx)?,
        BExpr::Exists(sub) => Val::Bool(steps::any_match(cx.pattern(*sub)?, row, cx)?),
        BExpr::PatternComp(sub, map) => steps::comprehension(cx.pattern(*sub)?, map, row, cx)?,
        BExpr::Subquery { kind, sub, column } => {
            subquery(*kind, cx.subquery(*sub)?, *column, row, cx)?
        }
        BExpr::MapProjection(base, items) => map_projection(&eval(base, row, cx)?, items, row, cx)?,
        BExpr::RegexConst(a, re) => match eval(a, row, cx)? {
            Val::Str(s) => Val::Bool(re.is_match(&s)),
            _ => Val::Null,
        },
    })
}

fn subquery(
    kind: SubqueryKind,
    ops: &[crate::planner::Op],
    column: Option<usize>,
    row: &[Val],
    cx: &Ctx<'_>,
) -> Result<Val> {
    let mut rows = Rows::new(cx.width);
    rows.push(row);
    for op in ops {
        rows = super::ops::run_op(op, rows, cx)?;
        cx.check_rows(&rows)?;
    }
    Ok(match (kind, column) {
        (SubqueryKind::Exists, _) => Val::Bool(!rows.is_empty()),
        (SubqueryKind::Count, _) => Val::Int(rows.len() as i64),
        (SubqueryKind::Collect, Some(c)) => Val::list(rows.iter().map(|r| r[c].clone()).collect()),
        (SubqueryKind::Collect, None) => Val::list(Vec::new()),
    })
}

fn map_projection(base: &Val, items: &[MapItem], row: &[Val], cx: &Ctx<'_>) -> Result<Val> {
    if base.is_null() {
        return Ok(Val::Null);
    }
    let mut out: Vec<(Arc<str>, Val)> = Vec::with_capacity(items.len());
    let put = |k: Arc<str>, v: Val, out: &mut Vec<(Arc<str>, Val)>| match out
        .iter_mut()
        .find(|(n, _)| *n == k)
    {
        Some(slot) => slot.1 = v,
        None => out.push((k, v)),
    };
    for item in items {
        match item {
            MapItem::Property(name, key) => put(name.clone(), property(base, *key, cx)?, &mut out),
            MapItem::Entry(name, e) => put(name.clone(), eval(e, row, cx)?, &mut out),
            MapItem::All => {
                let all = functions::call(
                    functions::Function::Properties,
                    std::slice::from_ref(base),
                    &*cx.graph(),
                )?;
                if let Val::Map(m) = all {
                    for (k, v) in m.iter() {
                        put(k.clone(), v.clone(), &mut out);
                    }
                }
            }
        }
    }
    Ok(Val::Map(Arc::new(out)))
}

/// Whether a predicate's value holds: `Some(bool)`, or `None` for null.
pub fn truth(v: &Val) -> Result<Option<bool>> {
    match v {
        Val::Bool(b) => Ok(Some(*b)),
        Val::Null => Ok(None),
        // As Neo4j reads a list where a predicate stands: true unless empty.
        Val::List(l) => Ok(Some(!l.is_empty())),
        Val::Bytes(b) => Ok(Some(!b.is_empty())),
        other => Err(CypherError::type_error(format!(
            "expected a boolean, got {}",
            other.type_name()
        ))),
    }
}

fn logic(a: Option<bool>, b: impl FnOnce() -> Result<Option<bool>>, and: bool) -> Result<Val> {
    // AND: false wins; OR: true wins. Short-circuit on the winner.
    if a == Some(!and) {
        return Ok(Val::Bool(!and));
    }
    let b = b()?;
    Ok(match (a, b) {
        (_, Some(x)) if x != and => Val::Bool(!and),
        (Some(_), Some(_)) => Val::Bool(and),
        _ => Val::Null,
    })
}

/// A property of a node, relationship, map, temporal value or point.
pub(crate) fn property(base: &Val, key: usize, cx: &Ctx<'_>) -> Result<Val> {
    Ok(match base {
        Val::Null => Val::Null,
        Val::Node(n) => match cx
            .key(key)
            .and_then(|k| cx.graph().node_property(*n, k).map(Val::from_owned))
        {
            Some(v) => v,
            None => {
                cx.check_not_deleted(base)?;
                Val::Null
            }
        },
        Val::Rel(r) => match (cx.key(key), cx.graph().relationship(*r)) {
            (Some(k), Some(_)) => cx
                .graph()
                .rel_property(*r, k)
                .map_or(Val::Null, Val::from_owned),
            (_, None) => {
                cx.check_not_deleted(base)?;
                Val::Null
            }
            _ => Val::Null,
        },
        Val::Map(m) => {
            let name = &cx.names.keys[key];
            m.iter()
                .find(|(k, _)| k == name)
                .map_or(Val::Null, |(_, v)| v.clone())
        }
        Val::DateTime(_) | Val::Temporal(_) => match base.as_temporal() {
            Some(t) => temporal::field(&t, &cx.names.keys[key])?,
            None => Val::Null,
        },
        Val::Point(p) => crate::functions::point_field(p, &cx.names.keys[key])?,
        other => {
            return Err(CypherError::type_error(format!(
                "cannot read property `{}` of a {}",
                cx.names.keys[key],
                other.type_name()
            )))
        }
    })
}

fn index(base: &Val, i: &Val, cx: &Ctx<'_>) -> Result<Val> {
    let base = &*listed_ref(base);
    Ok(match (base, i) {
        (Val::Null, _) | (_, Val::Null) => Val::Null,
        (Val::List(l), Val::Int(i)) => {
            let n = l.len() as i64;
            let at = if *i < 0 { n + i } else { *i };
            if (0..n).contains(&at) {
                l[at as usize].clone()
            } else {
                Val::Null
            }
        }
        (Val::Map(m), Val::Str(k)) => m
            .iter()
            .find(|(key, _)| **key == **k)
            .map_or(Val::Null, |(_, v)| v.clone()),
        (Val::Node(_) | Val::Rel(_), Val::Str(k)) => match cx.graph().prop_key_id(k) {
            Some(id) => match base {
                Val::Node(n) => cx
                    .graph()
                    .node_property(*n, id)
                    .map_or(Val::Null, Val::from_owned),
                Val::Rel(r) => cx
                    .graph()
                    .rel_property(*r, id)
                    .map_or(Val::Null, Val::from_owned),
                _ => Val::Null,
            },
            None => Val::Null,
        },
        (b, i) => {
            return Err(CypherError::type_error(format!(
                "cannot index a {} with a {}",
                b.type_name(),
                i.type_name()
            )))
        }
    })
}

fn slice(base: &Val, from: Option<Val>, to: Option<Val>) -> Result<Val> {
    let base = &*listed_ref(base);
    let one;
    let l: &[Val] = match base {
        Val::List(l) => l,
        Val::Null => return Ok(Val::Null),
        // Neo4j slices any other value as the list of it alone (`n.x[0..2]` of an
        // integer is `[n.x]`); a literal of the wrong type is refused before running.
        other => {
            one = [other.clone()];
            &one
        }
    };
    let n = l.len() as i64;
    let bound = |v: Option<Val>, default: i64| -> Result<Option<i64>> {
        match v {
            None => Ok(Some(default)),
            Some(Val::Null) => Ok(None),
            Some(Val::Int(i)) => Ok(Some(if i < 0 { (n + i).max(0) } else { i.min(n) })),
            Some(other) => Err(CypherError::type_error(format!(
                "a slice bound must be an integer, got {}",
                other.type_name()
            ))),
        }
    };
    let (Some(a), Some(b)) = (bound(from, 0)?, bound(to, n)?) else {
        return Ok(Val::Null);
    };
    if a >= b {
        return Ok(Val::list(Vec::new()));
    }
    Ok(Val::list(l[a as usize..b as usize].to_vec()))
}

/// The value arithmetic on `e` computed, a NaN given its identity: the same one each
/// time when `e` computes from literals only (Neo4j folds that once a query), a new one
/// each evaluation otherwise (see `value::fresh_nan`).
#[inline]
fn computed(e: &BExpr, v: Val) -> Val {
    match v {
        Val::Float(f) if f.is_nan() => Val::Float(if literal(e) {
            nan_of_node(e as *const BExpr as usize)
        } else {
            fresh_nan()
        }),
        v => v,
    }
}

/// Whether `f`'s answer is one of its arguments (or an element of one), not a value
/// it computes: a NaN keeps its identity through it (recorded on Neo4j: `head([x])`
/// and `toFloat(x)` of a float group with `x`; `abs(x)` and `toFloat('NaN')` do not).
fn hands_back_an_argument(f: Function, args: &[Val]) -> bool {
    match f {
        Function::Head | Function::Last | Function::NullIf => true,
        Function::ToFloat | Function::ToFloatOrNull => matches!(args.first(), Some(Val::Float(_))),
        _ => false,
    }
}

/// An arithmetic expression over literals only. (Neo4j does not fold a negation of a
/// computation: `-(0.0 / 0.0)` is a NaN a row, recorded.)
fn literal(e: &BExpr) -> bool {
    match e {
        BExpr::Const(_) => true,
        BExpr::Binary(_, a, b) => literal(a) && literal(b),
        _ => false,
    }
}

fn negate(v: Val) -> Result<Val> {
    match v {
        Val::Null => Ok(Val::Null),
        Val::Int(i) => i.checked_neg().map(Val::Int).ok_or_else(overflow),
        Val::Float(f) => Ok(Val::Float(-f)),
        other => temporal::negate(&other).unwrap_or_else(|| {
            Err(CypherError::type_error(format!(
                "cannot negate a {}",
                other.type_name()
            )))
        }),
    }
}

fn overflow() -> CypherError {
    CypherError::new(ErrorCode::ArithmeticError, "integer overflow")
}

/// Arithmetic, IN and the string operators.
pub(crate) fn binary(op: BinOp, a: Val, b: Val) -> Result<Val> {
    let (a, b) = (listed(a), listed(b));
    match op {
        BinOp::In => return membership(&a, &b),
        BinOp::StartsWith | BinOp::EndsWith | BinOp::Contains | BinOp::Regex => {
            return string_op(op, &a, &b)
        }
        BinOp::Concat => return concat(a, b),
        _ => {}
    }
    if a.is_null() || b.is_null() {
        return Ok(Val::Null);
    }
    if let Some(done) = temporal_op(op, &a, &b) {
        return done;
    }
    match op {
        BinOp::Add => add(a, b),
        _ => numeric(op, &a, &b),
    }
}

/// `a || b`: two strings or two lists joined; unlike `+`, nothing else. Null beside
/// null, a string or a list is null; beside anything else a TypeError, as Neo4j 5.26
/// raises it at run time ("Cannot concatenate `NO_VALUE` and `Double`", recorded).
fn concat(a: Val, b: Val) -> Result<Val> {
    Ok(match (a, b) {
        (Val::Null, Val::Null | Val::Str(_) | Val::List(_))
        | (Val::Str(_) | Val::List(_), Val::Null) => Val::Null,
        (Val::Str(x), Val::Str(y)) => Val::str(&format!("{x}{y}")),
        (Val::List(x), Val::List(y)) => Val::list(x.iter().chain(y.iter()).cloned().collect()),
        (x, y) => {
            return Err(CypherError::type_error(format!(
                "|| joins two strings or two lists, not {} and {}",
                x.type_name(),
                y.type_name()
            )))
        }
    })
}

/// Arithmetic with a duration; `None` when neither side is a temporal value.
fn temporal_op(op: BinOp, a: &Val, b: &Val) -> Option<Result<Val>> {
    if !matches!(a, Val::Temporal(_)) && !matches!(b, Val::Temporal(_)) {
        return None;
    }
    // Anything else (a list and a date: appending) is the other operators' to decide.
    match op {
        BinOp::Add => temporal::add(a, b),
        BinOp::Sub => temporal::subtract(a, b),
        BinOp::Mul => temporal::multiply(a, b),
        BinOp::Div => temporal::divide(a, b),
        _ => None,
    }
}

fn add(a: Val, b: Val) -> Result<Val> {
    Ok(match (a, b) {
        (Val::List(x), Val::List(y)) => Val::list(x.iter().chain(y.iter()).cloned().collect()),
        (Val::List(x), y) => {
            let mut v = x.as_ref().clone();
            v.push(y);
            Val::list(v)
        }
        (x, Val::List(y)) => {
            let mut v = vec![x];
            v.extend(y.iter().cloned());
            Val::list(v)
        }
        (Val::Str(x), Val::Str(y)) => Val::str(&format!("{x}{y}")),
        (Val::Str(x), y @ (Val::Int(_) | Val::Float(_) | Val::Bool(_))) => {
            let Val::Str(t) = functions::scalar_to_string(&y) else {
                return Ok(Val::Null);
            };
            Val::str(&format!("{x}{t}"))
        }
        (x @ (Val::Int(_) | Val::Float(_) | Val::Bool(_)), Val::Str(y)) => {
            let Val::Str(t) = functions::scalar_to_string(&x) else {
                return Ok(Val::Null);
            };
            Val::str(&format!("{t}{y}"))
        }
        (x, y) => numeric(BinOp::Add, &x, &y)?,
    })
}

fn numeric(op: BinOp, a: &Val, b: &Val) -> Result<Val> {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => int_op(op, *x, *y),
        (Val::Int(_) | Val::Float(_), Val::Int(_) | Val::Float(_)) => {
            let (x, y) = (as_f64(a), as_f64(b));
            Ok(Val::Float(match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                BinOp::Mod => x % y,
                _ => x.powf(y),
            }))
        }
        _ => Err(CypherError::type_error(format!(
            "cannot apply {} to {} and {}",
            op_symbol(op),
            a.type_name(),
            b.type_name()
        ))),
    }
}

fn int_op(op: BinOp, x: i64, y: i64) -> Result<Val> {
    let r = match op {
        BinOp::Add => x.checked_add(y),
        BinOp::Sub => x.checked_sub(y),
        BinOp::Mul => x.checked_mul(y),
        BinOp::Div | BinOp::Mod if y == 0 => {
            return Err(CypherError::new(ErrorCode::ArithmeticError, "/ by zero"));
        }
        BinOp::Div => x.checked_div(y),
        BinOp::Mod => x.checked_rem(y),
        _ => return Ok(Val::Float((x as f64).powf(y as f64))),
    };
    r.map(Val::Int).ok_or_else(overflow)
}

fn op_symbol(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Concat => "||",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Mod => "%",
        BinOp::Pow => "^",
        BinOp::In => "IN",
        BinOp::StartsWith => "STARTS WITH",
        BinOp::EndsWith => "ENDS WITH",
        BinOp::Contains => "CONTAINS",
        BinOp::Regex => "=~",
    }
}

fn as_f64(v: &Val) -> f64 {
    match v {
        Val::Int(i) => *i as f64,
        Val::Float(f) => *f,
        _ => f64::NAN,
    }
}

/// Lists at least this long are tested through a hash set when tested again.
const IN_SET_LEN_MIN: usize = 16;

/// `a IN list`, through a set when the same large list of plain values (a parameter, or
/// a list a WITH collected) is tested row after row.
fn membership_cached(a: Val, list: Val, cx: &Ctx<'_>) -> Result<Val> {
    let Val::List(items) = &list else {
        return membership(&a, &list);
    };
    if items.len() < IN_SET_LEN_MIN || !is_plain(&a) {
        return membership(&a, &list);
    }
    let mut cache = cx.in_set.borrow_mut();
    let hit = cache.as_ref().is_some_and(|(l, _)| Arc::ptr_eq(l, items));
    if !hit {
        if !items.iter().all(is_plain) {
            return membership(&a, &list);
        }
        let set = items.iter().cloned().map(crate::value::Key).collect();
        *cache = Some((items.clone(), set));
    }
    let (_, set) = cache.as_ref().expect("filled above");
    Ok(Val::Bool(set.contains(&crate::value::Key(a))))
}

/// A value whose equality is plain (never null, no nested nulls to make it unknown).
fn is_plain(v: &Val) -> bool {
    matches!(
        v,
        Val::Bool(_) | Val::Int(_) | Val::Str(_) | Val::Node(_) | Val::Rel(_) | Val::DateTime(_)
    ) || matches!(v, Val::Float(f) if !f.is_nan())
}

fn membership(a: &Val, list: &Val) -> Result<Val> {
    let items = match list {
        Val::Null => return Ok(Val::Null),
        Val::List(l) => l,
        other => {
            return Err(CypherError::type_error(format!(
                "IN needs a list, got {}",
                other.type_name()
            )))
        }
    };
    let mut unknown = false;
    for item in items.iter() {
        match equals(a, item) {
            Some(true) => return Ok(Val::Bool(true)),
            None => unknown = true,
            Some(false) => {}
        }
    }
    Ok(if unknown { Val::Null } else { Val::Bool(false) })
}

fn string_op(op: BinOp, a: &Val, b: &Val) -> Result<Val> {
    let (Val::Str(x), Val::Str(y)) = (a, b) else {
        return Ok(Val::Null);
    };
    Ok(Val::Bool(match op {
        BinOp::StartsWith => x.starts_with(&**y),
        BinOp::EndsWith => x.ends_with(&**y),
        BinOp::Contains => x.contains(&**y),
        _ => {
            let re = crate::functions::compile_regex(y)
                .map_err(|m| CypherError::new(ErrorCode::ArgumentError, m))?;
            re.is_match(x)
        }
    }))
}

fn compare_chain(
    first: &BExpr,
    chain: &[(CompareOp, BExpr)],
    row: &[Val],
    cx: &Ctx<'_>,
) -> Result<Val> {
    let mut left = eval(first, row, cx)?;
    let mut result = Some(true);
    for (op, e) in chain {
        let right = eval(e, row, cx)?;
        match compare_one(*op, &left, &right) {
            Some(false) => return Ok(Val::Bool(false)),
            None => result = None,
            Some(true) => {}
        }
        left = right;
    }
    Ok(result.map_or(Val::Null, Val::Bool))
}

/// One comparison: `None` when unknown.
pub(crate) fn compare_one(op: CompareOp, a: &Val, b: &Val) -> Option<bool> {
    match op {
        CompareOp::Eq => equals(a, b),
        CompareOp::Ne => equals(a, b).map(|e| !e),
        _ => {
            let nan = |v: &Val| matches!(v, Val::Float(f) if f.is_nan());
            let number = |v: &Val| matches!(v, Val::Int(_) | Val::Float(_));
            if (nan(a) || nan(b)) && number(a) && number(b) {
                // NaN is comparable with numbers, and never less, equal or greater.
                return Some(false);
            }
            let o = compare(a, b)?;
            if let (Val::Point(_), Val::Point(_), CompareOp::Lt | CompareOp::Gt) = (a, b, op) {
                // Neo4j: `p < p` is null, `p <= p` true, unequal points null.
                return None;
            }
            Some(match op {
                CompareOp::Lt => o == Ordering::Less,
                CompareOp::Le => o != Ordering::Greater,
                CompareOp::Gt => o == Ordering::Greater,
                _ => o != Ordering::Less,
            })
        }
    }
}

fn case(
    operand: Option<&BExpr>,
    whens: &[(BExpr, BExpr)],
    else_: Option<&BExpr>,
    row: &[Val],
    cx: &Ctx<'_>,
) -> Result<Val> {
    let subject = operand.map(|o| eval(o, row, cx)).transpose()?;
    for (w, t) in whens {
        let v = eval(w, row, cx)?;
        let hit = match &subject {
            Some(s) => equals(s, &v) == Some(true),
            None => truth(&v)? == Some(true),
        };
        if hit {
            return eval(t, row, cx);
        }
    }
    else_.map_or(Ok(Val::Null), |e| eval(e, row, cx))
}

/// An argument as function `f` reads it: a byte array as the list of its bytes, but
/// for the functions Neo4j gives the byte array itself (`valueType` names its type,
/// `nullIf` hands it back, `reverse` refuses it: it takes a string or a list).
fn argument(f: Function, v: Val) -> Val {
    match f {
        Function::ValueType | Function::NullIf | Function::Reverse => v,
        _ => listed(v),
    }
}

/// The list a comprehension, `reduce` or a quantifier walks: a single value is a
/// list of itself, as Neo4j reads it (`reduce(s = 0, x IN 40 | s + x)` is 40).
fn list_of(v: Val) -> Result<Option<Arc<Vec<Val>>>> {
    match v {
        Val::Null => Ok(None),
        Val::List(l) => Ok(Some(l)),
        Val::Bytes(_) => list_of(listed(v)),
        other => Ok(Some(Arc::new(vec![other]))),
    }
}

fn list_comprehension(
    slot: usize,
    list: &BExpr,
    filter: Option<&BExpr>,
    map: Option<&BExpr>,
    row: &[Val],
    cx: &Ctx<'_>,
) -> Result<Val> {
    let Some(items) = list_of(eval(list, row, cx)?)? else {
        return Ok(Val::Null);
    };
    let mut scratch = row.to_vec();
    let mut out = Vec::with_capacity(items.len());
    for item in items.iter() {
        scratch[slot] = item.clone();
        if let Some(f) = filter {
            if truth(&eval(f, &scratch, cx)?)? != Some(true) {
                continue;
            }
        }
        out.push(match map {
            Some(m) => eval(m, &scratch, cx)?,
            None => item.clone(),
        });
    }
    Ok(Val::list(out))
}

fn reduce(
    acc: usize,
    init: &BExpr,
    slot: usize,
    list: &BExpr,
    expr: &BExpr,
    row: &[Val],
    cx: &Ctx<'_>,
) -> Result<Val> {
    let Some(items) = list_of(eval(list, row, cx)?)? else {
        return Ok(Val::Null);
    };
    let mut scratch = row.to_vec();
    scratch[acc] = eval(init, row, cx)?;
    for item in items.iter() {
        scratch[slot] = item.clone();
        scratch[acc] = eval(expr, &scratch, cx)?;
    }
    Ok(std::mem::take(&mut scratch[acc]))
}

fn quantifier(
    kind: Quantifier,
    slot: usize,
    list: &BExpr,
    pred: &BExpr,
    row: &[Val],
    cx: &Ctx<'_>,
) -> Result<Val> {
    let Some(items) = list_of(eval(list, row, cx)?)? else {
        return Ok(Val::Null);
    };
    let mut scratch = row.to_vec();
    let (mut trues, mut nulls) = (0usize, 0usize);
    for item in items.iter() {
        scratch[slot] = item.clone();
        match truth(&eval(pred, &scratch, cx)?)? {
            Some(true) => trues += 1,
            None => nulls += 1,
            Some(false) => {}
        }
    }
    let falses = items.len() - trues - nulls;
    let known = |b: bool| if nulls > 0 { Val::Null } else { Val::Bool(b) };
    Ok(match kind {
        Quantifier::All if falses > 0 => Val::Bool(false),
        Quantifier::All => known(true),
        Quantifier::Any if trues > 0 => Val::Bool(true),
        Quantifier::Any => known(false),
        Quantifier::None if trues > 0 => Val::Bool(false),
        Quantifier::None => known(true),
        Quantifier::Single if trues > 1 => Val::Bool(false),
        Quantifier::Single => known(trues == 1),
    })
}

/// A graph function on a node or relationship this run deleted, as Neo4j 5.26
/// answers it (recorded on the real one): `type()` still answers (not for one DETACH
/// took with its node); a deleted node's
/// `keys()` and `properties()` are empty; its `labels()`, and a deleted
/// relationship's keys and properties, fail.
fn on_deleted(f: Function, args: &[Val], cx: &Ctx<'_>) -> Result<Option<Val>> {
    let Some(first) = args.first() else {
        return Ok(None);
    };
    match (f, first) {
        (Function::Type, Val::Rel(r)) => match cx.deleted_rel(*r) {
            Some(gone) if !gone.named => Err(CypherError::new(
                ErrorCode::EntityNotFound,
                "the relationship was deleted with its node by this query (DETACH DELETE): \
                 its type is gone",
            )),
            gone => Ok(gone.map(|d| Val::str(&d.rel_type))),
        },
        (Function::Keys | Function::Properties, Val::Node(_)) => {
            let empty = match f {
                Function::Keys => Val::list(Vec::new()),
                _ => Val::Map(Arc::new(Vec::new())),
            };
            Ok(cx.check_not_deleted(first).err().map(|_| empty))
        }
        (Function::Labels | Function::Keys | Function::Properties, Val::Node(_) | Val::Rel(_)) => {
            cx.check_not_deleted(first)?;
            Ok(None)
        }
        _ => Ok(None),
    }
}

/// A value as the query's answer gives it (nodes and relationships as maps, read from
/// the graph as the run sees it).
pub(crate) fn output_value(v: &Val, cx: &Ctx<'_>) -> kith_core::Value {
    use kith_core::Value;
    match v {
        Val::List(items) => Value::List(items.iter().map(|i| output_value(i, cx)).collect()),
        Val::Map(entries) => Value::Map(
            entries
                .iter()
                .map(|(k, v)| (k.clone(), output_value(v, cx)))
                .collect(),
        ),
        Val::Rel(r) => rel_output(*r, cx),
        Val::Path(p) => {
            let graph = cx.graph();
            let nodes = p.nodes.iter().map(|n| Val::Node(*n).to_value(&*graph));
            let rels = p.rels.iter().map(|r| rel_output(*r, cx));
            Value::Map(vec![
                (Arc::from("nodes"), Value::List(nodes.collect())),
                (Arc::from("relationships"), Value::List(rels.collect())),
            ])
        }
        other => other.to_value(&*cx.graph()),
    }
}

/// A relationship as the answer gives it; one the run deleted keeps its type and
/// ends, without properties (as Bolt's answer has it).
fn rel_output(r: kith_core::RelId, cx: &Ctx<'_>) -> kith_core::Value {
    let graph = cx.graph();
    if graph.relationship(r).is_some() {
        return Val::Rel(r).to_value(&*graph);
    }
    match cx.deleted_rel(r) {
        Some(gone) => crate::value::rel_map(r, &gone.rel_type, gone.src, gone.dst, Vec::new()),
        None => kith_core::Value::Null,
    }
}

/// The `epochMillis` entry of `datetime()`'s arguments when they are one map literal
/// with that entry alone.
fn epoch_millis_arg(args: &[BExpr]) -> Option<(&Arc<str>, &BExpr)> {
    match args {
        [BExpr::Map(entries)] => match entries.as_slice() {
            [(key, e)] if &**key == "epochMillis" => Some((key, e)),
            _ => None,
        },
        _ => None,
    }
}
