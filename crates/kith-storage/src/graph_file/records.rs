//! Versions 1 to 3: one record per element, labels and a `(key, value)` list each.

use kith_core::{LabelId, NodeId, RelTypeId};

use super::{put_len, put_u16, put_u32, put_value, Reader, Sink};
use crate::{Catalog, RawGraph, RawNode, RawRel, Snapshot, StorageError};

/// Writes the node and relationship sections of a version 3 file.
pub(super) fn put(sink: &mut Sink, snapshot: &Snapshot) -> Result<(), StorageError> {
    put_len(&mut sink.out, snapshot.nodes.len());
    for (slot, record) in snapshot.nodes.iter().enumerate() {
        let Some(record) = record else {
            sink.out.push(0);
            continue;
        };
        let out = &mut sink.out;
        out.push(1);
        let labels = &snapshot.shapes.get(record.shape()).labels;
        put_u16(out, labels.len() as u16);
        for label in labels.iter() {
            put_u16(out, label.0);
        }
        put_column_values(out, snapshot, &snapshot.node_cols, record.shape(), slot);
        sink.spill()?;
    }
    put_len(&mut sink.out, snapshot.rels.len());
    for (slot, rel) in snapshot.rels.iter().enumerate() {
        let Some(rel) = rel else {
            sink.out.push(0);
            continue;
        };
        let out = &mut sink.out;
        out.push(1);
        put_u16(out, rel.rel_type.0);
        put_u32(out, rel.src.0);
        put_u32(out, rel.dst.0);
        put_column_values(out, snapshot, &snapshot.rel_cols, rel.shape.get(), slot);
        sink.spill()?;
    }
    Ok(())
}

/// An element's properties straight from the columns, in the layout of
/// the `(key, value)` list it was written from before columns (no list built
/// per element).
fn put_column_values(
    out: &mut Vec<u8>,
    snapshot: &Snapshot,
    cols: &crate::columns::Columns,
    shape: crate::shapes::ShapeId,
    id: usize,
) {
    // The count goes first; it is patched once the values are written.
    let count_at = out.len();
    put_u16(out, 0);
    let mut count = 0u16;
    for (key, value) in snapshot.shape_values(cols, shape, id) {
        put_u16(out, key.0);
        put_value(out, &value);
        count += 1;
    }
    out[count_at..count_at + 2].copy_from_slice(&count.to_le_bytes());
}

/// Reads the node and relationship sections of a version 1 to 3 file.
pub(super) fn read(r: &mut Reader<'_>, catalog: Catalog) -> Result<RawGraph, StorageError> {
    let label_count = catalog.label_count();
    let type_count = catalog.rel_type_count();
    let key_count = catalog.prop_keys.all().len();
    let node_slots = r.u32()? as usize;
    let mut nodes = Vec::with_capacity(node_slots.min(r.remaining()));
    for _ in 0..node_slots {
        if r.u8()? == 0 {
            nodes.push(None);
            continue;
        }
        let label_n = r.u16()?;
        let mut labels = Vec::with_capacity(usize::from(label_n));
        for _ in 0..label_n {
            let label = r.u16()?;
            if usize::from(label) >= label_count {
                return Err(r.corrupt(format!("label id {label} out of range")));
            }
            labels.push(LabelId(label));
        }
        let properties = r.properties(key_count)?;
        nodes.push(Some(RawNode { labels, properties }));
    }
    let rel_slots = r.u32()? as usize;
    let mut rels = Vec::with_capacity(rel_slots.min(r.remaining()));
    for _ in 0..rel_slots {
        if r.u8()? == 0 {
            rels.push(None);
            continue;
        }
        let rel_type = r.u16()?;
        if usize::from(rel_type) >= type_count {
            return Err(r.corrupt(format!("relationship type id {rel_type} out of range")));
        }
        let (src, dst) = (r.u32()?, r.u32()?);
        for end in [src, dst] {
            if !matches!(nodes.get(end as usize), Some(Some(_))) {
                return Err(r.corrupt(format!("relationship end {end} is not a live node")));
            }
        }
        let properties = r.properties(key_count)?;
        rels.push(Some(RawRel {
            rel_type: RelTypeId(rel_type),
            src: NodeId(src),
            dst: NodeId(dst),
            properties,
        }));
    }
    r.finish()?;
    Ok(RawGraph {
        catalog,
        nodes,
        rels,
    })
}
