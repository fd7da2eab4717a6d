//! A result slot as a [`GraphValue`]: nodes, relationships and paths kept as such,
//! read from the graph as the run sees it (its own writes included).

use std::sync::Arc;

use kith_core::{GraphView, NodeId, PropKeyId, RelId, Value};

use super::eval::output_value;
use super::{Ctx, DeletedRel};
use crate::output::{GraphValue, NodeOut, RelOut};
use crate::value::Val;

/// The answer value of `v`.
pub(crate) fn graph_value(v: &Val, cx: &Ctx<'_>) -> GraphValue {
    match v {
        Val::Node(n) => GraphValue::Node(node(*n, cx)),
        Val::Rel(r) => rel(*r, cx).map_or(GraphValue::Plain(Value::Null), GraphValue::Rel),
        Val::Path(p) => {
            let rels: Option<Vec<RelOut>> = p.rels.iter().map(|r| rel(*r, cx)).collect();
            // Every relationship of a path is in the graph or among the run's
            // deletions; were one neither, the walk could not be told, and a path is
            // sent whole or not at all (Bolt's path is a walk through all of them).
            match rels {
                Some(rels) => GraphValue::Path {
                    nodes: p.nodes.iter().map(|n| node(*n, cx)).collect(),
                    rels,
                },
                None => GraphValue::Plain(Value::Null),
            }
        }
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
    let graph = cx.graph();
    NodeOut {
        id: i64::from(n.0),
        labels: graph
            .node_labels(n)
            .iter()
            .map(|l| Arc::from(graph.label_name(*l)))
            .collect(),
        props: stored_props(&*graph, graph.node_properties(n)),
    }
}

fn rel(r: RelId, cx: &Ctx<'_>) -> Option<RelOut> {
    let graph = cx.graph();
    let Some(rel) = graph.relationship(r) else {
        return cx.deleted_rel(r).map(|gone| deleted_rel(r, gone));
    };
    Some(RelOut {
        id: i64::from(r.0),
        rel_type: Arc::from(graph.rel_type_name(rel.rel_type)),
        start: i64::from(rel.src.0),
        end: i64::from(rel.dst.0),
        props: stored_props(&*graph, graph.rel_properties(r)),
    })
}

/// A relationship the run deleted: its type and ends, no properties (Neo4j 5.26
/// answers one with no properties and no type).
fn deleted_rel(r: RelId, gone: DeletedRel) -> RelOut {
    RelOut {
        id: i64::from(r.0),
        rel_type: gone.rel_type,
        start: i64::from(gone.src.0),
        end: i64::from(gone.dst.0),
        props: Vec::new(),
    }
}

fn stored_props(graph: &dyn GraphView, props: Vec<(PropKeyId, Value)>) -> Vec<(Arc<str>, Value)> {
    props
        .into_iter()
        .map(|(k, v)| (Arc::from(graph.prop_key_name(k)), v))
        .collect()
}
