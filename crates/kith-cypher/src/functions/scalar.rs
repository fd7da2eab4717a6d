//! The scalar functions' bodies.

use std::sync::Arc;

use kith_core::GraphView;

use super::Function;
use crate::error::{CypherError, ErrorCode, Result};
use crate::value::Val;

/// Calls `f` on evaluated arguments (arity already checked by the binder).
pub fn call(f: Function, args: &[Val], graph: &dyn GraphView) -> Result<Val> {
    use Function as F;
    match f {
        F::Coalesce => {
            return Ok(args
                .iter()
                .find(|v| !v.is_null())
                .cloned()
                .unwrap_or(Val::Null))
        }
        F::Rand => return Ok(Val::Float(random_unit())),
        F::Pi => return Ok(Val::Float(std::f64::consts::PI)),
        F::E => return Ok(Val::Float(std::f64::consts::E)),
        F::RandomUuid => return Ok(Val::str(&random_uuid())),
        // The file and line LOAD CSV reads: kith has no LOAD CSV, so no file.
        F::File | F::LineNumber => return Ok(Val::Null),
        F::ValueType => return Ok(Val::str(&super::value_type::value_type(&args[0]))),
        F::NullIf => return Ok(null_if(&args[0], &args[1])),
        F::Range => return range(args),
        F::Point | F::PointDistance | F::PointWithinBBox => {
            return super::spatial::call(f, args, graph)
        }
        f if f.is_temporal() => return crate::temporal::call(f, args, &crate::temporal::realtime),
        _ => {}
    }
    let a = &args[0];
    if a.is_null() && f != F::ToString {
        return Ok(Val::Null);
    }
    match f {
        F::ToInteger
        | F::ToFloat
        | F::ToBoolean
        | F::ToIntegerOrNull
        | F::ToFloatOrNull
        | F::ToBooleanOrNull
        | F::ToStringOrNull
        | F::ToIntegerList
        | F::ToFloatList
        | F::ToBooleanList
        | F::ToStringList => super::convert::call(f, a),
        F::IsNaN
        | F::Floor
        | F::Ceil
        | F::Sqrt
        | F::Exp
        | F::Log
        | F::Log10
        | F::Round
        | F::Sin
        | F::Cos
        | F::Tan
        | F::Cot
        | F::Asin
        | F::Acos
        | F::Atan
        | F::Atan2
        | F::Degrees
        | F::Radians
        | F::Haversin => super::math::call(f, args),
        F::Trim
        | F::LTrim
        | F::RTrim
        | F::BTrim
        | F::TrimFrom
        | F::ToUpper
        | F::ToLower
        | F::Upper
        | F::Lower
        | F::Normalize
        | F::CharLength
        | F::CharacterLength
        | F::Split => super::text::call(f, args),
        F::VectorCosine | F::VectorEuclidean => super::vector::call(f, args),
        F::ToString => match a {
            Val::List(_) | Val::Map(_) | Val::Node(_) | Val::Rel(_) | Val::Path(_) => Err(
                arg_type(f, "a number, string, boolean or temporal value", a),
            ),
            _ => Ok(to_string(a)),
        },
        F::Abs => match a {
            Val::Int(i) => Ok(Val::Int(i.wrapping_abs())),
            Val::Float(x) => Ok(Val::Float(x.abs())),
            _ => Err(arg_type(f, "a number", a)),
        },
        F::Sign => match a {
            Val::Int(i) => Ok(Val::Int(i.signum())),
            Val::Float(x) => Ok(Val::Int(if *x > 0.0 {
                1
            } else if *x < 0.0 {
                -1
            } else {
                0
            })),
            _ => Err(arg_type(f, "a number", a)),
        },
        F::Size => size(a),
        F::Length => match a {
            Val::Path(p) => Ok(Val::Int(p.rels.len() as i64)),
            _ => Err(arg_type(f, "a path", a)),
        },
        F::Head | F::Last | F::Tail | F::Reverse => list_fn(f, a),
        F::Nodes => match a {
            Val::Path(p) => Ok(Val::list(p.nodes.iter().map(|n| Val::Node(*n)).collect())),
            _ => Err(arg_type(f, "a path", a)),
        },
        F::Relationships => match a {
            Val::Path(p) => Ok(Val::list(p.rels.iter().map(|r| Val::Rel(*r)).collect())),
            _ => Err(arg_type(f, "a path", a)),
        },
        F::StartNode | F::EndNode | F::Type => rel_fn(f, a, graph),
        F::Labels => match a {
            Val::Node(n) => Ok(Val::list(
                graph
                    .node_labels(*n)
                    .iter()
                    .map(|l| Val::str(graph.label_name(*l)))
                    .collect(),
            )),
            _ => Err(arg_type(f, "a node", a)),
        },
        F::Id => match a {
            Val::Node(n) => Ok(Val::Int(i64::from(n.0))),
            Val::Rel(r) => Ok(Val::Int(i64::from(r.0))),
            _ => Err(arg_type(f, "a node or relationship", a)),
        },
        // The element id Bolt 5 sends beside a node or relationship.
        F::ElementId => match a {
            Val::Node(n) => Ok(Val::str(&n.element_id())),
            Val::Rel(r) => Ok(Val::str(&r.element_id())),
            _ => Err(arg_type(f, "a node or relationship", a)),
        },
        F::Keys | F::Properties => props_fn(f, a, graph),
        F::Substring | F::Left | F::Right => substring(f, args),
        F::Replace => replace(args),
        F::Exists => Ok(Val::Bool(!a.is_null())),
        F::IsEmpty => match a {
            Val::Str(s) => Ok(Val::Bool(s.is_empty())),
            Val::List(l) => Ok(Val::Bool(l.is_empty())),
            Val::Map(m) => Ok(Val::Bool(m.is_empty())),
            _ => Err(arg_type(f, "a string, list or map", a)),
        },
        _ => unreachable_coalesce(),
    }
}

fn unreachable_coalesce() -> Result<Val> {
    Err(CypherError::new(
        ErrorCode::SemanticError,
        "coalesce is evaluated before dispatch",
    ))
}

pub(super) fn arg_type(f: Function, expected: &str, got: &Val) -> CypherError {
    CypherError::type_error(format!(
        "{}() expects {expected}, got {}",
        f.name(),
        got.type_name()
    ))
}

/// The text of a value as `toString` gives it.
pub fn to_string(a: &Val) -> Val {
    match a {
        Val::Null => Val::Null,
        Val::Str(s) => Val::Str(s.clone()),
        Val::Int(i) => Val::str(&i.to_string()),
        Val::Float(x) => Val::str(&format_float(*x)),
        Val::Bool(b) => Val::str(&b.to_string()),
        Val::DateTime(t) => Val::str(&kith_core::format_epoch_millis(*t)),
        Val::Temporal(t) => Val::str(&t.to_string()),
        Val::Point(p) => Val::str(&p.to_string()),
        other => Val::str(&format!("{other:?}")),
    }
}

/// A float as Neo4j prints it (Java's `Double.toString`).
pub fn format_float(x: f64) -> String {
    kith_core::java_double(x)
}

fn size(a: &Val) -> Result<Val> {
    match a {
        Val::Str(s) => Ok(Val::Int(s.chars().count() as i64)),
        Val::List(l) => Ok(Val::Int(l.len() as i64)),
        other => Err(arg_type(Function::Size, "a string or list", other)),
    }
}

fn list_fn(f: Function, a: &Val) -> Result<Val> {
    if let (Function::Reverse, Val::Str(s)) = (f, a) {
        return Ok(Val::str(&s.chars().rev().collect::<String>()));
    }
    // Neo4j takes tail() as the slice `[1..]`, and slices a value that is not a list
    // as the list of it alone: `tail(n.i)` of an integer is `[]` (recorded).
    if let (Function::Tail, Val::Bool(_) | Val::Int(_) | Val::Float(_) | Val::Str(_)) = (f, a) {
        return Ok(Val::list(Vec::new()));
    }
    let Val::List(l) = a else {
        return Err(arg_type(f, "a list", a));
    };
    Ok(match f {
        Function::Head => l.first().cloned().unwrap_or(Val::Null),
        Function::Last => l.last().cloned().unwrap_or(Val::Null),
        Function::Tail => Val::list(l.iter().skip(1).cloned().collect()),
        _ => Val::list(l.iter().rev().cloned().collect()),
    })
}

fn rel_fn(f: Function, a: &Val, graph: &dyn GraphView) -> Result<Val> {
    let Val::Rel(r) = a else {
        return Err(arg_type(f, "a relationship", a));
    };
    let Some(rel) = graph.relationship(*r) else {
        return Ok(Val::Null);
    };
    Ok(match f {
        Function::StartNode => Val::Node(rel.src),
        Function::EndNode => Val::Node(rel.dst),
        _ => Val::str(graph.rel_type_name(rel.rel_type)),
    })
}

fn props_fn(f: Function, a: &Val, graph: &dyn GraphView) -> Result<Val> {
    let props: Vec<(Arc<str>, Val)> = match a {
        Val::Node(n) => graph
            .node_properties(*n)
            .into_iter()
            .map(|(k, v)| (Arc::from(graph.prop_key_name(k)), Val::from_owned(v)))
            .collect(),
        Val::Rel(r) => graph
            .rel_properties(*r)
            .into_iter()
            .map(|(k, v)| (Arc::from(graph.prop_key_name(k)), Val::from_owned(v)))
            .collect(),
        Val::Map(m) => m.as_ref().clone(),
        other => return Err(arg_type(f, "a node, relationship or map", other)),
    };
    if f == Function::Keys {
        return Ok(Val::list(
            props.into_iter().map(|(k, _)| Val::str(&k)).collect(),
        ));
    }
    Ok(Val::Map(Arc::new(props)))
}

fn int_arg(f: Function, v: &Val) -> Result<i64> {
    match v {
        Val::Int(i) => Ok(*i),
        other => Err(arg_type(f, "an integer", other)),
    }
}

/// `range(start, end[, step])`, bounded so one call cannot exhaust memory.
fn range(args: &[Val]) -> Result<Val> {
    const RANGE_ITEMS_MAX: i64 = 10_000_000;
    let arg = |v: &Val| match v {
        Val::Int(i) => Ok(*i),
        // Null is a type error on Neo4j 5, another type an argument error (the TCK).
        Val::Null => Err(CypherError::type_error(
            "range() expects integers, got null",
        )),
        other => Err(CypherError::new(
            ErrorCode::ArgumentError,
            format!("range() expects integers, got {}", other.type_name()),
        )),
    };
    let start = arg(&args[0])?;
    let end = arg(&args[1])?;
    let step = match args.get(2) {
        Some(v) => arg(v)?,
        None => 1,
    };
    if step == 0 {
        return Err(
            CypherError::new(ErrorCode::ArgumentError, "range() step must not be zero")
                .with_gql("22N38"),
        );
    }
    // As Neo4j counts: (end - start) / step + 1, the division truncating, so
    // range(2, 1, 2) is [2] (a start within one step past the end is kept).
    let count = ((i128::from(end) - i128::from(start)) / i128::from(step) + 1).max(0);
    let count = i64::try_from(count).unwrap_or(i64::MAX);
    if count > RANGE_ITEMS_MAX {
        return Err(CypherError::new(
            ErrorCode::ArgumentError,
            format!("range() of {count} items is over the limit of {RANGE_ITEMS_MAX}"),
        ));
    }
    Ok(Val::list(
        (0..count).map(|i| Val::Int(start + i * step)).collect(),
    ))
}

fn substring(f: Function, args: &[Val]) -> Result<Val> {
    let Val::Str(s) = &args[0] else {
        return Err(arg_type(f, "a string", &args[0]));
    };
    if args[1..].iter().any(Val::is_null) {
        return Ok(Val::Null);
    }
    let chars: Vec<char> = s.chars().collect();
    let n = chars.len() as i64;
    let (from, len) = match f {
        Function::Left => (0, int_arg(f, &args[1])?),
        Function::Right => {
            let len = int_arg(f, &args[1])?;
            ((n - len).max(0), len)
        }
        _ => (
            int_arg(f, &args[1])?,
            args.get(2).map_or(Ok(n), |v| int_arg(f, v))?,
        ),
    };
    // Neo4j's empty string answers `substring` and `left` with itself whatever the
    // bounds (`substring('', -1, 100)` is ''), while `right('', -1)` still fails.
    if chars.is_empty() && !matches!(f, Function::Right) {
        return Ok(Val::str(""));
    }
    if from < 0 || len < 0 {
        return Err(CypherError::new(
            ErrorCode::ArgumentError,
            format!("{}() with a negative bound", f.name()),
        ));
    }
    let from = from.min(n) as usize;
    let to = (from as i64 + len).min(n) as usize;
    Ok(Val::str(&chars[from..to].iter().collect::<String>()))
}

fn replace(args: &[Val]) -> Result<Val> {
    if args.iter().any(Val::is_null) {
        return Ok(Val::Null);
    }
    match (&args[0], &args[1], &args[2]) {
        (Val::Str(s), Val::Str(from), Val::Str(to)) => Ok(Val::str(&s.replace(&**from, to))),
        _ => Err(CypherError::type_error("replace() expects three strings")),
    }
}

/// `nullIf(a, b)`: null where `a = b` holds, else `a`.
fn null_if(a: &Val, b: &Val) -> Val {
    match crate::value::equals(a, b) {
        Some(true) => Val::Null,
        _ => a.clone(),
    }
}

/// A version 4 (random) UUID in its usual text.
fn random_uuid() -> String {
    let hi = random_u64() & !0xF000 | 0x4000;
    let lo = random_u64() & !(0xC << 60) | (0x8 << 60);
    let h = format!("{hi:016x}{lo:016x}");
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

/// A uniform float in [0, 1).
fn random_unit() -> f64 {
    (random_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// 64 random bits: xorshift64* per thread, seeded from the clock and the thread.
/// `rand()` and `randomUUID()` need no more than that, and the workspace's `rand` is
/// built without its thread-local generator.
fn random_u64() -> u64 {
    use std::cell::Cell;
    thread_local! {
        static STATE: Cell<u64> = Cell::new({
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0x9E37_79B9_7F4A_7C15, |d| d.as_nanos() as u64);
            let here = &nanos as *const u64 as u64;
            (nanos ^ here.rotate_left(32)) | 1
        });
    }
    STATE.with(|s| {
        let mut x = s.get();
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        s.set(x);
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    })
}
