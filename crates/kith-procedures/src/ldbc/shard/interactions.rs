//! `shard.interactions` (forum shard): IC14's weights for pairs of persons over the
//! comments here (a comment and the message it replies to share a shard); the router
//! sums a pair's weights over the shards.

use kith_core::{GraphView, Value};

use super::super::ic14::pair_weight;
use super::super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["person1Id", "person2Id", "weight"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shard.interactions",
    description: "S5 forum shard: IC14's interaction weight of each pair of persons",
    params: &[
        ParamSpec::required("pairs", ParamType::IntPairList, "[person, person] pairs").long_list(),
    ],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let mut out = ResultSet::new(COLUMNS);
    for (a, b) in p.int_pairs("pairs")? {
        let (Some(x), Some(y)) = (g.node_by_id(s.person, a), g.node_by_id(s.person, b)) else {
            continue;
        };
        let w = pair_weight(&s, g, x, y);
        if w != 0.0 {
            out.push([Value::Int(a), Value::Int(b), Value::Float(w)]);
        }
    }
    Ok(out)
}
