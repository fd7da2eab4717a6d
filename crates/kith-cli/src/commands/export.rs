//! `kith export csv`: a graph as CSV files in the layout of Neo4j's bulk importer, so
//! peers load exactly the data kith serves.
//!
//! ```text
//! OUT/nodes_<Label>.csv                      id:ID(<Label>)|key:type|...
//! OUT/rels_<TYPE>_<From>_<To>.csv            :START_ID(<From>)|:END_ID(<To>)|key:type|...
//! OUT/import-args.txt                        the --nodes / --relationships arguments
//! OUT/manifest.json                          counts per file
//! ```
//!
//! Every node must have exactly one label and an Int `id` (unique per label): they
//! become the importer's ID spaces. Strings are quoted (`"` doubled inside), lists use
//! `;` between elements, datetimes are ISO-8601 UTC with millisecond precision.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context, Result};
use kith_core::{GraphView, NodeId, PropKeyId, RelId, Value};

use crate::data_dir;

/// The importer type of a property, decided from every value it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
    Long,
    Double,
    Boolean,
    String,
    DateTime,
    /// A Cypher temporal value, by its kind's import type name.
    Temporal(&'static str),
    Point,
    LongArray,
    ByteArray,
    PointArray,
    StringArray,
}

impl Column {
    fn of(value: &Value) -> Option<Column> {
        Some(match value {
            Value::Int(_) => Column::Long,
            Value::Float(_) => Column::Double,
            Value::Bool(_) => Column::Boolean,
            Value::String(_) => Column::String,
            Value::DateTime(_) => Column::DateTime,
            Value::Temporal(t) => Column::Temporal(import_type(t)),
            Value::Point(_) => Column::Point,
            Value::Bytes(_) => Column::ByteArray,
            Value::List(items) if items.iter().all(|v| matches!(v, Value::Int(_))) => {
                Column::LongArray
            }
            Value::List(items)
                if !items.is_empty() && items.iter().all(|v| matches!(v, Value::Point(_))) =>
            {
                Column::PointArray
            }
            Value::List(_) => Column::StringArray,
            Value::Null | Value::Map(_) => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Column::Long => "long",
            Column::Double => "double",
            Column::Boolean => "boolean",
            Column::String => "string",
            Column::DateTime => "datetime",
            Column::Temporal(name) => name,
            Column::Point => "point",
            Column::LongArray => "long[]",
            Column::ByteArray => "byte[]",
            Column::PointArray => "point[]",
            Column::StringArray => "string[]",
        }
    }

    /// Two types seen for one key: ints widen to doubles, lists of ints to lists of
    /// strings; anything else is refused.
    fn merge(self, other: Column) -> Option<Column> {
        use Column::*;
        match (self, other) {
            (a, b) if a == b => Some(a),
            (Long, Double) | (Double, Long) => Some(Double),
            (LongArray, StringArray) | (StringArray, LongArray) => Some(StringArray),
            (ByteArray, LongArray) | (LongArray, ByteArray) => Some(LongArray),
            (ByteArray, StringArray) | (StringArray, ByteArray) => Some(StringArray),
            _ => None,
        }
    }
}

fn quote(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        if c == '"' {
            out.push('"');
        }
        out.push(c);
    }
    out.push('"');
}

fn field(out: &mut String, value: Option<&Value>) {
    match value {
        None | Some(Value::Null) | Some(Value::Map(_)) => {}
        Some(Value::Int(i)) => out.push_str(&i.to_string()),
        Some(Value::Float(x)) => out.push_str(&format!("{x:?}")),
        Some(Value::Bool(b)) => out.push_str(if *b { "true" } else { "false" }),
        Some(Value::String(s)) => quote(out, s),
        Some(Value::DateTime(ms)) => out.push_str(&kith_core::format_epoch_millis(*ms)),
        Some(Value::Temporal(t)) => out.push_str(&t.to_string()),
        Some(Value::Point(p)) => quote(out, &point_text(p)),
        Some(Value::Bytes(b)) => {
            let joined: Vec<String> = kith_core::signed(b).map(|i| i.to_string()).collect();
            quote(out, &joined.join(";"));
        }
        Some(Value::List(items)) => {
            let joined: Vec<String> = items
                .iter()
                .map(|v| match v {
                    Value::String(s) => s.replace(';', ","),
                    Value::Point(p) => point_text(p),
                    other => other.to_string(),
                })
                .collect();
            quote(out, &joined.join(";"));
        }
    }
}

/// A point as the importer reads it: `{x: 1.0, y: 2.0, crs: 'cartesian'}`.
fn point_text(p: &kith_core::Point) -> String {
    let text = p.to_string();
    text.strip_prefix("point(")
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or(&text)
        .to_owned()
}

/// neo4j-admin import's column type for a temporal value.
fn import_type(t: &kith_core::Temporal) -> &'static str {
    use kith_core::Temporal as T;
    match t {
        T::Date(_) => "date",
        T::LocalTime(_) => "localtime",
        T::Time(..) => "time",
        T::LocalDateTime(_) => "localdatetime",
        T::DateTime(_) => "datetime",
        T::Duration(_) => "duration",
    }
}

/// Columns per group (a label, or a relationship type between two labels).
type Columns = BTreeMap<PropKeyId, Column>;

fn add_columns(
    g: &dyn GraphView,
    columns: &mut Columns,
    props: &[(PropKeyId, Value)],
    what: &str,
) -> Result<()> {
    for (key, value) in props {
        let Some(column) = Column::of(value) else {
            continue;
        };
        let merged = match columns.get(key) {
            None => column,
            Some(seen) => seen.merge(column).with_context(|| {
                format!(
                    "{what}: property `{}` holds both {} and {} values; the importer needs one type",
                    g.prop_key_name(*key),
                    seen.name(),
                    column.name()
                )
            })?,
        };
        columns.insert(*key, merged);
    }
    Ok(())
}

fn header(g: &dyn GraphView, first: &[String], columns: &Columns) -> String {
    let mut cells: Vec<String> = first.to_vec();
    cells.extend(
        columns
            .iter()
            .map(|(k, c)| format!("{}:{}", g.prop_key_name(*k), c.name())),
    );
    cells.join("|") + "\n"
}

pub fn run(dir: &Path, out: &Path) -> Result<()> {
    let loaded = data_dir::load(dir)?;
    let rel_bound = loaded.snapshot.rel_id_bound();
    let g: &dyn GraphView = &loaded.snapshot;
    let id_key = g
        .prop_key_id("id")
        .context("the graph has no `id` property; the importer needs one per node")?;
    // Pass 1: every node's label and id, and the columns of every file.
    let mut label_of: Vec<Option<kith_core::LabelId>> = vec![None; g.node_id_bound()];
    let mut node_columns: BTreeMap<kith_core::LabelId, Columns> = BTreeMap::new();
    for n in g.node_ids() {
        let labels = g.node_labels(n);
        let [label] = labels else {
            bail!(
                "node {n} has {} labels; the export needs exactly one per node",
                labels.len()
            );
        };
        if g.node_property(n, id_key)
            .as_ref()
            .and_then(Value::as_int)
            .is_none()
        {
            bail!("node {n} (:{}) has no Int `id`", g.label_name(*label));
        }
        label_of[n.index()] = Some(*label);
        let props: Vec<(PropKeyId, Value)> = g
            .node_properties(n)
            .into_iter()
            .filter(|(k, _)| *k != id_key)
            .collect();
        add_columns(
            g,
            node_columns.entry(*label).or_default(),
            &props,
            &format!(":{}", g.label_name(*label)),
        )?;
    }
    let external = |n: NodeId| {
        g.node_property(n, id_key)
            .as_ref()
            .and_then(Value::as_int)
            .unwrap_or(0)
    };
    type RelGroup = (kith_core::RelTypeId, kith_core::LabelId, kith_core::LabelId);
    let mut rel_columns: BTreeMap<RelGroup, Columns> = BTreeMap::new();
    let rel_ids: Vec<RelId> = (0..rel_bound as u32)
        .map(RelId)
        .filter(|r| g.relationship(*r).is_some())
        .collect();
    for r in &rel_ids {
        let Some(rel) = g.relationship(*r) else {
            continue;
        };
        let (Some(from), Some(to)) = (label_of[rel.src.index()], label_of[rel.dst.index()]) else {
            continue;
        };
        add_columns(
            g,
            rel_columns.entry((rel.rel_type, from, to)).or_default(),
            &g.rel_properties(*r),
            &format!("[:{}]", g.rel_type_name(rel.rel_type)),
        )?;
    }

    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let mut args = Vec::new();
    let mut manifest = serde_json::Map::new();
    for (label, columns) in &node_columns {
        let name = g.label_name(*label);
        let file = format!("nodes_{name}.csv");
        let mut text = header(g, &[format!("id:ID({name})")], columns);
        let mut count = 0u64;
        for n in g.node_ids().filter(|n| label_of[n.index()] == Some(*label)) {
            text.push_str(&external(n).to_string());
            for key in columns.keys() {
                text.push('|');
                field(&mut text, g.node_property(n, *key).as_ref());
            }
            text.push('\n');
            count += 1;
        }
        write(out, &file, &text)?;
        args.push(format!("--nodes={name}={}", out.join(&file).display()));
        manifest.insert(file, count.into());
    }
    for ((rel_type, from, to), columns) in &rel_columns {
        let (t, f, d) = (
            g.rel_type_name(*rel_type),
            g.label_name(*from),
            g.label_name(*to),
        );
        let file = format!("rels_{t}_{f}_{d}.csv");
        let mut text = header(
            g,
            &[format!(":START_ID({f})"), format!(":END_ID({d})")],
            columns,
        );
        let mut count = 0u64;
        for r in &rel_ids {
            let Some(rel) = g.relationship(*r) else {
                continue;
            };
            if rel.rel_type != *rel_type
                || label_of[rel.src.index()] != Some(*from)
                || label_of[rel.dst.index()] != Some(*to)
            {
                continue;
            }
            text.push_str(&format!("{}|{}", external(rel.src), external(rel.dst)));
            for key in columns.keys() {
                text.push('|');
                field(&mut text, g.rel_property(*r, *key).as_ref());
            }
            text.push('\n');
            count += 1;
        }
        write(out, &file, &text)?;
        args.push(format!("--relationships={t}={}", out.join(&file).display()));
        manifest.insert(file, count.into());
    }
    write(out, "import-args.txt", &(args.join("\n") + "\n"))?;
    write(
        out,
        "manifest.json",
        &(serde_json::to_string_pretty(&serde_json::Value::Object(manifest))? + "\n"),
    )?;
    println!(
        "exported {} nodes and {} relationships into {} ({} files); import arguments in {}",
        g.node_count(),
        rel_ids.len(),
        out.display(),
        args.len(),
        out.join("import-args.txt").display()
    );
    Ok(())
}

fn write(dir: &Path, file: &str, text: &str) -> Result<()> {
    let path = dir.join(file);
    let mut f =
        std::fs::File::create(&path).with_context(|| format!("creating {}", path.display()))?;
    f.write_all(text.as_bytes())
        .with_context(|| format!("writing {}", path.display()))
}
