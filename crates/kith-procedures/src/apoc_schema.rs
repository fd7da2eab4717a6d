//! `apoc.schema.nodes()`: APOC's listing of the node constraints and indexes, which
//! `neo4j-graphrag` (under `langchain-neo4j`) reads beside `SHOW CONSTRAINTS` for the
//! schema's metadata. Constraints first, then indexes (a constraint's own index too),
//! each sorted by label, with the index's entries counted and their selectivity
//! (distinct values / entries) as APOC 5.26 answers them on Neo4j 5.26.

use std::collections::HashSet;

use kith_core::{GraphView, IndexKind, LabelId, LabelKey, PropKeyId, Value};

use crate::{Procedure, ResultSet};

/// The procedure.
pub fn procedures() -> Vec<Procedure> {
    vec![SCHEMA_NODES]
}

const SCHEMA_NODES: Procedure = Procedure {
    name: "apoc.schema.nodes",
    description: "The node constraints and indexes, with each index's size and selectivity, as APOC lists them",
    params: &[],
    columns: &[
        "name",
        "label",
        "properties",
        "status",
        "type",
        "failure",
        "populationProgress",
        "size",
        "valuesSelectivity",
        "userDescription",
    ],
    run: |g, _| Ok(schema_nodes(g)),
};

fn schema_nodes(g: &dyn GraphView) -> ResultSet {
    let schema = g.schema();
    let mut out = ResultSet::new(SCHEMA_NODES.columns);
    let mut constraints: Vec<(&String, &LabelKey)> = schema.unique.iter().collect();
    constraints.sort_by(|a, b| (&a.1.label, a.0).cmp(&(&b.1.label, b.0)));
    for (name, on) in constraints {
        let described = format!(
            "Constraint( name='{name}', type='UNIQUENESS', schema=(:{} {{{}}}) )",
            on.label,
            keys(on)
        );
        out.push(row(on, "", "UNIQUENESS", 0.0, (0, 0.0), described));
    }
    let mut indexes: Vec<_> = schema.indexes.iter().collect();
    indexes.sort_by(|a, b| (&a.1.on.label, a.0).cmp(&(&b.1.on.label, b.0)));
    for (name, index) in indexes {
        let owner = index
            .owner
            .as_ref()
            .map_or_else(String::new, |c| format!(", owningConstraint='{c}'"));
        let (kind, provider) = (index.kind.name(), index.kind.provider());
        let described = format!(
            "Index( name='{name}', type='{kind}', schema=(:{} {{{}}}), indexProvider='{provider}'{owner} )",
            index.on.label,
            keys(&index.on)
        );
        let size = entries(g, &index.on, index.kind);
        out.push(row(&index.on, "ONLINE", kind, 100.0, size, described));
    }
    out
}

/// `a, b`: the keys, in order.
fn keys(on: &LabelKey) -> String {
    on.keys().collect::<Vec<_>>().join(", ")
}

fn row(
    on: &LabelKey,
    status: &str,
    kind: &str,
    progress: f64,
    (size, selectivity): (i64, f64),
    described: String,
) -> Vec<Value> {
    vec![
        Value::string(
            format!(":{}({})", on.label, on.keys().collect::<Vec<_>>().join(",")).as_str(),
        ),
        Value::string(&on.label),
        Value::List(on.keys().map(Value::string).collect()),
        Value::string(status),
        Value::string(kind),
        Value::string("NO FAILURE"),
        Value::Float(progress),
        Value::Int(size),
        Value::Float(selectivity),
        Value::string(described.as_str()),
    ]
}

/// How many nodes of the label carry the key (a composite's keys: all of them), and
/// distinct values / that count (1.0 for none, as Neo4j's sampling answers an empty
/// index).
fn entries(g: &dyn GraphView, on: &LabelKey, kind: IndexKind) -> (i64, f64) {
    let keys: Option<Vec<_>> = on.keys().map(|k| g.prop_key_id(k)).collect();
    let (Some(label), Some(keys)) = (g.label_id(&on.label), keys) else {
        return (0, 1.0);
    };
    if let [_, _, ..] = keys.as_slice() {
        return composite_entries(g, label, &keys);
    }
    let key = keys[0];
    let mut size = 0usize;
    let mut distinct = HashSet::new();
    for node in g.nodes_with_label(label) {
        let held = |v: &Value| match kind {
            IndexKind::Range => true,
            IndexKind::Text => matches!(v, Value::String(_)),
            IndexKind::Point => matches!(v, Value::Point(_)),
        };
        if let Some(v) = g.node_property(node, key).filter(held) {
            size += 1;
            distinct.insert(v.to_string());
        }
    }
    if size == 0 {
        return (0, 1.0);
    }
    let count = i64::try_from(size).unwrap_or(i64::MAX);
    (count, distinct.len() as f64 / size as f64)
}

/// [`entries`] of a composite: nodes holding every key, distinct tuples.
fn composite_entries(g: &dyn GraphView, label: LabelId, keys: &[PropKeyId]) -> (i64, f64) {
    let mut size = 0usize;
    let mut distinct = HashSet::new();
    for node in g.nodes_with_label(label) {
        let values: Option<Vec<String>> = keys
            .iter()
            .map(|&k| g.node_property(node, k).map(|v| v.to_string()))
            .collect();
        if let Some(values) = values {
            size += 1;
            distinct.insert(values);
        }
    }
    match size {
        0 => (0, 1.0),
        n => (n as i64, distinct.len() as f64 / n as f64),
    }
}
