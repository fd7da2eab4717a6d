//! Which nodes carry each label: a bitmap over node ids per label, so a label scan
//! reads the label's own nodes in id order instead of every node's record.
//!
//! The bitmaps are copy-on-write like the node table: pages of 65,536 nodes (8 KiB)
//! in chunks of 1,024 pages, each label's set shared between versions until a write
//! copies its short table, the page (and chunk table) it touches. Pages no node of the
//! label falls in are never allocated: a label of a few nodes costs a page or two, and
//! a label without nodes nothing.

use std::sync::Arc;

use kith_core::{LabelId, NodeId};

use crate::paged::PagedVec;

const WORD_BITS: usize = 6;
const PAGE_WORDS_BITS: usize = 10;
const PAGE_WORDS: usize = 1 << PAGE_WORDS_BITS;
const PAGE_BITS: usize = WORD_BITS + PAGE_WORDS_BITS;
const CHUNK_PAGES_BITS: usize = 10;
const CHUNK_PAGES: usize = 1 << CHUNK_PAGES_BITS;
const CHUNK_BITS: usize = PAGE_BITS + CHUNK_PAGES_BITS;

type Page = Arc<[u64; PAGE_WORDS]>;
type Chunk = Arc<Vec<Option<Page>>>;

/// One label's nodes.
#[derive(Clone, Debug, Default)]
struct LabelBits {
    chunks: Vec<Option<Chunk>>,
    count: usize,
}

impl LabelBits {
    fn insert(&mut self, node: NodeId) {
        let n = node.index();
        let (c, p, w) = (
            n >> CHUNK_BITS,
            (n >> PAGE_BITS) & (CHUNK_PAGES - 1),
            (n >> WORD_BITS) & (PAGE_WORDS - 1),
        );
        if self.chunks.len() <= c {
            self.chunks.resize(c + 1, None);
        }
        let chunk = self.chunks[c].get_or_insert_with(|| Arc::new(vec![None; CHUNK_PAGES]));
        let page = Arc::make_mut(chunk)[p].get_or_insert_with(|| Arc::new([0; PAGE_WORDS]));
        let word = &mut Arc::make_mut(page)[w];
        let bit = 1u64 << (n & 63);
        if *word & bit == 0 {
            *word |= bit;
            self.count += 1;
        }
    }

    fn remove(&mut self, node: NodeId) {
        let n = node.index();
        let (c, p, w) = (
            n >> CHUNK_BITS,
            (n >> PAGE_BITS) & (CHUNK_PAGES - 1),
            (n >> WORD_BITS) & (PAGE_WORDS - 1),
        );
        let bit = 1u64 << (n & 63);
        let present = self
            .chunks
            .get(c)
            .and_then(Option::as_ref)
            .and_then(|chunk| chunk[p].as_ref())
            .is_some_and(|page| page[w] & bit != 0);
        if !present {
            return;
        }
        if let Some(Some(chunk)) = self.chunks.get_mut(c) {
            if let Some(page) = Arc::make_mut(chunk)[p].as_mut() {
                Arc::make_mut(page)[w] &= !bit;
                self.count -= 1;
            }
        }
    }

    #[inline]
    fn contains(&self, node: NodeId) -> bool {
        let n = node.index();
        self.chunks
            .get(n >> CHUNK_BITS)
            .and_then(Option::as_ref)
            .and_then(|chunk| chunk[(n >> PAGE_BITS) & (CHUNK_PAGES - 1)].as_ref())
            .is_some_and(|page| page[(n >> WORD_BITS) & (PAGE_WORDS - 1)] & (1u64 << (n & 63)) != 0)
    }

    fn iter(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.chunks
            .iter()
            .enumerate()
            .filter_map(|(c, chunk)| chunk.as_ref().map(|chunk| (c, chunk)))
            .flat_map(|(c, chunk)| {
                chunk.iter().enumerate().filter_map(move |(p, page)| {
                    page.as_ref()
                        .map(|page| ((c << CHUNK_BITS) | (p << PAGE_BITS), page))
                })
            })
            .flat_map(|(base, page)| {
                page.iter()
                    .enumerate()
                    .filter(|(_, w)| **w != 0)
                    .flat_map(move |(w, &word)| Bits {
                        word,
                        base: base | (w << WORD_BITS),
                    })
            })
    }

    fn bytes(&self) -> usize {
        self.chunks
            .iter()
            .flatten()
            .map(|chunk| {
                chunk.len() * std::mem::size_of::<Option<Page>>()
                    + chunk.iter().flatten().count() * PAGE_WORDS * 8
            })
            .sum()
    }
}

/// The set bits of one word, lowest first, as node ids.
struct Bits {
    word: u64,
    base: usize,
}

impl Iterator for Bits {
    type Item = NodeId;

    #[inline]
    fn next(&mut self) -> Option<NodeId> {
        if self.word == 0 {
            return None;
        }
        let i = self.word.trailing_zeros() as usize;
        self.word &= self.word - 1;
        Some(NodeId((self.base | i) as u32))
    }
}

/// Every label's nodes.
///
/// Labels sit in copy-on-write pages of shared sets, so a version clone and a write
/// cost the same however many labels there are (a flat list of sets was copied whole
/// by every commit: 20 ms a write after 20,000 labels).
#[derive(Clone, Debug, Default)]
pub(crate) struct LabelIndex {
    labels: PagedVec<Option<Arc<LabelBits>>>,
}

impl LabelIndex {
    /// Records that `node` carries `label`.
    pub(crate) fn insert(&mut self, label: LabelId, node: NodeId) {
        let l = label.index();
        while self.labels.len() <= l {
            self.labels.push(None);
        }
        let slot = self.labels.get_mut(l).expect("grown to cover the label");
        Arc::make_mut(slot.get_or_insert_with(Arc::default)).insert(node);
    }

    /// Records that `node` no longer carries `label`; a label left without nodes
    /// keeps no memory.
    pub(crate) fn remove(&mut self, label: LabelId, node: NodeId) {
        if !self.contains(label, node) {
            return;
        }
        let slot = self.labels.get_mut(label.index()).expect("it has the node");
        let bits = slot.as_mut().expect("it has the node");
        if bits.count == 1 {
            *slot = None;
        } else {
            Arc::make_mut(bits).remove(node);
        }
    }

    fn bits(&self, label: LabelId) -> Option<&LabelBits> {
        self.labels.get(label.index())?.as_deref()
    }

    /// Whether `node` carries `label`.
    #[inline]
    pub(crate) fn contains(&self, label: LabelId, node: NodeId) -> bool {
        self.bits(label).is_some_and(|bits| bits.contains(node))
    }

    /// The nodes carrying `label`, in id order.
    pub(crate) fn nodes(&self, label: LabelId) -> impl Iterator<Item = NodeId> + '_ {
        self.bits(label).into_iter().flat_map(LabelBits::iter)
    }

    /// How many nodes carry `label`.
    pub(crate) fn count(&self, label: LabelId) -> usize {
        self.bits(label).map_or(0, |b| b.count)
    }

    /// Heap bytes (memory accounting).
    pub(crate) fn bytes(&self) -> usize {
        let sets = self.labels.iter().flatten().map(|b| b.bytes());
        self.labels.table_bytes() + sets.sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserts_removes_and_lists_in_order() {
        let mut index = LabelIndex::default();
        let ids = [0u32, 1, 63, 64, 65_535, 65_536, 70_000_000, 5];
        for &n in &ids {
            index.insert(LabelId(2), NodeId(n));
        }
        index.insert(LabelId(2), NodeId(5));
        let mut want: Vec<u32> = ids.to_vec();
        want.sort_unstable();
        want.dedup();
        let got: Vec<u32> = index.nodes(LabelId(2)).map(|n| n.0).collect();
        assert_eq!(got, want);
        for n in [
            0u32, 2, 5, 62, 63, 64, 66, 65_535, 65_536, 65_537, 70_000_000, 90_000_000,
        ] {
            assert_eq!(
                index.contains(LabelId(2), NodeId(n)),
                want.contains(&n),
                "{n}"
            );
            assert!(!index.contains(LabelId(1), NodeId(n)));
            assert!(!index.contains(LabelId(9), NodeId(n)));
        }
        assert_eq!(index.count(LabelId(2)), want.len());
        assert_eq!(index.nodes(LabelId(1)).count(), 0);
        assert_eq!(index.nodes(LabelId(9)).count(), 0);

        let shared = index.clone();
        index.remove(LabelId(2), NodeId(64));
        index.remove(LabelId(2), NodeId(64));
        index.remove(LabelId(3), NodeId(64));
        assert_eq!(index.count(LabelId(2)), want.len() - 1);
        assert!(!index.nodes(LabelId(2)).any(|n| n.0 == 64));
        // The clone taken before is a different version: unchanged.
        assert!(shared.nodes(LabelId(2)).any(|n| n.0 == 64));
        assert_eq!(shared.count(LabelId(2)), want.len());
    }

    #[test]
    fn a_label_without_nodes_keeps_no_memory() {
        let mut index = LabelIndex::default();
        index.insert(LabelId(700), NodeId(3));
        let empty = index.bytes();
        index.insert(LabelId(7), NodeId(70_000));
        index.insert(LabelId(7), NodeId(5));
        assert!(index.bytes() > empty);
        index.remove(LabelId(7), NodeId(5));
        index.remove(LabelId(7), NodeId(70_000));
        assert_eq!(index.count(LabelId(7)), 0);
        assert_eq!(index.bytes(), empty, "its pages are gone");
        assert!(index.contains(LabelId(700), NodeId(3)));
    }
}
