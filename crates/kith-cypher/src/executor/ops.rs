//! The operator pipeline, a row at a time: each operator takes one row, does its work
//! and hands the row (or rows) on to the rest. Operators that must see every row
//! first (aggregation, sorting, CREATE) keep what they need and hand their rows on
//! when the input is exhausted ([`finish`]); a LIMIT that has its rows stops what
//! feeds it.

use std::cmp::Ordering;

use rustc_hash::{FxHashMap, FxHashSet};

use super::eval::{eval, truth};
use super::steps::{self, Sink, StepState};
use super::{Ctx, Rows};
use crate::binder::{AggSpec, BExpr};
use crate::error::{CypherError, ErrorCode, Result};
use crate::functions::Aggregate;
use crate::planner::Op;
use crate::value::{order, Key, Val};

/// Runs one operator over a batch.
pub(crate) fn run_op(op: &Op, rows: Rows, cx: &Ctx<'_>) -> Result<Rows> {
    run_ops(std::slice::from_ref(op), rows, cx)
}

/// Runs operators over a batch: every row they produce, in order.
pub(crate) fn run_ops(ops: &[Op], input: Rows, cx: &Ctx<'_>) -> Result<Rows> {
    let mut st = states(ops);
    let mut out = Rows::new(cx.width);
    let mut sink = |r: &mut [Val]| {
        out.push(r);
        cx.check_len(out.len())?;
        Ok(true)
    };
    let mut row = vec![Val::Null; cx.width];
    for r in input.iter() {
        row.clone_from_slice(r);
        if !push_ops(ops, &mut st, &mut row, cx, &mut sink)? {
            break;
        }
    }
    finish(ops, &mut st, cx, &mut sink)?;
    if super::trace() {
        trace(ops, &st);
    }
    Ok(out)
}

fn trace(ops: &[Op], st: &[OpState]) {
    for (op, s) in ops.iter().zip(st) {
        let name: String = format!("{op:?}").chars().take(90).collect();
        eprintln!("{:>9} {name}", s.rows);
        if let (Op::Match(steps) | Op::Optional { pattern: steps, .. }, OpData::Steps(ss)) =
            (op, &s.data)
        {
            for (step, s) in steps.iter().zip(ss) {
                let name: String = format!("{step:?}").chars().take(90).collect();
                eprintln!("  {:>9} {name}", s.rows);
            }
        }
    }
}

/// One operator's state over a run.
pub(crate) struct OpState {
    /// Rows that reached it.
    rows: usize,
    data: OpData,
}

enum OpData {
    None,
    Steps(Vec<StepState>),
    Values(Vec<Val>),
    Aggregate(Box<Groups>),
    Distinct(FxHashSet<GroupKey>),
    Sort(Box<TopK>),
    /// SKIP or LIMIT: the rows still to skip or to pass, once evaluated.
    Count(Option<usize>),
    /// A writing operator's input, all of it before it writes.
    Eager(Rows),
}

/// Fresh state for each operator.
pub(crate) fn states(ops: &[Op]) -> Vec<OpState> {
    ops.iter()
        .map(|op| OpState {
            rows: 0,
            data: match op {
                Op::Match(s) | Op::Optional { pattern: s, .. } => OpData::Steps(steps::states(s)),
                Op::Project(_) => OpData::Values(Vec::new()),
                Op::Aggregate { keys, aggs } => {
                    OpData::Aggregate(Box::new(Groups::new(keys, aggs)))
                }
                Op::Distinct(_) => OpData::Distinct(FxHashSet::default()),
                Op::Sort { .. } => OpData::Sort(Box::default()),
                Op::Skip(_) | Op::Limit(_) => OpData::Count(None),
                // Every writing operator holds its input first (see `Op::writes`,
                // which names them); the rest keep no state.
                op if op.writes() => OpData::Eager(Rows::default()),
                _ => OpData::None,
            },
        })
        .collect()
}

/// Hands `row` to the first operator; the last hands its rows to `sink`. False when
/// no more rows are wanted.
pub(crate) fn push_ops(
    ops: &[Op],
    states: &mut [OpState],
    row: &mut [Val],
    cx: &Ctx<'_>,
    sink: &mut Sink<'_>,
) -> Result<bool> {
    cx.charged(ops.first(), || push_op(ops, states, row, cx, sink))
}

/// [`push_ops`] without the profiler's bookkeeping.
fn push_op(
    ops: &[Op],
    states: &mut [OpState],
    row: &mut [Val],
    cx: &Ctx<'_>,
    sink: &mut Sink<'_>,
) -> Result<bool> {
    let (Some((op, rest)), Some((st, rest_st))) = (ops.split_first(), states.split_first_mut())
    else {
        return sink(row);
    };
    st.rows += 1;
    cx.tick()?;
    match (op, &mut st.data) {
        (Op::Match(s), OpData::Steps(ss)) => steps::push_steps(s, ss, row, cx, &mut |r| {
            push_ops(rest, rest_st, r, cx, sink)
        }),
        (Op::Optional { pattern: s, slots }, OpData::Steps(ss)) => {
            let mut matched = false;
            let go = steps::push_steps(s, ss, row, cx, &mut |r| {
                matched = true;
                push_ops(rest, rest_st, r, cx, sink)
            })?;
            if !go {
                return Ok(false);
            }
            if matched {
                return Ok(true);
            }
            for s in slots {
                row[*s] = Val::Null;
            }
            push_ops(rest, rest_st, row, cx, sink)
        }
        (Op::Unwind { expr, slot }, _) => match crate::value::listed(eval(expr, row, cx)?) {
            Val::Null => Ok(true),
            Val::List(items) => {
                for item in items.iter() {
                    cx.tick()?;
                    row[*slot] = item.clone();
                    if !push_ops(rest, rest_st, row, cx, sink)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            other => {
                row[*slot] = other;
                push_ops(rest, rest_st, row, cx, sink)
            }
        },
        (Op::Project(items), OpData::Values(values)) => {
            // Items of one projection read only the input's slots, never each other's.
            values.clear();
            for (_, e) in items {
                values.push(eval(e, row, cx)?);
            }
            for ((slot, _), v) in items.iter().zip(values.drain(..)) {
                row[*slot] = v;
            }
            push_ops(rest, rest_st, row, cx, sink)
        }
        (Op::Filter(f), _) => {
            if truth(&eval(f, row, cx)?)? == Some(true) {
                push_ops(rest, rest_st, row, cx, sink)
            } else {
                Ok(true)
            }
        }
        (Op::Call(spec), OpData::None) => {
            super::call::call_row(spec, row, cx, &mut |r| push_ops(rest, rest_st, r, cx, sink))
        }
        (Op::Subquery(spec), OpData::None) => {
            super::call::subquery_row(spec, row, cx, &mut |r| push_ops(rest, rest_st, r, cx, sink))
        }
        (Op::Aggregate { keys, aggs }, OpData::Aggregate(g)) => {
            g.add(row, keys, aggs, cx)?;
            cx.check_len(g.held)?;
            Ok(true)
        }
        (Op::Distinct(slots), OpData::Distinct(seen)) => {
            let key = GroupKey::new(slots.iter().map(|s| Ok(row[*s].clone())))?;
            if !seen.insert(key) {
                return Ok(true);
            }
            cx.check_len(seen.len())?;
            push_ops(rest, rest_st, row, cx, sink)
        }
        (Op::Sort { keys, skip, limit }, OpData::Sort(t)) => {
            t.add(row, keys, skip.as_ref(), limit.as_ref(), cx)?;
            cx.check_len(t.len())?;
            Ok(true)
        }
        (Op::Skip(e), OpData::Count(left)) => {
            let left = match left {
                Some(n) => n,
                None => left.insert(count_arg(e, "SKIP", cx)?),
            };
            if *left > 0 {
                *left -= 1;
                return Ok(true);
            }
            push_ops(rest, rest_st, row, cx, sink)
        }
        (Op::Limit(e), OpData::Count(left)) => {
            let left = match left {
                Some(n) => n,
                None => left.insert(count_arg(e, "LIMIT", cx)?),
            };
            if *left == 0 {
                return Ok(false);
            }
            *left -= 1;
            let go = push_ops(rest, rest_st, row, cx, sink)?;
            Ok(go && *left > 0)
        }
        (op, OpData::Eager(buffer)) if op.writes() => {
            if buffer.is_empty() {
                *buffer = Rows::new(cx.width);
            }
            buffer.push(row);
            cx.check_len(buffer.len())?;
            Ok(true)
        }
        _ => unreachable!("an operator's state matches the operator"),
    }
}

/// After the input is exhausted: each operator that kept rows hands them on, in
/// pipeline order.
pub(crate) fn finish(
    ops: &[Op],
    states: &mut [OpState],
    cx: &Ctx<'_>,
    sink: &mut Sink<'_>,
) -> Result<()> {
    for i in 0..ops.len() {
        let previous = cx
            .profiler()
            .map(|p| p.switch(crate::planner::key_of(&ops[i])));
        finish_op(ops, states, i, cx, sink)?;
        if let (Some(p), Some(previous)) = (cx.profiler(), previous) {
            p.leave(previous);
        }
    }
    Ok(())
}

/// Hands on what operator `i` held back (aggregation, sort, a writing operator's
/// input), through the operators after it.
fn finish_op(
    ops: &[Op],
    states: &mut [OpState],
    i: usize,
    cx: &Ctx<'_>,
    sink: &mut Sink<'_>,
) -> Result<()> {
    {
        let (st, rest_st) = states[i..]
            .split_first_mut()
            .expect("one state per operator");
        let rest = &ops[i + 1..];
        match (&ops[i], &mut st.data) {
            (Op::Aggregate { keys, aggs }, OpData::Aggregate(g)) => {
                let g = std::mem::replace(g, Box::new(Groups::new(keys, aggs)));
                let mut row = vec![Val::Null; cx.width];
                let mut values = g.keys.into_iter();
                let mut states = g.states.into_iter();
                for _ in 0..g.len {
                    row.fill(Val::Null);
                    for ((slot, _), v) in keys.iter().zip(values.by_ref()) {
                        row[*slot] = v;
                    }
                    for (a, s) in aggs.iter().zip(states.by_ref()) {
                        row[a.slot] = finished(s, a.func);
                    }
                    if !push_ops(rest, rest_st, &mut row, cx, sink)? {
                        break;
                    }
                }
            }
            (Op::Sort { keys, skip, limit }, OpData::Sort(t)) => {
                let keep = t.keep(skip.as_ref(), limit.as_ref(), cx)?;
                let order = t.order(keys, keep);
                let mut kept = std::mem::take(&mut t.rows);
                **t = TopK::default();
                let mut row = vec![Val::Null; cx.width];
                for i in order {
                    // Moved, not copied: the buffer goes after this.
                    for (to, from) in row.iter_mut().zip(kept.row_mut(i)) {
                        *to = std::mem::take(from);
                    }
                    if !push_ops(rest, rest_st, &mut row, cx, sink)? {
                        break;
                    }
                }
            }
            (op, OpData::Eager(buffer)) if op.writes() => {
                let rows = std::mem::take(buffer);
                if rest.iter().any(matches_graph) {
                    // A later MATCH sees every row's writes, as in Neo4j: all rows are
                    // written before any goes on.
                    let mut written = Rows::new(cx.width);
                    super::update::write(op, rows, cx, &mut |row| {
                        written.push(row);
                        cx.check_len(written.len())
                    })?;
                    let mut row = vec![Val::Null; cx.width];
                    for r in written.iter() {
                        row.clone_from_slice(r);
                        if !push_ops(rest, rest_st, &mut row, cx, sink)? {
                            break;
                        }
                    }
                    return Ok(());
                }
                // Each row goes on once written (a RETURN reads it as its own writes
                // left it), and every row is written even when what follows wants no
                // more of them (`... DELETE n RETURN n LIMIT 0` deletes every n).
                let mut wanted = true;
                super::update::write(op, rows, cx, &mut |row| {
                    if wanted {
                        wanted = push_ops(rest, rest_st, row, cx, sink)?;
                    }
                    Ok(())
                })?;
            }
            (Op::Skip(e), OpData::Count(None)) => {
                count_arg(e, "SKIP", cx)?;
            }
            (Op::Limit(e), OpData::Count(None)) => {
                count_arg(e, "LIMIT", cx)?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// Whether an operator matches patterns in the graph (and so must see the writes
/// of every row before it): a MATCH, MERGE, CALL, or an expression holding a
/// pattern or subquery (`EXISTS { }`, `COUNT { }`, a pattern comprehension).
fn matches_graph(op: &Op) -> bool {
    let patterned = |e: &BExpr| crate::binder::needed_slots(e).is_none();
    match op {
        Op::Match(_) | Op::Optional { .. } | Op::Merge(_) | Op::Call(_) | Op::Subquery(_) => true,
        Op::Project(items) => items.iter().any(|(_, e)| patterned(e)),
        Op::Filter(e) | Op::Unwind { expr: e, .. } => patterned(e),
        Op::Aggregate { keys, aggs } => {
            keys.iter().any(|(_, e)| patterned(e))
                || aggs.iter().flat_map(|a| &a.arg).any(patterned)
        }
        Op::Sort { keys, .. } => keys.iter().any(|(e, _)| patterned(e)),
        _ => false,
    }
}

/// One aggregate's running state.
enum State {
    Count(i64),
    Sum(Val),
    Avg(f64, i64),
    /// Durations' `avg`: their sum so far (null before the first) and their count.
    DurationAvg(Val, i64),
    Extreme(Val),
    Collect(Vec<Val>),
    /// A percentile's values, and the percentile (the last row's).
    Percentile(Vec<Val>, f64),
    /// A standard deviation's count, mean and sum of squared differences (Welford's).
    Deviation(i64, f64, f64),
}

impl State {
    fn new(f: Aggregate) -> State {
        match f {
            Aggregate::Count => State::Count(0),
            Aggregate::Sum => State::Sum(Val::Null),
            Aggregate::Avg => State::Avg(0.0, 0),
            Aggregate::Min | Aggregate::Max => State::Extreme(Val::Null),
            Aggregate::Collect => State::Collect(Vec::new()),
            Aggregate::PercentileDisc | Aggregate::PercentileCont => {
                State::Percentile(Vec::new(), 0.0)
            }
            Aggregate::StDev | Aggregate::StDevP => State::Deviation(0, 0.0, 0.0),
        }
    }

    fn add(&mut self, f: Aggregate, v: Val) -> Result<()> {
        match self {
            State::Count(n) => *n += 1,
            State::Sum(acc) => *acc = add_up(std::mem::take(acc), v, "sum")?,
            State::Avg(_, 0) if is_duration(&v) => {
                // Durations average as their sum over the count, as Neo4j's do.
                *self = State::DurationAvg(Val::Null, 0);
                return self.add(f, v);
            }
            State::DurationAvg(sum, n) => {
                *sum = add_up(std::mem::take(sum), v, "avg")?;
                *n += 1;
            }
            State::Deviation(n, mean, m2) => {
                let x = crate::value::as_f64(&number(v, "stDev")?);
                *n += 1;
                let delta = x - *mean;
                *mean += delta / *n as f64;
                *m2 += delta * (x - *mean);
            }
            State::Avg(mean, n) => {
                // A running mean, as Neo4j keeps it: the mean of equal values is that
                // value exactly, and large values do not overflow a sum.
                let x = match number(v, "avg")? {
                    Val::Int(i) => i as f64,
                    Val::Float(x) => x,
                    _ => 0.0,
                };
                *n += 1;
                *mean += (x - *mean) / *n as f64;
            }
            State::Extreme(best) => {
                let wanted = if f == Aggregate::Min {
                    Ordering::Less
                } else {
                    Ordering::Greater
                };
                if best.is_null() || order(&v, best) == wanted {
                    *best = v;
                }
            }
            State::Collect(items) => items.push(v),
            State::Percentile(values, _) => values.push(number(v, "percentile")?),
        }
        Ok(())
    }

    /// A percentile's percentile for the row being added: 0.0 to 1.0.
    fn set_percentile(&mut self, p: Val) -> Result<()> {
        let p = match p {
            Val::Int(i) => i as f64,
            Val::Float(f) => f,
            other => {
                return Err(CypherError::new(
                    ErrorCode::TypeError,
                    format!("a percentile must be a number, got {}", other.type_name()),
                ))
            }
        };
        if !(0.0..=1.0).contains(&p) {
            return Err(CypherError::new(
                ErrorCode::ArgumentError,
                format!("a percentile must be between 0.0 and 1.0, got {p}"),
            ));
        }
        if let State::Percentile(_, at) = self {
            *at = p;
        }
        Ok(())
    }

    fn finish(self, f: Aggregate) -> Val {
        match self {
            State::Count(n) => Val::Int(n),
            State::Sum(Val::Null) => Val::Int(0),
            State::Sum(v) | State::Extreme(v) => v,
            State::Avg(_, 0) => Val::Null,
            State::Avg(mean, _) => Val::Float(mean),
            // A sum of durations over a count of one or more: no overflow can happen.
            State::DurationAvg(sum, n) => {
                super::eval::binary(crate::binder::BinOp::Div, sum, Val::Int(n))
                    .unwrap_or(Val::Null)
            }
            State::Deviation(0, ..) => Val::Null,
            State::Deviation(n, _, m2) => {
                let (sample, population) = ((n - 1).max(1) as f64, n as f64);
                let d = if f == Aggregate::StDev {
                    sample
                } else {
                    population
                };
                Val::Float((m2 / d).sqrt())
            }
            State::Collect(items) => Val::list(items),
            State::Percentile(values, p) => percentile(values, p, f == Aggregate::PercentileCont),
        }
    }
}

fn is_duration(v: &Val) -> bool {
    matches!(v, Val::Temporal(t) if matches!(**t, kith_core::Temporal::Duration(_)))
}

/// `acc + v` for `sum` (and durations' `avg`): numbers with numbers, durations with
/// durations; `acc` is null before the first value.
fn add_up(acc: Val, v: Val, f: &str) -> Result<Val> {
    if acc.is_null() && is_duration(&v) {
        return Ok(v);
    }
    if is_duration(&v) && is_duration(&acc) {
        return super::eval::binary(crate::binder::BinOp::Add, acc, v);
    }
    if is_duration(&acc) {
        return Err(CypherError::type_error(format!(
            "{f}() of durations and {}",
            v.type_name()
        )));
    }
    let v = number(v, f)?;
    if acc.is_null() {
        return Ok(v);
    }
    super::eval::binary(crate::binder::BinOp::Add, acc, v)
}

fn number(v: Val, f: &str) -> Result<Val> {
    match v {
        Val::Int(_) | Val::Float(_) => Ok(v),
        other => Err(CypherError::type_error(format!(
            "{f}() needs numbers, got {}",
            other.type_name()
        ))),
    }
}

/// A grouping or DISTINCT key: up to four values inline (no allocation a row; IC10
/// groups by three), more in a vector.
#[derive(PartialEq, Eq, Hash)]
pub(crate) enum GroupKey {
    /// The first `len` values; the rest are null and equal in every key of one operator.
    Inline(u8, [Key; GROUP_KEY_INLINE]),
    Many(Vec<Key>),
}

/// Values a key holds without allocating.
const GROUP_KEY_INLINE: usize = 4;

impl GroupKey {
    pub(crate) fn new(values: impl ExactSizeIterator<Item = Result<Val>>) -> Result<GroupKey> {
        let len = values.len();
        if len > GROUP_KEY_INLINE {
            return Ok(GroupKey::Many(
                values.map(|v| v.map(Key)).collect::<Result<_>>()?,
            ));
        }
        let mut keys: [Key; GROUP_KEY_INLINE] = Default::default();
        for (k, v) in keys.iter_mut().zip(values) {
            k.0 = v?;
        }
        Ok(GroupKey::Inline(len as u8, keys))
    }

    fn values(&self) -> impl Iterator<Item = Val> + '_ {
        let keys = match self {
            GroupKey::Inline(len, keys) => &keys[..usize::from(*len)],
            GroupKey::Many(v) => v.as_slice(),
        };
        keys.iter().map(|k| k.0.clone())
    }
}

/// The groups of an aggregation so far, in order of their first row: their keys and
/// aggregate states stored flat, group after group.
struct Groups {
    index: FxHashMap<GroupKey, usize>,
    /// How many groups.
    len: usize,
    /// What the groups hold: a row for each group, and each value a `collect`, a
    /// percentile or a DISTINCT aggregate keeps (the budget's `rows_max` bounds it).
    held: usize,
    /// Key values, `keys.len()` a group.
    keys: Vec<Val>,
    /// States, one per aggregate a group.
    states: Vec<State>,
    /// Values seen, one set per aggregate a group (only when one is DISTINCT).
    seen: Vec<FxHashSet<Key>>,
}

impl Groups {
    fn new(keys: &[(usize, BExpr)], aggs: &[AggSpec]) -> Groups {
        let mut g = Groups {
            index: FxHashMap::default(),
            len: 0,
            held: 0,
            keys: Vec::new(),
            states: Vec::new(),
            seen: Vec::new(),
        };
        // Without grouping keys there is one group even when no row comes.
        if keys.is_empty() {
            g.push_group(aggs);
        }
        g
    }

    fn push_group(&mut self, aggs: &[AggSpec]) -> usize {
        self.states.extend(aggs.iter().map(|a| State::new(a.func)));
        if aggs.iter().any(|a| a.distinct) {
            self.seen.extend(aggs.iter().map(|_| FxHashSet::default()));
        }
        self.len += 1;
        self.held += 1;
        self.len - 1
    }

    fn add(
        &mut self,
        row: &[Val],
        keys: &[(usize, BExpr)],
        aggs: &[AggSpec],
        cx: &Ctx<'_>,
    ) -> Result<()> {
        let g = if keys.is_empty() {
            0
        } else {
            let key = GroupKey::new(keys.iter().map(|(_, e)| eval(e, row, cx)))?;
            match self.index.get(&key) {
                Some(&g) => g,
                None => {
                    self.keys.extend(key.values());
                    let g = self.push_group(aggs);
                    self.index.insert(key, g);
                    g
                }
            }
        };
        let n = aggs.len();
        for (i, a) in aggs.iter().enumerate() {
            let v = match &a.arg {
                None => Val::Bool(true),
                Some(e) => eval(e, row, cx)?,
            };
            if v.is_null() {
                continue;
            }
            if let Some(p) = &a.param {
                self.states[g * n + i].set_percentile(eval(p, row, cx)?)?;
            }
            if a.distinct && !self.seen[g * n + i].insert(Key(v.clone())) {
                continue;
            }
            let state = &mut self.states[g * n + i];
            if a.distinct || matches!(state, State::Collect(_) | State::Percentile(..)) {
                self.held += 1;
            }
            state.add(a.func, v)?;
        }
        Ok(())
    }
}

/// An aggregate's value: min, max, percentileDisc and collect hand back values they
/// were given (a NaN keeps its identity, as on Neo4j); a sum, mean or deviation is a
/// value of its own.
fn finished(s: State, f: Aggregate) -> Val {
    let v = s.finish(f);
    match f {
        Aggregate::Sum
        | Aggregate::Avg
        | Aggregate::StDev
        | Aggregate::StDevP
        | Aggregate::PercentileCont => crate::value::renewed(v),
        _ => v,
    }
}

/// Neo4j's percentiles over `values`: discrete, the value at index ⌈p·n⌉−1 (0 for
/// p = 0); continuous, interpolated linearly at position p·(n−1).
fn percentile(mut values: Vec<Val>, p: f64, continuous: bool) -> Val {
    if values.is_empty() {
        return Val::Null;
    }
    values.sort_by(order);
    let n = values.len();
    let float = |v: &Val| match v {
        Val::Int(i) => *i as f64,
        Val::Float(f) => *f,
        _ => f64::NAN,
    };
    if !continuous {
        let at = p * n as f64;
        let i = at as usize;
        let i = if at != i as f64 || i == 0 { i } else { i - 1 };
        return values.swap_remove(i.min(n - 1));
    }
    let at = p * (n - 1) as f64;
    let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
    if lo == hi || hi >= n {
        return Val::Float(float(&values[lo]));
    }
    let (a, b) = (float(&values[lo]), float(&values[hi]));
    Val::Float(a * (hi as f64 - at) + b * (at - lo as f64))
}

fn count_arg(e: &BExpr, what: &str, cx: &Ctx<'_>) -> Result<usize> {
    let empty = vec![Val::Null; cx.width];
    match eval(e, &empty, cx)? {
        Val::Int(n) if n >= 0 => Ok(n as usize),
        // Neo4j and openCypher class this as a SyntaxError even when a parameter
        // brings the value at run time.
        other => Err(CypherError::new(
            ErrorCode::SyntaxError,
            format!(
                "{what} needs a non-negative integer, got {}",
                describe(&other)
            ),
        )),
    }
}

fn describe(v: &Val) -> String {
    match v {
        Val::Int(i) => i.to_string(),
        other => other.type_name().to_owned(),
    }
}

/// ORDER BY's rows: all of them, or with a LIMIT the best `skip + limit` so far (a
/// buffer compacted to that many whenever it doubles; rows no better than the worst
/// kept are not copied at all).
#[derive(Default)]
struct TopK {
    /// How many to keep, once evaluated (`None`: not yet; `usize::MAX`: all).
    keep: Option<usize>,
    rows: Rows,
    /// Sort key values, `k` a row.
    keys: Vec<Val>,
    /// Arrival numbers: ties keep the input order.
    seq: Vec<u64>,
    arrived: u64,
    /// The keys of the worst row kept at the last compaction.
    bar: Option<Vec<Val>>,
    /// The current row's keys, reused.
    scratch: Vec<Val>,
}

fn cmp_keys(dirs: &[(BExpr, bool)], a: &[Val], b: &[Val]) -> Ordering {
    for ((_, desc), (x, y)) in dirs.iter().zip(a.iter().zip(b)) {
        let o = order(x, y);
        let o = if *desc { o.reverse() } else { o };
        if o != Ordering::Equal {
            return o;
        }
    }
    Ordering::Equal
}

impl TopK {
    fn len(&self) -> usize {
        self.seq.len()
    }

    fn keep(&mut self, skip: Option<&BExpr>, limit: Option<&BExpr>, cx: &Ctx<'_>) -> Result<usize> {
        if let Some(k) = self.keep {
            return Ok(k);
        }
        let k = match limit {
            Some(l) => count_arg(l, "LIMIT", cx)?
                .saturating_add(skip.map_or(Ok(0), |s| count_arg(s, "SKIP", cx))?),
            None => usize::MAX,
        };
        self.keep = Some(k);
        Ok(k)
    }

    fn add(
        &mut self,
        row: &[Val],
        dirs: &[(BExpr, bool)],
        skip: Option<&BExpr>,
        limit: Option<&BExpr>,
        cx: &Ctx<'_>,
    ) -> Result<()> {
        let keep = self.keep(skip, limit, cx)?;
        self.scratch.clear();
        for (e, _) in dirs {
            self.scratch.push(eval(e, row, cx)?);
        }
        let seq = self.arrived;
        self.arrived += 1;
        if keep == 0 {
            return Ok(());
        }
        // A later row that only ties the worst kept one sorts after it: not kept.
        if let Some(bar) = &self.bar {
            if cmp_keys(dirs, &self.scratch, bar) != Ordering::Less {
                return Ok(());
            }
        }
        if self.rows.width() != cx.width {
            self.rows = Rows::new(cx.width);
        }
        self.rows.push(row);
        self.keys.append(&mut self.scratch);
        self.seq.push(seq);
        if keep != usize::MAX && self.len() >= keep.saturating_mul(2).max(64) {
            self.compact(dirs, keep);
        }
        Ok(())
    }

    /// The order of the buffered rows' indexes, best first, at most `keep`.
    fn order(&self, dirs: &[(BExpr, bool)], keep: usize) -> Vec<usize> {
        let k = dirs.len();
        let cmp = |a: &usize, b: &usize| {
            cmp_keys(
                dirs,
                &self.keys[a * k..(a + 1) * k],
                &self.keys[b * k..(b + 1) * k],
            )
            .then(self.seq[*a].cmp(&self.seq[*b]))
        };
        let n = self.len();
        let mut idx: Vec<usize> = (0..n).collect();
        if keep < n {
            if keep > 0 {
                idx.select_nth_unstable_by(keep - 1, cmp);
            }
            idx.truncate(keep);
        }
        idx.sort_by(cmp);
        idx
    }

    fn compact(&mut self, dirs: &[(BExpr, bool)], keep: usize) {
        let k = dirs.len();
        let idx = self.order(dirs, keep);
        let mut rows = Rows::new(self.rows.width());
        let mut keys = Vec::with_capacity(idx.len() * k);
        let mut seq = Vec::with_capacity(idx.len());
        for &i in &idx {
            rows.push(self.rows.row(i));
            keys.extend_from_slice(&self.keys[i * k..(i + 1) * k]);
            seq.push(self.seq[i]);
        }
        self.bar = idx.last().map(|_| keys[keys.len() - k..].to_vec());
        self.rows = rows;
        self.keys = keys;
        self.seq = seq;
    }
}
