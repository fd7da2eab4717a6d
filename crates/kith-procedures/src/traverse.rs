//! Traversals in the style of Neo4j's traversal framework: from a start node, follow
//! the relationship types an expander chooses by the current node's label, depth or
//! breadth first, under a uniqueness rule, and hand every node reached to an
//! evaluator.
//!
//! S2 taught that depth-first beats breadth-first (its frontier is a path's worth of
//! siblings, not a whole level) and that allocation is part of the cost: a traversal
//! allocates its stack or queue and, under node uniqueness, one bit per node.

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
    /// Deepest level visited (the start is level 0), `None` for no bound.
    pub max_depth: Option<u32>,
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
    /// start first).
    pub fn run(
        &self,
        g: &dyn GraphView,
        start: NodeId,
        mut visit: impl FnMut(NodeId, u32),
    ) -> Walked {
        let mut seen = match self.uniqueness {
            Uniqueness::NodeGlobal => Some(Bits::new(g.node_id_bound())),
            Uniqueness::None => None,
        };
        if let Some(seen) = seen.as_mut() {
            seen.insert(start);
        }
        let mut walked = Walked::default();
        let mut frontier = Frontier::new(self.order, start);
        while let Some((node, depth)) = frontier.pop() {
            visit(node, depth);
            walked.visited += 1;
            if self.max_depth.is_some_and(|max| depth >= max) {
                continue;
            }
            let labels = g.node_labels(node);
            for rule in &self.rules {
                if rule.label.is_some_and(|l| !labels.contains(&l)) {
                    continue;
                }
                for edge in g.neighbors(node, rule.rel_type, rule.direction) {
                    walked.expanded += 1;
                    if seen.as_mut().is_none_or(|s| s.insert(edge.node)) {
                        frontier.push(edge.node, depth + 1);
                    }
                }
            }
        }
        walked
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
