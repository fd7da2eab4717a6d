//! A dense visited set for traversals.

use kith_core::NodeId;

/// One bit per node slot. Clearing 83,500 slots is a 10 kB memset, cheaper than the
/// hashing a set would do for the thousands of people a three-level walk reaches.
pub(crate) struct Visited {
    bits: Vec<u64>,
}

impl Visited {
    pub(crate) fn new(node_id_bound: usize) -> Self {
        Visited {
            bits: vec![0; node_id_bound.div_ceil(64)],
        }
    }

    /// Marks a node; true if it was not marked before.
    #[inline]
    pub(crate) fn insert(&mut self, node: NodeId) -> bool {
        let (word, bit) = (node.index() / 64, 1u64 << (node.index() % 64));
        match self.bits.get_mut(word) {
            Some(w) if *w & bit == 0 => {
                *w |= bit;
                true
            }
            _ => false,
        }
    }

    /// Whether a node is marked.
    #[inline]
    pub(crate) fn contains(&self, node: NodeId) -> bool {
        let (word, bit) = (node.index() / 64, 1u64 << (node.index() % 64));
        self.bits.get(word).is_some_and(|w| w & bit != 0)
    }
}
