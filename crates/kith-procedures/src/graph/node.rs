//! `graph.node`: one node by internal id, with its labels and properties.

use kith_core::{GraphView, NodeId};

use super::{node_row, NODE_COLUMNS};
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "graph.node",
    description: "One node by internal id (as returned by writes): labels and properties",
    params: &[ParamSpec::required(
        "node",
        ParamType::Int,
        "the internal node id",
    )],
    columns: NODE_COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let id = p.int("node")?;
    let node = u32::try_from(id)
        .ok()
        .map(NodeId)
        .filter(|n| g.contains_node(*n))
        .ok_or(ProcedureError::NotFound { label: "node", id })?;
    let mut out = ResultSet::new(NODE_COLUMNS);
    out.push(node_row(g, node));
    Ok(out)
}
