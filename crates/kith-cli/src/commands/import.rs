//! `kith import`: CSV files in the format of `neo4j-admin database import` as a new
//! data directory (docs/import.md).

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{ArgAction, Args};
use kith_core::GraphView;
use kith_import::{FileKind, Group, IdType, Imported, Options, Plan, Progress, Report};
use kith_storage::Snapshot;

use crate::commands::load::{publish, refuse_non_empty, staging_dir, write_graph_and_manifest};

/// `kith import`'s arguments, named and defaulted as `neo4j-admin database import`'s.
#[derive(Args)]
pub struct ImportArgs {
    /// Node files: `[Label[:Label...]=]FILE[,FILE...]`; the first file's first line is
    /// the header. A FILE that does not exist is a regular expression over its
    /// directory's file names. Repeatable.
    #[arg(long = "nodes", value_name = "[LABELS=]FILES", required = true)]
    nodes: Vec<String>,
    /// Relationship files: `[TYPE=]FILE[,FILE...]`. Repeatable.
    #[arg(long = "relationships", value_name = "[TYPE=]FILES")]
    relationships: Vec<String>,
    /// The data directory to create; it must not exist or be empty.
    #[arg(long)]
    out: PathBuf,
    /// The field delimiter: one character, or TAB.
    #[arg(long, default_value = ",")]
    delimiter: String,
    /// The delimiter between array elements and between labels.
    #[arg(long, default_value = ";")]
    array_delimiter: String,
    /// The quote character (doubled inside a quoted field).
    #[arg(long, default_value = "\"")]
    quote: String,
    /// How ids are read: string, or integer (a named ID column is then an Int).
    #[arg(long, default_value = "string")]
    id_type: String,
    /// Skip and report relationships whose start or end node no file defines.
    #[arg(long, num_args = 0..=1, default_missing_value = "true", action = ArgAction::Set, default_value_t = false)]
    skip_bad_relationships: bool,
    /// Skip and report nodes whose id their ID space holds already.
    #[arg(long, num_args = 0..=1, default_missing_value = "true", action = ArgAction::Set, default_value_t = false)]
    skip_duplicate_nodes: bool,
    /// How many skipped entries the import takes before it fails.
    #[arg(long, default_value_t = 1000)]
    bad_tolerance: u64,
    /// Where skipped entries are listed (always written; empty when none were).
    #[arg(long, default_value = "import.report")]
    report_file: PathBuf,
    /// Treat `""` as no value instead of an empty string.
    #[arg(long, num_args = 0..=1, default_missing_value = "true", action = ArgAction::Set, default_value_t = false)]
    ignore_empty_strings: bool,
    /// Trim spaces around unquoted strings.
    #[arg(long, num_args = 0..=1, default_missing_value = "true", action = ArgAction::Set, default_value_t = false)]
    trim_strings: bool,
    /// Quoted fields may span lines (such files are parsed by one thread each).
    #[arg(long, num_args = 0..=1, default_missing_value = "true", action = ArgAction::Set, default_value_t = false)]
    multiline_fields: bool,
    /// Every file of a group after the first starts with the header: skip it.
    #[arg(long, num_args = 0..=1, default_missing_value = "true", action = ArgAction::Set, default_value_t = false)]
    auto_skip_subsequent_headers: bool,
    /// Parsing threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
}

impl ImportArgs {
    fn plan(&self) -> Result<Plan> {
        let groups = |what: &str, specs: &[String]| -> Result<Vec<Group>> {
            specs.iter().map(|s| Ok(Group::parse(what, s)?)).collect()
        };
        Ok(Plan {
            nodes: groups("--nodes", &self.nodes)?,
            relationships: groups("--relationships", &self.relationships)?,
            options: Options {
                delimiter: kith_import::parse_char("--delimiter", &self.delimiter)?,
                array_delimiter: kith_import::parse_char(
                    "--array-delimiter",
                    &self.array_delimiter,
                )?,
                quote: kith_import::parse_char("--quote", &self.quote)?,
                id_type: IdType::parse(&self.id_type)?,
                multiline_fields: self.multiline_fields,
                ignore_empty_strings: self.ignore_empty_strings,
                trim_strings: self.trim_strings,
                skip_bad_relationships: self.skip_bad_relationships,
                skip_duplicate_nodes: self.skip_duplicate_nodes,
                bad_tolerance: self.bad_tolerance,
                auto_skip_subsequent_headers: self.auto_skip_subsequent_headers,
                threads: self.threads,
            },
        })
    }
}

/// A bar per phase on standard error, with throughput and ETA (drawn only at a
/// terminal).
struct Bars {
    bar: Mutex<Option<indicatif::ProgressBar>>,
}

impl Progress for Bars {
    fn phase(&self, name: &str, total_bytes: u64) {
        let mut slot = self.bar.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(done) = slot.take() {
            done.finish();
        }
        let bar = indicatif::ProgressBar::new(total_bytes);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{prefix:>13} {bar:40} {bytes}/{total_bytes} {bytes_per_sec}, ETA {eta}",
        ) {
            bar.set_style(style);
        }
        bar.set_prefix(name.to_owned());
        *slot = Some(bar);
    }

    fn advance(&self, bytes: u64) {
        if let Some(bar) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            bar.inc(bytes);
        }
    }
}

impl Bars {
    fn finish(&self) {
        if let Some(bar) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).take() {
            bar.finish();
        }
    }
}

pub fn run(args: &ImportArgs) -> Result<()> {
    let plan = args.plan()?;
    refuse_non_empty(&args.out)?;
    let started = Instant::now();
    let bars = Bars {
        bar: Mutex::new(None),
    };
    let mut report = Report::default();
    let imported = kith_import::import(&plan, &bars, &mut report);
    bars.finish();
    // Written whatever happened, as Neo4j's importer does: empty when nothing was
    // skipped, and listing the skipped entries when too many of them failed it.
    write_report(&report, &args.report_file)?;
    let imported = imported?;
    let parsed = started.elapsed().as_secs_f64();
    let manifest = manifest(&imported, &report);
    let snapshot = Snapshot::from_raw(imported.graph)?;
    let built = started.elapsed().as_secs_f64();
    let staging = staging_dir(&args.out)?;
    let written = write_graph_and_manifest(&staging, &snapshot, &manifest)
        .and_then(|()| publish(&staging, &args.out));
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(e);
    }
    let total = started.elapsed().as_secs_f64();
    let elements = (snapshot.node_count() + snapshot.rel_count()) as f64;
    let files: usize = imported.groups.iter().map(|g| g.files.len()).sum();
    println!(
        "imported {} nodes and {} relationships from {files} files into {}",
        snapshot.node_count(),
        snapshot.rel_count(),
        args.out.display()
    );
    println!(
        "  parse {parsed:.2} s, build {:.2} s, write {:.2} s: {:.0} elements/s",
        built - parsed,
        total - built,
        elements / total
    );
    if report.skipped > 0 {
        println!(
            "  skipped {} bad entries, listed in {}",
            report.skipped,
            args.report_file.display()
        );
    }
    Ok(())
}

fn write_report(report: &Report, path: &Path) -> Result<()> {
    std::fs::write(path, report.text())
        .with_context(|| format!("writing the report {}", path.display()))
}

fn manifest(imported: &Imported, report: &Report) -> serde_json::Value {
    let groups: Vec<serde_json::Value> = imported
        .groups
        .iter()
        .map(|g| {
            serde_json::json!({
                "kind": match g.kind { FileKind::Nodes => "nodes", FileKind::Relationships => "relationships" },
                "names": g.names,
                "files": g.files.iter().map(|f| std::fs::canonicalize(f).unwrap_or_else(|_| f.clone())).collect::<Vec<_>>(),
                "count": g.count,
            })
        })
        .collect();
    serde_json::json!({
        "generator": "kith-import",
        "groups": groups,
        "skipped": report.skipped,
    })
}
