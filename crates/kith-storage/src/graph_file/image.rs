//! Version 4: an image of the in-memory layout. Each section is the array the store
//! keeps (shape numbers, relationship records, column pages, packed adjacency rows),
//! so a load reads them in order into their final place instead of rebuilding them
//! element by element. `docs/storage-format.md` has every byte.

use std::sync::atomic::AtomicBool;

use kith_core::{Direction, Edge, LabelId, NodeId, PackedStrs, PropKeyId, RelId, RelTypeId, Value};

use super::{put_len, put_u16, put_u32, put_u64, put_value, Reader, Sink};
use crate::adjacency::{header, Adjacency, Csr};
use crate::catalog::ArmedRule;
use crate::columns::{bit, set_bit, Columns, Fixed, Page, PAGE_SLOTS, WORDS};
use crate::id_index::{Duplicate, IdBase};
use crate::label_index::LabelIndex;
use crate::narrow::Deltas;
use crate::node::{NodeRecord, PackedShape, RelRecord};
use crate::shapes::{Shape, ShapeId, Shapes};
use crate::snapshot::{build_adjacency, duplicate_error, id_base_over, Built};
use crate::{Catalog, Snapshot, StorageError};

/// Bytes of a relationship slot: shape + 1 u32, type u16, src u32, dst u32.
const REL_BYTES: usize = 14;
/// Page kinds: the four fixed-width ones, then strings and mixed values.
const KIND_INT: u8 = 0;
const KIND_FLOAT: u8 = 1;
const KIND_BOOL: u8 = 2;
const KIND_DATETIME: u8 = 3;
const KIND_STRINGS: u8 = 4;
const KIND_MIXED: u8 = 5;
/// A fixed-width page narrowed to a base and 1-, 2- or 4-byte offsets.
const KIND_NARROW: u8 = 6;

/// Writes every section after the schema.
pub(super) fn put(sink: &mut Sink, snapshot: &Snapshot) -> Result<(), StorageError> {
    put_orders(&mut sink.out, snapshot.catalog.armed_orders());
    put_shapes(sink, &snapshot.shapes)?;
    put_len(&mut sink.out, snapshot.nodes.len());
    for record in snapshot.nodes.iter() {
        put_u32(&mut sink.out, record.map_or(0, |r| r.shape() + 1));
        sink.spill()?;
    }
    put_columns(sink, &snapshot.node_cols)?;
    put_len(&mut sink.out, snapshot.rels.len());
    for rel in snapshot.rels.iter() {
        put_rel(&mut sink.out, rel.as_ref());
        sink.spill()?;
    }
    put_columns(sink, &snapshot.rel_cols)?;
    put_adjacency(sink, &snapshot.adj, snapshot.nodes.len())
}

/// Reads every section after the schema into a snapshot (its commit version and
/// indexes are the caller's to restore).
pub(super) fn read(r: &mut Reader<'_>, mut catalog: Catalog) -> Result<Snapshot, StorageError> {
    // Every list is either read as stored or built here: any rule can take its whole
    // form (as in `Snapshot::from_raw`).
    catalog.arm_for_build();
    let stored_orders = read_orders(r, &catalog)?;
    let shapes = read_shapes(r, &catalog)?;
    let nodes = read_nodes(r, &shapes)?;
    let key_count = catalog.prop_keys.all().len();
    let node_cols = read_columns(r, key_count, nodes.len())?;
    check_columns(
        &node_cols,
        &shapes,
        nodes.iter().map(|n| n.map(|n| n.shape())),
    )
    .map_err(|reason| r.corrupt(format!("node properties: {reason}")))?;
    // The node side is whole: its indexes are built on a second core while this one
    // reads the relationships.
    let (indexes, rel_side) = std::thread::scope(|scope| {
        let indexes = scope.spawn(|| node_indexes(&nodes, &shapes, &node_cols));
        let rel_side = read_rel_side(r, &catalog, &shapes, &nodes);
        let indexes = indexes
            .join()
            .expect("building the node indexes does not panic");
        (indexes, rel_side)
    });
    let (rels, rel_cols, stored) = rel_side?;
    let (label_index, id_base) = indexes;
    let id_base = id_base.map_err(|d| duplicate_error(&catalog, d))?;
    // Lists stored under other orders than this build arms (a rule added or a label
    // joining since the file was written) are built again, in this build's order.
    let base = if same_rules(&stored_orders, catalog.armed_orders()) {
        stored
    } else {
        build_adjacency(&catalog, nodes.len(), &rels, &node_cols, &label_index)?
    };
    let built = Built {
        node_count: nodes.iter().flatten().count(),
        rel_count: rels.iter().flatten().count(),
        nodes,
        adj: Adjacency::from_base(base),
        rels,
        shapes,
        node_cols,
        rel_cols,
        label_index,
    };
    Snapshot::assemble(catalog, built, Some(id_base))
}

/// The label index and the external-id index's base over the nodes.
fn node_indexes(
    nodes: &[Option<NodeRecord>],
    shapes: &Shapes,
    cols: &Columns,
) -> (LabelIndex, Result<IdBase, Duplicate>) {
    let ids = id_base_over(
        nodes.len(),
        |n| nodes[n],
        shapes,
        cols,
        &AtomicBool::new(false),
    )
    .map(|base| base.expect("an uncancelled build finishes"));
    (label_index(nodes, shapes), ids)
}

/// Relationship records, their columns and the stored adjacency: the sections after
/// the node columns, to the end.
fn read_rel_side(
    r: &mut Reader<'_>,
    catalog: &Catalog,
    shapes: &Shapes,
    nodes: &[Option<NodeRecord>],
) -> Result<(Vec<Option<RelRecord>>, Columns, Csr), StorageError> {
    let rels = read_rels(r, catalog, shapes, nodes)?;
    let rel_cols = read_columns(r, catalog.prop_keys.all().len(), rels.len())?;
    check_columns(
        &rel_cols,
        shapes,
        rels.iter().map(|e| e.as_ref().map(|e| e.shape.get())),
    )
    .map_err(|reason| r.corrupt(format!("relationship properties: {reason}")))?;
    let stored = read_adjacency(r, catalog, nodes, &rels)?;
    r.finish()?;
    Ok((rels, rel_cols, stored))
}

/// Whether two lists of armed rules are the same set (a writer arms rules in the
/// order their names appeared, a load in `ORDER_RULES` order).
fn same_rules(a: &[ArmedRule], b: &[ArmedRule]) -> bool {
    a.len() == b.len()
        && a.iter().all(|rule| b.contains(rule))
        && b.iter().all(|rule| a.contains(rule))
}

fn put_orders(out: &mut Vec<u8>, orders: &[ArmedRule]) {
    put_len(out, orders.len());
    for rule in orders {
        put_u16(out, rule.rel_type.0);
        out.push(direction_code(rule.direction));
        put_u16(out, rule.key.0);
        match rule.first {
            None => out.push(0),
            Some(label) => {
                out.push(1);
                put_u16(out, label.0);
            }
        }
    }
}

fn read_orders(r: &mut Reader<'_>, catalog: &Catalog) -> Result<Vec<ArmedRule>, StorageError> {
    let count = r.u32()? as usize;
    let mut orders = Vec::with_capacity(count.min(r.remaining()));
    for _ in 0..count {
        let rel_type = r.u16()?;
        let direction = match r.u8()? {
            0 => Direction::Out,
            1 => Direction::In,
            d => return Err(r.corrupt(format!("order direction {d} is neither 0 nor 1"))),
        };
        let key = r.u16()?;
        let first = match r.u8()? {
            0 => None,
            _ => {
                let label = r.u16()?;
                Some(label_id(r, catalog, label)?)
            }
        };
        if usize::from(rel_type) >= catalog.rel_type_count()
            || usize::from(key) >= catalog.prop_keys.all().len()
        {
            return Err(r.corrupt(format!(
                "order rule ({rel_type}, {key}) names an unknown id"
            )));
        }
        let same_list = |o: &ArmedRule| o.rel_type.0 == rel_type && o.direction == direction;
        if orders.iter().any(same_list) {
            return Err(r.corrupt(format!("two order rules for type {rel_type} one way")));
        }
        orders.push(ArmedRule {
            rel_type: RelTypeId(rel_type),
            direction,
            key: PropKeyId(key),
            first,
        });
    }
    Ok(orders)
}

fn direction_code(direction: Direction) -> u8 {
    match direction {
        Direction::Out => 0,
        Direction::In => 1,
    }
}

fn label_id(r: &Reader<'_>, catalog: &Catalog, label: u16) -> Result<LabelId, StorageError> {
    if usize::from(label) >= catalog.label_count() {
        return Err(r.corrupt(format!("label id {label} out of range")));
    }
    Ok(LabelId(label))
}

fn put_shapes(sink: &mut Sink, shapes: &Shapes) -> Result<(), StorageError> {
    put_len(&mut sink.out, shapes.len());
    let too_many =
        |_| StorageError::CapacityExceeded("more than 65,535 labels or keys on one element");
    for shape in shapes.iter() {
        let out = &mut sink.out;
        put_u16(out, u16::try_from(shape.labels.len()).map_err(too_many)?);
        for label in shape.labels.iter() {
            put_u16(out, label.0);
        }
        put_u16(out, u16::try_from(shape.keys.len()).map_err(too_many)?);
        for key in shape.keys.iter() {
            put_u16(out, key.0);
        }
        sink.spill()?;
    }
    Ok(())
}

/// Shapes in number order; each list strictly ascending, no shape twice.
fn read_shapes(r: &mut Reader<'_>, catalog: &Catalog) -> Result<Shapes, StorageError> {
    let count = r.u32()?;
    let mut shapes = Shapes::default();
    for number in 0..count {
        let mut labels = Vec::new();
        for _ in 0..r.u16()? {
            let label = r.u16()?;
            labels.push(label_id(r, catalog, label)?);
        }
        let mut keys = Vec::new();
        for _ in 0..r.u16()? {
            let key = r.u16()?;
            if usize::from(key) >= catalog.prop_keys.all().len() {
                return Err(r.corrupt(format!("property key id {key} out of range")));
            }
            keys.push(PropKeyId(key));
        }
        if !labels.is_sorted_by(|a, b| a < b) || !keys.is_sorted_by(|a, b| a < b) {
            return Err(r.corrupt(format!("shape {number} lists are not strictly ascending")));
        }
        let shape = Shape {
            labels: labels.into(),
            keys: keys.into(),
        };
        if shapes.intern(shape)? != number {
            return Err(r.corrupt(format!("shape {number} repeats an earlier one")));
        }
    }
    Ok(shapes)
}

/// A shape number read as stored (`value` is the number plus one), checked.
fn shape_of(r: &Reader<'_>, shapes: &Shapes, value: u32) -> Result<ShapeId, StorageError> {
    let shape = value - 1;
    if shape as usize >= shapes.len() {
        return Err(r.corrupt(format!("shape {shape} out of range")));
    }
    Ok(shape)
}

fn read_nodes(
    r: &mut Reader<'_>,
    shapes: &Shapes,
) -> Result<Vec<Option<NodeRecord>>, StorageError> {
    let count = r.u32()? as usize;
    let bytes = r.array(count, 4)?;
    bytes
        .chunks_exact(4)
        .map(|b| match le_u32(b, 0) {
            0 => Ok(None),
            v => Ok(Some(NodeRecord::new(shape_of(r, shapes, v)?))),
        })
        .collect()
}

fn put_rel(out: &mut Vec<u8>, rel: Option<&RelRecord>) {
    match rel {
        None => out.extend_from_slice(&[0; REL_BYTES]),
        Some(rel) => {
            put_u32(out, rel.shape.get() + 1);
            put_u16(out, rel.rel_type.0);
            put_u32(out, rel.src.0);
            put_u32(out, rel.dst.0);
        }
    }
}

fn read_rels(
    r: &mut Reader<'_>,
    catalog: &Catalog,
    shapes: &Shapes,
    nodes: &[Option<NodeRecord>],
) -> Result<Vec<Option<RelRecord>>, StorageError> {
    let count = r.u32()? as usize;
    let bytes = r.array(count, REL_BYTES)?;
    let live = |n: u32| matches!(nodes.get(n as usize), Some(Some(_)));
    // Per shape, whether a relationship may have it (no labels): one array lookup a
    // relationship instead of a shape-table walk.
    let unlabelled: Vec<bool> = shapes.iter().map(|s| s.labels.is_empty()).collect();
    bytes
        .chunks_exact(REL_BYTES)
        .enumerate()
        .map(|(slot, b)| {
            let shape = le_u32(b, 0);
            let (rel_type, src, dst) = (
                u16::from_le_bytes([b[4], b[5]]),
                le_u32(b, 6),
                le_u32(b, 10),
            );
            if shape == 0 {
                return match b.iter().all(|&x| x == 0) {
                    true => Ok(None),
                    false => {
                        Err(r.corrupt(format!("deleted relationship slot {slot} is not zero")))
                    }
                };
            }
            let shape = shape_of(r, shapes, shape)?;
            if !unlabelled[shape as usize] {
                return Err(r.corrupt(format!("relationship {slot} has a shape with labels")));
            }
            if usize::from(rel_type) >= catalog.rel_type_count() {
                return Err(r.corrupt(format!("relationship type id {rel_type} out of range")));
            }
            if !live(src) || !live(dst) {
                return Err(r.corrupt(format!(
                    "relationship {slot} has an end that is not a live node"
                )));
            }
            Ok(Some(RelRecord {
                rel_type: RelTypeId(rel_type),
                src: NodeId(src),
                dst: NodeId(dst),
                shape: PackedShape::new(shape),
            }))
        })
        .collect()
}

fn put_columns(sink: &mut Sink, cols: &Columns) -> Result<(), StorageError> {
    let keys = cols.key_pages();
    put_len(&mut sink.out, keys.len());
    for pages in keys {
        let pages: Vec<(usize, &Page)> = pages.collect();
        put_len(&mut sink.out, pages.len());
        for (number, page) in pages {
            put_len(&mut sink.out, number);
            put_page(&mut sink.out, page);
            sink.spill()?;
        }
    }
    Ok(())
}

/// A page as its present values: absent slots are written as 0 or as empty strings,
/// whatever the page still holds there (a cleared slot keeps its old bits or text in
/// memory until the page is rebuilt; a checkpoint must not carry deleted data on).
fn put_page(out: &mut Vec<u8>, page: &Page) {
    match page {
        Page::Fixed {
            kind,
            present,
            bits,
        } => {
            out.push(fixed_code(*kind));
            put_words(out, present);
            for slot in 0..PAGE_SLOTS {
                put_u64(out, if bit(present, slot) { bits[slot] } else { 0 });
            }
        }
        Page::Narrow {
            kind,
            present,
            base,
            deltas,
        } => {
            out.push(KIND_NARROW);
            out.push(fixed_code(*kind));
            put_words(out, present);
            put_u64(out, *base);
            out.push(deltas.width() as u8);
            for slot in 0..PAGE_SLOTS {
                let delta = if bit(present, slot) {
                    deltas.get(slot)
                } else {
                    0
                };
                out.extend_from_slice(&delta.to_le_bytes()[..deltas.width()]);
            }
        }
        Page::Packed { present, strs } => {
            let (text, ends) = (strs.text(), strs.ends());
            let start = |slot: usize| {
                if slot == 0 {
                    0
                } else {
                    ends[slot - 1] as usize
                }
            };
            put_strings(out, |slot| {
                bit(present, slot).then(|| &text[start(slot)..ends[slot] as usize])
            });
        }
        Page::Str(strings) => put_strings(out, |slot| strings[slot].as_deref()),
        Page::Mixed(_) => put_mixed(out, page),
    }
}

/// A page of strings (`text(slot)`, `None` where absent) as kind 4, or as mixed values
/// past 4 GiB of text.
fn put_strings<'a>(out: &mut Vec<u8>, text: impl Fn(usize) -> Option<&'a str>) {
    let mut present = [0u64; WORDS];
    let mut ends = [0u64; PAGE_SLOTS];
    let mut end = 0u64;
    for (slot, slot_end) in ends.iter_mut().enumerate() {
        let s = text(slot);
        if s.is_some() {
            set_bit(&mut present, slot);
        }
        end += s.map_or(0, |s| s.len() as u64);
        *slot_end = end;
    }
    if end > u64::from(u32::MAX) {
        let value = |slot| text(slot).map_or(Value::Null, Value::string);
        return put_values(out, (0..PAGE_SLOTS).map(value));
    }
    out.push(KIND_STRINGS);
    put_words(out, &present);
    for end in ends {
        put_u32(out, end as u32);
    }
    for slot in 0..PAGE_SLOTS {
        out.extend_from_slice(text(slot).unwrap_or("").as_bytes());
    }
}

fn put_mixed(out: &mut Vec<u8>, page: &Page) {
    put_values(
        out,
        (0..PAGE_SLOTS).map(|slot| page.get(slot).unwrap_or(Value::Null)),
    );
}

fn put_values(out: &mut Vec<u8>, values: impl Iterator<Item = Value>) {
    out.push(KIND_MIXED);
    for value in values {
        put_value(out, &value);
    }
}

fn fixed_code(kind: Fixed) -> u8 {
    match kind {
        Fixed::Int => KIND_INT,
        Fixed::Float => KIND_FLOAT,
        Fixed::Bool => KIND_BOOL,
        Fixed::DateTime => KIND_DATETIME,
    }
}

fn put_words(out: &mut Vec<u8>, words: &[u64]) {
    for w in words {
        put_u64(out, *w);
    }
}

/// Every key's pages (at most `key_count` keys, pages within `slots` ids).
fn read_columns(
    r: &mut Reader<'_>,
    key_count: usize,
    slots: usize,
) -> Result<Columns, StorageError> {
    let keys = r.u32()? as usize;
    if keys > key_count {
        return Err(r.corrupt(format!("{keys} columns for {key_count} property keys")));
    }
    let page_bound = slots.div_ceil(PAGE_SLOTS);
    let mut columns = Vec::with_capacity(keys);
    for _ in 0..keys {
        let count = r.u32()? as usize;
        let mut pages = Vec::with_capacity(count.min(page_bound));
        for _ in 0..count {
            let number = r.u32()? as usize;
            if number >= page_bound || pages.last().is_some_and(|&(n, _)| n >= number) {
                return Err(r.corrupt(format!("column page {number} out of range or order")));
            }
            pages.push((number, read_page(r)?));
        }
        columns.push(pages);
    }
    let mut columns = Columns::from_pages(columns);
    // Pages widened by writes since the last load narrow again (as a bulk load does).
    columns.pack();
    Ok(columns)
}

fn read_page(r: &mut Reader<'_>) -> Result<Page, StorageError> {
    let code = r.u8()?;
    let page = match code {
        KIND_STRINGS => return read_strings(r),
        KIND_MIXED => {
            let values = (0..PAGE_SLOTS)
                .map(|_| r.value(0))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(Page::Mixed(values.into_boxed_slice()));
        }
        KIND_NARROW => {
            let code = r.u8()?;
            let kind = fixed_kind(r, code)?;
            let present = read_present(r)?;
            let base = read_words(r, 1)?[0];
            // A writer narrows integers, dates and booleans (base 0 or 1) only.
            if kind == Fixed::Float || (kind == Fixed::Bool && base > 1) {
                return Err(r.corrupt(format!("a narrow {kind:?} page with base {base}")));
            }
            Page::Narrow {
                kind,
                present,
                base,
                deltas: read_deltas(r)?,
            }
        }
        code => Page::Fixed {
            kind: fixed_kind(r, code)?,
            present: read_present(r)?,
            bits: read_words(r, PAGE_SLOTS)?.into_boxed_slice(),
        },
    };
    if let Page::Fixed { kind, present, .. } | Page::Narrow { kind, present, .. } = &page {
        let raw = |slot| page.raw(slot).unwrap_or_default();
        if *kind == Fixed::Bool && (0..PAGE_SLOTS).any(|slot| bit(present, slot) && raw(slot) > 1) {
            return Err(r.corrupt("a boolean is neither 0 nor 1".into()));
        }
    }
    Ok(page)
}

fn fixed_kind(r: &Reader<'_>, code: u8) -> Result<Fixed, StorageError> {
    Ok(match code {
        KIND_INT => Fixed::Int,
        KIND_FLOAT => Fixed::Float,
        KIND_BOOL => Fixed::Bool,
        KIND_DATETIME => Fixed::DateTime,
        k => return Err(r.corrupt(format!("unknown column page kind {k}"))),
    })
}

/// A narrow page's offsets: a width byte (1, 2 or 4), then one offset a slot.
fn read_deltas(r: &mut Reader<'_>) -> Result<Deltas, StorageError> {
    let width = usize::from(r.u8()?);
    if ![1, 2, 4].contains(&width) {
        return Err(r.corrupt(format!("offset width {width} is not 1, 2 or 4")));
    }
    let bytes = r.array(PAGE_SLOTS, width)?;
    let offset = |slot: usize| {
        let mut raw = [0u8; 8];
        raw[..width].copy_from_slice(&bytes[slot * width..(slot + 1) * width]);
        u64::from_le_bytes(raw)
    };
    Ok(Deltas::build(width, offset).expect("a checked width"))
}

fn read_present(r: &mut Reader<'_>) -> Result<[u64; WORDS], StorageError> {
    let words = read_words(r, WORDS)?;
    let mut present = [0u64; WORDS];
    present.copy_from_slice(&words);
    Ok(present)
}

fn read_words(r: &mut Reader<'_>, count: usize) -> Result<Vec<u64>, StorageError> {
    let bytes = r.array(count, 8)?;
    Ok(bytes
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
        .collect())
}

fn read_strings(r: &mut Reader<'_>) -> Result<Page, StorageError> {
    let present = read_present(r)?;
    let ends: Box<[u32]> = r
        .array(PAGE_SLOTS, 4)?
        .chunks_exact(4)
        .map(|b| le_u32(b, 0))
        .collect();
    let at = r.pos;
    let text = r.take(ends[PAGE_SLOTS - 1] as usize)?;
    let text = std::str::from_utf8(text).map_err(|_| {
        r.pos = at;
        r.corrupt("page strings are not UTF-8".into())
    })?;
    let strs = PackedStrs::from_text(text, ends).map_err(|why| r.corrupt(why.into()))?;
    Ok(Page::Packed { present, strs })
}

/// Checks that the columns hold exactly the values the elements' shapes list: each
/// page of a key holds a value at exactly the slots whose element's shape has the
/// key, and no column holds a value anywhere else. `id` values are integers.
fn check_columns(
    cols: &Columns,
    shapes: &Shapes,
    slots: impl Iterator<Item = Option<ShapeId>>,
) -> Result<(), String> {
    let mut expected_total = 0usize;
    let mut want: Vec<(PropKeyId, [u64; WORDS])> = Vec::new();
    let mut slots = slots.peekable();
    let mut number = 0;
    while slots.peek().is_some() {
        want.clear();
        for (shape, start, len) in runs(slots.by_ref().take(PAGE_SLOTS)) {
            for &key in shapes.get(shape).keys.iter() {
                let at = match want.iter().position(|(k, _)| *k == key) {
                    Some(at) => at,
                    None => {
                        want.push((key, [0; WORDS]));
                        want.len() - 1
                    }
                };
                (start..start + len).for_each(|slot| want[at].1[slot / 64] |= 1 << (slot % 64));
            }
        }
        for (key, bits) in &want {
            let held = cols.page(*key, number).map_or([0; WORDS], Page::presence);
            if held != *bits {
                return Err(format!(
                    "page {number} of key {key} holds values at other slots than the shapes list"
                ));
            }
            expected_total += bits.iter().map(|w| w.count_ones() as usize).sum::<usize>();
        }
        number += 1;
    }
    let total: usize = cols
        .key_pages()
        .flat_map(|pages| pages.map(|(_, p)| p.present_count()))
        .sum();
    if total != expected_total {
        return Err(format!(
            "{total} values where the shapes list {expected_total}"
        ));
    }
    check_ids(cols)
}

/// `id` values are integers (the store's external ids).
fn check_ids(cols: &Columns) -> Result<(), String> {
    let Some(pages) = cols.key_pages().next() else {
        return Ok(());
    };
    for (number, page) in pages {
        if !matches!(
            page,
            Page::Fixed {
                kind: Fixed::Int,
                ..
            } | Page::Narrow {
                kind: Fixed::Int,
                ..
            }
        ) {
            return Err(format!(
                "page {number} of `id` holds values that are not integers"
            ));
        }
    }
    Ok(())
}

/// Runs of equal shapes among a page's live slots: `(shape, first slot, length)`.
fn runs(slots: impl Iterator<Item = Option<ShapeId>>) -> Vec<(ShapeId, usize, usize)> {
    let mut out: Vec<(ShapeId, usize, usize)> = Vec::new();
    for (slot, shape) in slots.enumerate() {
        let Some(shape) = shape else { continue };
        match out.last_mut() {
            Some((s, start, n)) if *s == shape && *start + *n == slot => *n += 1,
            _ => out.push((shape, slot, 1)),
        }
    }
    out
}

fn label_index(nodes: &[Option<NodeRecord>], shapes: &Shapes) -> LabelIndex {
    let mut index = LabelIndex::default();
    for (slot, record) in nodes.iter().enumerate() {
        if let Some(record) = record {
            for &label in shapes.get(record.shape()).labels.iter() {
                index.insert(label, NodeId(slot as u32));
            }
        }
    }
    index
}

/// The rows of every node slot as one packed array: the base and the delta merged.
fn put_adjacency(sink: &mut Sink, adj: &Adjacency, node_bound: usize) -> Result<(), StorageError> {
    let mut at = 0u64;
    for node in 0..node_bound {
        put_u64(&mut sink.out, at);
        at += adj
            .groups(NodeId(node as u32))
            .map(|(_, _, edges)| 1 + edges.len() as u64)
            .sum::<u64>();
        sink.spill()?;
    }
    put_u64(&mut sink.out, at);
    for node in 0..node_bound {
        for (rel_type, direction, edges) in adj.groups(NodeId(node as u32)) {
            put_edge(&mut sink.out, header(rel_type, direction, edges.len()));
            for &edge in edges {
                put_edge(&mut sink.out, edge);
            }
        }
        sink.spill()?;
    }
    Ok(())
}

fn put_edge(out: &mut Vec<u8>, edge: Edge) {
    put_u32(out, edge.node.0);
    put_u32(out, edge.rel.0);
}

/// The stored rows, checked (see [`Csr::from_parts`]), holding both ends of every
/// live relationship.
fn read_adjacency(
    r: &mut Reader<'_>,
    catalog: &Catalog,
    nodes: &[Option<NodeRecord>],
    rels: &[Option<RelRecord>],
) -> Result<Csr, StorageError> {
    let node_bound = nodes.len();
    let offsets: Box<[u64]> = read_words(r, node_bound + 1)?.into_boxed_slice();
    let count = usize::try_from(offsets[node_bound])
        .map_err(|_| r.corrupt("adjacency larger than memory".into()))?;
    let words: Box<[Edge]> = r
        .array(count, 8)?
        .chunks_exact(8)
        .map(|b| Edge {
            node: NodeId(le_u32(b, 0)),
            rel: RelId(le_u32(b, 4)),
        })
        .collect();
    let (csr, ends) = Csr::from_parts(offsets, words, catalog.rel_type_count(), rels.len())
        .map_err(|reason| r.corrupt(format!("adjacency: {reason}")))?;
    let live = rels.iter().flatten().count();
    if ends != 2 * live {
        return Err(r.corrupt(format!(
            "adjacency holds {ends} relationship ends, not {}",
            2 * live
        )));
    }
    check_ends(&csr, rels).map_err(|reason| r.corrupt(format!("adjacency: {reason}")))?;
    Ok(csr)
}

/// Checks that the rows hold exactly each live relationship's two ends: every edge,
/// read as (relationship, row node, neighbour, type, direction), is hashed into a sum,
/// and so is each relationship record's pair of ends; with the counts equal, the sums
/// differ unless the two are the same multiset (a 64-bit mixed hash: an accidental
/// match is a 2^-64 chance). Both passes read in order, where looking each edge's
/// relationship up took a third of a load.
fn check_ends(csr: &Csr, rels: &[Option<RelRecord>]) -> Result<(), String> {
    let mut stored = 0u64;
    for node in 0..csr.node_bound() {
        for (rel_type, direction, edges) in csr.groups(node) {
            for e in edges {
                let near = NodeId(node as u32);
                stored = stored.wrapping_add(end_hash(e.rel, near, e.node, rel_type, direction));
            }
        }
    }
    let mut expected = 0u64;
    for (slot, rel) in rels.iter().enumerate() {
        if let Some(rel) = rel {
            let id = RelId(slot as u32);
            let out = end_hash(id, rel.src, rel.dst, rel.rel_type, Direction::Out);
            let back = end_hash(id, rel.dst, rel.src, rel.rel_type, Direction::In);
            expected = expected.wrapping_add(out).wrapping_add(back);
        }
    }
    if stored != expected {
        return Err("the rows do not hold exactly the relationships' ends".into());
    }
    Ok(())
}

/// One relationship end, hashed (splitmix64's finaliser over its fields).
fn end_hash(rel: RelId, near: NodeId, far: NodeId, rel_type: RelTypeId, d: Direction) -> u64 {
    let a = u64::from(rel.0) << 32 | u64::from(near.0);
    let b = u64::from(far.0) << 32 | u64::from(rel_type.0) << 1 | u64::from(direction_code(d));
    mix(a ^ mix(b))
}

fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The little-endian u32 at `at` of `bytes` (a slice of a checked array section).
fn le_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}
