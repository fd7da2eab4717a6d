//! What the rest of a pipeline reads of the nodes and relationships an expand binds.
//!
//! An expand hands its rows on one at a time, and each row's reads of the new node
//! (its record, properties, labels) are cache misses that wait for each other: the
//! executor runs a lot of code between two rows. Knowing what will be read, it fetches
//! a window of the next nodes' records first, in a tight loop whose misses overlap
//! (memory-level parallelism), as a hand-written loop over the adjacency list would.

use super::{Op, Plan, Prefetch, Step};
use crate::binder::{BExpr, MapItem};

/// Sets every top-level expand's [`Prefetch`] from the steps and operators after it
/// (up to and including the first that keeps all rows before handing any on).
pub fn annotate(plan: &mut Plan) {
    annotate_ops(&mut plan.ops);
    for (_, p) in &mut plan.unions {
        annotate(p);
    }
}

fn annotate_ops(ops: &mut [Op]) {
    for k in 0..ops.len() {
        let (head, tail) = ops.split_at_mut(k + 1);
        let steps = match &mut head[k] {
            Op::Match(s) | Op::Optional { steps: s, .. } => s,
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
struct Reads {
    node: usize,
    rel: Option<usize>,
    got: Prefetch,
}

impl Reads {
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
            }
            Step::Filter(e) => self.expr(e),
            Step::SeekId { value, .. } | Step::SeekProp { value, .. } => self.expr(value),
            Step::SeekIdAny { values, .. } => values.iter().for_each(|v| self.expr(v)),
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
            Op::Match(steps) | Op::Optional { steps, .. } => {
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
            Op::Create(_) => false,
        }
    }

    fn is_node(&self, e: &BExpr) -> bool {
        matches!(e, BExpr::Slot(s) if *s == self.node)
    }

    fn is_rel(&self, e: &BExpr) -> bool {
        matches!(e, BExpr::Slot(s) if Some(*s) == self.rel)
    }

    fn expr(&mut self, e: &BExpr) {
        match e {
            BExpr::Prop(base, _) => {
                if self.is_node(base) {
                    self.got.props = true;
                } else if self.is_rel(base) {
                    self.got.rel_props = true;
                } else {
                    self.expr(base);
                }
            }
            BExpr::HasLabels(base, _) => {
                if self.is_node(base) {
                    self.got.labels = true;
                } else {
                    self.expr(base);
                }
            }
            BExpr::MapProjection(base, items) => {
                if self.is_node(base) {
                    self.got.props = true;
                } else if self.is_rel(base) {
                    self.got.rel_props = true;
                }
                self.expr(base);
                for i in items {
                    if let MapItem::Entry(_, e) = i {
                        self.expr(e);
                    }
                }
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
                args.iter().for_each(|a| self.expr(a));
            }
            BExpr::Index(a, b) | BExpr::And(a, b) | BExpr::Or(a, b) | BExpr::Xor(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            BExpr::Binary(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            BExpr::Slice(a, b, c) => {
                self.expr(a);
                b.iter().chain(c).for_each(|x| self.expr(x));
            }
            BExpr::Not(a) | BExpr::Neg(a) | BExpr::IsNull(a, _) | BExpr::RegexConst(a, _) => {
                self.expr(a)
            }
            BExpr::List(items) => items.iter().for_each(|i| self.expr(i)),
            BExpr::Map(entries) => entries.iter().for_each(|(_, v)| self.expr(v)),
            BExpr::Compare(first, rest) => {
                self.expr(first);
                rest.iter().for_each(|(_, e)| self.expr(e));
            }
            BExpr::Case {
                operand,
                whens,
                else_,
            } => {
                operand.iter().chain(else_).for_each(|x| self.expr(x));
                for (w, t) in whens {
                    self.expr(w);
                    self.expr(t);
                }
            }
            BExpr::ListComp {
                list, filter, map, ..
            } => {
                self.expr(list);
                filter.iter().chain(map).for_each(|x| self.expr(x));
            }
            BExpr::Reduce {
                init, list, expr, ..
            } => {
                self.expr(init);
                self.expr(list);
                self.expr(expr);
            }
            BExpr::Quantifier { list, pred, .. } => {
                self.expr(list);
                self.expr(pred);
            }
            BExpr::Exists(steps) => steps.iter().for_each(|s| self.step(s)),
            BExpr::PatternComp(steps, map) => {
                steps.iter().for_each(|s| self.step(s));
                self.expr(map);
            }
            BExpr::Subquery { ops, .. } => {
                for op in ops.iter() {
                    if !self.op(op) {
                        break;
                    }
                }
            }
            BExpr::Const(_) | BExpr::Param(_) | BExpr::Slot(_) => {}
        }
    }
}
