//! Schema-free procedures over any graph: look nodes up by property (through a
//! declared index when there is one), read a node whole, and traverse. They let clients read
//! back what they wrote without knowing a procedure family's schema.

mod find_nodes;
mod node;
mod traverse;

use std::sync::Arc;

use kith_core::{GraphView, NodeId, Value};

use crate::Procedure;

/// Every `graph.*` procedure.
pub fn procedures() -> Vec<Procedure> {
    vec![find_nodes::PROCEDURE, node::PROCEDURE, traverse::PROCEDURE]
}

/// The columns both procedures answer with.
const NODE_COLUMNS: &[&str] = &["node", "labels", "properties"];

/// `[node id, [labels], {properties}]`.
fn node_row(g: &dyn GraphView, node: NodeId) -> [Value; 3] {
    let labels = g
        .node_labels(node)
        .iter()
        .map(|l| Value::string(g.label_name(*l)))
        .collect();
    let properties = g
        .node_properties(node)
        .into_iter()
        .map(|(k, v)| (Arc::<str>::from(g.prop_key_name(k)), v))
        .collect();
    [
        Value::Int(i64::from(node.0)),
        Value::List(labels),
        Value::Map(properties),
    ]
}
