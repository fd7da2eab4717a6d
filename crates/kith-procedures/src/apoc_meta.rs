//! `apoc.meta.data(config)`: APOC's table of a graph's shape, the procedure LLM schema
//! readers (`langchain-neo4j`'s `Neo4jGraph`, `neo4j-graphrag`) call first. One row per
//! property of each label and relationship type, and one per relationship type leaving
//! each label (`type` "RELATIONSHIP", `other` the labels it reaches), as APOC 5
//! answers them (its Meta.java: `collectMetaData`).
//!
//! APOC samples about `sample` nodes per label at a random stride; kith takes every
//! k-th node, k = count / sample, so the same graph always answers the same table.

use std::collections::BTreeMap;

use kith_core::{Direction, GraphView, LabelId, NodeId, PropKeyId, RelTypeId, Temporal, Value};

use crate::{ParamSpec, Params, Procedure, ProcedureError, ResultSet};

/// The procedure.
pub fn procedures() -> Vec<Procedure> {
    vec![META_DATA]
}

const META_DATA: Procedure = Procedure {
    name: "apoc.meta.data",
    description: "Each label's and relationship type's properties and value types, and the relationships leaving each label, as APOC's meta data table",
    params: &[ParamSpec::optional_map(
        "config",
        "{sample: n}: read about n nodes per label (-1: all; default 1000)",
    )],
    columns: &[
        "label",
        "property",
        "count",
        "unique",
        "index",
        "existence",
        "type",
        "array",
        "sample",
        "left",
        "right",
        "other",
        "otherLabels",
        "elementType",
    ],
    run: run_meta_data,
};

/// APOC's default `sample`.
const SAMPLE_DEFAULT: i64 = 1000;

fn run_meta_data(g: &dyn GraphView, params: &Params) -> Result<ResultSet, ProcedureError> {
    let sample = sample(params)?;
    let mut types: BTreeMap<RelTypeId, Entries> = BTreeMap::new();
    let mut labels = Vec::new();
    for label in labels_in_use(g) {
        let mut entries = Entries::default();
        for node in sampled(g, label, sample) {
            relationships(g, node, label, &mut entries, &mut types);
            entries.properties(g, &g.node_properties(node), "node");
        }
        labels.push((label, entries));
    }
    let mut out = ResultSet::new(META_DATA.columns);
    let schema = Indexed::of(g);
    for (t, entries) in &types {
        entries.rows(g.rel_type_name(*t), |_| (false, false), &mut out);
    }
    for (label, entries) in &labels {
        let name = g.label_name(*label);
        entries.rows(name, |key| schema.flags(name, key), &mut out);
    }
    Ok(out)
}

/// The `sample` of the configuration; any other key but APOC's `maxRels` (which this
/// table does not use) is refused, naming what is accepted.
fn sample(params: &Params) -> Result<i64, ProcedureError> {
    let Value::Map(config) = params.value("config")? else {
        unreachable!("validated as a map")
    };
    let mut sample = SAMPLE_DEFAULT;
    for (key, value) in config {
        match (&**key, value) {
            ("sample", Value::Int(n)) if *n == -1 || *n > 0 => sample = *n,
            ("maxRels", Value::Int(_)) => {}
            _ => {
                return Err(ProcedureError::ParameterOutOfRange {
                    procedure: META_DATA.name.into(),
                    parameter: "config".into(),
                    reason: format!(
                        "`{key}: {value}` is not understood; accepted: sample (a positive integer or -1), maxRels"
                    ),
                })
            }
        }
    }
    Ok(sample)
}

/// The labels some node carries, in the order the graph first used them.
fn labels_in_use(g: &dyn GraphView) -> Vec<LabelId> {
    let mut ids: Vec<LabelId> = g
        .label_names()
        .iter()
        .filter_map(|name| g.label_id(name))
        .filter(|&l| g.nodes_with_label(l).next().is_some())
        .collect();
    ids.sort();
    ids
}

/// About `sample` nodes of `label`: every k-th, k = count / sample (all when -1 or
/// when the label has fewer nodes).
fn sampled(g: &dyn GraphView, label: LabelId, sample: i64) -> impl Iterator<Item = NodeId> + '_ {
    let count = g
        .label_count(label)
        .unwrap_or_else(|| g.nodes_with_label(label).count());
    let stride = match usize::try_from(sample) {
        Ok(s) if s > 0 => (count / s).max(1),
        _ => 1,
    };
    g.nodes_with_label(label).step_by(stride)
}

/// The outgoing relationships of `node`, by type: a "RELATIONSHIP" row of its label
/// and one of the type, and the type's property rows.
fn relationships(
    g: &dyn GraphView,
    node: NodeId,
    label: LabelId,
    entries: &mut Entries,
    types: &mut BTreeMap<RelTypeId, Entries>,
) {
    let label_name = g.label_name(label);
    for t in g.rel_types_at(node, Direction::Out) {
        let out = g.neighbors(node, t, Direction::Out);
        if out.is_empty() {
            continue;
        }
        let incoming = g.neighbors(node, t, Direction::In).len();
        let ends: Vec<&str> = out
            .iter()
            .flat_map(|e| g.node_labels(e.node).iter().map(|l| g.label_name(*l)))
            .collect();
        let type_entries = types.entry(t).or_default();
        entries
            .entry(g.rel_type_name(t), "node")
            .relationship(out.len(), incoming, &ends);
        type_entries
            .entry(label_name, "relationship")
            .relationship(out.len(), incoming, &ends);
        for edge in out {
            type_entries.properties(g, &g.rel_properties(edge.rel), "relationship");
        }
    }
}

/// One label's (or type's) rows, by property (or relationship type, or label) name,
/// in the order first met: APOC keeps both kinds in one map, the first one of a name wins.
#[derive(Default)]
struct Entries {
    order: Vec<String>,
    by_name: BTreeMap<String, Entry>,
}

#[derive(Default)]
struct Entry {
    element: &'static str,
    /// The value's type name, or "RELATIONSHIP".
    kind: String,
    array: bool,
    /// Relationship rows: how many sampled nodes had one, and their degrees summed.
    count: i64,
    out: i64,
    incoming: i64,
    other: Vec<String>,
}

impl Entries {
    fn entry(&mut self, name: &str, element: &'static str) -> &mut Entry {
        if !self.by_name.contains_key(name) {
            self.order.push(name.to_owned());
        }
        self.by_name
            .entry(name.to_owned())
            .or_insert_with(|| Entry {
                element,
                ..Entry::default()
            })
    }

    /// A row per property not seen yet, typed by its first value.
    fn properties(
        &mut self,
        g: &dyn GraphView,
        props: &[(PropKeyId, Value)],
        element: &'static str,
    ) {
        for (key, value) in props {
            let name = g.prop_key_name(*key);
            if !self.by_name.contains_key(name) {
                let entry = self.entry(name, element);
                entry.kind = type_name(value).to_owned();
                entry.array = matches!(value, Value::List(_) | Value::Bytes(_));
            }
        }
    }

    /// The rows, `label` in the first column; `flags(name)` says whether a property
    /// is indexed and unique.
    fn rows(&self, label: &str, flags: impl Fn(&str) -> (bool, bool), out: &mut ResultSet) {
        for name in &self.order {
            let e = &self.by_name[name];
            let (index, unique) = if e.kind == "RELATIONSHIP" {
                (false, false)
            } else {
                flags(name)
            };
            let (left, right) = match e.count {
                0 => (0, 0),
                n => (e.out / n, e.incoming / n),
            };
            out.push([
                Value::string(label),
                Value::string(name),
                Value::Int(e.count),
                Value::Bool(unique),
                Value::Bool(index),
                Value::Bool(false),
                Value::string(&e.kind),
                Value::Bool(e.array),
                Value::Null,
                Value::Int(left),
                Value::Int(right),
                Value::List(e.other.iter().map(Value::string).collect()),
                Value::List(vec![]),
                Value::string(e.element),
            ]);
        }
    }
}

impl Entry {
    /// One sampled node with `out` such relationships (ending at nodes labelled
    /// `ends`) and `incoming` of the same type coming in.
    fn relationship(&mut self, out: usize, incoming: usize, ends: &[&str]) {
        self.kind = "RELATIONSHIP".to_owned();
        self.array |= out > 1;
        self.count += 1;
        self.out += i64::try_from(out).unwrap_or(i64::MAX);
        self.incoming += i64::try_from(incoming).unwrap_or(i64::MAX);
        for end in ends {
            if !self.other.iter().any(|o| o == end) {
                self.other.push((*end).to_owned());
            }
        }
    }
}

/// Which (label, key) pairs are indexed or unique.
struct Indexed {
    indexed: Vec<(String, String)>,
    unique: Vec<(String, String)>,
}

impl Indexed {
    fn of(g: &dyn GraphView) -> Self {
        let pair = |on: &kith_core::LabelKey| (on.label.clone(), on.key.clone());
        let schema = g.schema();
        // APOC's flags name one property: a composite's keys are not each indexed.
        let single = |on: &&kith_core::LabelKey| !on.is_composite();
        Indexed {
            indexed: schema
                .indexes
                .values()
                .map(|i| &i.on)
                .filter(single)
                .map(pair)
                .collect(),
            unique: schema.unique.values().filter(single).map(pair).collect(),
        }
    }

    fn flags(&self, label: &str, key: &str) -> (bool, bool) {
        let has = |pairs: &[(String, String)]| pairs.iter().any(|(l, k)| l == label && k == key);
        (has(&self.indexed), has(&self.unique))
    }
}

/// A stored value's type as APOC's `Types` names it: a list (or byte array) is "LIST".
fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "NULL",
        Value::Bool(_) => "BOOLEAN",
        Value::Int(_) => "INTEGER",
        Value::Float(_) => "FLOAT",
        Value::String(_) => "STRING",
        Value::DateTime(_) => "DATE_TIME",
        Value::Temporal(t) => match &**t {
            Temporal::Date(_) => "DATE",
            Temporal::LocalTime(_) => "LOCAL_TIME",
            Temporal::Time(..) => "TIME",
            Temporal::LocalDateTime(_) => "LOCAL_DATE_TIME",
            Temporal::DateTime(_) => "DATE_TIME",
            Temporal::Duration(_) => "DURATION",
        },
        Value::Point(_) => "POINT",
        Value::Map(_) => "MAP",
        Value::List(_) | Value::Bytes(_) => "LIST",
    }
}
