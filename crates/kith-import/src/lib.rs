//! Bulk import of CSV files in the format of Neo4j's `neo4j-admin database import`:
//! node files with `:ID(group)`, `:LABEL` and typed property columns, relationship
//! files with `:START_ID`, `:END_ID` and `:TYPE`, into a [`RawGraph`] the store builds
//! in one pass. Headers are read first, so a mistake in any of them fails the import
//! before any data is parsed. Each file is cut into chunks at line breaks and the
//! chunks are parsed on every core; ids are then checked and nodes numbered in file
//! order, so the result does not depend on the number of threads.
//!
//! The format, the options and what kith does differently: docs/import.md.

mod chunk;
mod error;
mod files;
mod header;
mod ids;
mod names;
mod nodes;
mod options;
mod rels;
mod report;
mod split;
mod value;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use kith_core::{LabelId, RelTypeId};
use kith_storage::{Catalog, RawGraph};
use rayon::prelude::*;

pub use error::{ErrorKind, ImportError, Result};
pub use header::FileKind;
pub use options::{parse_char, Group, IdType, Options, Plan};
pub use report::Report;

use chunk::Context;
use header::{Header, Spaces};
use split::{Dialect, Record, Records};
use value::FieldRules;

/// Where an import reports its progress (bytes of input, as on disk).
pub trait Progress: Sync {
    /// A phase (`nodes`, `relationships`) starts, over this many bytes.
    fn phase(&self, name: &str, total_bytes: u64);
    /// This many more bytes are done.
    fn advance(&self, bytes: u64);
}

/// Progress nobody watches.
pub struct NoProgress;

impl Progress for NoProgress {
    fn phase(&self, _: &str, _: u64) {}
    fn advance(&self, _: u64) {}
}

/// What one group of files gave.
#[derive(Debug, Clone)]
pub struct GroupStats {
    /// Nodes or relationships.
    pub kind: FileKind,
    /// The group's labels or type.
    pub names: Vec<String>,
    /// Its files.
    pub files: Vec<PathBuf>,
    /// The elements it added.
    pub count: u64,
}

/// A finished import.
#[derive(Debug)]
pub struct Imported {
    /// The graph.
    pub graph: RawGraph,
    /// Per group.
    pub groups: Vec<GroupStats>,
}

/// A group ready to read: its files, header and names.
struct Prepared {
    group: Group,
    files: Vec<PathBuf>,
    header: Header,
    bytes: u64,
}

/// Runs the import `plan` describes. What was skipped goes into `report`, which the
/// caller keeps whether the import succeeds or fails (more than `--bad-tolerance`
/// skipped entries fail it, and the report then says which they were).
pub fn import(plan: &Plan, progress: &dyn Progress, report: &mut Report) -> Result<Imported> {
    check_options(&plan.options)?;
    if plan.nodes.is_empty() {
        return Err(ImportError::new(
            ErrorKind::Argument,
            "no --nodes files: nothing to import",
        ));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.options.threads)
        .build()
        .map_err(|e| ImportError::new(ErrorKind::Argument, format!("--threads: {e}")))?;
    pool.install(|| Importer::new(plan)?.run(progress, report))
}

fn check_options(o: &Options) -> Result<()> {
    let clash = |a: &str, b: &str| {
        Err(ImportError::new(
            ErrorKind::Argument,
            format!("{a} and {b} must be different characters"),
        ))
    };
    if o.delimiter == o.quote {
        return clash("--delimiter", "--quote");
    }
    if o.delimiter == o.array_delimiter {
        return clash("--delimiter", "--array-delimiter");
    }
    Ok(())
}

struct Importer<'p> {
    plan: &'p Plan,
    catalog: Mutex<Catalog>,
    spaces: Spaces,
    nodes: Vec<Prepared>,
    rels: Vec<Prepared>,
}

impl<'p> Importer<'p> {
    /// Expands every group's files and parses every header.
    fn new(plan: &'p Plan) -> Result<Importer<'p>> {
        let mut catalog = Catalog::default();
        let mut spaces = Spaces::default();
        let dialect = dialect(&plan.options);
        let mut prepare = |groups: &[Group], kind| {
            groups
                .iter()
                .map(|g| {
                    prepare(
                        g,
                        kind,
                        dialect,
                        plan.options.id_type,
                        &mut catalog,
                        &mut spaces,
                    )
                })
                .collect::<Result<Vec<_>>>()
        };
        let nodes = prepare(&plan.nodes, FileKind::Nodes)?;
        let rels = prepare(&plan.relationships, FileKind::Relationships)?;
        Ok(Importer {
            plan,
            catalog: Mutex::new(catalog),
            spaces,
            nodes,
            rels,
        })
    }

    fn run(self, progress: &dyn Progress, report: &mut Report) -> Result<Imported> {
        let options = &self.plan.options;
        let mut raw = RawGraph::default();
        let mut ids = ids::Ids::new(self.spaces.len(), options.id_type);
        let mut groups = Vec::new();
        progress.phase("nodes", self.nodes.iter().map(|p| p.bytes).sum());
        raw.nodes.reserve_exact(lines(&self.nodes)?);
        for p in &self.nodes {
            let labels = self.group_labels(&p.group)?;
            let mut count = 0;
            for (k, file) in p.files.iter().enumerate() {
                count +=
                    self.node_file(p, k, file, &labels, &mut raw, &mut ids, report, progress)?;
            }
            groups.push(self.stats(p, FileKind::Nodes, count));
        }
        progress.phase("relationships", self.rels.iter().map(|p| p.bytes).sum());
        raw.rels.reserve_exact(lines(&self.rels)?);
        for p in &self.rels {
            let default_type = match p.group.names.first() {
                Some(name) => Some(chunk::lock(&self.catalog).rel_type(name)?),
                None => None,
            };
            let mut count = 0;
            for (k, file) in p.files.iter().enumerate() {
                count +=
                    self.rel_file(p, k, file, default_type, &ids, &mut raw, report, progress)?;
            }
            groups.push(self.stats(p, FileKind::Relationships, count));
        }
        raw.catalog = self.catalog.into_inner().unwrap_or_else(|e| e.into_inner());
        names::canonical(&mut raw)?;
        Ok(Imported { graph: raw, groups })
    }

    fn group_labels(&self, group: &Group) -> Result<Vec<LabelId>> {
        let mut catalog = chunk::lock(&self.catalog);
        group.names.iter().map(|n| Ok(catalog.label(n)?)).collect()
    }

    fn stats(&self, p: &Prepared, kind: FileKind, count: u64) -> GroupStats {
        GroupStats {
            kind,
            names: p.group.names.clone(),
            files: p.files.clone(),
            count,
        }
    }

    fn context<'a>(&'a self, p: &'a Prepared, file: &'a Path) -> Context<'a> {
        let o = &self.plan.options;
        Context {
            header: &p.header,
            file,
            dialect: dialect(o),
            rules: FieldRules {
                array_delimiter: o.array_delimiter,
                ignore_empty_strings: o.ignore_empty_strings,
                trim_strings: o.trim_strings,
            },
            catalog: &self.catalog,
        }
    }

    /// A file's records, without its header line when it has one.
    fn body<'t>(&self, k: usize, text: &'t [u8]) -> (&'t [u8], u64) {
        let text = files::without_bom(text);
        if k == 0 || self.plan.options.auto_skip_subsequent_headers {
            (files::split_header(text).1, 2)
        } else {
            (text, 1)
        }
    }

    /// Reads one file of group `p` (its `k`-th), parses its chunks on every core with
    /// `parse`, and hands each chunk's result to `add` in file order. Chunks are
    /// parsed a window at a time, so what waits to be added stays a few megabytes
    /// whatever the file's size, and an error stops the work early.
    fn parse_file<T: Send>(
        &self,
        (p, k, file): (&Prepared, usize, &Path),
        progress: &dyn Progress,
        parse: impl Fn(files::Chunk<'_>, &Context<'_>) -> Result<T> + Sync,
        mut add: impl FnMut(T) -> Result<()>,
    ) -> Result<()> {
        let text = files::read(file)?;
        let (body, first_line) = self.body(k, &text);
        let ctx = self.context(p, file);
        let parts = files::chunks(body, first_line, self.plan.options.multiline_fields);
        let on_disk = files::size(file);
        let window = 2 * rayon::current_num_threads().max(1);
        for group in parts.chunks(window) {
            let parsed: Vec<Result<T>> = group
                .par_iter()
                .map(|c| {
                    let r = parse(*c, &ctx);
                    progress.advance(share(on_disk, c.text.len(), body.len()));
                    r
                })
                .collect();
            for chunk in parsed {
                add(chunk?)?;
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn node_file(
        &self,
        p: &Prepared,
        k: usize,
        file: &Path,
        labels: &[LabelId],
        raw: &mut RawGraph,
        ids: &mut ids::Ids,
        report: &mut Report,
        progress: &dyn Progress,
    ) -> Result<u64> {
        let o = &self.plan.options;
        let mut added = 0;
        self.parse_file(
            (p, k, file),
            progress,
            |c, ctx| nodes::parse(c, ctx, labels, o.id_type),
            |chunk| {
                let skip = o
                    .skip_duplicate_nodes
                    .then_some((&mut *report, o.bad_tolerance));
                added += nodes::add(raw, ids, chunk, file, &self.spaces, skip)?;
                Ok(())
            },
        )?;
        Ok(added)
    }

    #[allow(clippy::too_many_arguments)]
    fn rel_file(
        &self,
        p: &Prepared,
        k: usize,
        file: &Path,
        default_type: Option<RelTypeId>,
        ids: &ids::Ids,
        raw: &mut RawGraph,
        report: &mut Report,
        progress: &dyn Progress,
    ) -> Result<u64> {
        let inputs = rels::RelInputs {
            ids,
            spaces: &self.spaces,
            default_type,
            skip_bad: self.plan.options.skip_bad_relationships,
        };
        let mut added = 0;
        let parse = |c: files::Chunk<'_>, ctx: &Context<'_>| rels::parse(c, ctx, &inputs);
        self.parse_file((p, k, file), progress, parse, |chunk: rels::Rows| {
            if raw.rels.len() + chunk.rels.len() > u32::MAX as usize {
                return Err(ImportError::new(
                    ErrorKind::Storage,
                    "more than 2^32 relationships",
                ));
            }
            added += chunk.rels.len() as u64;
            raw.rels.extend(chunk.rels);
            for what in chunk.bad {
                report.skip(what, self.plan.options.bad_tolerance)?;
            }
            Ok(())
        })?;
        Ok(added)
    }
}

/// The line breaks in every file of `groups`: an upper bound on their records.
fn lines(groups: &[Prepared]) -> Result<usize> {
    let mut total = 0;
    for p in groups {
        for f in &p.files {
            total += files::count_lines(f)?;
        }
    }
    Ok(usize::try_from(total).unwrap_or(usize::MAX))
}

fn dialect(o: &Options) -> Dialect {
    Dialect {
        delimiter: o.delimiter,
        quote: o.quote,
        multiline: o.multiline_fields,
    }
}

/// `part` of `whole` bytes of text, in bytes on disk.
fn share(on_disk: u64, part: usize, whole: usize) -> u64 {
    if whole == 0 {
        return 0;
    }
    (on_disk as u128 * part as u128 / whole as u128) as u64
}

/// Expands a group's files and parses its header (the first file's first line).
fn prepare(
    group: &Group,
    kind: FileKind,
    dialect: Dialect,
    id_type: IdType,
    catalog: &mut Catalog,
    spaces: &mut Spaces,
) -> Result<Prepared> {
    let mut files = Vec::new();
    for name in &group.files {
        files.extend(files::expand(name)?);
    }
    let first = &files[0];
    let line = files::first_line(first)?;
    let mut records = Records::new(
        &line,
        1,
        Dialect {
            multiline: false,
            ..dialect
        },
    );
    let mut record = Record::default();
    let entries: Vec<String> = match records.next_into(&mut record) {
        Some(Ok(_)) => (0..record.len())
            .map(|i| String::from_utf8_lossy(record.get(i).map_or(&[][..], |f| f.0)).into_owned())
            .collect(),
        Some(Err(e)) => return Err(e.in_file(first)),
        None => {
            return Err(ImportError::new(
                ErrorKind::Header,
                "the file is empty; its first line must be the header",
            )
            .in_file(first))
        }
    };
    let header = Header::parse(&entries, kind, id_type, catalog, spaces)
        .map_err(|e| e.in_file(first).at_line(1))?;
    let typed = header.columns.contains(&header::Column::Type) || !group.names.is_empty();
    if kind == FileKind::Relationships && !typed {
        return Err(ImportError::new(
            ErrorKind::Header,
            "relationships need a type: the header has no :TYPE column and the argument no TYPE= (--relationships=KNOWS=file.csv)",
        )
        .in_file(first)
        .at_line(1));
    }
    let bytes = files.iter().map(|f| files::size(f)).sum();
    Ok(Prepared {
        group: group.clone(),
        files,
        header,
        bytes,
    })
}
