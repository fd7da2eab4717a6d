//! A vector of copy-on-write pages, in copy-on-write chunks of pages.

use std::sync::Arc;

/// Slots per page: a written page copies at most 1,024 slots.
const PAGE_BITS: usize = 10;
const PAGE_SLOTS: usize = 1 << PAGE_BITS;
/// Pages per chunk. A version's top-level table holds one `Arc` per chunk, so cloning
/// it costs one reference count per million slots; a write copies one chunk's page
/// table (1,024 pointers) and one page. With a flat page table, every commit of a
/// 20-million-node graph cloned and later dropped 20,000 `Arc`s, which halved write
/// throughput as the graph grew.
const CHUNK_BITS: usize = 10;
const CHUNK_PAGES: usize = 1 << CHUNK_BITS;
const CHUNK_SLOT_BITS: usize = PAGE_BITS + CHUNK_BITS;

type Page<T> = Arc<Vec<T>>;
type Chunk<T> = Arc<Vec<Page<T>>>;

/// A growable vector whose pages are shared between versions.
///
/// `clone` copies only the top-level table. Writing a slot copies its chunk's page
/// table and its page first if another version still shares them (`Arc::make_mut`),
/// so older versions never change.
#[derive(Clone, Debug)]
pub(crate) struct PagedVec<T> {
    chunks: Vec<Chunk<T>>,
    len: usize,
}

impl<T> Default for PagedVec<T> {
    fn default() -> Self {
        PagedVec {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

impl<T: Clone> PagedVec<T> {
    /// Builds from a plain vector (bulk load), cutting it into pages and chunks.
    pub(crate) fn from_vec(items: Vec<T>) -> Self {
        let len = items.len();
        let mut pages = Vec::with_capacity(len.div_ceil(PAGE_SLOTS));
        let mut iter = items.into_iter().peekable();
        while iter.peek().is_some() {
            let page: Vec<T> = iter.by_ref().take(PAGE_SLOTS).collect();
            pages.push(Arc::new(page));
        }
        let mut chunks = Vec::with_capacity(pages.len().div_ceil(CHUNK_PAGES));
        let mut pages = pages.into_iter().peekable();
        while pages.peek().is_some() {
            let chunk: Vec<Page<T>> = pages.by_ref().take(CHUNK_PAGES).collect();
            chunks.push(Arc::new(chunk));
        }
        PagedVec { chunks, len }
    }

    /// Number of slots.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// A slot, if in range.
    #[inline]
    pub(crate) fn get(&self, index: usize) -> Option<&T> {
        self.chunks
            .get(index >> CHUNK_SLOT_BITS)?
            .get((index >> PAGE_BITS) & (CHUNK_PAGES - 1))?
            .get(index & (PAGE_SLOTS - 1))
    }

    /// A slot for writing, copying its chunk table and page first if shared.
    pub(crate) fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        let chunk = self.chunks.get_mut(index >> CHUNK_SLOT_BITS)?;
        let page = Arc::make_mut(chunk).get_mut((index >> PAGE_BITS) & (CHUNK_PAGES - 1))?;
        Arc::make_mut(page).get_mut(index & (PAGE_SLOTS - 1))
    }

    /// Appends a slot.
    pub(crate) fn push(&mut self, item: T) {
        if self.len.is_multiple_of(PAGE_SLOTS) {
            let mut page = Vec::with_capacity(PAGE_SLOTS);
            page.push(item);
            let page = Arc::new(page);
            if (self.len >> PAGE_BITS).is_multiple_of(CHUNK_PAGES) {
                let mut chunk = Vec::with_capacity(CHUNK_PAGES);
                chunk.push(page);
                self.chunks.push(Arc::new(chunk));
            } else if let Some(chunk) = self.chunks.last_mut() {
                Arc::make_mut(chunk).push(page);
            }
        } else if let Some(page) = self
            .chunks
            .last_mut()
            .and_then(|chunk| Arc::make_mut(chunk).last_mut())
        {
            Arc::make_mut(page).push(item);
        }
        self.len += 1;
    }

    /// All slots in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        self.pages().flat_map(|p| p.iter())
    }

    /// Pages in order, for memory accounting.
    pub(crate) fn pages(&self) -> impl Iterator<Item = &Page<T>> + '_ {
        self.chunks.iter().flat_map(|c| c.iter())
    }

    /// Bytes of the chunk tables (memory accounting).
    pub(crate) fn table_bytes(&self) -> usize {
        self.chunks.capacity() * std::mem::size_of::<Chunk<T>>()
            + self
                .chunks
                .iter()
                .map(|c| c.capacity() * std::mem::size_of::<Page<T>>())
                .sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_do_not_leak_into_clones() {
        let mut a = PagedVec::from_vec((0..3000).collect::<Vec<u32>>());
        let b = a.clone();
        *a.get_mut(2500).expect("in range") = 7;
        a.push(3000);
        assert_eq!(b.get(2500), Some(&2500));
        assert_eq!(a.get(2500), Some(&7));
        assert_eq!(b.len(), 3000);
        assert_eq!(a.len(), 3001);
        assert_eq!(a.get(3000), Some(&3000));
        assert_eq!(b.get(3000), None);
        // Untouched pages are still shared.
        let (pa, pb): (Vec<_>, Vec<_>) = (a.pages().collect(), b.pages().collect());
        assert!(Arc::ptr_eq(pa[0], pb[0]));
        assert!(!Arc::ptr_eq(pa[2], pb[2]));
    }

    #[test]
    fn push_and_write_across_page_and_chunk_boundaries() {
        let n = PAGE_SLOTS * CHUNK_PAGES * 2 + PAGE_SLOTS + 5;
        let mut v = PagedVec::default();
        for i in 0..n {
            v.push(i);
        }
        let snapshot = v.clone();
        assert_eq!(v.len(), n);
        assert!(v.iter().copied().eq(0..n));
        for i in [0, PAGE_SLOTS, PAGE_SLOTS * CHUNK_PAGES, n - 1] {
            *v.get_mut(i).expect("in range") += 1;
            assert_eq!(v.get(i), Some(&(i + 1)));
            assert_eq!(snapshot.get(i), Some(&i));
        }
        assert_eq!(v.get(n), None);
        let bulk = PagedVec::from_vec((0..n).collect::<Vec<usize>>());
        assert!(bulk.iter().eq(snapshot.iter()));
        assert_eq!(bulk.pages().count(), n.div_ceil(PAGE_SLOTS));
    }
}
