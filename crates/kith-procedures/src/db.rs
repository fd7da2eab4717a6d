//! `db.labels()`, `db.relationshipTypes()`, `db.propertyKeys()`: the graph's names, as
//! Neo4j's procedures of those names list them (for Neo4j's tools and the console's
//! completion). They list every name the graph has interned, sorted.

use kith_core::Value;

use crate::{Procedure, ResultSet};

/// The three procedures.
pub fn procedures() -> Vec<Procedure> {
    vec![LABELS, TYPES, KEYS]
}

const LABELS: Procedure = Procedure {
    name: "db.labels",
    description: "Every label name of the graph, sorted",
    params: &[],
    columns: &["label"],
    run: |g, _| Ok(names(g.label_names(), &["label"])),
};

const TYPES: Procedure = Procedure {
    name: "db.relationshipTypes",
    description: "Every relationship type of the graph, sorted",
    params: &[],
    columns: &["relationshipType"],
    run: |g, _| Ok(names(g.rel_type_names(), &["relationshipType"])),
};

const KEYS: Procedure = Procedure {
    name: "db.propertyKeys",
    description: "Every property key of the graph, sorted",
    params: &[],
    columns: &["propertyKey"],
    run: |g, _| Ok(names(g.prop_key_names(), &["propertyKey"])),
};

/// One row per name, sorted.
fn names(mut names: Vec<String>, columns: &'static [&'static str]) -> ResultSet {
    names.sort();
    let mut out = ResultSet::new(columns);
    for name in names {
        out.push([Value::string(&name)]);
    }
    out
}
