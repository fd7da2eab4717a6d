//! What the rest of a pipeline reads of the nodes and relationships an expand binds.
//!
//! An expand hands its rows on one at a time, and each row's reads of the new node
//! (its record, properties, labels) are cache misses that wait for each other: the
//! executor runs a lot of code between two rows. Knowing what will be read, it fetches
//! a window of the next nodes' records first, in a tight loop whose misses overlap
//! (memory-level parallelism), as a hand-written loop over the adjacency list would.

use super::{Op, Plan, Prefetch, Step, SubPlan};
use crate::binder::{BExpr, MapItem};

/// Sets every top-level expand's [`Prefetch`] from the steps and operators after it
/// (up to and including the first that keeps all rows before handing any on).
pub(super) fn annotate(plan: &mut Plan) {
    annotate_ops(&mut plan.ops, &plan.subs);
    for (_, p) in &mut plan.unions {
        annotate(p);
    }
}

fn annotate_ops(ops: &mut [Op], subs: &[SubPlan]) {
    for k in 0..ops.len() {
        let (head, tail) = ops.split_at_mut(k + 1);
        let steps = match &mut head[k] {
            Op::Match(s) | Op::Optional { pattern: s, .. } => s,
            _ => continue,
        };
        for i in 0..steps.len() {
            let (here, after) = steps.split_at_mut(i + 1);
            let Step::Expand(e) = &mut here[i] else {
                continue;
            };
            if e.into {
                continue;
            }
            let mut r = Reads {
                subs,
                node: e.to,
                rel: e.bind_rel.then_some(e.rel),
                got: Prefetch::default(),
            };
            for s in after.iter() {
                r.step(s);
            }
            for op in tail.iter() {
                if !r.op(op) {
                    break;
                }
            }
            e.prefetch = r.got;
        }
    }
}

/// Reads of one node slot and one relationship slot.
struct Reads<'a> {
    /// The statement's patterns and subqueries, which expressions name.
    subs: &'a [SubPlan],
    node: usize,
    rel: Option<usize>,
    got: Prefetch,
}

impl Reads<'_> {
    fn step(&mut self, s: &Step) {
        match s {
            Step::CheckNode {
                slot,
                labels,
                props,
                props_map,
            } => {
                if *slot == self.node {
                    self.got.labels |= !labels.is_empty();
                    self.got.props |= !props.is_empty() || props_map.is_some();
                }
                for (_, e) in props {
                    self.expr(e);
                }
                if let Some(m) = props_map {
                    self.expr(m);
                }
            }
            Step::Expand(x) | Step::VarExpand(x) | Step::Shortest { expand: x, .. } => {
                if x.from == self.node || x.to == self.node {
                    self.got.record = true;
                }
                for (_, e) in &x.rel_props {
                    self.expr(e);
                }
                for f in x.filters.rels.iter().chain(&x.filters.nodes) {
                    self.expr(&f.pred);
                }
            }
            Step::Filter(e) => self.expr(e),
            Step::SeekId { value, .. }
            | Step::SeekProp { value, .. }
            | Step::SeekNode { value, .. }
            | Step::SeekRelEnds { value, .. } => self.expr(value),
            Step::SeekIdAny { values, .. } => values.iter().for_each(|v| self.expr(v)),
            Step::SeekIndex { seek, .. } => seek.exprs().into_iter().for_each(|v| self.expr(v)),
            Step::ScanAll { .. }
            | Step::ScanLabel { .. }
            | Step::DistinctRels(_)
            | Step::BuildPath { .. } => {}
        }
    }

    /// False after an operator that holds every row before handing any on: what
    /// comes after it reads rows long after the expand fetched them.
    fn op(&mut self, op: &Op) -> bool {
        match op {
            Op::Match(steps) | Op::Optional { pattern: steps, .. } => {
                steps.iter().for_each(|s| self.step(s));
                true
            }
            Op::Unwind { expr, .. } | Op::Filter(expr) => {
                self.expr(expr);
                true
            }
            Op::Project(items) => {
                items.iter().for_each(|(_, e)| self.expr(e));
                true
            }
            Op::Distinct(_) | Op::Skip(_) | Op::Limit(_) => true,
            Op::Aggregate { keys, aggs } => {
                keys.iter().for_each(|(_, e)| self.expr(e));
                aggs.iter().flat_map(|a| &a.arg).for_each(|e| self.expr(e));
                false
            }
            Op::Sort { keys, .. } => {
                keys.iter().for_each(|(e, _)| self.expr(e));
                false
            }
            Op::Create(_)
            | Op::Set(_)
            | Op::Delete { .. }
            | Op::Merge(_)
            | Op::Foreach { .. }
            | Op::Call(_)
            | Op::Subquery(_)
            | Op::Schema(_) => false,
        }
    }

    /// What a pattern or subquery inside an expression reads.
    fn sub(&mut self, index: usize) {
        let subs = self.subs;
        match &subs[index] {
            SubPlan::Steps(steps) => steps.iter().for_each(|s| self.step(s)),
            SubPlan::Ops(ops) => {
                for op in ops {
                    if !self.op(op) {
                        break;
                    }
                }
            }
        }
    }

    fn is_node(&self, e: &BExpr) -> bool {
        matches!(e, BExpr::Slot(s) if *s == self.node)
    }

    fn is_rel(&self, e: &BExpr) -> bool {
        matches!(e, BExpr::Slot(s) if Some(*s) == self.rel)
    }

    fn expr(&mut self, e: &BExpr) {
        visit(e, &mut |x| match x {
            BExpr::Prop(base, _) | BExpr::MapProjection(base, _) if self.is_node(base) => {
                self.got.props = true;
                false
            }
            BExpr::Prop(base, _) | BExpr::MapProjection(base, _) if self.is_rel(base) => {
                self.got.rel_props = true;
                false
            }
            BExpr::HasLabels(base, _) if self.is_node(base) => {
                self.got.labels = true;
                false
            }
            BExpr::Call(_, args) => {
                // properties(n), labels(n), keys(n)...: the record and what it holds.
                if args.iter().any(|a| self.is_node(a)) {
                    self.got.props = true;
                    self.got.labels = true;
                }
                if args.iter().any(|a| self.is_rel(a)) {
                    self.got.rel_props = true;
                }
                true
            }
            BExpr::Exists(sub) => {
                self.sub(sub.0);
                false
            }
            BExpr::PatternComp(sub, map) => {
                self.sub(sub.0);
                self.expr(map);
                false
            }
            BExpr::Subquery { sub, .. } => {
                self.sub(sub.0);
                false
            }
            _ => true,
        });
    }
}

/// Calls `f` on `e` and, while `f` answers true, on its subexpressions, depth first.
/// Patterns and subqueries inside are not entered: `f` sees them whole.
pub(crate) fn visit(e: &BExpr, f: &mut impl FnMut(&BExpr) -> bool) {
    if !f(e) {
        return;
    }
    match e {
        BExpr::Prop(a, _)
        | BExpr::HasLabels(a, _)
        | BExpr::Not(a)
        | BExpr::Neg(a)
        | BExpr::IsNull(a, _)
        | BExpr::IsType(a, ..)
        | BExpr::RegexConst(a, _) => visit(a, f),
        BExpr::Index(a, b)
        | BExpr::And(a, b)
        | BExpr::Or(a, b)
        | BExpr::Xor(a, b)
        | BExpr::Binary(_, a, b) => {
            visit(a, f);
            visit(b, f);
        }
        BExpr::Slice(a, b, c) => {
            visit(a, f);
            b.iter().chain(c).for_each(|x| visit(x, f));
        }
        BExpr::List(items) | BExpr::Call(_, items) => items.iter().for_each(|i| visit(i, f)),
        BExpr::Map(entries) => entries.iter().for_each(|(_, v)| visit(v, f)),
        BExpr::Compare(first, rest) => {
            visit(first, f);
            rest.iter().for_each(|(_, x)| visit(x, f));
        }
        BExpr::Case {
            operand,
            whens,
            else_,
        } => {
            operand.iter().chain(else_).for_each(|x| visit(x, f));
            for (w, t) in whens {
                visit(w, f);
                visit(t, f);
            }
        }
        BExpr::ListComp {
            list, filter, map, ..
        } => {
            visit(list, f);
            filter.iter().chain(map).for_each(|x| visit(x, f));
        }
        BExpr::Reduce {
            init, list, expr, ..
        } => {
            visit(init, f);
            visit(list, f);
            visit(expr, f);
        }
        BExpr::Quantifier { list, pred, .. } => {
            visit(list, f);
            visit(pred, f);
        }
        BExpr::MapProjection(base, items) => {
            visit(base, f);
            for i in items {
                if let MapItem::Entry(_, x) = i {
                    visit(x, f);
                }
            }
        }
        BExpr::Const(_)
        | BExpr::Param(_)
        | BExpr::Slot(_)
        | BExpr::Exists(_)
        | BExpr::PatternComp(..)
        | BExpr::Subquery { .. }
        | BExpr::Listing(_) => {}
    }
}
