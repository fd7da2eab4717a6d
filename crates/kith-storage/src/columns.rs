//! Properties in columns: one sparse, paged column of values per property key.
//!
//! A node record used to carry its own `(key, value)` list: 40 bytes a property plus
//! a boxed slice per record. A column holds one key's values for 256 consecutive ids
//! per page, typed by what the page holds: a page of integers, floats, booleans or
//! epoch-millisecond dates is 8 bytes a slot and a presence bit; a page of strings
//! is one shared pointer a slot; anything else (lists, temporal values, a page whose
//! values disagree in type) falls back to whole values. Ids are handed out in load
//! order, which groups a label's nodes, so a key's pages are dense where the label
//! lives and absent elsewhere: a page table entry is all a column costs where no id
//! holds its key.
//!
//! Columns are versioned like the rest of a [`crate::Snapshot`]: page tables and
//! pages are shared between versions, and a write copies the page it changes (256
//! slots: 2 KiB of fixed-width values, 4 KiB of strings, 8 KiB of mixed values) and
//! the page-table page above it (8 KiB) the first time a version touches them.

use std::mem::size_of;
use std::sync::Arc;

use kith_core::{PropKeyId, Value};

use crate::paged::PagedVec;

const PAGE_BITS: usize = 8;
const PAGE_SLOTS: usize = 1 << PAGE_BITS;
const WORDS: usize = PAGE_SLOTS / 64;

/// The fixed-width kinds, stored as 8 raw bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fixed {
    Int,
    Float,
    Bool,
    DateTime,
}

impl Fixed {
    /// The kind and raw bits of a fixed-width value.
    fn of(value: &Value) -> Option<(Fixed, u64)> {
        Some(match value {
            Value::Int(i) => (Fixed::Int, *i as u64),
            Value::Float(f) => (Fixed::Float, f.to_bits()),
            Value::Bool(b) => (Fixed::Bool, u64::from(*b)),
            Value::DateTime(ms) => (Fixed::DateTime, *ms as u64),
            _ => return None,
        })
    }

    fn value(self, bits: u64) -> Value {
        match self {
            Fixed::Int => Value::Int(bits as i64),
            Fixed::Float => Value::Float(f64::from_bits(bits)),
            Fixed::Bool => Value::Bool(bits != 0),
            Fixed::DateTime => Value::DateTime(bits as i64),
        }
    }
}

/// One key's values for `PAGE_SLOTS` consecutive ids.
#[derive(Clone, Debug)]
enum Page {
    /// Values of one fixed-width kind.
    Fixed {
        kind: Fixed,
        present: [u64; WORDS],
        bits: Box<[u64]>,
    },
    /// Strings (`None`: absent).
    Str(Box<[Option<Arc<str>>]>),
    /// Anything (`Null`: absent).
    Mixed(Box<[Value]>),
}

impl Page {
    /// An empty page of the kind that holds `value`.
    fn for_value(value: &Value) -> Page {
        if let Some((kind, _)) = Fixed::of(value) {
            Page::Fixed {
                kind,
                present: [0; WORDS],
                bits: vec![0; PAGE_SLOTS].into_boxed_slice(),
            }
        } else if matches!(value, Value::String(_)) {
            Page::Str(vec![None; PAGE_SLOTS].into_boxed_slice())
        } else {
            Page::Mixed(vec![Value::Null; PAGE_SLOTS].into_boxed_slice())
        }
    }

    #[inline]
    fn get(&self, slot: usize) -> Option<Value> {
        match self {
            Page::Fixed {
                kind,
                present,
                bits,
            } => (present[slot / 64] >> (slot % 64) & 1 == 1).then(|| kind.value(bits[slot])),
            Page::Str(strings) => strings[slot].clone().map(Value::String),
            Page::Mixed(values) => match &values[slot] {
                Value::Null => None,
                v => Some(v.clone()),
            },
        }
    }

    fn has(&self, slot: usize) -> bool {
        match self {
            Page::Fixed { present, .. } => present[slot / 64] >> (slot % 64) & 1 == 1,
            Page::Str(strings) => strings[slot].is_some(),
            Page::Mixed(values) => values[slot] != Value::Null,
        }
    }

    /// Stores a non-null value, widening the page to `Mixed` when it does not fit.
    fn set(&mut self, slot: usize, value: Value) {
        debug_assert!(value != Value::Null, "a null property is an absent one");
        match (&mut *self, Fixed::of(&value), value) {
            (
                Page::Fixed {
                    kind,
                    present,
                    bits,
                },
                Some((k, raw)),
                _,
            ) if *kind == k => {
                present[slot / 64] |= 1 << (slot % 64);
                bits[slot] = raw;
            }
            (Page::Str(strings), _, Value::String(s)) => strings[slot] = Some(s),
            (Page::Mixed(values), _, value) => values[slot] = value,
            (_, _, value) => {
                self.widen();
                self.set(slot, value);
            }
        }
    }

    fn clear(&mut self, slot: usize) {
        match self {
            Page::Fixed { present, .. } => present[slot / 64] &= !(1 << (slot % 64)),
            Page::Str(strings) => strings[slot] = None,
            Page::Mixed(values) => values[slot] = Value::Null,
        }
    }

    /// Turns the page into a `Mixed` one holding the same values.
    fn widen(&mut self) {
        let values: Vec<Value> = (0..PAGE_SLOTS)
            .map(|slot| self.get(slot).unwrap_or(Value::Null))
            .collect();
        *self = Page::Mixed(values.into_boxed_slice());
    }

    /// Heap bytes of the page, strings' shared headers and bytes included.
    fn bytes(&self) -> usize {
        size_of::<Page>()
            + match self {
                Page::Fixed { bits, .. } => bits.len() * size_of::<u64>(),
                Page::Str(strings) => {
                    strings.len() * size_of::<Option<Arc<str>>>()
                        + strings
                            .iter()
                            .flatten()
                            .map(|s| 2 * size_of::<usize>() + s.len())
                            .sum::<usize>()
                }
                Page::Mixed(values) => {
                    values.len() * size_of::<Value>()
                        + values
                            .iter()
                            .map(crate::memory::value_heap_bytes)
                            .sum::<usize>()
                }
            }
    }

    /// The UTF-8 bytes of the page's strings (in lists too).
    fn string_bytes(&self) -> usize {
        match self {
            Page::Fixed { .. } => 0,
            Page::Str(strings) => strings.iter().flatten().map(|s| s.len()).sum(),
            Page::Mixed(values) => values.iter().map(crate::memory::value_string_bytes).sum(),
        }
    }
}

/// One key's values by id.
#[derive(Clone, Debug, Default)]
struct Column {
    pages: PagedVec<Option<Arc<Page>>>,
}

impl Column {
    #[inline]
    fn get(&self, id: usize) -> Option<Value> {
        self.pages
            .get(id >> PAGE_BITS)?
            .as_deref()?
            .get(id & (PAGE_SLOTS - 1))
    }

    fn has(&self, id: usize) -> bool {
        self.pages
            .get(id >> PAGE_BITS)
            .and_then(Option::as_deref)
            .is_some_and(|p| p.has(id & (PAGE_SLOTS - 1)))
    }

    fn set(&mut self, id: usize, value: Value) {
        let page = id >> PAGE_BITS;
        while self.pages.len() <= page {
            self.pages.push(None);
        }
        let slot = id & (PAGE_SLOTS - 1);
        let entry = self.pages.get_mut(page).expect("grown to cover the page");
        match entry {
            Some(page) => Arc::make_mut(page).set(slot, value),
            None => {
                let mut fresh = Page::for_value(&value);
                fresh.set(slot, value);
                *entry = Some(Arc::new(fresh));
            }
        }
    }

    fn clear(&mut self, id: usize) {
        let page = id >> PAGE_BITS;
        // Only pages that exist: a clear must not copy a page table for nothing.
        if matches!(self.pages.get(page), Some(Some(_))) {
            if let Some(Some(page)) = self.pages.get_mut(page) {
                Arc::make_mut(page).clear(id & (PAGE_SLOTS - 1));
            }
        }
    }

    fn pages(&self) -> impl Iterator<Item = &Page> + '_ {
        self.pages.iter().filter_map(|p| p.as_deref())
    }
}

/// Every key's column, for one kind of element (nodes, or relationships).
#[derive(Clone, Debug, Default)]
pub(crate) struct Columns {
    /// Indexed by property key. Two levels of sharing: a version clone shares the
    /// list, and a write copies the list of pointers, then the one column it changes.
    cols: Arc<Vec<Arc<Column>>>,
}

impl Columns {
    /// The value of `key` at `id`, if set.
    #[inline]
    pub(crate) fn get(&self, key: PropKeyId, id: usize) -> Option<Value> {
        self.cols.get(key.index())?.get(id)
    }

    /// Sets `key` at `id` (`value` must not be `Null`: use [`Columns::clear`]).
    pub(crate) fn set(&mut self, key: PropKeyId, id: usize, value: Value) {
        let cols = Arc::make_mut(&mut self.cols);
        if cols.len() <= key.index() {
            cols.resize_with(key.index() + 1, Arc::default);
        }
        Arc::make_mut(&mut cols[key.index()]).set(id, value);
    }

    /// Removes `key` at `id`.
    pub(crate) fn clear(&mut self, key: PropKeyId, id: usize) {
        // Only where a value is (tested without copying it out): a clear must not
        // copy the column list and the column for nothing.
        if self.cols.get(key.index()).is_some_and(|c| c.has(id)) {
            Arc::make_mut(&mut Arc::make_mut(&mut self.cols)[key.index()]).clear(id);
        }
    }

    /// Heap bytes of every column (page tables, pages, strings), and the string bytes
    /// among them.
    pub(crate) fn bytes(&self) -> (usize, usize) {
        let (mut total, mut strings) = (self.cols.capacity() * size_of::<Arc<Column>>(), 0);
        for col in self.cols.iter() {
            total += size_of::<Column>() + col.pages.table_bytes();
            total += col.pages.pages().map(|p| p.capacity()).sum::<usize>()
                * size_of::<Option<Arc<Page>>>();
            for page in col.pages() {
                total += page.bytes();
                strings += page.string_bytes();
            }
        }
        (total, strings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: u16) -> PropKeyId {
        PropKeyId(k)
    }

    #[test]
    fn values_round_trip_by_kind() {
        let mut c = Columns::default();
        let values = [
            Value::Int(-5),
            Value::Float(2.5),
            Value::Bool(true),
            Value::Bool(false),
            Value::DateTime(1_284_620_040_602),
            Value::string("text"),
            Value::List(vec![Value::Int(1)]),
        ];
        for (i, v) in values.iter().enumerate() {
            c.set(key(i as u16), 3, v.clone());
        }
        for (i, v) in values.iter().enumerate() {
            assert_eq!(c.get(key(i as u16), 3).as_ref(), Some(v));
            assert_eq!(c.get(key(i as u16), 4), None);
        }
        assert_eq!(c.get(key(99), 3), None);
    }

    #[test]
    fn a_page_widens_when_kinds_disagree_and_keeps_its_values() {
        let mut c = Columns::default();
        for id in 0..300 {
            c.set(key(0), id, Value::Int(id as i64));
        }
        c.set(key(0), 7, Value::string("seven"));
        c.set(key(0), 8, Value::Float(8.5));
        c.clear(key(0), 9);
        assert_eq!(c.get(key(0), 6), Some(Value::Int(6)));
        assert_eq!(c.get(key(0), 7), Some(Value::string("seven")));
        assert_eq!(c.get(key(0), 8), Some(Value::Float(8.5)));
        assert_eq!(c.get(key(0), 9), None);
        assert_eq!(c.get(key(0), 299), Some(Value::Int(299)));
    }

    #[test]
    fn writes_do_not_reach_older_versions() {
        let mut c = Columns::default();
        c.set(key(1), 10, Value::string("old"));
        c.set(key(2), 10, Value::Int(1));
        let before = c.clone();
        c.set(key(1), 10, Value::string("new"));
        c.clear(key(2), 10);
        c.set(key(3), 5_000, Value::Int(3));
        assert_eq!(before.get(key(1), 10), Some(Value::string("old")));
        assert_eq!(before.get(key(2), 10), Some(Value::Int(1)));
        assert_eq!(before.get(key(3), 5_000), None);
        assert_eq!(c.get(key(1), 10), Some(Value::string("new")));
        assert_eq!(c.get(key(2), 10), None);
        assert_eq!(c.get(key(3), 5_000), Some(Value::Int(3)));
    }

    #[test]
    fn sparse_keys_cost_only_their_pages() {
        let mut c = Columns::default();
        c.set(key(0), 1_000_000, Value::Int(1));
        let (bytes, strings) = c.bytes();
        assert_eq!(strings, 0);
        // One page of 256 integers (2 KiB) plus page-table entries of 8 bytes per
        // 256 ids (31 KiB for a million), not a million 8-byte slots (8 MiB).
        assert!(bytes < 50_000, "{bytes}");
    }
}
