//! WHERE conjuncts an index may answer: `n.k = e`, `n.k IN e`, `n.k STARTS WITH e`,
//! `CONTAINS`, `ENDS WITH`, ranges (`n.k > a AND n.k <= b`), `point.withinBBox(n.k,
//! a, b)` and `point.distance(n.k, c) < r`, with `n` a new labelled node and the
//! values known before the pattern. The seek only narrows where the node starts: every conjunct
//! still runs after it, so an answer never depends on whether the index exists (the
//! executor scans the label when it does not, or when the value's kind is not one the
//! index orders).

use rustc_hash::FxHashSet;

use super::node_seek::random;
use crate::ast::CompareOp;
use crate::binder::{needed_slots, BExpr, BPart, BinOp};
use crate::functions::Function;

/// What a seek asks of the index on the node's first label and a key.
#[derive(Clone, Debug)]
pub enum IndexSeek {
    /// `n.k = e`.
    Equal(BExpr),
    /// `n.k IN e`.
    Any(BExpr),
    /// `n.k STARTS WITH e`.
    Prefix(BExpr),
    /// `n.k CONTAINS e`.
    Contains(BExpr),
    /// `n.k ENDS WITH e`.
    Suffix(BExpr),
    /// `point.withinBBox(n.k, lower, upper)`.
    Within(BExpr, BExpr),
    /// `point.distance(n.k, center) < radius` (`<=` when inclusive), either way
    /// round.
    Near {
        /// The point distances are measured from.
        center: BExpr,
        /// The distance.
        radius: BExpr,
        /// `<=` rather than `<`.
        inclusive: bool,
    },
    /// Equalities on several keys (`n.a = e AND n.b = f`, or a pattern's
    /// `{a: e, b: f}`): (key, value), each key once. A composite index on some of
    /// them answers, else a one-key index on any of them.
    All(Vec<(usize, BExpr)>),
    /// The bounds the conjuncts on one key set: (value, inclusive).
    Range {
        /// `n.k > e` / `n.k >= e`.
        lower: Option<(BExpr, bool)>,
        /// `n.k < e` / `n.k <= e`.
        upper: Option<(BExpr, bool)>,
    },
}

impl IndexSeek {
    /// The expressions it evaluates.
    pub fn exprs(&self) -> Vec<&BExpr> {
        match self {
            IndexSeek::Equal(e)
            | IndexSeek::Any(e)
            | IndexSeek::Prefix(e)
            | IndexSeek::Contains(e)
            | IndexSeek::Suffix(e) => vec![e],
            IndexSeek::Within(a, b)
            | IndexSeek::Near {
                center: a,
                radius: b,
                ..
            } => vec![a, b],
            IndexSeek::Range { lower, upper } => {
                lower.iter().chain(upper).map(|(e, _)| e).collect()
            }
            IndexSeek::All(pairs) => pairs.iter().map(|(_, e)| e).collect(),
        }
    }

    /// How good a start the seek makes, on `start_score`'s scale: below a pattern's
    /// own property (50), above a bare label scan (10).
    pub(super) fn score(&self) -> u8 {
        match self {
            IndexSeek::All(_) => 55,
            IndexSeek::Equal(_) => 50,
            IndexSeek::Any(_) => 45,
            IndexSeek::Prefix(_) => 40,
            IndexSeek::Within(..) | IndexSeek::Near { .. } => 35,
            // Every string the index holds is tested: still fewer than the nodes.
            IndexSeek::Contains(_) | IndexSeek::Suffix(_) => 20,
            IndexSeek::Range {
                lower: Some(_),
                upper: Some(_),
            } => 35,
            IndexSeek::Range { .. } => 30,
        }
    }
}

/// The best seek for each new labelled node some conjunct allows: (slot, key, seek).
/// `skip_key` is the `id` key, which its own index seeks answer.
pub(super) fn index_seeks(
    parts: &[BPart],
    filters: &[(Option<FxHashSet<usize>>, BExpr)],
    pre: &FxHashSet<usize>,
    skip_key: Option<usize>,
) -> Vec<(usize, usize, IndexSeek)> {
    let labelled: FxHashSet<usize> = parts
        .iter()
        .flat_map(|p| p.nodes.iter())
        .filter(|n| !n.bound && !n.labels.is_empty())
        .map(|n| n.slot)
        .collect();
    let mut out: Vec<(usize, usize, IndexSeek)> = Vec::new();
    for (_, f) in filters {
        let Some((slot, key, seek)) = seekable(f, &labelled, pre) else {
            continue;
        };
        if Some(key) == skip_key {
            continue;
        }
        merge(&mut out, slot, key, seek);
    }
    out
}

/// Adds a conjunct's seek: a better one replaces the slot's, a bound joins the
/// slot's range on the same key.
fn merge(out: &mut Vec<(usize, usize, IndexSeek)>, slot: usize, key: usize, seek: IndexSeek) {
    let Some(at) = out.iter().position(|(s, ..)| *s == slot) else {
        out.push((slot, key, seek));
        return;
    };
    let (_, old_key, old) = &mut out[at];
    if let IndexSeek::Equal(value) = &seek {
        let pair = (key, value.clone());
        match old {
            IndexSeek::Equal(first) if *old_key != key => {
                *old = IndexSeek::All(vec![(*old_key, first.clone()), pair]);
                return;
            }
            IndexSeek::All(pairs) => {
                if !pairs.iter().any(|(k, _)| *k == key) {
                    pairs.push(pair);
                }
                return;
            }
            _ => {}
        }
    }
    if let (
        true,
        IndexSeek::Range { lower, upper },
        IndexSeek::Range {
            lower: new_lower,
            upper: new_upper,
        },
    ) = (*old_key == key, &mut *old, &seek)
    {
        if lower.is_none() {
            *lower = new_lower.clone();
        }
        if upper.is_none() {
            *upper = new_upper.clone();
        }
        return;
    }
    if seek.score() > old.score() {
        out[at] = (slot, key, seek);
    }
}

/// The seek one conjunct allows, if any.
fn seekable(
    t: &BExpr,
    labelled: &FxHashSet<usize>,
    pre: &FxHashSet<usize>,
) -> Option<(usize, usize, IndexSeek)> {
    let known = |e: &BExpr| {
        needed_slots(e).is_some_and(|need| need.iter().all(|x| pre.contains(x))) && !random(e)
    };
    let prop = |e: &BExpr| match e {
        BExpr::Prop(base, key) => match **base {
            BExpr::Slot(s) if labelled.contains(&s) => Some((s, *key)),
            _ => None,
        },
        _ => None,
    };
    match t {
        BExpr::Binary(
            op @ (BinOp::In | BinOp::StartsWith | BinOp::Contains | BinOp::EndsWith),
            left,
            right,
        ) => {
            let (slot, key) = prop(left)?;
            if !known(right) {
                return None;
            }
            let value = (**right).clone();
            let seek = match op {
                BinOp::In => IndexSeek::Any(value),
                BinOp::StartsWith => IndexSeek::Prefix(value),
                BinOp::Contains => IndexSeek::Contains(value),
                _ => IndexSeek::Suffix(value),
            };
            Some((slot, key, seek))
        }
        BExpr::Call(Function::PointWithinBBox, args) => {
            let [point, lower, upper] = args.as_slice() else {
                return None;
            };
            let (slot, key) = prop(point)?;
            let seek = IndexSeek::Within(lower.clone(), upper.clone());
            (known(lower) && known(upper)).then_some((slot, key, seek))
        }
        BExpr::Compare(left, chain) => {
            let [(op, right)] = chain.as_slice() else {
                return None;
            };
            if let Some(near) = near(left, *op, right, &prop, &known) {
                return Some(near);
            }
            // `e < n.k` is `n.k > e`.
            let (node, value, op) = match (prop(left), prop(right)) {
                (Some(at), _) if known(right) => (at, right, *op),
                (_, Some(at)) if known(left) => (at, &**left, flipped(*op)?),
                _ => return None,
            };
            let value = value.clone();
            let seek = match op {
                CompareOp::Eq => IndexSeek::Equal(value),
                CompareOp::Gt | CompareOp::Ge => IndexSeek::Range {
                    lower: Some((value, op == CompareOp::Ge)),
                    upper: None,
                },
                CompareOp::Lt | CompareOp::Le => IndexSeek::Range {
                    lower: None,
                    upper: Some((value, op == CompareOp::Le)),
                },
                CompareOp::Ne => return None,
            };
            Some((node.0, node.1, seek))
        }
        _ => None,
    }
}

/// `point.distance(n.k, c) < r` or `<=` (the distance's arguments and the
/// comparison's sides either way round).
fn near(
    left: &BExpr,
    op: CompareOp,
    right: &BExpr,
    prop: &dyn Fn(&BExpr) -> Option<(usize, usize)>,
    known: &dyn Fn(&BExpr) -> bool,
) -> Option<(usize, usize, IndexSeek)> {
    let (distance, radius, op) = match (left, right) {
        (BExpr::Call(Function::PointDistance, _), r) => (left, r, op),
        (r, BExpr::Call(Function::PointDistance, _)) => (right, r, flipped(op)?),
        _ => return None,
    };
    let inclusive = match op {
        CompareOp::Lt => false,
        CompareOp::Le => true,
        _ => return None,
    };
    let BExpr::Call(_, args) = distance else {
        return None;
    };
    let [a, b] = args.as_slice() else {
        return None;
    };
    let ((slot, key), center) = match (prop(a), prop(b)) {
        (Some(at), _) => (at, b),
        (_, Some(at)) => (at, a),
        _ => return None,
    };
    if !(known(center) && known(radius)) {
        return None;
    }
    let seek = IndexSeek::Near {
        center: center.clone(),
        radius: radius.clone(),
        inclusive,
    };
    Some((slot, key, seek))
}

/// The operator with its sides swapped.
fn flipped(op: CompareOp) -> Option<CompareOp> {
    Some(match op {
        CompareOp::Eq => CompareOp::Eq,
        CompareOp::Lt => CompareOp::Gt,
        CompareOp::Le => CompareOp::Ge,
        CompareOp::Gt => CompareOp::Lt,
        CompareOp::Ge => CompareOp::Le,
        CompareOp::Ne => return None,
    })
}
