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
        f if f.is_temporal() => return crate::temporal::call(f, args, &crate::temporal::realtime),
        _ => {}
    }
    let a = &args[0];
    if a.is_null() && f != F::ToString {
        return Ok(Val::Null);
    }
    match f {
        F::ToInteger => to_integer(a),
        F::ToFloat => to_float(a),
        F::ToString => match a {
            Val::List(_) | Val::Map(_) | Val::Node(_) | Val::Rel(_) | Val::Path(_) => Err(
                arg_type(f, "a number, string, boolean or temporal value", a),
            ),
            _ => Ok(to_string(a)),
        },
        F::ToBoolean => to_boolean(a),
        F::Floor | F::Ceil | F::Round | F::Sqrt | F::Exp | F::Log | F::Log10 => math(f, a),
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
            Val::Str(_) | Val::List(_) => size(a),
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
        F::Keys | F::Properties => props_fn(f, a, graph),
        F::Range => range(args),
        F::Substring | F::Left | F::Right => substring(f, args),
        F::Trim | F::LTrim | F::RTrim | F::ToUpper | F::ToLower => string_fn(f, a),
        F::Replace => replace(args),
        F::Split => split(args),
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

fn arg_type(f: Function, expected: &str, got: &Val) -> CypherError {
    CypherError::type_error(format!(
        "{}() expects {expected}, got {}",
        f.name(),
        got.type_name()
    ))
}

fn to_integer(a: &Val) -> Result<Val> {
    Ok(match a {
        Val::Int(i) => Val::Int(*i),
        Val::Float(x) if x.is_finite() => Val::Int(x.trunc() as i64),
        Val::Float(_) => Val::Null,
        Val::Bool(b) => Val::Int(i64::from(*b)),
        Val::Str(s) => integer_of(s)?,
        other => {
            return Err(arg_type(
                Function::ToInteger,
                "a number, string or boolean",
                other,
            ))
        }
    })
}

/// `toInteger` of a string, as Neo4j reads it: an integer, else a float truncated;
/// no surrounding spaces; past the integers' range an error, not a clamp.
fn integer_of(s: &str) -> Result<Val> {
    if let Ok(i) = s.parse::<i64>() {
        return Ok(Val::Int(i));
    }
    let too_large = || CypherError::type_error(format!("integer, {s}, is too large"));
    if s.trim() != s {
        return Ok(Val::Null); // unlike toFloat, no spaces around
    }
    let integral = s.strip_prefix(['-', '+']).unwrap_or(s);
    if !integral.is_empty() && integral.bytes().all(|b| b.is_ascii_digit()) {
        return Err(too_large());
    }
    match float_of(s) {
        Some(x) if x.is_nan() => Ok(Val::Null),
        Some(x) if x.trunc() >= -(2f64.powi(63)) && x.trunc() < 2f64.powi(63) => {
            Ok(Val::Int(x.trunc() as i64))
        }
        Some(_) => Err(too_large()),
        None => Ok(Val::Null),
    }
}

/// A string read as a float the way Java does (`Double.parseDouble`, which Neo4j
/// uses): surrounding spaces allowed, `NaN` and `Infinity` spelt so, nothing else of
/// Rust's `inf`/`nan` forms.
fn float_of(s: &str) -> Option<f64> {
    let t = s.trim();
    let body = t.strip_prefix(['-', '+']).unwrap_or(t);
    let named = body.eq_ignore_ascii_case("nan")
        || body.eq_ignore_ascii_case("inf")
        || body.eq_ignore_ascii_case("infinity");
    if named && body != "NaN" && body != "Infinity" {
        return None;
    }
    t.parse::<f64>().ok()
}

fn to_float(a: &Val) -> Result<Val> {
    Ok(match a {
        Val::Int(i) => Val::Float(*i as f64),
        Val::Float(x) => Val::Float(*x),
        Val::Str(s) => float_of(s).map(Val::Float).unwrap_or(Val::Null),
        other => return Err(arg_type(Function::ToFloat, "a number or string", other)),
    })
}

fn to_boolean(a: &Val) -> Result<Val> {
    Ok(match a {
        Val::Bool(b) => Val::Bool(*b),
        Val::Str(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" => Val::Bool(true),
            "false" => Val::Bool(false),
            _ => Val::Null,
        },
        Val::Int(i) => Val::Bool(*i != 0),
        other => {
            return Err(arg_type(
                Function::ToBoolean,
                "a boolean, string or integer",
                other,
            ))
        }
    })
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
        other => Val::str(&format!("{other:?}")),
    }
}

/// A float as Neo4j prints it (Java's `Double.toString`): the fewest digits that
/// read back as the same float, in plain notation with at least one decimal from
/// 10^-3 up to 10^7, and as `d.dddE±n` outside it (`1.5E10`, `1.0E-5`).
pub fn format_float(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let magnitude = x.abs();
    if magnitude == 0.0 || (1e-3..1e7).contains(&magnitude) {
        let plain = format!("{x}");
        return if plain.contains('.') {
            plain
        } else {
            plain + ".0"
        };
    }
    // `{:e}` gives the shortest digits too: 1.5e10, 1e-5.
    let scientific = format!("{x:e}");
    let (mantissa, exponent) = scientific
        .split_once('e')
        .expect("the e notation has an exponent");
    let mantissa = if mantissa.contains('.') {
        mantissa.to_owned()
    } else {
        format!("{mantissa}.0")
    };
    format!("{mantissa}E{exponent}")
}

fn math(f: Function, a: &Val) -> Result<Val> {
    let x = match a {
        Val::Int(i) => *i as f64,
        Val::Float(x) => *x,
        other => return Err(arg_type(f, "a number", other)),
    };
    let y = match f {
        Function::Floor => x.floor(),
        Function::Ceil => x.ceil(),
        Function::Round => x.round(),
        Function::Sqrt => x.sqrt(),
        Function::Exp => x.exp(),
        Function::Log => x.ln(),
        _ => x.log10(),
    };
    Ok(Val::Float(y))
}

fn size(a: &Val) -> Result<Val> {
    match a {
        Val::Str(s) => Ok(Val::Int(s.chars().count() as i64)),
        Val::List(l) => Ok(Val::Int(l.len() as i64)),
        Val::Map(m) => Ok(Val::Int(m.len() as i64)),
        other => Err(arg_type(Function::Size, "a string or list", other)),
    }
}

fn list_fn(f: Function, a: &Val) -> Result<Val> {
    if let (Function::Reverse, Val::Str(s)) = (f, a) {
        return Ok(Val::str(&s.chars().rev().collect::<String>()));
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
        return Err(CypherError::new(
            ErrorCode::ArgumentError,
            "range() step must not be zero",
        ));
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

fn string_fn(f: Function, a: &Val) -> Result<Val> {
    let Val::Str(s) = a else {
        return Err(arg_type(f, "a string", a));
    };
    Ok(Val::str(&match f {
        Function::Trim => s.trim().to_owned(),
        Function::LTrim => s.trim_start().to_owned(),
        Function::RTrim => s.trim_end().to_owned(),
        Function::ToUpper => s.to_uppercase(),
        _ => s.to_lowercase(),
    }))
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

fn split(args: &[Val]) -> Result<Val> {
    match (&args[0], &args[1]) {
        (Val::Null, _) | (_, Val::Null) => Ok(Val::Null),
        // An empty separator splits between characters, as Neo4j does: no empty
        // strings at the ends, and the empty string is one empty piece.
        (Val::Str(s), Val::Str(sep)) if sep.is_empty() => Ok(if s.is_empty() {
            Val::list(vec![Val::str("")])
        } else {
            Val::list(
                s.chars()
                    .map(|c| Val::str(c.encode_utf8(&mut [0u8; 4])))
                    .collect(),
            )
        }),
        (Val::Str(s), Val::Str(sep)) => Ok(Val::list(s.split(&**sep).map(Val::str).collect())),
        _ => Err(CypherError::type_error("split() expects two strings")),
    }
}

/// A uniform float in [0, 1): xorshift64* per thread, seeded from the clock and the
/// thread. `rand()` needs no more than that, and the workspace's `rand` is built
/// without its thread-local generator.
fn random_unit() -> f64 {
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
        (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    })
}
