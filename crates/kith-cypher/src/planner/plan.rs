//! From the binder's pipeline to the one that runs: every pattern planned into steps
//! (`match_plan.rs`), every CALL of a stored procedure linked to the plan it runs,
//! then each expand told what the operators after it read (`prefetch.rs`).

use std::sync::Arc;

use super::prefetch::annotate;
use super::{plan_match, CallSpec, MergeSpec, Op, Plan, PlanMode, Step, SubPlan, SubquerySpec};
use crate::binder::{Bound, BoundMatch, BoundOp, BoundQuery, BoundSub, Names, Pipe};
use crate::error::{CypherError, ErrorCode, Result};

/// Finds a stored procedure's plan by name: `None` for a native procedure, an error
/// when its text no longer prepares.
pub type Link<'a> = dyn Fn(&str) -> Option<Result<Arc<Plan>>> + 'a;

/// Plans a bound statement (its UNION parts too), each pattern in `mode`.
pub fn plan(bound: BoundQuery, mode: PlanMode, link: &Link<'_>) -> Result<Plan> {
    let BoundQuery {
        ops,
        width,
        names,
        columns,
        writes,
        unions,
        slot_names,
        subs,
    } = bound;
    let planner = Planner {
        names: &names,
        mode,
        link,
    };
    let ops = planner.ops(ops)?;
    let subs = subs
        .into_iter()
        .map(|s| planner.sub(s))
        .collect::<Result<_>>()?;
    let unions = unions
        .into_iter()
        .map(|(all, part)| Ok((all, plan(part, mode, link)?)))
        .collect::<Result<_>>()?;
    let mut plan = Plan {
        ops,
        width,
        names,
        columns,
        writes,
        unions,
        slot_names,
        subs,
    };
    if mode == PlanMode::Optimised {
        annotate(&mut plan);
    }
    Ok(plan)
}

struct Planner<'a> {
    names: &'a Names,
    mode: PlanMode,
    link: &'a Link<'a>,
}

impl Planner<'_> {
    fn ops(&self, ops: Vec<BoundOp>) -> Result<Vec<Op>> {
        ops.into_iter().map(|op| self.op(op)).collect()
    }

    fn pattern(&self, m: BoundMatch) -> Vec<Step> {
        plan_match(&m.parts, m.conjuncts, &m.pre, self.names, self.mode)
    }

    fn sub(&self, sub: BoundSub) -> Result<SubPlan> {
        Ok(match sub {
            BoundSub::Pattern(m) => SubPlan::Steps(self.pattern(m)),
            BoundSub::Query(ops) => SubPlan::Ops(self.ops(ops)?),
        })
    }

    /// One operator: a MATCH planned, the operators it holds planned in turn, and
    /// every other one handed on as bound.
    fn op(&self, op: BoundOp) -> Result<Op> {
        Ok(match op {
            Pipe::Match(m) => Pipe::Match(self.pattern(m)),
            Pipe::Optional { pattern, slots } => Pipe::Optional {
                pattern: self.pattern(pattern),
                slots,
            },
            Pipe::Merge(m) => Pipe::Merge(Box::new(self.merge(*m))),
            Pipe::Call(c) => Pipe::Call(Box::new(self.call(*c)?)),
            Pipe::Subquery(s) => Pipe::Subquery(Box::new(self.subquery(*s)?)),
            Pipe::Foreach { slot, list, ops } => Pipe::Foreach {
                slot,
                list,
                ops: self.ops(ops)?,
            },
            Pipe::Unwind { expr, slot } => Pipe::Unwind { expr, slot },
            Pipe::Project(items) => Pipe::Project(items),
            Pipe::Aggregate { keys, aggs } => Pipe::Aggregate { keys, aggs },
            Pipe::Distinct(slots) => Pipe::Distinct(slots),
            Pipe::Sort { keys, skip, limit } => Pipe::Sort { keys, skip, limit },
            Pipe::Skip(e) => Pipe::Skip(e),
            Pipe::Limit(e) => Pipe::Limit(e),
            Pipe::Filter(e) => Pipe::Filter(e),
            Pipe::Create(spec) => Pipe::Create(spec),
            Pipe::Set(items) => Pipe::Set(items),
            Pipe::Delete { exprs, detach } => Pipe::Delete { exprs, detach },
            Pipe::Schema(command) => Pipe::Schema(command),
        })
    }

    fn merge(&self, m: crate::binder::MergeSpec<Bound>) -> MergeSpec {
        MergeSpec {
            pattern: self.pattern(m.pattern),
            create: m.create,
            on_create: m.on_create,
            on_match: m.on_match,
        }
    }

    /// Links a CALL of a stored procedure to its plan. The binder read the
    /// procedure's signature a moment before; a plan that no longer answers the
    /// columns the call yields was changed in between, and the query is refused
    /// rather than read past a row's end.
    fn call(&self, c: crate::binder::CallSpec<Bound>) -> Result<CallSpec> {
        let stored = (self.link)(&c.name).transpose()?;
        if let Some(p) = &stored {
            let fits = c.void == p.columns.is_empty()
                && c.yields.iter().all(|(column, _)| *column < p.columns.len());
            if !fits {
                return Err(CypherError::new(
                    ErrorCode::ProcedureCallFailed,
                    format!(
                        "stored procedure `{}` changed while the query was being prepared: run it again",
                        c.name
                    ),
                ));
            }
        }
        Ok(CallSpec {
            name: c.name,
            args: c.args,
            yields: c.yields,
            void: c.void,
            writes: c.writes,
            stored,
        })
    }

    fn subquery(&self, s: crate::binder::SubquerySpec<Bound>) -> Result<SubquerySpec> {
        let parts = s
            .parts
            .into_iter()
            .map(|(ops, columns)| Ok((self.ops(ops)?, columns)))
            .collect::<Result<_>>()?;
        Ok(SubquerySpec {
            parts,
            columns: s.columns,
            distinct: s.distinct,
            writes: s.writes,
        })
    }
}
