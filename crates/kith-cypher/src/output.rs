//! Answer values that keep their graph structure: nodes, relationships and paths as
//! themselves rather than flattened into maps. Protocols with those types (Bolt) take
//! these; kith's own protocol takes the flattened [`kith_core::Value`] form.

use std::sync::Arc;

use kith_core::Value;

/// An answer value.
#[derive(Clone, Debug, PartialEq)]
pub enum GraphValue {
    /// A value with no node, relationship or path inside.
    Plain(Value),
    /// A node.
    Node(NodeOut),
    /// A relationship.
    Rel(RelOut),
    /// A path: `nodes.len() == rels.len() + 1`, `rels[i]` joins `nodes[i]` and
    /// `nodes[i + 1]` in either direction.
    Path {
        /// The nodes in order.
        nodes: Vec<NodeOut>,
        /// The relationships between them.
        rels: Vec<RelOut>,
    },
    /// A list holding graph values.
    List(Vec<GraphValue>),
    /// A map holding graph values.
    Map(Vec<(Arc<str>, GraphValue)>),
}

/// A node as answered.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeOut {
    /// Its id.
    pub id: i64,
    /// Its labels.
    pub labels: Vec<Arc<str>>,
    /// Its properties.
    pub props: Vec<(Arc<str>, Value)>,
}

/// A relationship as answered.
#[derive(Clone, Debug, PartialEq)]
pub struct RelOut {
    /// Its id.
    pub id: i64,
    /// Its type.
    pub rel_type: Arc<str>,
    /// Its start node's id.
    pub start: i64,
    /// Its end node's id.
    pub end: i64,
    /// Its properties.
    pub props: Vec<(Arc<str>, Value)>,
}

impl GraphValue {
    /// The flattened form kith's own protocol answers: a node as `{_id, _labels,
    /// properties}`, a relationship as `{_id, _type, _start, _end, properties}`, a path
    /// as `{nodes, relationships}` (what [`crate::run`] answers).
    pub fn into_value(self) -> Value {
        match self {
            GraphValue::Plain(v) => v,
            GraphValue::Node(n) => n.into_value(),
            GraphValue::Rel(r) => r.into_value(),
            GraphValue::Path { nodes, rels } => entries(vec![
                (
                    "nodes",
                    Value::List(nodes.into_iter().map(NodeOut::into_value).collect()),
                ),
                (
                    "relationships",
                    Value::List(rels.into_iter().map(RelOut::into_value).collect()),
                ),
            ]),
            GraphValue::List(items) => {
                Value::List(items.into_iter().map(GraphValue::into_value).collect())
            }
            GraphValue::Map(e) => {
                Value::Map(e.into_iter().map(|(k, v)| (k, v.into_value())).collect())
            }
        }
    }
}

impl NodeOut {
    fn into_value(self) -> Value {
        entries(vec![
            ("_id", Value::Int(self.id)),
            (
                "_labels",
                Value::List(self.labels.into_iter().map(Value::string).collect()),
            ),
            ("properties", Value::Map(self.props)),
        ])
    }
}

impl RelOut {
    fn into_value(self) -> Value {
        entries(vec![
            ("_id", Value::Int(self.id)),
            ("_type", Value::string(self.rel_type)),
            ("_start", Value::Int(self.start)),
            ("_end", Value::Int(self.end)),
            ("properties", Value::Map(self.props)),
        ])
    }
}

fn entries(e: Vec<(&str, Value)>) -> Value {
    Value::Map(e.into_iter().map(|(k, v)| (Arc::from(k), v)).collect())
}
