//! Properties in columns: one sparse, paged column of values per property key.
//!
//! A node record used to carry its own `(key, value)` list: 40 bytes a property plus
//! a boxed slice per record. A column holds one key's values for 256 consecutive ids
//! per page, typed by what the page holds: a page of integers, floats, booleans or
//! epoch-millisecond dates is 8 bytes a slot and a presence bit (1, 2 or 4 once
//! narrowed at load, see [`crate::narrow`]); a page of strings
//! is one shared pointer a slot; anything else (lists, temporal values, a page whose
//! values disagree in type) falls back to whole values. Ids are handed out in load
//! order, which groups a label's nodes, so a key's pages are dense where the label
//! lives and absent elsewhere: a page table entry is all a column costs where no id
//! holds its key.
//!
//! A string page comes in two forms. Built at load, its strings sit back to back in
//! one shared buffer with a 4-byte end offset a slot ([`Page::Packed`]): about 4 bytes
//! a string beyond its text, where a string of its own costs a 16-byte pointer, 16
//! bytes of counters and the allocator's rounding. A read hands out a [`Str`] into
//! the buffer (a reference-count increment, as before). The first write to a packed
//! page turns it back into one [`Str`] a slot ([`Page::Str`]): the old strings keep
//! pointing into the old buffer, so that costs 16 bytes a slot, not a copy of the
//! text; the page is packed again the next time the graph is loaded.
//!
//! Columns are versioned like the rest of a [`crate::Snapshot`]: page tables and
//! pages are shared between versions, and a write copies the page it changes (256
//! slots: 2 KiB of fixed-width values, 4 KiB of strings, 8 KiB of mixed values) and
//! the page-table page above it (8 KiB) the first time a version touches them.

use std::mem::size_of;
use std::sync::Arc;

use kith_core::{PackedStrs, PropKeyId, Str, Value};

use crate::narrow::{self, Deltas};
use crate::paged::PagedVec;

const PAGE_BITS: usize = 8;
/// Ids a page covers.
pub(crate) const PAGE_SLOTS: usize = 1 << PAGE_BITS;
/// Words of a page's presence bitmap.
pub(crate) const WORDS: usize = PAGE_SLOTS / 64;

/// The fixed-width kinds, stored as 8 raw bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fixed {
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
pub(crate) enum Page {
    /// Values of one fixed-width kind.
    Fixed {
        kind: Fixed,
        present: [u64; WORDS],
        bits: Box<[u64]>,
    },
    /// Values of one fixed-width kind lying close together: `base` plus an offset of
    /// 1, 2 or 4 bytes a slot (see [`crate::narrow`]).
    Narrow {
        kind: Fixed,
        present: [u64; WORDS],
        base: u64,
        deltas: Deltas,
    },
    /// Strings (`None`: absent).
    Str(Box<[Option<Str>]>),
    /// Strings back to back in one buffer, present where their bit is set.
    Packed {
        present: [u64; WORDS],
        strs: PackedStrs,
    },
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

    /// Which slots hold a value, as a bitmap.
    pub(crate) fn presence(&self) -> [u64; WORDS] {
        match self {
            Page::Fixed { present, .. }
            | Page::Narrow { present, .. }
            | Page::Packed { present, .. } => *present,
            Page::Str(_) | Page::Mixed(_) => {
                let mut present = [0; WORDS];
                for slot in (0..PAGE_SLOTS).filter(|&slot| self.has(slot)) {
                    set_bit(&mut present, slot);
                }
                present
            }
        }
    }

    /// How many slots hold a value.
    pub(crate) fn present_count(&self) -> usize {
        match self {
            Page::Fixed { present, .. }
            | Page::Narrow { present, .. }
            | Page::Packed { present, .. } => present.iter().map(|w| w.count_ones() as usize).sum(),
            Page::Str(strings) => strings.iter().filter(|s| s.is_some()).count(),
            Page::Mixed(values) => values.iter().filter(|v| **v != Value::Null).count(),
        }
    }

    #[inline]
    pub(crate) fn get(&self, slot: usize) -> Option<Value> {
        match self {
            Page::Fixed {
                kind,
                present,
                bits,
            } => bit(present, slot).then(|| kind.value(bits[slot])),
            Page::Narrow { .. } => self.narrow_get(slot),
            Page::Str(strings) => strings[slot].clone().map(Value::String),
            Page::Packed { present, strs } => {
                bit(present, slot).then(|| Value::String(strs.get(slot)))
            }
            Page::Mixed(values) => match &values[slot] {
                Value::Null => None,
                v => Some(v.clone()),
            },
        }
    }

    /// A narrow page's value, kept out of [`Page::get`]: inlined there, its offset
    /// decoding made `get` too large to inline into every column read, which cost
    /// the reads of 8-byte pages (the most read: dates, message ids) up to 9 %.
    #[inline(never)]
    fn narrow_get(&self, slot: usize) -> Option<Value> {
        let Page::Narrow { kind, present, .. } = self else {
            return None;
        };
        bit(present, slot).then(|| kind.value(self.raw(slot).unwrap_or_default()))
    }

    /// The raw bits at `slot` of a fixed-width page, plain or narrow (whether or not
    /// the slot is present); `None` for other pages.
    pub(crate) fn raw(&self, slot: usize) -> Option<u64> {
        match self {
            Page::Fixed { bits, .. } => Some(bits[slot]),
            Page::Narrow { base, deltas, .. } => Some(base.wrapping_add(deltas.get(slot))),
            _ => None,
        }
    }

    pub(crate) fn has(&self, slot: usize) -> bool {
        match self {
            Page::Fixed { present, .. }
            | Page::Narrow { present, .. }
            | Page::Packed { present, .. } => bit(present, slot),
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
                set_bit(present, slot);
                bits[slot] = raw;
            }
            (
                Page::Narrow {
                    kind,
                    present,
                    base,
                    deltas,
                },
                Some((k, raw)),
                _,
            ) if *kind == k
                && narrow::offset(k, *base, raw)
                    .is_some_and(|d| narrow::fits(d, deltas.width())) =>
            {
                set_bit(present, slot);
                deltas.set(slot, raw.wrapping_sub(*base));
            }
            (Page::Narrow { .. }, _, value) => {
                self.unnarrow();
                self.set(slot, value);
            }
            (Page::Str(strings), _, Value::String(s)) => strings[slot] = Some(s),
            (Page::Mixed(values), _, value) => values[slot] = value,
            (Page::Packed { .. }, _, value @ Value::String(_)) => {
                self.unpack();
                self.set(slot, value);
            }
            (_, _, value) => {
                self.widen();
                self.set(slot, value);
            }
        }
    }

    /// Whether no slot holds a value.
    fn is_empty(&self) -> bool {
        match self {
            Page::Fixed { present, .. }
            | Page::Narrow { present, .. }
            | Page::Packed { present, .. } => present.iter().all(|w| *w == 0),
            Page::Str(strings) => strings.iter().all(Option::is_none),
            Page::Mixed(values) => values.iter().all(|v| *v == Value::Null),
        }
    }

    fn clear(&mut self, slot: usize) {
        match self {
            Page::Fixed { present, .. } | Page::Narrow { present, .. } => clear_bit(present, slot),
            Page::Str(strings) => strings[slot] = None,
            // The text stays in the buffer, unreachable, until the page is packed again.
            Page::Packed { present, .. } => clear_bit(present, slot),
            Page::Mixed(values) => values[slot] = Value::Null,
        }
    }

    /// Turns a packed page into one string a slot, each still pointing into the
    /// shared buffer, so that a slot can be written.
    fn unpack(&mut self) {
        let strings: Vec<Option<Str>> = (0..PAGE_SLOTS)
            .map(|slot| match self.get(slot) {
                Some(Value::String(s)) => Some(s),
                _ => None,
            })
            .collect();
        *self = Page::Str(strings.into_boxed_slice());
    }

    /// Packs a page of strings into one buffer (left as is when its text does not fit
    /// 32-bit offsets), and narrows a fixed-width page ([`crate::narrow`]).
    fn pack(&mut self) {
        if let Page::Fixed {
            kind,
            present,
            bits,
        } = self
        {
            if let Some((base, deltas)) = narrow::narrow(*kind, bits, |slot| bit(present, slot)) {
                *self = Page::Narrow {
                    kind: *kind,
                    present: *present,
                    base,
                    deltas,
                };
            }
            return;
        }
        let Page::Str(strings) = self else {
            return;
        };
        let mut present = [0u64; WORDS];
        for (slot, s) in strings.iter().enumerate() {
            if s.is_some() {
                set_bit(&mut present, slot);
            }
        }
        let texts = strings.iter().map(|s| s.as_deref().unwrap_or(""));
        if let Some(strs) = PackedStrs::concat(texts) {
            *self = Page::Packed { present, strs };
        }
    }

    /// Turns a narrow page back into 8 bytes a slot, so that any value of its kind
    /// can be written.
    fn unnarrow(&mut self) {
        if let Page::Narrow { kind, present, .. } = *self {
            let bits = (0..PAGE_SLOTS).map(|s| self.raw(s).unwrap_or_default());
            *self = Page::Fixed {
                kind,
                present,
                bits: bits.collect(),
            };
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
                Page::Narrow { deltas, .. } => PAGE_SLOTS * deltas.width(),
                Page::Str(strings) => {
                    strings.len() * size_of::<Option<Str>>()
                        + buffers_bytes(strings.iter().flatten())
                }
                Page::Packed { strs, .. } => strs.heap_bytes(),
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
            Page::Fixed { .. } | Page::Narrow { .. } => 0,
            Page::Str(strings) => strings.iter().flatten().map(|s| s.len()).sum(),
            Page::Packed { present, strs } => (0..PAGE_SLOTS)
                .filter(|&slot| bit(present, slot))
                .map(|slot| strs.len_of(slot))
                .sum(),
            Page::Mixed(values) => values.iter().map(crate::memory::value_string_bytes).sum(),
        }
    }
}

/// Whether a page's presence bitmap has `slot`.
#[inline]
pub(crate) fn bit(present: &[u64; WORDS], slot: usize) -> bool {
    present[slot / 64] >> (slot % 64) & 1 == 1
}

pub(crate) fn set_bit(present: &mut [u64; WORDS], slot: usize) {
    present[slot / 64] |= 1 << (slot % 64);
}

fn clear_bit(present: &mut [u64; WORDS], slot: usize) {
    present[slot / 64] &= !(1 << (slot % 64));
}

/// Heap bytes of the buffers behind `strings`, each buffer counted once (an
/// unpacked page's strings share the buffer it was packed into).
fn buffers_bytes<'a>(strings: impl Iterator<Item = &'a Str>) -> usize {
    let mut seen = rustc_hash::FxHashSet::default();
    strings
        .filter(|s| seen.insert(s.buffer().addr()))
        .map(|s| s.buffer().heap_bytes())
        .sum()
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

    /// Removes the value at `id`; a page left empty is dropped. Whether the column
    /// is then empty.
    fn clear(&mut self, id: usize) -> bool {
        let page = id >> PAGE_BITS;
        // Only pages that exist: a clear must not copy a page table for nothing.
        if matches!(self.pages.get(page), Some(Some(_))) {
            let entry = self.pages.get_mut(page).expect("the page exists");
            let kept = entry.as_mut().expect("the page exists");
            Arc::make_mut(kept).clear(id & (PAGE_SLOTS - 1));
            if kept.is_empty() {
                *entry = None;
                return self.pages.iter().all(Option::is_none);
            }
        }
        false
    }

    /// Packs every page of strings (see [`Page::pack`]).
    fn pack(&mut self) {
        for i in 0..self.pages.len() {
            if let Some(Some(page)) = self.pages.get_mut(i) {
                Arc::make_mut(page).pack();
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
    /// Indexed by property key, in copy-on-write pages of shared columns: a write
    /// copies one page of pointers and the column it changes, however many keys there
    /// are. A key no element has a value of holds no column.
    cols: PagedVec<Option<Arc<Column>>>,
}

impl Columns {
    /// Columns from each key's pages as `(page number, page)`, numbers ascending
    /// (what a graph file holds).
    pub(crate) fn from_pages(keys: Vec<Vec<(usize, Page)>>) -> Columns {
        let cols = keys
            .into_iter()
            .map(|pages| {
                let mut table = Vec::new();
                for (number, page) in pages {
                    debug_assert!(number >= table.len(), "page numbers ascend");
                    table.resize(number, None);
                    table.push(Some(Arc::new(page)));
                }
                let column = Column {
                    pages: PagedVec::from_vec(table),
                };
                let empty = column.pages.iter().all(Option::is_none);
                (!empty).then(|| Arc::new(column))
            })
            .collect();
        Columns {
            cols: PagedVec::from_vec(cols),
        }
    }

    fn column(&self, key: PropKeyId) -> Option<&Column> {
        self.cols.get(key.index())?.as_deref()
    }

    /// Whether some element has a value of `key`.
    pub(crate) fn has_key(&self, key: PropKeyId) -> bool {
        self.column(key).is_some()
    }

    /// Page `number` of `key`'s column, if it has one.
    pub(crate) fn page(&self, key: PropKeyId, number: usize) -> Option<&Page> {
        self.column(key)?.pages.get(number)?.as_deref()
    }

    /// Per key, its pages as `(page number, page)`, numbers ascending.
    pub(crate) fn key_pages(
        &self,
    ) -> impl ExactSizeIterator<Item = impl Iterator<Item = (usize, &Page)> + '_> + '_ {
        (0..self.cols.len()).map(|k| {
            self.cols
                .get(k)
                .and_then(Option::as_deref)
                .into_iter()
                .flat_map(|col| {
                    col.pages
                        .iter()
                        .enumerate()
                        .filter_map(|(n, p)| Some((n, p.as_deref()?)))
                })
        })
    }

    /// The value of `key` at `id`, if set.
    #[inline]
    pub(crate) fn get(&self, key: PropKeyId, id: usize) -> Option<Value> {
        self.column(key)?.get(id)
    }

    /// Sets `key` at `id` (`value` must not be `Null`: use [`Columns::clear`]).
    pub(crate) fn set(&mut self, key: PropKeyId, id: usize, value: Value) {
        while self.cols.len() <= key.index() {
            self.cols.push(None);
        }
        let slot = self
            .cols
            .get_mut(key.index())
            .expect("grown to cover the key");
        Arc::make_mut(slot.get_or_insert_with(Arc::default)).set(id, value);
    }

    /// Removes `key` at `id`; a key left without values keeps no column.
    pub(crate) fn clear(&mut self, key: PropKeyId, id: usize) {
        // Only where a value is (tested without copying it out): a clear must not
        // copy the column list and the column for nothing.
        if !self.column(key).is_some_and(|c| c.has(id)) {
            return;
        }
        let slot = self.cols.get_mut(key.index()).expect("it has the value");
        let column = slot.as_mut().expect("it has the value");
        if Arc::make_mut(column).clear(id) {
            *slot = None;
        }
    }

    /// Packs every page of strings into one buffer a page: done once a graph is
    /// loaded, when every page is this version's alone.
    pub(crate) fn pack(&mut self) {
        for k in 0..self.cols.len() {
            if let Some(Some(col)) = self.cols.get_mut(k) {
                Arc::make_mut(col).pack();
            }
        }
    }

    /// Heap bytes of every column (page tables, pages, strings), and the string bytes
    /// among them.
    pub(crate) fn bytes(&self) -> (usize, usize) {
        let (mut total, mut strings) = (self.cols.table_bytes(), 0);
        for col in self.cols.iter().flatten() {
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
    fn a_key_whose_values_are_all_cleared_keeps_no_column() {
        let mut c = Columns::default();
        c.set(key(3), 5, Value::Int(1));
        c.set(key(3), 5000, Value::string("x"));
        let before = c.clone();
        c.clear(key(3), 5);
        assert!(c.page(key(3), 0).is_none(), "the emptied page is dropped");
        assert!(c.has_key(key(3)));
        c.clear(key(3), 5000);
        assert!(!c.has_key(key(3)), "no value left: no column");
        assert_eq!(
            before.get(key(3), 5),
            Some(Value::Int(1)),
            "older versions keep theirs"
        );
        c.set(key(3), 7, Value::Bool(true));
        assert_eq!(c.get(key(3), 7), Some(Value::Bool(true)));
    }

    #[test]
    fn packed_strings_read_back_and_take_writes_without_reaching_older_versions() {
        let mut c = Columns::default();
        for id in (0..600usize).filter(|id| !id.is_multiple_of(3)) {
            c.set(key(0), id, Value::string(format!("s{id}é")));
        }
        c.set(key(0), 2, Value::string(""));
        let (bytes_unpacked, _) = c.bytes();
        c.pack();
        let (bytes_packed, text) = c.bytes();
        assert!(matches!(c.page(key(0), 0), Some(Page::Packed { .. })));
        let expect = |id: usize| (!id.is_multiple_of(3)).then(|| Value::string(format!("s{id}é")));
        for id in (0..600).filter(|&id| id != 2) {
            assert_eq!(c.get(key(0), id), expect(id), "id {id}");
        }
        assert_eq!(c.get(key(0), 2), Some(Value::string("")));
        // Two of the strings share one buffer.
        let (Some(Value::String(a)), Some(Value::String(b))) = (c.get(key(0), 4), c.get(key(0), 5))
        else {
            panic!("strings");
        };
        assert!(a.buffer().ptr_eq(b.buffer()));
        let before = c.clone();
        c.set(key(0), 4, Value::string("new"));
        c.clear(key(0), 5);
        c.clear(key(0), 260);
        c.set(key(0), 3, Value::Int(3));
        assert_eq!(c.get(key(0), 4), Some(Value::string("new")));
        assert_eq!(c.get(key(0), 5), None);
        assert_eq!(c.get(key(0), 260), None);
        assert_eq!(c.get(key(0), 3), Some(Value::Int(3)));
        assert_eq!(c.get(key(0), 7), expect(7));
        assert_eq!(c.get(key(0), 261), expect(261));
        for id in 0..600 {
            let old = if id == 2 {
                Some(Value::string(""))
            } else {
                expect(id)
            };
            assert_eq!(before.get(key(0), id), old, "id {id}");
        }
        // Text bytes count live strings only; packing saves the 16-byte slot pointer
        // and the 16 bytes of counters of each of the 400 strings, less 4 bytes of
        // offset a slot.
        let live = (1..600usize).filter(|id| !id.is_multiple_of(3) && *id != 2);
        assert_eq!(text, live.map(|id| format!("s{id}é").len()).sum::<usize>());
        assert!(
            bytes_unpacked - bytes_packed >= 400 * 32 - 3 * 256 * 4,
            "{bytes_unpacked} unpacked, {bytes_packed} packed"
        );
    }

    #[test]
    fn packed_pages_of_close_values_narrow_and_widen_on_a_far_write() {
        let mut c = Columns::default();
        for id in 0..256 {
            c.set(key(0), id, Value::Int(1_000 + id as i64));
            c.set(key(1), id, Value::Bool(id % 2 == 0));
        }
        c.clear(key(0), 7);
        let (before, _) = c.bytes();
        c.pack();
        let (after, _) = c.bytes();
        assert!(matches!(c.page(key(0), 0), Some(Page::Narrow { .. })));
        // 2 KiB of 8-byte values each became 256 B of 1-byte offsets.
        assert!(before - after >= 2 * (2048 - 256), "{before} -> {after}");
        let packed = c.clone();
        c.set(key(0), 8, Value::Int(1_200));
        assert!(matches!(c.page(key(0), 0), Some(Page::Narrow { .. })));
        c.set(key(0), 9, Value::Int(-1));
        c.set(key(1), 3, Value::Int(5));
        assert!(matches!(c.page(key(0), 0), Some(Page::Fixed { .. })));
        assert_eq!(c.get(key(0), 9), Some(Value::Int(-1)));
        assert_eq!(c.get(key(0), 8), Some(Value::Int(1_200)));
        assert_eq!(c.get(key(0), 7), None);
        assert_eq!(c.get(key(0), 255), Some(Value::Int(1_255)));
        assert_eq!(c.get(key(1), 3), Some(Value::Int(5)));
        assert_eq!(c.get(key(1), 4), Some(Value::Bool(true)));
        for id in 0..256 {
            let want = (id != 7).then(|| Value::Int(1_000 + id as i64));
            assert_eq!(packed.get(key(0), id), want, "older version, id {id}");
        }
    }

    #[test]
    fn sparse_keys_cost_only_their_pages() {
        let mut c = Columns::default();
        c.set(key(0), 1_000_000, Value::Int(1));
        let (bytes, strings) = c.bytes();
        assert_eq!(strings, 0);
        // One page of 256 integers (2 KiB) plus page-table entries of 8 bytes per
        // 256 ids (31 KiB for a million), and the key table's page (8 KiB), not a
        // million 8-byte slots (8 MiB).
        assert!(bytes < 60_000, "{bytes}");
    }
}
