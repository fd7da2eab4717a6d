//! Q7: the shortest friendship path between two people, by bidirectional BFS.
//!
//! Both searches advance a whole level at a time, always on the smaller frontier, and
//! stop at the first level where they touch: if the balls of radius `kf` and `kb`
//! first meet there, every meeting node lies on a shortest path of length `kf + kb`.
//! To make the answer deterministic the path returned is the lexicographically
//! smallest sequence of person ids: the nodes on *some* shortest path are marked
//! (walking each search's levels back from the meeting nodes), then the path is built
//! from the source, taking at each step the smallest-id marked friend one level on.

use kith_core::{GraphView, NodeId, Value};
use rustc_hash::FxHashMap;

use super::schema::Shindig;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["length", "path"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shindig.shortest_path",
    description: "Shortest friendship path between two people (smallest ids on ties)",
    params: &[
        ParamSpec::required("from_id", ParamType::Int, "the first person"),
        ParamSpec::required("to_id", ParamType::Int, "the last person"),
    ],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Shindig::resolve(g)?;
    let from = s.person(p.int("from_id")?)?;
    let to = s.person(p.int("to_id")?)?;
    let mut out = ResultSet::new(COLUMNS);
    if let Some(path) = shortest_path(&s, from, to) {
        let ids = path.iter().map(|n| Value::Int(s.ext_id(*n))).collect();
        out.push([Value::Int(path.len() as i64 - 1), Value::List(ids)]);
    }
    Ok(out)
}

/// One side of the search: distance of every reached node, and the levels in order.
struct Side {
    distance: FxHashMap<NodeId, u32>,
    levels: Vec<Vec<NodeId>>,
}

impl Side {
    fn new(start: NodeId) -> Self {
        let mut distance = FxHashMap::default();
        distance.insert(start, 0);
        Side {
            distance,
            levels: vec![vec![start]],
        }
    }

    fn frontier(&self) -> &[NodeId] {
        self.levels.last().map_or(&[], Vec::as_slice)
    }

    /// Expands one level; returns the new nodes the other side has reached.
    fn expand(&mut self, s: &Shindig<'_>, other: &Side) -> Vec<NodeId> {
        let level = self.levels.len() as u32;
        let mut next = Vec::new();
        let mut meeting = Vec::new();
        let frontier = self.levels.last().map_or(&[][..], Vec::as_slice);
        for &u in frontier {
            for f in s.friends(u) {
                if let std::collections::hash_map::Entry::Vacant(slot) = self.distance.entry(f.node)
                {
                    slot.insert(level);
                    next.push(f.node);
                    if other.distance.contains_key(&f.node) {
                        meeting.push(f.node);
                    }
                }
            }
        }
        self.levels.push(next);
        meeting
    }

    /// Marks, level by level back towards this side's start, the nodes that have a
    /// friend already marked one level further: they lie on a shortest path.
    fn mark_back(&self, s: &Shindig<'_>, meeting: &[NodeId], on_path: &mut FxHashMap<NodeId, u32>) {
        let mut marked: Vec<NodeId> = meeting.to_vec();
        for level in (0..self.levels.len().saturating_sub(1)).rev() {
            let mut now = Vec::new();
            for &u in &self.levels[level] {
                if s.friends(u)
                    .iter()
                    .any(|f| marked.binary_search(&f.node).is_ok())
                {
                    now.push(u);
                }
            }
            now.sort_unstable();
            for &u in &now {
                on_path.insert(u, level as u32);
            }
            marked = now;
        }
    }
}

fn shortest_path(s: &Shindig<'_>, from: NodeId, to: NodeId) -> Option<Vec<NodeId>> {
    if from == to {
        return Some(vec![from]);
    }
    let mut forward = Side::new(from);
    let mut backward = Side::new(to);
    let meeting = loop {
        if forward.frontier().is_empty() || backward.frontier().is_empty() {
            return None;
        }
        let meeting = if forward.frontier().len() <= backward.frontier().len() {
            forward.expand(s, &backward)
        } else {
            backward.expand(s, &forward)
        };
        if !meeting.is_empty() {
            break meeting;
        }
    };
    let kf = (forward.levels.len() - 1) as u32;
    let kb = (backward.levels.len() - 1) as u32;
    let length = kf + kb;
    // Position of each node on some shortest path = its distance from `from`.
    let mut meeting = meeting;
    meeting.sort_unstable();
    let mut on_path: FxHashMap<NodeId, u32> = FxHashMap::default();
    for &m in &meeting {
        on_path.insert(m, kf);
    }
    forward.mark_back(s, &meeting, &mut on_path);
    let mut backward_marks = FxHashMap::default();
    backward.mark_back(s, &meeting, &mut backward_marks);
    for (node, dist_to_end) in backward_marks {
        on_path.insert(node, length - dist_to_end);
    }
    let mut path = Vec::with_capacity(length as usize + 1);
    path.push(from);
    for position in 1..=length {
        let last = path[path.len() - 1];
        let next = s
            .friends(last)
            .iter()
            .filter(|f| on_path.get(&f.node) == Some(&position))
            .map(|f| (s.ext_id(f.node), f.node))
            .min()?;
        path.push(next.1);
    }
    Some(path)
}
