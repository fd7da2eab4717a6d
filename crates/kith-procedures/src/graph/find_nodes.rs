//! `graph.find_nodes`: the nodes of a label whose property equals a value.

use kith_core::GraphView;

use super::{node_row, NODE_COLUMNS};
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "graph.find_nodes",
    description: "Nodes of a label whose property equals a value, in id order (indexed when \
                  an index on (label, key) is declared, else a scan)",
    params: &[
        ParamSpec::required("label", ParamType::String, "the label"),
        ParamSpec::required("key", ParamType::String, "the property key"),
        ParamSpec::required("value", ParamType::Scalar, "the value to match exactly"),
        ParamSpec::optional("limit", 100, "most nodes returned (0: no limit)"),
    ],
    columns: NODE_COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let limit = p.limit("limit")?;
    let mut out = ResultSet::new(NODE_COLUMNS);
    // A label or key the graph has never seen matches nothing.
    let (Some(label), Some(key)) = (
        g.label_id(p.string("label")?),
        g.prop_key_id(p.string("key")?),
    ) else {
        return Ok(out);
    };
    for node in g.nodes_with_property(label, key, p.value("value")?, limit) {
        out.push(node_row(g, node));
    }
    Ok(out)
}
