//! `CALL proc(...)` and `CALL { ... }`, one input row at a time.

use kith_core::Value;
use rustc_hash::FxHashSet;

use super::eval::eval;
use super::ops::{run_ops, GroupKey};
use super::{Ctx, Rows};
use crate::error::{CypherError, ErrorCode, Result};
use crate::planner::{CallSpec, Plan, SubquerySpec};
use crate::procedures::CallOutput;
use crate::value::Val;

/// Where a row goes next; false when no more rows are wanted.
pub(crate) type Next<'a> = dyn FnMut(&mut [Val]) -> Result<bool> + 'a;

/// Calls the procedure for `row` and hands on a row per result row (the row itself
/// once for a VOID procedure or one that writes).
pub(crate) fn call_row(
    spec: &CallSpec,
    row: &mut [Val],
    cx: &Ctx<'_>,
    next: &mut Next<'_>,
) -> Result<bool> {
    if let Some(plan) = &spec.stored {
        return stored_row(spec, plan, row, cx, next);
    }
    let mut args: Vec<(String, Value)> = Vec::with_capacity(spec.args.len());
    for (name, e) in &spec.args {
        let v = eval(e, row, cx)?;
        args.push((name.clone(), super::output_value(&v, cx)));
    }
    let output =
        if let Some(rows) = crate::tx_meta::call(cx.budget.metadata.as_ref(), &spec.name, &args) {
            CallOutput::Rows(rows?)
        } else {
            let g = cx.graph();
            let procs = cx.procedures().ok_or_else(|| {
                CypherError::new(
                    ErrorCode::ProcedureNotFound,
                    format!("there is no procedure named `{}`", spec.name),
                )
            })?;
            procs.0.call(&*g, &spec.name, &args)?
        };
    let rows = match output {
        CallOutput::Writes(ops) => {
            cx.write(&ops)?;
            return next(row);
        }
        CallOutput::Rows(_) if spec.void => return next(row),
        CallOutput::Rows(rows) => rows,
    };
    for r in rows {
        cx.tick()?;
        for &(column, slot) in &spec.yields {
            let v = r.get(column).ok_or_else(|| {
                CypherError::new(
                    ErrorCode::ProcedureCallFailed,
                    format!("{} answered a row without its column {column}", spec.name),
                )
            })?;
            row[slot] = Val::from_value(v);
        }
        if !next(row)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Runs a stored procedure's plan for `row`, on the query's own graph (its writes
/// join the query's transaction), and hands on a row per result row. Arguments and
/// results stay engine values: a node passed in or returned is still a node.
fn stored_row(
    spec: &CallSpec,
    stored: &Plan,
    row: &mut [Val],
    cx: &Ctx<'_>,
    next: &mut Next<'_>,
) -> Result<bool> {
    let mut args = Vec::with_capacity(spec.args.len());
    for (name, e) in &spec.args {
        args.push((name.as_str(), eval(e, row, cx)?));
    }
    let rows = super::run_nested(stored, &args, cx)?;
    if spec.void {
        return next(row);
    }
    for r in rows {
        cx.tick()?;
        for &(column, slot) in &spec.yields {
            row[slot] = r[column].clone();
        }
        if !next(row)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Runs the subquery for `row` and hands on the row joined with each row it
/// returns (the row itself, once, for a subquery that returns nothing: a unit
/// subquery of updates).
pub(crate) fn subquery_row(
    spec: &SubquerySpec,
    row: &mut [Val],
    cx: &Ctx<'_>,
    next: &mut Next<'_>,
) -> Result<bool> {
    let mut seen: FxHashSet<GroupKey> = FxHashSet::default();
    for (ops, columns) in &spec.parts {
        let mut input = Rows::new(cx.width);
        input.push(row);
        let out = run_ops(ops, input, cx)?;
        if spec.columns.is_empty() {
            continue;
        }
        for r in out.iter() {
            for (from, to) in columns.iter().zip(&spec.columns) {
                row[*to] = r[*from].clone();
            }
            if spec.distinct {
                let key = GroupKey::new(spec.columns.iter().map(|s| Ok(row[*s].clone())))?;
                if !seen.insert(key) {
                    continue;
                }
            }
            if !next(row)? {
                return Ok(false);
            }
        }
    }
    if spec.columns.is_empty() {
        return next(row);
    }
    Ok(true)
}
