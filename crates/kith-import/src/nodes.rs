//! Node files: each chunk's records as nodes, then (in file order) ids checked
//! against their space and nodes added to the graph.

use kith_core::{LabelId, PropKeyId, Value};
use kith_storage::RawGraph;

use crate::chunk::{Context, Names};
use crate::error::{ErrorKind, ImportError, Result};
use crate::files::Chunk;
use crate::header::{Column, Spaces};
use crate::ids::{IdKey, Ids};
use crate::options::IdType;
use crate::report::Report;
use crate::split::{Record, Records};
use crate::value::value;

/// A node read from a record.
pub struct ParsedNode {
    /// Its ID space and id, if the file has an ID column.
    id: Option<(usize, IdKey)>,
    labels: Vec<LabelId>,
    properties: Vec<(PropKeyId, Value)>,
    line: u64,
}

/// Parses one chunk of a node file; `labels` are the group's own.
pub fn parse(
    chunk: Chunk<'_>,
    ctx: &Context<'_>,
    labels: &[LabelId],
    id_type: IdType,
) -> Result<Vec<ParsedNode>> {
    let mut records = Records::new(chunk.text, chunk.first_line, ctx.dialect);
    let mut record = Record::default();
    let mut names = Names::default();
    let mut out = Vec::with_capacity(memchr::memchr_iter(b'\n', chunk.text).count() + 1);
    while let Some(line) = records.next_into(&mut record) {
        let line = line.map_err(|e| e.in_file(ctx.file))?;
        ctx.check_width(&record, line)?;
        let mut node = ParsedNode {
            id: None,
            labels: labels.to_vec(),
            properties: Vec::with_capacity(ctx.header.properties),
            line,
        };
        for (i, column) in ctx.header.columns.iter().enumerate() {
            read_field(
                ctx, &record, i, *column, line, id_type, &mut names, &mut node,
            )?;
        }
        out.push(node);
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn read_field(
    ctx: &Context<'_>,
    record: &Record,
    i: usize,
    column: Column,
    line: u64,
    id_type: IdType,
    names: &mut Names,
    node: &mut ParsedNode,
) -> Result<()> {
    match column {
        Column::Id { key, space } => {
            let (text, _) = ctx.text(record, i, line)?;
            if text.is_empty() {
                return Err(ctx.field_error(line, i, "the node has no id".into()));
            }
            let id = IdKey::parse(text, id_type).map_err(|m| ctx.field_error(line, i, m))?;
            if let Some(key) = key {
                node.properties.push((key, id.to_value()));
            }
            node.id = Some((space, id));
        }
        Column::Label => {
            let (text, _) = ctx.text(record, i, line)?;
            let delimiter = char::from(ctx.rules.array_delimiter);
            for name in text.split(delimiter).filter(|n| !n.is_empty()) {
                node.labels.push(names.label(ctx.catalog, name)?);
            }
        }
        Column::Prop { key, ty, array } => {
            let (bytes, quoted) = record.get(i).unwrap_or((b"", false));
            match value(bytes, quoted, ty, array, ctx.rules) {
                Ok(Some(v)) => node.properties.push((key, v)),
                Ok(None) => {}
                Err(m) => return Err(ctx.field_error(line, i, m)),
            }
        }
        Column::Ignore | Column::StartId(_) | Column::EndId(_) | Column::Type => {}
    }
    Ok(())
}

/// Adds a chunk's nodes to the graph in order, recording their ids; a duplicate id
/// fails the import, or with `skip_duplicates` is reported and left out.
pub fn add(
    raw: &mut RawGraph,
    ids: &mut Ids,
    nodes: Vec<ParsedNode>,
    file: &std::path::Path,
    space_names: &Spaces,
    skip_duplicates: Option<(&mut Report, u64)>,
) -> Result<u64> {
    let mut skip = skip_duplicates;
    let mut added = 0;
    for node in nodes {
        let slot = kith_core::NodeId(raw.nodes.len() as u32);
        if let Some((space, key)) = node.id {
            if let Err(key) = ids.insert(space, key, slot) {
                let what = format!(
                    "{}:{}: id {key} is already a node's in {}",
                    file.display(),
                    node.line,
                    space_names.describe(space)
                );
                match skip.as_mut() {
                    Some((report, tolerance)) => {
                        report.skip(what, *tolerance)?;
                        continue;
                    }
                    None => {
                        return Err(ImportError::new(
                            ErrorKind::DuplicateNode,
                            format!("{what} (--skip-duplicate-nodes leaves such nodes out)"),
                        ))
                    }
                }
            }
        }
        raw.add_node(node.labels, node.properties)?;
        added += 1;
    }
    Ok(added)
}
