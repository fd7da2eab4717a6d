//! A vector of copy-on-write pages.

use std::sync::Arc;

/// Slots per page. 1,024 keeps a version's page table short (a million slots is a
/// thousand `Arc`s to clone per published batch) while a written page copies at most
/// a thousand slots.
const PAGE_BITS: usize = 10;
const PAGE_SLOTS: usize = 1 << PAGE_BITS;

/// A growable vector whose pages are shared between versions.
///
/// `clone` copies only the page table. Writing a slot copies its page first if
/// another version still shares it (`Arc::make_mut`), so older versions never change.
#[derive(Clone, Debug)]
pub(crate) struct PagedVec<T> {
    pages: Vec<Arc<Vec<T>>>,
    len: usize,
}

impl<T> Default for PagedVec<T> {
    fn default() -> Self {
        PagedVec {
            pages: Vec::new(),
            len: 0,
        }
    }
}

impl<T: Clone> PagedVec<T> {
    /// Builds from a plain vector (bulk load), cutting it into pages.
    pub(crate) fn from_vec(items: Vec<T>) -> Self {
        let len = items.len();
        let mut pages = Vec::with_capacity(len.div_ceil(PAGE_SLOTS));
        let mut iter = items.into_iter().peekable();
        while iter.peek().is_some() {
            let page: Vec<T> = iter.by_ref().take(PAGE_SLOTS).collect();
            pages.push(Arc::new(page));
        }
        PagedVec { pages, len }
    }

    /// Number of slots.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// A slot, if in range.
    #[inline]
    pub(crate) fn get(&self, index: usize) -> Option<&T> {
        self.pages
            .get(index >> PAGE_BITS)?
            .get(index & (PAGE_SLOTS - 1))
    }

    /// A slot for writing, copying its page first if it is shared.
    pub(crate) fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        let page = self.pages.get_mut(index >> PAGE_BITS)?;
        Arc::make_mut(page).get_mut(index & (PAGE_SLOTS - 1))
    }

    /// Appends a slot.
    pub(crate) fn push(&mut self, item: T) {
        if self.len.is_multiple_of(PAGE_SLOTS) {
            let mut page = Vec::with_capacity(PAGE_SLOTS);
            page.push(item);
            self.pages.push(Arc::new(page));
        } else if let Some(last) = self.pages.last_mut() {
            Arc::make_mut(last).push(item);
        }
        self.len += 1;
    }

    /// All slots in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        self.pages.iter().flat_map(|p| p.iter())
    }

    /// Pages, for memory accounting.
    pub(crate) fn pages(&self) -> &[Arc<Vec<T>>] {
        &self.pages
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
        assert!(Arc::ptr_eq(&a.pages()[0], &b.pages()[0]));
        assert!(!Arc::ptr_eq(&a.pages()[2], &b.pages()[2]));
    }

    #[test]
    fn push_across_page_boundaries() {
        let mut v = PagedVec::default();
        for i in 0..(PAGE_SLOTS * 2 + 5) {
            v.push(i);
        }
        assert_eq!(v.len(), PAGE_SLOTS * 2 + 5);
        assert!(v.iter().copied().eq(0..PAGE_SLOTS * 2 + 5));
    }
}
