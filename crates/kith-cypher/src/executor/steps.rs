//! MATCH steps, a row at a time: each step binds its slots in the one row the pipeline
//! carries and hands it on to the rest (`next`), depth first, so a row is never copied
//! between steps and a node's record is read by every step that needs it while it is
//! still in cache. `next` answers whether to go on (false once a LIMIT or an EXISTS
//! has what it needs).

use kith_core::{Direction, Edge, NodeId, RelId, RelTypeId, Value};

use super::eval::{eval, property, truth};
use super::{paths, Ctx};
use crate::binder::BExpr;
use crate::error::Result;
use crate::planner::{Dir, Expand, NodeKey, Prefetch, Step};
use crate::value::{equals, Key, Path, Val};
use rustc_hash::FxHashMap;

/// Where rows go: the rest of the pipeline; false to stop.
pub(crate) type Sink<'s> = dyn FnMut(&mut [Val]) -> Result<bool> + 's;

/// One step's state over a run.
#[derive(Default)]
pub(crate) struct StepState {
    /// Rows that reached the step (rows its predecessor produced).
    pub(crate) rows: usize,
    data: StepData,
}

#[derive(Default)]
enum StepData {
    #[default]
    None,
    Walk(paths::Trail),
    Shortest(paths::ShortestState),
}

/// Fresh state for each step.
pub(crate) fn states(steps: &[Step]) -> Vec<StepState> {
    steps.iter().map(|_| StepState::default()).collect()
}

/// Whether the steps match anything from `row`: stops at the first match.
pub(crate) fn any_match(steps: &[Step], row: &[Val], cx: &Ctx<'_>) -> Result<bool> {
    if let [Step::Expand(e)] = steps {
        if e.into && e.rel_props.is_empty() {
            return hop_exists(e, row, cx);
        }
    }
    let key = match recall(steps, None, row, cx) {
        Recall::Hit(v) => return Ok(matches!(v, Val::Bool(true))),
        Recall::Miss(key) => Some(key),
        Recall::Off => None,
    };
    let found = with_scratch(steps, row, cx, |row, st| {
        let mut found = false;
        push_steps(steps, st, row, cx, &mut |_: &mut [Val]| {
            found = true;
            Ok(false)
        })?;
        Ok(found)
    })?;
    if let Some(key) = key {
        remember(steps, key, Val::Bool(found), cx);
    }
    Ok(found)
}

/// `(a)-[:T]-(b)` with both ends bound, the commonest pattern predicate: a binary
/// search in one list, with no state, row copy or memo (it costs less than they do).
fn hop_exists(e: &Expand, row: &[Val], cx: &Ctx<'_>) -> Result<bool> {
    let (Val::Node(from), Val::Node(target)) = (&row[e.from], &row[e.to]) else {
        return Ok(false);
    };
    cx.tick()?;
    let mut found = false;
    for_each_run(e, *from, *target, cx, |_, edges| {
        found = !edges.is_empty();
        Ok(!found)
    })?;
    Ok(found)
}

/// A pattern comprehension: `map` for every row the steps produce from `row`.
pub(crate) fn comprehension(steps: &[Step], map: &BExpr, row: &[Val], cx: &Ctx<'_>) -> Result<Val> {
    let key = match recall(steps, Some(map), row, cx) {
        Recall::Hit(v) => return Ok(v),
        Recall::Miss(key) => Some(key),
        Recall::Off => None,
    };
    let v = with_scratch(steps, row, cx, |row, st| {
        let mut items = Vec::new();
        push_steps(steps, st, row, cx, &mut |r: &mut [Val]| {
            items.push(eval(map, r, cx)?);
            cx.check_len(items.len())?;
            Ok(true)
        })?;
        Ok(Val::list(items))
    })?;
    if let Some(key) = key {
        remember(steps, key, v.clone(), cx);
    }
    Ok(v)
}

/// Remembered answers of one pattern inside an expression (a pattern predicate or
/// comprehension) by the values of the slots it reads: IC14 asks for the same
/// relationship's weight once for every path through it. Given up on a pattern that
/// rarely sees the same values twice.
pub(crate) struct Memo {
    /// The slots read, sorted; `None`: never remembered.
    free: Option<Vec<usize>>,
    answers: FxHashMap<Vec<Key>, Val>,
    asked: u32,
    hits: u32,
    /// The pattern's working row and states between evaluations; `None` while in use.
    scratch: Option<Box<Scratch>>,
}

/// A pattern's working row and step states, kept from one evaluation to the next: a
/// predicate asked of every row would otherwise copy the row and allocate its states
/// each time (a fifth of IC10's time).
struct Scratch {
    /// The slots the pattern reads from the row it starts from (`None`: not known, the
    /// whole row is copied). Its other slots are only written before they are read.
    reads: Option<Vec<usize>>,
    row: Vec<Val>,
    states: Vec<StepState>,
}

impl Scratch {
    fn new(reads: Option<Vec<usize>>, steps: &[Step]) -> Box<Scratch> {
        Box::new(Scratch {
            reads,
            row: Vec::new(),
            states: states(steps),
        })
    }

    /// Ready for a run from `row`.
    fn load(&mut self, row: &[Val]) {
        match &self.reads {
            Some(reads) if self.row.len() == row.len() => {
                for &s in reads {
                    self.row[s].clone_from(&row[s]);
                }
            }
            _ => {
                self.row.clear();
                self.row.extend_from_slice(row);
            }
        }
        for st in &mut self.states {
            *st = StepState::default();
        }
    }
}

/// Runs `f` on the pattern's scratch row (loaded from `row`) and states.
fn with_scratch<R>(
    steps: &[Step],
    row: &[Val],
    cx: &Ctx<'_>,
    f: impl FnOnce(&mut [Val], &mut [StepState]) -> Result<R>,
) -> Result<R> {
    let id = steps.as_ptr() as usize;
    let kept = cx
        .memo
        .borrow_mut()
        .get_mut(&id)
        .and_then(|m| m.scratch.take());
    // None: the first run after a write, or the pattern inside itself.
    let mut s = kept.unwrap_or_else(|| Scratch::new(None, steps));
    s.load(row);
    let out = f(&mut s.row, &mut s.states);
    if let Some(m) = cx.memo.borrow_mut().get_mut(&id) {
        m.scratch.get_or_insert(s);
    }
    out
}

impl Memo {
    /// For the trace: the slots read, the questions asked, answered from memory, kept.
    pub(crate) fn describe(&self) -> String {
        format!(
            "pattern memo: slots {:?}, asked {}, remembered {}, kept {}",
            self.free,
            self.asked,
            self.hits,
            self.answers.len()
        )
    }
}

/// Answers one pattern keeps at most.
const MEMO_ANSWERS_MAX: usize = 4096;

enum Recall {
    Hit(Val),
    Miss(Vec<Key>),
    Off,
}

fn recall(steps: &[Step], map: Option<&BExpr>, row: &[Val], cx: &Ctx<'_>) -> Recall {
    let mut memos = cx.memo.borrow_mut();
    let m = memos.entry(steps.as_ptr() as usize).or_insert_with(|| {
        let free = crate::planner::free_slots(steps, map);
        Memo {
            scratch: Some(Scratch::new(free.clone(), steps)),
            free,
            answers: FxHashMap::default(),
            asked: 0,
            hits: 0,
        }
    });
    let Some(free) = &m.free else {
        return Recall::Off;
    };
    if m.asked >= 256 && m.hits * 4 < m.asked {
        m.free = None;
        m.answers = FxHashMap::default();
        return Recall::Off;
    }
    let mut key = Vec::with_capacity(free.len());
    for &s in free {
        // Values whose key equality is identity (no 1 = 1.0, no lists of either).
        match &row[s] {
            v @ (Val::Null
            | Val::Bool(_)
            | Val::Int(_)
            | Val::Str(_)
            | Val::Node(_)
            | Val::Rel(_)
            | Val::DateTime(_)) => key.push(Key(v.clone())),
            _ => return Recall::Off,
        }
    }
    m.asked += 1;
    match m.answers.get(&key) {
        Some(v) => {
            m.hits += 1;
            Recall::Hit(v.clone())
        }
        None => Recall::Miss(key),
    }
}

fn remember(steps: &[Step], key: Vec<Key>, v: Val, cx: &Ctx<'_>) {
    if let Some(m) = cx.memo.borrow_mut().get_mut(&(steps.as_ptr() as usize)) {
        if m.free.is_some() && m.answers.len() < MEMO_ANSWERS_MAX {
            m.answers.insert(key, v);
        }
    }
}

/// Hands `row` to the first step; the last hands its rows to `sink`.
pub(crate) fn push_steps(
    steps: &[Step],
    states: &mut [StepState],
    row: &mut [Val],
    cx: &Ctx<'_>,
    sink: &mut Sink<'_>,
) -> Result<bool> {
    cx.charged(steps.first(), || push_step(steps, states, row, cx, sink))
}

/// [`push_steps`] without the profiler's bookkeeping.
fn push_step(
    steps: &[Step],
    states: &mut [StepState],
    row: &mut [Val],
    cx: &Ctx<'_>,
    sink: &mut Sink<'_>,
) -> Result<bool> {
    let (Some((step, rest)), Some((st, rest_st))) = (steps.split_first(), states.split_first_mut())
    else {
        return sink(row);
    };
    st.rows += 1;
    cx.tick()?;
    let mut next = |r: &mut [Val]| push_steps(rest, rest_st, r, cx, sink);
    match step {
        Step::ScanAll { slot } => {
            for n in cx.graph().node_ids() {
                cx.hit();
                row[*slot] = Val::Node(n);
                if !next(row)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        Step::ScanLabel { slot, label } => match cx.label(*label) {
            Some(l) => {
                for n in cx.graph().nodes_with_label(l) {
                    cx.hit();
                    row[*slot] = Val::Node(n);
                    if !next(row)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            None => Ok(true),
        },
        Step::SeekId { slot, label, value } => seek_id(row, *slot, *label, value, cx, &mut next),
        Step::SeekNode { slot, key, value } => seek_node(row, *slot, *key, value, cx, &mut next),
        Step::SeekRelEnds {
            left,
            right,
            direction,
            key,
            value,
        } => seek_rel_ends(
            row,
            (*left, *right),
            *direction,
            (*key, value),
            cx,
            &mut next,
        ),
        Step::SeekIdAny {
            slot,
            label,
            values,
        } => seek_id_any(row, *slot, *label, values, cx, &mut next),
        Step::SeekProp {
            slot,
            label,
            key,
            value,
        } => seek_prop(row, *slot, *label, *key, value, cx, &mut next),
        Step::SeekIndex {
            slot,
            label,
            key,
            seek,
        } => super::index_seek::seek_index(row, (*slot, *label, *key), seek, cx, &mut next),
        Step::CheckNode {
            slot,
            labels,
            props,
            props_map,
        } => {
            if check_node(row, *slot, labels, props, props_map.as_ref(), cx)? {
                next(row)
            } else {
                Ok(true)
            }
        }
        Step::Expand(e) => expand(e, row, cx, &mut next),
        Step::VarExpand(e) => {
            if !matches!(st.data, StepData::Walk(_)) {
                st.data = StepData::Walk(paths::Trail::default());
            }
            let StepData::Walk(trail) = &mut st.data else {
                unreachable!("set above")
            };
            paths::var_expand(e, trail, row, cx, &mut next)
        }
        Step::Shortest {
            expand,
            all,
            path,
            residual,
        } if !residual.is_empty() => super::shortest_by_length::shortest_by_length(
            expand, *all, *path, residual, row, cx, &mut next,
        ),
        Step::Shortest {
            expand, all, path, ..
        } => {
            if !matches!(st.data, StepData::Shortest(_)) {
                st.data = StepData::Shortest(Default::default());
            }
            let StepData::Shortest(state) = &mut st.data else {
                unreachable!("set above")
            };
            paths::shortest(expand, *all, *path, state, row, cx, &mut next)
        }
        Step::Filter(f) => {
            if truth(&eval(f, row, cx)?)? == Some(true) {
                next(row)
            } else {
                Ok(true)
            }
        }
        Step::DistinctRels(slots) => {
            if distinct_rels(row, slots) {
                next(row)
            } else {
                Ok(true)
            }
        }
        Step::BuildPath { slot, start, hops } => {
            row[*slot] = build_path(row, *start, hops, cx)
                .map_or(Val::Null, |p| Val::Path(std::sync::Arc::new(p)));
            next(row)
        }
    }
}

/// The node `id(n) = value` or `elementId(n) = value` names, if it exists (the
/// conjunct itself runs after: a value of another type finds no node here, and none
/// would pass the filter either).
fn seek_node(
    row: &mut [Val],
    slot: usize,
    key: NodeKey,
    value: &BExpr,
    cx: &Ctx<'_>,
    next: &mut impl FnMut(&mut [Val]) -> Result<bool>,
) -> Result<bool> {
    match pinned(key, &eval(value, row, cx)?, NodeId::from_element_id, NodeId) {
        Some(n) if cx.graph().contains_node(n) => {
            cx.hit();
            row[slot] = Val::Node(n);
            next(row)
        }
        _ => Ok(true),
    }
}

/// The element `id(x) = v` or `elementId(x) = v` names: for `id`, an integer or a
/// float equal to one, in range; for `elementId`, only the text `elementId` gives (no
/// sign, no leading zeros).
fn pinned<T>(
    key: NodeKey,
    v: &Val,
    from_element_id: fn(&str) -> Option<T>,
    from_id: fn(u32) -> T,
) -> Option<T> {
    match (key, v) {
        (NodeKey::ElementId, Val::Str(s)) => from_element_id(s),
        (NodeKey::Id, Val::Int(i)) => u32::try_from(*i).ok().map(from_id),
        (NodeKey::Id, Val::Float(x)) if x.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(x) => {
            Some(from_id(*x as u32))
        }
        _ => None,
    }
}

/// Binds the ends of the relationship `value` names to `left` and `right`, as
/// `direction` has them (both ways round when undirected, once for a self-loop).
fn seek_rel_ends(
    row: &mut [Val],
    (left, right): (usize, usize),
    direction: crate::ast::RelDirection,
    (key, value): (NodeKey, &BExpr),
    cx: &Ctx<'_>,
    next: &mut impl FnMut(&mut [Val]) -> Result<bool>,
) -> Result<bool> {
    use crate::ast::RelDirection;
    let id = pinned(key, &eval(value, row, cx)?, RelId::from_element_id, RelId);
    let Some(rel) = id.and_then(|r| cx.graph().relationship(r)) else {
        return Ok(true);
    };
    cx.hit();
    let (start, end) = (rel.src, rel.dst);
    let ways: &[(NodeId, NodeId)] = match direction {
        RelDirection::Right => &[(start, end)],
        RelDirection::Left => &[(end, start)],
        RelDirection::Both if start == end => &[(start, end)],
        RelDirection::Both => &[(start, end), (end, start)],
    };
    for &(l, r) in ways {
        // One variable on both sides (`(a)-[r]-(a)`) matches only a self-loop.
        if left == right && l != r {
            continue;
        }
        row[left] = Val::Node(l);
        row[right] = Val::Node(r);
        if !next(row)? {
            return Ok(false);
        }
    }
    Ok(true)
}

fn seek_id(
    row: &mut [Val],
    slot: usize,
    label: usize,
    value: &BExpr,
    cx: &Ctx<'_>,
    next: &mut impl FnMut(&mut [Val]) -> Result<bool>,
) -> Result<bool> {
    let Some(l) = cx.label(label) else {
        return Ok(true);
    };
    match eval(value, row, cx)? {
        Val::Int(id) => {
            if let Some(n) = cx.graph().node_by_id(l, id) {
                row[slot] = Val::Node(n);
                return next(row);
            }
        }
        Val::Null => {}
        other => {
            // Not an integer: no id index entry, but a node may hold it all the same.
            let Some(key) = cx.graph().prop_key_id("id") else {
                return Ok(true);
            };
            for n in cx.graph().nodes_with_label(l) {
                if cx
                    .graph()
                    .node_property(n, key)
                    .is_some_and(|v| equals(&Val::from_owned(v), &other) == Some(true))
                {
                    row[slot] = Val::Node(n);
                    if !next(row)? {
                        return Ok(false);
                    }
                }
            }
        }
    }
    Ok(true)
}

fn seek_id_any(
    row: &mut [Val],
    slot: usize,
    label: usize,
    values: &[BExpr],
    cx: &Ctx<'_>,
    next: &mut impl FnMut(&mut [Val]) -> Result<bool>,
) -> Result<bool> {
    let Some(l) = cx.label(label) else {
        return Ok(true);
    };
    let mut found: Vec<NodeId> = Vec::with_capacity(values.len());
    for v in values {
        match eval(v, row, cx)? {
            Val::Int(id) => found.extend(cx.graph().node_by_id(l, id)),
            Val::Null => {}
            // The id index holds integers only: any other value means every node
            // of the label is a candidate, and the WHERE decides.
            _ => found.extend(cx.graph().nodes_with_label(l)),
        }
    }
    found.sort_unstable();
    found.dedup();
    for n in found {
        row[slot] = Val::Node(n);
        if !next(row)? {
            return Ok(false);
        }
    }
    Ok(true)
}

fn seek_prop(
    row: &mut [Val],
    slot: usize,
    label: usize,
    key: usize,
    value: &BExpr,
    cx: &Ctx<'_>,
    next: &mut impl FnMut(&mut [Val]) -> Result<bool>,
) -> Result<bool> {
    let (Some(l), Some(k)) = (cx.label(label), cx.key(key)) else {
        return Ok(true);
    };
    let v = eval(value, row, cx)?;
    // Nothing equals null or NaN.
    if v.is_null() || matches!(v, Val::Float(f) if f.is_nan()) {
        return Ok(true);
    }
    if cx.graph().is_indexed(l, k) {
        if let Some(nodes) = super::index_seek::equal_nodes(l, k, &v, cx) {
            for n in nodes {
                row[slot] = Val::Node(n);
                if !next(row)? {
                    return Ok(false);
                }
            }
            return Ok(true);
        }
    }
    for n in cx.graph().nodes_with_label(l) {
        cx.tick()?;
        if cx
            .graph()
            .node_property(n, k)
            .is_some_and(|p| stored_equals(&p, &v))
        {
            row[slot] = Val::Node(n);
            if !next(row)? {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// Cypher equality of a stored value and a runtime one, without converting scalars.
fn stored_equals(stored: &Value, v: &Val) -> bool {
    match (stored, v) {
        (Value::String(a), Val::Str(b)) => a == b,
        (Value::String(_), _) | (_, Val::Str(_)) => false,
        (Value::Int(a), Val::Int(b)) => a == b,
        _ => equals(&Val::from_value(stored), v) == Some(true),
    }
}

fn check_node(
    row: &[Val],
    slot: usize,
    labels: &[usize],
    props: &[(usize, BExpr)],
    props_map: Option<&BExpr>,
    cx: &Ctx<'_>,
) -> Result<bool> {
    let Val::Node(n) = row[slot] else {
        return Ok(false);
    };
    for l in labels {
        if !cx.label(*l).is_some_and(|id| cx.graph().has_label(n, id)) {
            return Ok(false);
        }
    }
    for (key, value) in props {
        let want = eval(value, row, cx)?;
        if equals(&property(&row[slot], *key, cx)?, &want) != Some(true) {
            return Ok(false);
        }
    }
    if let Some(m) = props_map {
        match eval(m, row, cx)? {
            Val::Map(entries) => {
                for (k, want) in entries.iter() {
                    let g = cx.graph();
                    let have = g
                        .prop_key_id(k)
                        .and_then(|id| g.node_property(n, id))
                        .map_or(Val::Null, Val::from_owned);
                    if equals(&have, want) != Some(true) {
                        return Ok(false);
                    }
                }
            }
            Val::Null => return Ok(false),
            other => {
                return Err(crate::error::CypherError::type_error(format!(
                    "a property map must be a map, got {}",
                    other.type_name()
                )))
            }
        }
    }
    Ok(true)
}

/// The graph directions a pattern direction covers.
pub(crate) fn directions(dir: Dir) -> &'static [Direction] {
    match dir {
        Dir::Out => &[Direction::Out],
        Dir::In => &[Direction::In],
        Dir::Both => &[Direction::Out, Direction::In],
    }
}

/// Calls `f` with every adjacency list of `node` the expand follows, in direction and
/// type order, with the direction. `f` answers false to stop.
pub(crate) fn for_each_list(
    e: &Expand,
    node: NodeId,
    cx: &Ctx<'_>,
    f: impl FnMut(Direction, &[Edge]) -> Result<bool>,
) -> Result<bool> {
    for_each_list_in(e, e.dir, node, cx, f)
}

/// [`for_each_list`] in direction `dir` rather than the expand's.
pub(crate) fn for_each_list_in(
    e: &Expand,
    dir: Dir,
    node: NodeId,
    cx: &Ctx<'_>,
    mut f: impl FnMut(Direction, &[Edge]) -> Result<bool>,
) -> Result<bool> {
    let g = cx.graph();
    for_each_type(e, dir, node, cx, |d, t| f(d, g.neighbors(node, t, d)))
}

/// Calls `f` with the run of each list of `node` the expand follows that leads to
/// `target` (GraphView::edges_to), in type and direction order; `f` answers false
/// to stop.
fn for_each_run(
    e: &Expand,
    node: NodeId,
    target: NodeId,
    cx: &Ctx<'_>,
    mut f: impl FnMut(Direction, &[Edge]) -> Result<bool>,
) -> Result<bool> {
    let g = cx.graph();
    for_each_type(e, e.dir, node, cx, |d, t| {
        f(d, g.edges_to(node, t, d, target))
    })
}

/// Calls `f` with each (direction, type) of `node`'s lists the expand follows in
/// direction `dir`: its types, or every type present when it names none.
fn for_each_type(
    e: &Expand,
    dir: Dir,
    node: NodeId,
    cx: &Ctx<'_>,
    mut f: impl FnMut(Direction, RelTypeId) -> Result<bool>,
) -> Result<bool> {
    let g = cx.graph();
    for &d in directions(dir) {
        if e.types.is_empty() {
            for t in g.rel_types_at(node, d) {
                if !f(d, t)? {
                    return Ok(false);
                }
            }
        } else {
            for t in e.types.iter().filter_map(|t| cx.rel_type(*t)) {
                if !f(d, t)? {
                    return Ok(false);
                }
            }
        }
    }
    Ok(true)
}

/// Calls `f` with every edge of `node` the expand follows, in type and direction
/// order (an undirected self-loop once). `f` answers false to stop.
pub(crate) fn for_each_edge(
    e: &Expand,
    node: NodeId,
    cx: &Ctx<'_>,
    f: impl FnMut(Edge) -> Result<bool>,
) -> Result<bool> {
    for_each_edge_in(e, e.dir, node, cx, f)
}

/// [`for_each_edge`] in direction `dir` rather than the expand's.
pub(crate) fn for_each_edge_in(
    e: &Expand,
    dir: Dir,
    node: NodeId,
    cx: &Ctx<'_>,
    mut f: impl FnMut(Edge) -> Result<bool>,
) -> Result<bool> {
    for_each_list_in(e, dir, node, cx, |d, edges| {
        for edge in edges {
            // An undirected self-loop is one relationship: count it once.
            if dir == Dir::Both && d == Direction::In && edge.node == node {
                continue;
            }
            if !f(*edge)? {
                return Ok(false);
            }
        }
        Ok(true)
    })
}

/// Whether a relationship's properties match the pattern's.
pub(crate) fn rel_matches(
    rel: RelId,
    props: &[(usize, BExpr)],
    row: &[Val],
    cx: &Ctx<'_>,
) -> Result<bool> {
    for (key, value) in props {
        let want = eval(value, row, cx)?;
        if equals(&property(&Val::Rel(rel), *key, cx)?, &want) != Some(true) {
            return Ok(false);
        }
    }
    Ok(true)
}

fn expand(
    e: &Expand,
    row: &mut [Val],
    cx: &Ctx<'_>,
    next: &mut impl FnMut(&mut [Val]) -> Result<bool>,
) -> Result<bool> {
    let Val::Node(from) = row[e.from] else {
        return Ok(true);
    };
    if e.into {
        let Val::Node(target) = row[e.to] else {
            return Ok(true);
        };
        // Both ends bound: the relationships to `target` are one run found by
        // binary search, whatever the list's order.
        return for_each_run(e, from, target, cx, |d, edges| {
            if e.dir == Dir::Both && d == Direction::In && target == from {
                return Ok(true);
            }
            for edge in edges {
                cx.tick()?;
                if !e.rel_props.is_empty() && !rel_matches(edge.rel, &e.rel_props, row, cx)? {
                    continue;
                }
                if e.bind_rel {
                    row[e.rel] = Val::Rel(edge.rel);
                }
                if !next(row)? {
                    return Ok(false);
                }
            }
            Ok(true)
        });
    }
    let ahead = e.prefetch.record || e.prefetch.props;
    for_each_list(e, from, cx, |d, edges| {
        for window in edges.chunks(if ahead {
            PREFETCH_WINDOW
        } else {
            edges.len().max(1)
        }) {
            if ahead && edges.len() > 1 {
                prefetch(e.prefetch, window, cx);
            }
            for edge in window {
                // An undirected self-loop is one relationship: count it once.
                if e.dir == Dir::Both && d == Direction::In && edge.node == from {
                    continue;
                }
                if !e.rel_props.is_empty() && !rel_matches(edge.rel, &e.rel_props, row, cx)? {
                    continue;
                }
                if e.bind_rel {
                    row[e.rel] = Val::Rel(edge.rel);
                }
                row[e.to] = Val::Node(edge.node);
                if !next(row)? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    })
}

/// Edges whose nodes are fetched together, before their rows go on.
const PREFETCH_WINDOW: usize = 16;

/// Reads the records of the edges' nodes that the rest of the query will read, in one
/// tight loop: the cache misses of different edges overlap here, where the rows' own
/// reads, far apart, would wait for one another. Only the record (the node's shape):
/// properties live in columns, one array per key, so fetching "the properties" ahead
/// meant gathering every column of the node (`node_properties`: a vector and a read of
/// each key) for the one or two the query reads, which cost more than the misses it
/// saved (a two-hop `RETURN DISTINCT f.id`, SF0.1: see docs/benchmarks.md).
fn prefetch(what: Prefetch, edges: &[Edge], cx: &Ctx<'_>) {
    use std::hint::black_box;
    if !(what.record || what.props) {
        return;
    }
    for edge in edges {
        black_box(cx.graph().node_labels(edge.node).len());
    }
}

fn distinct_rels(row: &[Val], slots: &[usize]) -> bool {
    let mut seen: Vec<RelId> = Vec::new();
    for s in slots {
        match &row[*s] {
            Val::Rel(r) => seen.push(*r),
            Val::List(l) => {
                seen.extend(
                    l.iter()
                        .filter_map(|v| if let Val::Rel(r) = v { Some(*r) } else { None }),
                )
            }
            _ => {}
        }
    }
    seen.sort_unstable();
    seen.windows(2).all(|w| w[0] != w[1])
}

fn build_path(row: &[Val], start: usize, hops: &[usize], cx: &Ctx<'_>) -> Option<Path> {
    let Val::Node(first) = row[start] else {
        return None;
    };
    let mut path = Path {
        nodes: vec![first],
        rels: Vec::new(),
    };
    for h in hops {
        match &row[*h] {
            Val::Rel(r) => extend_path(&mut path, *r, cx)?,
            Val::List(l) => {
                for v in l.iter() {
                    let Val::Rel(r) = v else { return None };
                    extend_path(&mut path, *r, cx)?;
                }
            }
            _ => return None,
        }
    }
    Some(path)
}

/// Appends a relationship and the node at its far end from the path's last node.
pub(crate) fn extend_path(path: &mut Path, r: RelId, cx: &Ctx<'_>) -> Option<()> {
    let at = *path.nodes.last()?;
    let g = cx.graph();
    let rel = g.relationship(r)?;
    path.rels.push(r);
    path.nodes
        .push(if rel.src == at { rel.dst } else { rel.src });
    Some(())
}
