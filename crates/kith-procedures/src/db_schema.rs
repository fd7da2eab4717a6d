//! `db.schema.nodeTypeProperties()` and `db.schema.relTypeProperties()`: each label
//! combination (relationship type) the graph has, with every property its elements
//! carry, the value types found in Neo4j's names, and whether every element carries
//! it. Neo4j's tools and LLM schema readers call these first to learn a graph's
//! shape. Both scan the whole graph, as Neo4j's do.

use std::collections::BTreeMap;

use kith_core::{Direction, GraphView, PropKeyId, Value};

use crate::{Procedure, ResultSet};

/// The two procedures.
pub fn procedures() -> Vec<Procedure> {
    vec![NODE_TYPES, REL_TYPES]
}

const NODE_TYPES: Procedure = Procedure {
    name: "db.schema.nodeTypeProperties",
    description:
        "Each label combination, with its properties, their types and whether every node has them",
    params: &[],
    columns: &[
        "nodeType",
        "nodeLabels",
        "propertyName",
        "propertyTypes",
        "mandatory",
    ],
    run: |g, _| Ok(node_types(g)),
};

const REL_TYPES: Procedure = Procedure {
    name: "db.schema.relTypeProperties",
    description: "Each relationship type, with its properties, their types and whether every relationship has them",
    params: &[],
    columns: &["relType", "propertyName", "propertyTypes", "mandatory"],
    run: |g, _| Ok(rel_types(g)),
};

fn node_types(g: &dyn GraphView) -> ResultSet {
    let mut shapes: BTreeMap<Vec<String>, Shape> = BTreeMap::new();
    for node in g.node_ids() {
        let mut labels: Vec<String> = g
            .node_labels(node)
            .iter()
            .map(|l| g.label_name(*l).to_owned())
            .collect();
        labels.sort();
        shapes
            .entry(labels)
            .or_default()
            .add(g, &g.node_properties(node));
    }
    let mut out = ResultSet::new(NODE_TYPES.columns);
    for (labels, shape) in shapes {
        let names = Value::List(labels.iter().map(Value::string).collect());
        let head = [Value::string(quoted(&labels)), names];
        shape.rows(&head, &mut out);
    }
    out
}

fn rel_types(g: &dyn GraphView) -> ResultSet {
    let mut shapes: BTreeMap<String, Shape> = BTreeMap::new();
    for node in g.node_ids() {
        for t in g.rel_types_at(node, Direction::Out) {
            let shape = shapes.entry(g.rel_type_name(t).to_owned()).or_default();
            for edge in g.neighbors(node, t, Direction::Out) {
                shape.add(g, &g.rel_properties(edge.rel));
            }
        }
    }
    let mut out = ResultSet::new(REL_TYPES.columns);
    for (name, shape) in shapes {
        shape.rows(&[Value::string(quoted(&[name]))], &mut out);
    }
    out
}

/// Neo4j's form of a label combination or type: ":`A`:`B`", backticks doubled.
fn quoted(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!(":`{}`", n.replace('`', "``")))
        .collect()
}

/// What the elements of one label combination (or type) carry.
#[derive(Default)]
struct Shape {
    elements: usize,
    /// Per property name: its value types in the order first seen, and how many
    /// elements carry it.
    props: BTreeMap<String, (Vec<String>, usize)>,
}

impl Shape {
    fn add(&mut self, g: &dyn GraphView, props: &[(PropKeyId, Value)]) {
        self.elements += 1;
        for (key, value) in props {
            let seen = self
                .props
                .entry(g.prop_key_name(*key).to_owned())
                .or_default();
            let t = type_name(value);
            if !seen.0.contains(&t) {
                seen.0.push(t);
            }
            seen.1 += 1;
        }
    }

    /// One row per property after `head`; a combination without any has one row of
    /// nulls, as in Neo4j.
    fn rows(&self, head: &[Value], out: &mut ResultSet) {
        let row = |tail: [Value; 3]| head.iter().cloned().chain(tail).collect::<Vec<_>>();
        if self.props.is_empty() {
            out.push(row([Value::Null, Value::Null, Value::Bool(false)]));
        }
        for (name, (types, count)) in &self.props {
            let types = Value::List(types.iter().map(|t| Value::string(t.as_str())).collect());
            let mandatory = Value::Bool(*count == self.elements);
            out.push(row([Value::string(name), types, mandatory]));
        }
    }
}

/// A stored value's type as Neo4j's schema procedures name it ("Long",
/// "StringArray"): a list by its first element, an empty one a "StringArray" as Neo4j
/// stores one.
fn type_name(v: &Value) -> String {
    let scalar = match v {
        Value::Null => "Null",
        Value::Bool(_) => "Boolean",
        Value::Int(_) => "Long",
        Value::Float(_) => "Double",
        Value::String(_) => "String",
        Value::DateTime(_) => "DateTime",
        Value::Temporal(t) => t.type_name(),
        Value::Point(_) => "Point",
        Value::Map(_) => "Map",
        Value::Bytes(_) => "ByteArray",
        Value::List(items) => {
            let first = items.first().map_or_else(|| "String".to_owned(), type_name);
            return format!("{first}Array");
        }
    };
    scalar.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_neo4js() {
        assert_eq!(quoted(&["A".into(), "B`c".into()]), ":`A`:`B``c`");
        assert_eq!(quoted(&[]), "");
        assert_eq!(type_name(&Value::List(vec![])), "StringArray");
        assert_eq!(type_name(&Value::List(vec![Value::Int(1)])), "LongArray");
        assert_eq!(type_name(&Value::Float(1.0)), "Double");
    }
}
