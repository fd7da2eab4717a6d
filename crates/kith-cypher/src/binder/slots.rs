//! Which row slots an expression reads: what decides where a WHERE conjunct can be
//! placed, and what a cached pattern's answer depends on.

use rustc_hash::FxHashSet;

use crate::binder::BExpr;

/// The slots an expression reads from the row; `None` when it holds a pattern, whose
/// steps may read any slot of the MATCH (it then runs after the whole pattern).
pub(crate) fn needed_slots(e: &BExpr) -> Option<FxHashSet<usize>> {
    let mut out = FxHashSet::default();
    collect_slots(e, &mut out).then_some(out)
}

fn collect_slots(e: &BExpr, out: &mut FxHashSet<usize>) -> bool {
    let all = |es: &[&BExpr], out: &mut FxHashSet<usize>| es.iter().all(|e| collect_slots(e, out));
    match e {
        BExpr::Const(_) | BExpr::Param(_) => true,
        BExpr::Slot(s) => {
            out.insert(*s);
            true
        }
        BExpr::Prop(a, _)
        | BExpr::HasLabels(a, _)
        | BExpr::Not(a)
        | BExpr::Neg(a)
        | BExpr::IsNull(a, _)
        | BExpr::IsType(a, ..) => collect_slots(a, out),
        BExpr::RegexConst(a, _) => collect_slots(a, out),
        BExpr::Index(a, b)
        | BExpr::And(a, b)
        | BExpr::Or(a, b)
        | BExpr::Xor(a, b)
        | BExpr::Binary(_, a, b) => all(&[a, b], out),
        BExpr::Slice(a, b, c) => {
            collect_slots(a, out)
                && b.as_deref().is_none_or(|b| collect_slots(b, out))
                && c.as_deref().is_none_or(|c| collect_slots(c, out))
        }
        BExpr::List(items) | BExpr::Call(_, items) => items.iter().all(|i| collect_slots(i, out)),
        BExpr::Map(entries) => entries.iter().all(|(_, v)| collect_slots(v, out)),
        BExpr::Compare(first, rest) => {
            collect_slots(first, out) && rest.iter().all(|(_, e)| collect_slots(e, out))
        }
        BExpr::Case {
            operand,
            whens,
            else_,
        } => {
            operand.as_deref().is_none_or(|o| collect_slots(o, out))
                && whens
                    .iter()
                    .all(|(w, t)| collect_slots(w, out) && collect_slots(t, out))
                && else_.as_deref().is_none_or(|e| collect_slots(e, out))
        }
        // Comprehension variables live in their own slots, set while evaluating: the
        // outer slots they read are what matters, and those are the ones collected
        // besides the element slot, which is harmless to require... except it is never
        // bound by a step, so leave it out.
        BExpr::ListComp {
            slot,
            list,
            filter,
            map,
        } => {
            let mut inner = FxHashSet::default();
            let ok = collect_slots(list, out)
                && filter
                    .as_deref()
                    .is_none_or(|f| collect_slots(f, &mut inner))
                && map.as_deref().is_none_or(|m| collect_slots(m, &mut inner));
            inner.remove(slot);
            out.extend(inner);
            ok
        }
        BExpr::Quantifier {
            slot, list, pred, ..
        } => {
            let mut inner = FxHashSet::default();
            let ok = collect_slots(list, out) && collect_slots(pred, &mut inner);
            inner.remove(slot);
            out.extend(inner);
            ok
        }
        BExpr::Reduce {
            acc,
            init,
            slot,
            list,
            expr,
        } => {
            let mut inner = FxHashSet::default();
            let ok = collect_slots(init, out)
                && collect_slots(list, out)
                && collect_slots(expr, &mut inner);
            inner.remove(slot);
            inner.remove(acc);
            out.extend(inner);
            ok
        }
        BExpr::MapProjection(base, items) => {
            collect_slots(base, out)
                && items.iter().all(|i| match i {
                    crate::binder::MapItem::Entry(_, e) => collect_slots(e, out),
                    _ => true,
                })
        }
        BExpr::Exists(_) | BExpr::PatternComp(..) | BExpr::Subquery { .. } | BExpr::Listing(_) => {
            false
        }
    }
}
