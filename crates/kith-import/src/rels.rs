//! Relationship files: each chunk's records as relationships between nodes already
//! read, or as bad entries when an end is unknown or the type is missing.

use kith_core::{PropKeyId, RelTypeId, Value};
use kith_storage::RawRel;

use crate::chunk::{Context, Names};
use crate::error::{ErrorKind, ImportError, Result};
use crate::files::Chunk;
use crate::header::{Column, Spaces};
use crate::ids::Ids;
use crate::split::{Record, Records};
use crate::value::value;

/// A chunk's relationships, and the records to skip and report (`FILE:LINE: why`).
#[derive(Default)]
pub struct Rows {
    /// Relationships to add, in record order.
    pub rels: Vec<Option<RawRel>>,
    /// Records to skip.
    pub bad: Vec<String>,
}

/// A record's outcome.
enum Row {
    Rel(RawRel),
    Bad(String),
}

/// What a relationship chunk's parse needs besides the context.
pub struct RelInputs<'a> {
    /// The ids of every node read.
    pub ids: &'a Ids,
    /// The spaces' names, for messages.
    pub spaces: &'a Spaces,
    /// The group's type, for records without one.
    pub default_type: Option<RelTypeId>,
    /// Bad records are reported instead of failing the import.
    pub skip_bad: bool,
}

/// A relationship being read.
#[derive(Default)]
struct Parts {
    src: Option<kith_core::NodeId>,
    dst: Option<kith_core::NodeId>,
    rel_type: Option<RelTypeId>,
    properties: Vec<(PropKeyId, Value)>,
    /// Why it cannot be added, if it cannot.
    bad: Option<String>,
}

/// Parses one chunk of a relationship file.
pub fn parse(chunk: Chunk<'_>, ctx: &Context<'_>, inputs: &RelInputs<'_>) -> Result<Rows> {
    let mut records = Records::new(chunk.text, chunk.first_line, ctx.dialect);
    let mut record = Record::default();
    let mut names = Names::default();
    let mut near = [None, None];
    let mut out = Rows {
        rels: Vec::with_capacity(memchr::memchr_iter(b'\n', chunk.text).count() + 1),
        bad: Vec::new(),
    };
    while let Some(line) = records.next_into(&mut record) {
        let line = line.map_err(|e| e.in_file(ctx.file))?;
        ctx.check_width(&record, line)?;
        let mut parts = Parts {
            rel_type: inputs.default_type,
            properties: Vec::with_capacity(ctx.header.properties),
            ..Parts::default()
        };
        for (i, column) in ctx.header.columns.iter().enumerate() {
            let at = Field {
                index: i,
                column: *column,
                line,
            };
            read_field(ctx, inputs, &record, at, &mut names, &mut near, &mut parts)?;
        }
        match finish(ctx, inputs, parts, line)? {
            Row::Rel(rel) => out.rels.push(Some(rel)),
            Row::Bad(what) => out.bad.push(what),
        }
    }
    Ok(out)
}

fn finish(ctx: &Context<'_>, inputs: &RelInputs<'_>, parts: Parts, line: u64) -> Result<Row> {
    let bad = parts.bad.or_else(|| {
        parts
            .rel_type
            .is_none()
            .then(|| "it has no type (an empty :TYPE field and no type in --relationships)".into())
    });
    match (bad, parts.src, parts.dst, parts.rel_type) {
        (None, Some(src), Some(dst), Some(rel_type)) => Ok(Row::Rel(RawRel {
            rel_type,
            src,
            dst,
            properties: parts.properties,
        })),
        (bad, ..) => {
            let why = bad.unwrap_or_else(|| "it has no start or end id".into());
            let what = format!("{}:{line}: relationship skipped: {why}", ctx.file.display());
            if inputs.skip_bad {
                Ok(Row::Bad(what))
            } else {
                Err(ImportError::new(
                    ErrorKind::BadRelationship,
                    format!("relationship refused: {why} (--skip-bad-relationships leaves such relationships out)"),
                )
                .in_file(ctx.file)
                .at_line(line))
            }
        }
    }
}

/// Where a field is: its index, column and line.
struct Field {
    index: usize,
    column: Column,
    line: u64,
}

fn read_field(
    ctx: &Context<'_>,
    inputs: &RelInputs<'_>,
    record: &Record,
    at: Field,
    names: &mut Names,
    near: &mut [Option<kith_core::NodeId>; 2],
    parts: &mut Parts,
) -> Result<()> {
    let Field {
        index: i,
        column,
        line,
    } = at;
    match column {
        Column::StartId(space) | Column::EndId(space) => {
            let (text, _) = ctx.text(record, i, line)?;
            let end = usize::from(matches!(column, Column::EndId(_)));
            let node = inputs.ids.get_near(space, text, &mut near[end]);
            if node.is_none() && parts.bad.is_none() {
                let end = if matches!(column, Column::StartId(_)) {
                    "start"
                } else {
                    "end"
                };
                parts.bad = Some(format!(
                    "its {end} node `{text}` is not in {}",
                    inputs.spaces.describe(space)
                ));
            }
            if matches!(column, Column::StartId(_)) {
                parts.src = node;
            } else {
                parts.dst = node;
            }
        }
        Column::Type => {
            let (text, _) = ctx.text(record, i, line)?;
            if !text.is_empty() {
                parts.rel_type = Some(names.rel_type(ctx.catalog, text)?);
            }
        }
        Column::Prop { key, ty, array } => {
            let (bytes, quoted) = record.get(i).unwrap_or((b"", false));
            match value(bytes, quoted, ty, array, ctx.rules) {
                Ok(Some(v)) => parts.properties.push((key, v)),
                Ok(None) => {}
                Err(m) => return Err(ctx.field_error(line, i, m)),
            }
        }
        Column::Ignore | Column::Id { .. } | Column::Label => {}
    }
    Ok(())
}
