//! Version 4: an image of the in-memory layout. Each section is the array the store
//! keeps (shape numbers, relationship records, column pages, packed adjacency rows),
//! so a load reads them in order into their final place instead of rebuilding them
//! element by element. `docs/storage-format.md` has every byte.

use std::sync::atomic::AtomicBool;

use kith_core::{Direction, Edge, LabelId, NodeId, PackedStrs, PropKeyId, RelId, RelTypeId};

use super::{put_len, put_u16, put_u32, put_value, Reader, Sink};
use crate::adjacency::{header, Adjacency, Csr};
use crate::catalog::ArmedRule;
use crate::columns::{Columns, Fixed, Page, PAGE_SLOTS, WORDS};
use crate::id_index::{Duplicate, IdBase};
use crate::label_index::LabelIndex;
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
    let base = if stored_orders == catalog.armed_orders() {
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
    for shape in shapes.iter() {
        let out = &mut sink.out;
        put_u16(out, shape.labels.len() as u16);
        for label in shape.labels.iter() {
            put_u16(out, label.0);
        }
        put_u16(out, shape.keys.len() as u16);
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
        .map(|b| match u32::from_le_bytes([b[0], b[1], b[2], b[3]]) {
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
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
    let live = |n: u32| matches!(nodes.get(n as usize), Some(Some(_)));
    bytes
        .chunks_exact(REL_BYTES)
        .enumerate()
        .map(|(slot, b)| {
            let shape = u32_at(b, 0);
            let (rel_type, src, dst) = (
                u16::from_le_bytes([b[4], b[5]]),
                u32_at(b, 6),
                u32_at(b, 10),
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
            if !shapes.get(shape).labels.is_empty() {
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

fn put_page(out: &mut Vec<u8>, page: &Page) {
    match page {
        Page::Fixed {
            kind,
            present,
            bits,
        } => {
            out.push(match kind {
                Fixed::Int => KIND_INT,
                Fixed::Float => KIND_FLOAT,
                Fixed::Bool => KIND_BOOL,
                Fixed::DateTime => KIND_DATETIME,
            });
            put_words(out, present);
            put_words(out, bits);
        }
        Page::Packed { present, strs } => put_strings(out, present, strs),
        Page::Str(strings) => {
            let mut present = [0u64; WORDS];
            for (slot, s) in strings.iter().enumerate() {
                present[slot / 64] |= u64::from(s.is_some()) << (slot % 64);
            }
            match PackedStrs::concat(strings.iter().map(|s| s.as_deref().unwrap_or(""))) {
                Some(strs) => put_strings(out, &present, &strs),
                // Past 4 GiB of text a page: whole values, as a mixed page.
                None => put_mixed(
                    out,
                    (0..PAGE_SLOTS).map(|slot| page.get(slot).unwrap_or(kith_core::Value::Null)),
                ),
            }
        }
        Page::Mixed(_) => put_mixed(
            out,
            (0..PAGE_SLOTS).map(|slot| page.get(slot).unwrap_or(kith_core::Value::Null)),
        ),
    }
}

fn put_words(out: &mut Vec<u8>, words: &[u64]) {
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

fn put_strings(out: &mut Vec<u8>, present: &[u64; WORDS], strs: &PackedStrs) {
    out.push(KIND_STRINGS);
    put_words(out, present);
    for &end in strs.ends() {
        put_u32(out, end);
    }
    out.extend_from_slice(strs.text().as_bytes());
}

fn put_mixed(out: &mut Vec<u8>, values: impl Iterator<Item = kith_core::Value>) {
    out.push(KIND_MIXED);
    for value in values {
        put_value(out, &value);
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
    Ok(Columns::from_pages(columns))
}

fn read_page(r: &mut Reader<'_>) -> Result<Page, StorageError> {
    let kind = match r.u8()? {
        KIND_INT => Fixed::Int,
        KIND_FLOAT => Fixed::Float,
        KIND_BOOL => Fixed::Bool,
        KIND_DATETIME => Fixed::DateTime,
        KIND_STRINGS => return read_strings(r),
        KIND_MIXED => {
            let values = (0..PAGE_SLOTS)
                .map(|_| r.value(0))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(Page::Mixed(values.into_boxed_slice()));
        }
        k => return Err(r.corrupt(format!("unknown column page kind {k}"))),
    };
    let present = read_present(r)?;
    let bits = read_words(r, PAGE_SLOTS)?;
    if kind == Fixed::Bool && bits.iter().any(|&b| b > 1) {
        return Err(r.corrupt("a boolean is neither 0 nor 1".into()));
    }
    Ok(Page::Fixed {
        kind,
        present,
        bits: bits.into_boxed_slice(),
    })
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
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
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

/// Checks that the columns hold exactly the values the elements' shapes list, page
/// by page: each page of a key holds as many values as that page's elements have
/// the key, and no column holds more values in all than the shapes ask for.
fn check_columns(
    cols: &Columns,
    shapes: &Shapes,
    slots: impl Iterator<Item = Option<ShapeId>>,
) -> Result<(), String> {
    let mut expected_total = 0usize;
    let mut want: Vec<(PropKeyId, usize)> = Vec::new();
    let mut slots = slots.peekable();
    let mut number = 0;
    while slots.peek().is_some() {
        want.clear();
        for (shape, run) in runs(slots.by_ref().take(PAGE_SLOTS)) {
            for &key in shapes.get(shape).keys.iter() {
                match want.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, n)) => *n += run,
                    None => want.push((key, run)),
                }
            }
        }
        for &(key, n) in &want {
            let held = cols.page(key, number).map_or(0, Page::present_count);
            if held != n {
                return Err(format!(
                    "page {number} of key {key} holds {held} values, not {n}"
                ));
            }
            expected_total += n;
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
    Ok(())
}

/// Runs of equal shapes among live slots: `(shape, length)`.
fn runs(slots: impl Iterator<Item = Option<ShapeId>>) -> Vec<(ShapeId, usize)> {
    let mut out: Vec<(ShapeId, usize)> = Vec::new();
    for shape in slots.flatten() {
        match out.last_mut() {
            Some((s, n)) if *s == shape => *n += 1,
            _ => out.push((shape, 1)),
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

fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
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
            node: NodeId(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            rel: RelId(u32::from_le_bytes([b[4], b[5], b[6], b[7]])),
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
    if let Some(node) = (0..node_bound).find(|&n| nodes[n].is_none() && csr.row_len(n) > 0) {
        return Err(r.corrupt(format!("deleted node {node} has relationships")));
    }
    debug_assert!(
        ends_match(&csr, rels),
        "every stored edge is an end of its relationship"
    );
    Ok(csr)
}

/// Whether every edge of `csr` is an end of the relationship it names, seen from
/// the row's node in the group's direction (a debug check: it visits every
/// relationship record at random).
fn ends_match(csr: &Csr, rels: &[Option<RelRecord>]) -> bool {
    (0..csr.node_bound()).all(|node| {
        csr.groups(node).all(|(rel_type, direction, edges)| {
            edges.iter().all(|e| {
                rels[e.rel.index()].as_ref().is_some_and(|rel| {
                    let (near, far) = match direction {
                        Direction::Out => (rel.src, rel.dst),
                        Direction::In => (rel.dst, rel.src),
                    };
                    rel.rel_type == rel_type && near.index() == node && far == e.node
                })
            })
        })
    })
}
