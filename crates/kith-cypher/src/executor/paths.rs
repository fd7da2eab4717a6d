//! Variable-length expands (every trail) and shortest paths (breadth-first).

use std::sync::Arc;

use kith_core::{Edge, NodeId, RelId};
use rustc_hash::{FxHashMap, FxHashSet};

use super::steps::for_each_edge;
use super::walk_guard::Guard;
use super::Ctx;
use crate::error::Result;
use crate::planner::Dir;
use crate::planner::Expand;
use crate::value::{Path, Val};

fn rel_list(rels: &[RelId]) -> Val {
    Val::list(rels.iter().map(|r| Val::Rel(*r)).collect())
}

/// `(a)-[*min..max]-(b)`: every path that uses no relationship twice, depth first.
pub(crate) fn var_expand(
    e: &Expand,
    w: &mut Trail,
    row: &mut [Val],
    cx: &Ctx<'_>,
    next: &mut impl FnMut(&mut [Val]) -> Result<bool>,
) -> Result<bool> {
    let Val::Node(from) = row[e.from] else {
        return Ok(true);
    };
    let target = match (e.into, &row[e.to]) {
        (false, _) => None,
        (true, Val::Node(t)) => Some(*t),
        (true, _) => return Ok(true),
    };
    let walk = Walk::new(e, row, cx);
    if !walk.guard.node(from)? {
        return Ok(true); // every walk starts at a node the WHERE refuses
    }
    if e.min == 0 && target.is_none_or(|t| t == from) {
        row[e.rel] = walk.rel_value(&[]);
        row[e.to] = Val::Node(from);
        if !next(row)? {
            return Ok(false);
        }
    }
    walk.trails(row, from, target, w, next)
}

/// The resolved shape of a variable-length walk: which (type, direction) lists each
/// node contributes, found once per operator rather than per node.
struct Walk<'a, 'g> {
    e: &'a Expand,
    cx: &'a Ctx<'g>,
    /// What each relationship and node of the walk must pass.
    guard: Guard<'a, 'g>,
    /// (type, direction) pairs in visiting order; empty types mean "ask each node".
    pairs: Vec<(kith_core::RelTypeId, kith_core::Direction)>,
}

/// The walk's reusable buffers: the stack of (node, pair index, edge index) frames
/// and the trail's relationships.
#[derive(Default)]
pub(crate) struct Trail {
    frames: Vec<(NodeId, usize, usize)>,
    path: Vec<RelId>,
    on_path: FxHashSet<RelId>,
    any_type_pairs: Vec<Vec<(kith_core::RelTypeId, kith_core::Direction)>>,
}

impl<'a, 'g> Walk<'a, 'g> {
    fn new(e: &'a Expand, row: &[Val], cx: &'a Ctx<'g>) -> Walk<'a, 'g> {
        let mut pairs = Vec::new();
        if !e.types.is_empty() {
            for &d in super::steps::directions(e.dir) {
                for t in e.types.iter().filter_map(|t| cx.rel_type(*t)) {
                    pairs.push((t, d));
                }
            }
        }
        Walk {
            e,
            cx,
            guard: Guard::new(e, row, cx),
            pairs,
        }
    }

    fn rel_value(&self, rels: &[RelId]) -> Val {
        if self.e.bind_rel {
            rel_list(rels)
        } else {
            Val::Null
        }
    }

    /// The (type, direction) pairs of a node when the pattern names no type.
    fn pairs_of(&self, node: NodeId) -> Vec<(kith_core::RelTypeId, kith_core::Direction)> {
        let mut out = Vec::new();
        for &d in super::steps::directions(self.e.dir) {
            for t in self.cx.graph().rel_types_at(node, d) {
                out.push((t, d));
            }
        }
        out
    }

    /// The `ei`-th edge of `node` over the pairs from `pi` on, skipping what the
    /// pattern excludes; advances (pi, ei) past it.
    fn next_edge(
        &self,
        node: NodeId,
        pairs: &[(kith_core::RelTypeId, kith_core::Direction)],
        pi: &mut usize,
        ei: &mut usize,
    ) -> Result<Option<Edge>> {
        let g = self.cx.graph();
        while let Some(&(t, d)) = pairs.get(*pi) {
            let edges = g.neighbors(node, t, d);
            while let Some(edge) = edges.get(*ei) {
                *ei += 1;
                // An undirected self-loop is one relationship: count it once.
                if self.e.dir == crate::planner::Dir::Both
                    && d == kith_core::Direction::In
                    && edge.node == node
                {
                    continue;
                }
                if self.guard.edge(edge)? {
                    return Ok(Some(*edge));
                }
            }
            *pi += 1;
            *ei = 0;
        }
        Ok(None)
    }

    fn trails(
        &self,
        row: &mut [Val],
        from: NodeId,
        target: Option<NodeId>,
        w: &mut Trail,
        next: &mut impl FnMut(&mut [Val]) -> Result<bool>,
    ) -> Result<bool> {
        let e = self.e;
        if e.max == 0 {
            return Ok(true);
        }
        let typed = !self.pairs.is_empty() || !e.types.is_empty();
        w.frames.clear();
        w.path.clear();
        w.on_path.clear();
        w.any_type_pairs.clear();
        w.frames.push((from, 0, 0));
        if !typed {
            w.any_type_pairs.push(self.pairs_of(from));
        }
        while let Some(&mut (node, ref mut pi, ref mut ei)) = w.frames.last_mut() {
            let pairs: &[_] = if typed {
                &self.pairs
            } else {
                w.any_type_pairs.last().map_or(&[], |p| p.as_slice())
            };
            let (mut p, mut i) = (*pi, *ei);
            let found = self.next_edge(node, pairs, &mut p, &mut i)?;
            if let Some(top) = w.frames.last_mut() {
                top.1 = p;
                top.2 = i;
            }
            let Some(edge) = found else {
                w.frames.pop();
                if !typed {
                    w.any_type_pairs.pop();
                }
                if let Some(r) = w.path.pop() {
                    w.on_path.remove(&r);
                }
                continue;
            };
            self.cx.tick()?;
            if w.on_path.contains(&edge.rel) {
                continue;
            }
            w.path.push(edge.rel);
            w.on_path.insert(edge.rel);
            let depth = w.path.len() as u32;
            if depth >= e.min && target.is_none_or(|t| t == edge.node) {
                if e.bind_rel {
                    row[e.rel] = rel_list(&w.path);
                }
                row[e.to] = Val::Node(edge.node);
                if !next(row)? {
                    return Ok(false);
                }
            }
            if depth < e.max {
                w.frames.push((edge.node, 0, 0));
                if !typed {
                    w.any_type_pairs.push(self.pairs_of(edge.node));
                }
            } else if let Some(r) = w.path.pop() {
                w.on_path.remove(&r);
            }
        }
        Ok(true)
    }
}

/// `shortestPath` / `allShortestPaths` between two bound nodes. A pair is searched
/// from both ends at once (a breadth-first search from each, the smaller frontier
/// growing first, until they meet); consecutive rows with the same start node (IC1:
/// one person, many candidates) then share one search from the start, resumed layer
/// by layer as far as each target needs.
pub(crate) fn shortest(
    e: &Expand,
    all: bool,
    path_slot: Option<usize>,
    st: &mut ShortestState,
    row: &mut [Val],
    cx: &Ctx<'_>,
    next: &mut impl FnMut(&mut [Val]) -> Result<bool>,
) -> Result<bool> {
    let (Val::Node(a), Val::Node(b)) = (&row[e.from], &row[e.to]) else {
        return Ok(true);
    };
    let (a, b) = (*a, *b);
    let guard = Guard::new(e, row, cx);
    if !guard.node(a)? || !guard.node(b)? {
        return Ok(true); // no path through an end the WHERE refuses
    }
    // What the guard checks may read the row: then no search is shared.
    let paths = if guard.is_trivial() && st.last == Some(a) {
        let search = match &mut st.bfs {
            Some(s) if s.source == a && s.only.is_none() => s,
            other => other.insert(Bfs::new(a)),
        };
        search.paths_to(b, e, all, &guard, cx)?
    } else {
        st.last = Some(a);
        Bfs::between(a, b, e, all, &guard, cx)?
    };
    for p in paths {
        row[e.rel] = if e.bind_rel {
            rel_list(&p.rels)
        } else {
            Val::Null
        };
        if let Some(s) = path_slot {
            row[s] = Val::Path(Arc::new(p));
        }
        if !next(row)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A shortest-path step's state over the rows of a run.
#[derive(Default)]
pub(crate) struct ShortestState {
    /// The start node of the last row.
    last: Option<NodeId>,
    /// The search shared by rows with the same start node.
    bfs: Option<Bfs>,
}

/// The other way round.
fn reverse(dir: Dir) -> Dir {
    match dir {
        Dir::Out => Dir::In,
        Dir::In => Dir::Out,
        Dir::Both => Dir::Both,
    }
}

/// A breadth-first search from one node, kept layer by layer: the depth of every node
/// reached, its first predecessor, and (for all shortest paths) the others.
pub(crate) struct Bfs {
    source: NodeId,
    depth_of: FxHashMap<NodeId, u32>,
    first: FxHashMap<NodeId, (NodeId, RelId)>,
    more: FxHashMap<NodeId, Vec<(NodeId, RelId)>>,
    frontier: Vec<NodeId>,
    depth: u32,
    /// When set, the only nodes the search enters, each at its depth: those on the
    /// shortest paths to one target.
    only: Option<FxHashMap<NodeId, u32>>,
}

impl Bfs {
    fn new(source: NodeId) -> Bfs {
        let mut depth_of = FxHashMap::default();
        depth_of.insert(source, 0);
        Bfs {
            source,
            depth_of,
            first: FxHashMap::default(),
            more: FxHashMap::default(),
            frontier: vec![source],
            depth: 0,
            only: None,
        }
    }

    /// The shortest paths from `a` to `b`, searched from both ends. The two searches
    /// give the length and every node on a shortest path; a search from `a` through
    /// those nodes alone then finds the paths exactly as a search from `a` through the
    /// whole graph would, in the same order.
    fn between(
        a: NodeId,
        b: NodeId,
        e: &Expand,
        all: bool,
        guard: &Guard<'_, '_>,
        cx: &Ctx<'_>,
    ) -> Result<Vec<Path>> {
        if a == b {
            return Bfs::new(a).paths_to(b, e, all, guard, cx);
        }
        let keep = |edge: &Edge| guard.edge(edge);
        // Side 0 searches from `a` along the pattern, side 1 from `b` against it.
        let dirs = [e.dir, reverse(e.dir)];
        let mut dist: [FxHashMap<NodeId, u32>; 2] = Default::default();
        dist[0].insert(a, 0);
        dist[1].insert(b, 0);
        let mut frontier = [vec![a], vec![b]];
        let mut radius = [0u32; 2];
        let mut meet: Vec<NodeId> = Vec::new();
        while meet.is_empty() {
            if radius[0].saturating_add(radius[1]) >= e.max
                || frontier[0].is_empty()
                || frontier[1].is_empty()
            {
                return Ok(Vec::new());
            }
            let s = usize::from(frontier[1].len() < frontier[0].len());
            let depth = radius[s] + 1;
            let mut next = Vec::new();
            let (mine, theirs) = if s == 0 {
                let (x, y) = dist.split_at_mut(1);
                (&mut x[0], &y[0])
            } else {
                let (x, y) = dist.split_at_mut(1);
                (&mut y[0], &x[0])
            };
            for &n in &frontier[s] {
                super::steps::for_each_edge_in(e, dirs[s], n, cx, |edge| {
                    cx.tick()?;
                    if mine.contains_key(&edge.node) || !keep(&edge)? {
                        return Ok(true);
                    }
                    mine.insert(edge.node, depth);
                    next.push(edge.node);
                    if theirs.contains_key(&edge.node) {
                        meet.push(edge.node);
                    }
                    Ok(true)
                })?;
            }
            radius[s] = depth;
            frontier[s] = next;
        }
        // Every meeting node lies on a shortest path and every shortest path passes
        // one; walking back from them along each side's distances finds the rest.
        let total = radius[0] + radius[1];
        if total < e.min.max(1) {
            return Ok(Vec::new());
        }
        let mut on: FxHashMap<NodeId, u32> = FxHashMap::default();
        let mut stack: Vec<(NodeId, usize)> = Vec::new();
        for &m in &meet {
            if on.insert(m, dist[0][&m]).is_none() {
                stack.push((m, 0));
                stack.push((m, 1));
            }
        }
        while let Some((x, side)) = stack.pop() {
            let d = dist[side][&x];
            if d == 0 {
                continue;
            }
            // Towards side's own end: against the direction it searched in.
            super::steps::for_each_edge_in(e, dirs[1 - side], x, cx, |edge| {
                if dist[side].get(&edge.node) == Some(&(d - 1)) && keep(&edge)? {
                    let from_a = if side == 0 { d - 1 } else { total - (d - 1) };
                    if on.insert(edge.node, from_a).is_none() {
                        stack.push((edge.node, side));
                    }
                }
                Ok(true)
            })?;
        }
        let mut search = Bfs::new(a);
        search.only = Some(on);
        search.paths_to(b, e, all, guard, cx)
    }

    /// Expands whole layers until `target` is reached, the graph or the bound ends.
    fn reach(
        &mut self,
        target: NodeId,
        e: &Expand,
        guard: &Guard<'_, '_>,
        cx: &Ctx<'_>,
    ) -> Result<Option<u32>> {
        loop {
            if let Some(&d) = self.depth_of.get(&target) {
                return Ok(Some(d));
            }
            if self.frontier.is_empty() || self.depth >= e.max {
                return Ok(None);
            }
            self.layer(e, guard, cx)?;
        }
    }

    fn layer(&mut self, e: &Expand, guard: &Guard<'_, '_>, cx: &Ctx<'_>) -> Result<()> {
        self.depth += 1;
        let mut next = Vec::new();
        for &n in &self.frontier {
            for_each_edge(e, n, cx, |edge| {
                cx.tick()?;
                if let Some(only) = &self.only {
                    if only.get(&edge.node) != Some(&self.depth) {
                        return Ok(true);
                    }
                }
                if !guard.edge(&edge)? {
                    return Ok(true);
                }
                match self.depth_of.get(&edge.node) {
                    None => {
                        self.depth_of.insert(edge.node, self.depth);
                        self.first.insert(edge.node, (n, edge.rel));
                        next.push(edge.node);
                    }
                    Some(&d) if d == self.depth => {
                        self.more.entry(edge.node).or_default().push((n, edge.rel))
                    }
                    Some(_) => {}
                }
                Ok(true)
            })?;
        }
        self.frontier = next;
        Ok(())
    }

    fn paths_to(
        &mut self,
        b: NodeId,
        e: &Expand,
        all: bool,
        guard: &Guard<'_, '_>,
        cx: &Ctx<'_>,
    ) -> Result<Vec<Path>> {
        let a = self.source;
        if a == b {
            if e.min > 0 {
                // Neo4j 5 refuses this rather than answer "no path" (LDBC IC13 on one
                // person: crates/kith-cypher/tests/fixtures/neo4j-official/test-probes).
                return Err(same_node_shortest());
            }
            return Ok(vec![Path {
                nodes: vec![a],
                rels: Vec::new(),
            }]);
        }
        match self.reach(b, e, guard, cx)? {
            Some(d) if d >= e.min.max(1) => {}
            _ => return Ok(Vec::new()),
        }
        let mut paths = Vec::new();
        let (mut nodes, mut rels) = (vec![b], Vec::new());
        self.unwind(b, all, &mut nodes, &mut rels, &mut paths, cx)?;
        Ok(paths)
    }

    /// Every shortest path (or the first) from the source to `at`, built backwards.
    fn unwind(
        &self,
        at: NodeId,
        all: bool,
        nodes: &mut Vec<NodeId>,
        rels: &mut Vec<RelId>,
        out: &mut Vec<Path>,
        cx: &Ctx<'_>,
    ) -> Result<()> {
        if at == self.source {
            let mut p = Path {
                nodes: nodes.clone(),
                rels: rels.clone(),
            };
            p.nodes.reverse();
            p.rels.reverse();
            out.push(p);
            return cx.check_len(out.len());
        }
        let Some(&first) = self.first.get(&at) else {
            return Ok(());
        };
        let others = if all {
            self.more.get(&at).map_or(&[][..], Vec::as_slice)
        } else {
            &[]
        };
        for &(prev, rel) in std::iter::once(&first).chain(others) {
            cx.tick()?;
            nodes.push(prev);
            rels.push(rel);
            self.unwind(prev, all, nodes, rels, out, cx)?;
            nodes.pop();
            rels.pop();
        }
        Ok(())
    }
}

/// A shortest path asked from a node to itself with no zero length allowed: Neo4j 5
/// refuses it (`51N23`) rather than answer "no path".
pub(crate) fn same_node_shortest() -> crate::error::CypherError {
    crate::error::CypherError::new(
        crate::error::ErrorCode::ExecutionFailed,
        "the shortest path algorithm does not work when the start and end nodes are the same; \
         allow a length of 0 (`*0..`) or compare the two nodes first",
    )
    .with_gql("51N23")
}
