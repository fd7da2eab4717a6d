//! Traversals in the style of Neo4j's traversal framework: from a start node, follow
//! the relationship types an expander chooses by the current node's label, depth or
//! breadth first, under a uniqueness rule, and hand every node reached to an
//! evaluator.
//!
//! S2 taught that allocation is part of the cost: a traversal here allocates its
//! stack or queue and, under node uniqueness, one bit per node. Depth first keeps the
//! smaller frontier (a path's worth of siblings, not a whole level); which is faster
//! depends on how node ids follow the walk (docs/benchmarks.md, "S2").
//!
//! Node uniqueness marks a node when it is reached, so depth first with a depth bound
//! may reach a node first by a long path and then not again by a short one within the
//! bound: breadth first is the order for "everything within N hops".

use std::collections::VecDeque;

use kith_core::{Direction, GraphView, LabelId, NodeId, RelTypeId};

/// Depth first or breadth first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Depth first: a stack.
    DepthFirst,
    /// Breadth first: a queue, level by level.
    BreadthFirst,
}

/// When a node may be visited again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uniqueness {
    /// Never: each node once (a bitset over the node ids). Terminates on any graph.
    NodeGlobal,
    /// Whenever a relationship leads there again: for trees and DAGs, where it saves
    /// the bitset. Bound the depth on a graph with cycles.
    None,
}

/// One expansion rule: from nodes with `label` (any label if `None`), follow
/// `rel_type` in `direction`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The label of the node expanded from.
    pub label: Option<LabelId>,
    /// The relationship type followed.
    pub rel_type: RelTypeId,
    /// Which way.
    pub direction: Direction,
}

/// What to traverse.
#[derive(Clone, Debug)]
pub struct Traversal {
    /// Depth or breadth first.
    pub order: Order,
    /// The uniqueness rule.
    pub uniqueness: Uniqueness,
    /// The expander: every rule whose label the current node has is followed.
    pub rules: Vec<Rule>,
    /// Deepest level followed (the start is level 0), `None` for no bound.
    pub max_depth: Option<u32>,
    /// Most nodes put on the frontier (so also most visited): bounds the time and
    /// memory of a walk without uniqueness on a graph with cycles or many paths.
    pub pushes_max: u64,
}

/// A traversal stopped at [`Traversal::pushes_max`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLong {
    /// What it had done when it stopped.
    pub walked: Walked,
}

/// What a traversal did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Walked {
    /// Nodes handed to the evaluator, the start included.
    pub visited: u64,
    /// Relationships followed.
    pub expanded: u64,
}

impl Traversal {
    /// Walks from `start`, calling `visit(node, depth)` for every node reached (the
    /// start first); `Err` once more than `pushes_max` nodes were reached.
    pub fn run(
        &self,
        g: &dyn GraphView,
        start: NodeId,
        mut visit: impl FnMut(NodeId, u32),
    ) -> Result<Walked, TooLong> {
        let mut seen = match self.uniqueness {
            Uniqueness::NodeGlobal => Some(Bits::new(g.node_id_bound())),
            Uniqueness::None => None,
        };
        if let Some(seen) = seen.as_mut() {
            seen.insert(start);
        }
        let overlapping = self.rules.iter().enumerate().any(|(i, r)| {
            self.rules[..i]
                .iter()
                .any(|e| (e.rel_type, e.direction) == (r.rel_type, r.direction))
        });
        let mut walked = Walked::default();
        let mut pushes: u64 = 1;
        let mut frontier = Frontier::new(self.order, start);
        while let Some((node, depth)) = frontier.pop() {
            visit(node, depth);
            walked.visited += 1;
            if self.max_depth.is_some_and(|max| depth >= max) {
                continue;
            }
            // The label bitmaps, not the node's label list: a bit per node is the
            // smallest thing to touch for each of a million nodes.
            let applies = |r: &Rule| r.label.is_none_or(|l| g.has_label(node, l));
            for (i, rule) in self.rules.iter().enumerate() {
                // A type and direction two applicable rules share is followed once
                // (checked only when some rules do share one: the walk's inner loop).
                let shared = overlapping
                    && self.rules[..i].iter().any(|e| {
                        applies(e) && (e.rel_type, e.direction) == (rule.rel_type, rule.direction)
                    });
                if !applies(rule) || shared {
                    continue;
                }
                for edge in g.neighbors(node, rule.rel_type, rule.direction) {
                    walked.expanded += 1;
                    if seen.as_mut().is_none_or(|s| s.insert(edge.node)) {
                        pushes += 1;
                        if pushes > self.pushes_max {
                            return Err(TooLong { walked });
                        }
                        frontier.push(edge.node, depth + 1);
                    }
                }
            }
        }
        Ok(walked)
    }
}

/// The nodes still to visit, with their depth.
enum Frontier {
    Stack(Vec<(NodeId, u32)>),
    Queue(VecDeque<(NodeId, u32)>),
}

impl Frontier {
    fn new(order: Order, start: NodeId) -> Frontier {
        match order {
            Order::DepthFirst => Frontier::Stack(vec![(start, 0)]),
            Order::BreadthFirst => Frontier::Queue(VecDeque::from([(start, 0)])),
        }
    }

    fn push(&mut self, node: NodeId, depth: u32) {
        match self {
            Frontier::Stack(s) => s.push((node, depth)),
            Frontier::Queue(q) => q.push_back((node, depth)),
        }
    }

    fn pop(&mut self) -> Option<(NodeId, u32)> {
        match self {
            Frontier::Stack(s) => s.pop(),
            Frontier::Queue(q) => q.pop_front(),
        }
    }
}

/// One bit per node id.
struct Bits(Vec<u64>);

impl Bits {
    fn new(bound: usize) -> Bits {
        Bits(vec![0; bound.div_ceil(64)])
    }

    /// Sets the node's bit; true if it was clear.
    fn insert(&mut self, node: NodeId) -> bool {
        let (word, bit) = (node.index() / 64, node.index() % 64);
        let Some(w) = self.0.get_mut(word) else {
            return false;
        };
        let fresh = *w & (1 << bit) == 0;
        *w |= 1 << bit;
        fresh
    }
}
