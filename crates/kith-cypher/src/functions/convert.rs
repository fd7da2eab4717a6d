//! Conversions: `toInteger`, `toFloat`, `toBoolean`, their `...OrNull` forms (null for
//! what the plain form refuses) and their `...List` forms (each item's `...OrNull`).

use super::scalar::{arg_type, to_string};
use super::Function;
use crate::error::{CypherError, Result};
use crate::value::Val;

/// Calls one of the conversion functions on a non-null argument.
pub(super) fn call(f: Function, a: &Val) -> Result<Val> {
    use Function as F;
    match f {
        F::ToInteger => to_integer(a),
        F::ToFloat => to_float(a),
        F::ToBoolean => to_boolean(a),
        F::ToIntegerOrNull => Ok(to_integer(a).unwrap_or(Val::Null)),
        F::ToFloatOrNull => Ok(to_float(a).unwrap_or(Val::Null)),
        F::ToBooleanOrNull => Ok(to_boolean(a).unwrap_or(Val::Null)),
        F::ToStringOrNull => Ok(string_or_null(a)),
        _ => list(f, a),
    }
}

/// `toString`'s answer, or null where `toString` refuses (lists, maps, graph values).
pub(super) fn string_or_null(a: &Val) -> Val {
    match a {
        Val::List(_) | Val::Map(_) | Val::Node(_) | Val::Rel(_) | Val::Path(_) => Val::Null,
        _ => to_string(a),
    }
}

/// `toIntegerList` and the like: each item converted, null where it cannot be.
fn list(f: Function, a: &Val) -> Result<Val> {
    let Val::List(items) = a else {
        return Err(arg_type(f, "a list", a));
    };
    let item = |v: &Val| -> Val {
        let converted = match f {
            Function::ToIntegerList => to_integer(v),
            Function::ToFloatList => to_float(v),
            Function::ToBooleanList => to_boolean(v),
            _ => Ok(string_or_null(v)),
        };
        converted.unwrap_or(Val::Null)
    };
    Ok(Val::list(items.iter().map(item).collect()))
}

pub(super) fn to_integer(a: &Val) -> Result<Val> {
    Ok(match a {
        Val::Int(i) => Val::Int(*i),
        // Java's cast, as Neo4j 5.26 answers: NaN is 0, beyond the range the nearest
        // end (Rust's `as` saturates alike).
        Val::Float(x) => Val::Int(x.trunc() as i64),
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
        Some(x) if !x.is_finite() => Ok(Val::Null),
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
