//! `vector.similarity.cosine` and `vector.similarity.euclidean`, computed in 32-bit
//! floats as Neo4j's vector indexes store them, and scaled to [0, 1] as Neo4j does:
//! (1 + cos) / 2, and 1 / (1 + d²).

use super::scalar::arg_type;
use super::Function;
use crate::error::{CypherError, ErrorCode, Result};
use crate::value::Val;

/// Calls one of the similarity functions (nulls already answered).
pub(super) fn call(f: Function, args: &[Val]) -> Result<Val> {
    if args[1].is_null() {
        return Ok(Val::Null);
    }
    let a = floats(f, &args[0])?;
    let b = floats(f, &args[1])?;
    if a.len() != b.len() || a.is_empty() {
        return Err(CypherError::new(
            ErrorCode::ArgumentError,
            format!(
                "{}() of vectors of {} and {} dimensions",
                f.name(),
                a.len(),
                b.len()
            ),
        ));
    }
    let similarity = if f == Function::VectorCosine {
        cosine(&a, &b)?
    } else {
        let d2: f32 = a.iter().zip(&b).map(|(x, y)| (x - y) * (x - y)).sum();
        1.0 / (1.0 + d2)
    };
    Ok(Val::Float(f64::from(similarity)))
}

fn cosine(a: &[f32], b: &[f32]) -> Result<f32> {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na: f32 = a.iter().map(|x| x * x).sum();
    let nb: f32 = b.iter().map(|x| x * x).sum();
    if na == 0.0 || nb == 0.0 {
        return Err(CypherError::new(
            ErrorCode::ArgumentError,
            "vector.similarity.cosine() of a zero vector",
        ));
    }
    let cos = (dot / (na * nb).sqrt()).clamp(-1.0, 1.0);
    Ok((1.0 + cos) / 2.0)
}

fn floats(f: Function, v: &Val) -> Result<Vec<f32>> {
    let Val::List(items) = v else {
        return Err(arg_type(f, "a list of numbers", v));
    };
    items
        .iter()
        .map(|x| match x {
            Val::Int(i) => Ok(*i as f32),
            Val::Float(x) if x.is_finite() => Ok(*x as f32),
            other => Err(arg_type(f, "a list of finite numbers", other)),
        })
        .collect()
}
