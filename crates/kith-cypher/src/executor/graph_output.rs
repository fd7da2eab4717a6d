//! A result slot as a [`GraphValue`]: nodes, relationships and paths kept as such,
//! read from the graph, or from this run's own CREATEs when it made them.

use std::sync::Arc;

use kith_core::{NodeId, PropKeyId, RelId, Value};

use super::eval::output_value;
use super::Ctx;
use crate::output::{GraphValue, NodeOut, RelOut};
use crate::value::Val;

/// The answer value of `v`.
pub(crate) fn graph_value(v: &Val, cx: &Ctx<'_>) -> GraphValue {
    match v {
        Val::Node(n) => GraphValue::Node(node(*n, cx)),
        Val::Rel(r) => rel(*r, cx).map_or(GraphValue::Plain(Value::Null), GraphValue::Rel),
        Val::Path(p) => GraphValue::Path {
            nodes: p.nodes.iter().map(|n| node(*n, cx)).collect(),
            rels: p.rels.iter().filter_map(|r| rel(*r, cx)).collect(),
        },
        Val::List(items) if items.iter().any(has_graph) => {
            GraphValue::List(items.iter().map(|i| graph_value(i, cx)).collect())
        }
        Val::Map(entries) if entries.iter().any(|(_, v)| has_graph(v)) => GraphValue::Map(
            entries
                .iter()
                .map(|(k, v)| (k.clone(), graph_value(v, cx)))
                .collect(),
        ),
        other => GraphValue::Plain(output_value(other, cx)),
    }
}

/// Whether a node, relationship or path is anywhere inside `v`.
fn has_graph(v: &Val) -> bool {
    match v {
        Val::Node(_) | Val::Rel(_) | Val::Path(_) => true,
        Val::List(items) => items.iter().any(has_graph),
        Val::Map(entries) => entries.iter().any(|(_, v)| has_graph(v)),
        _ => false,
    }
}

fn node(n: NodeId, cx: &Ctx<'_>) -> NodeOut {
    let id = i64::from(n.0);
    if n.0 >= cx.node_bound {
        let pending = cx.pending_node(n);
        let (labels, props) = pending.map_or_else(Default::default, |p| (p.labels, p.props));
        return NodeOut {
            id,
            labels,
            props: pending_props(props, cx),
        };
    }
    let graph = cx.graph;
    NodeOut {
        id,
        labels: graph
            .node_labels(n)
            .iter()
            .map(|l| Arc::from(graph.label_name(*l)))
            .collect(),
        props: stored_props(graph.node_properties(n), cx),
    }
}

fn rel(r: RelId, cx: &Ctx<'_>) -> Option<RelOut> {
    if !cx.pending_rels.borrow().is_empty() {
        if let Some(p) = cx.pending_rel(r) {
            return Some(RelOut {
                id: i64::from(r.0),
                rel_type: p.rel_type,
                start: i64::from(p.src.0),
                end: i64::from(p.dst.0),
                props: pending_props(p.props, cx),
            });
        }
    }
    let rel = cx.graph.relationship(r)?;
    Some(RelOut {
        id: i64::from(r.0),
        rel_type: Arc::from(cx.graph.rel_type_name(rel.rel_type)),
        start: i64::from(rel.src.0),
        end: i64::from(rel.dst.0),
        props: stored_props(rel.properties, cx),
    })
}

fn stored_props(props: &[(PropKeyId, Value)], cx: &Ctx<'_>) -> Vec<(Arc<str>, Value)> {
    props
        .iter()
        .map(|(k, v)| (Arc::from(cx.graph.prop_key_name(*k)), v.clone()))
        .collect()
}

fn pending_props(props: Vec<(Arc<str>, Val)>, cx: &Ctx<'_>) -> Vec<(Arc<str>, Value)> {
    props
        .into_iter()
        .map(|(k, v)| (k, output_value(&v, cx)))
        .collect()
}
