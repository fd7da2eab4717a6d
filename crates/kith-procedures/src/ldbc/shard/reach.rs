//! `shard.reach` (person shard): the persons one or two KNOWS steps from a person,
//! optionally only those living outside two countries (IC3).

use kith_core::{GraphView, NodeId, Value};

use super::super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["personId", "distance"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shard.reach",
    description: "S5 person shard: persons within `steps` (1 or 2) KNOWS steps, friends first",
    params: &[
        ParamSpec::required("personId", ParamType::Int, "the start person"),
        ParamSpec::optional("steps", 2, "1: friends; 2: friends and friends of friends"),
        ParamSpec::optional_str(
            "abroadFromX",
            "",
            "keep only persons living outside this country",
        ),
        ParamSpec::optional_str("abroadFromY", "", "... and this one"),
    ],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let person = s.person(p.int("personId")?)?;
    let steps = p.int("steps")?;
    let reached: Vec<(NodeId, u8)> = match steps {
        1 => s.friends(person).iter().map(|e| (e.node, 1)).collect(),
        2 => s.within_two(person),
        _ => {
            return Err(ProcedureError::ParameterOutOfRange {
                procedure: "shard.reach".into(),
                parameter: "steps".into(),
                reason: format!("is {steps}; it must be 1 or 2"),
            })
        }
    };
    let countries: Vec<Option<NodeId>> = [p.string("abroadFromX")?, p.string("abroadFromY")?]
        .into_iter()
        .filter(|n| !n.is_empty())
        .map(|n| s.country_named(n))
        .collect();
    let mut out = ResultSet::new(COLUMNS);
    for (other, distance) in reached {
        if !countries.is_empty() {
            let home = s
                .one_out(other, s.is_located_in)
                .and_then(|c| s.country_of(c));
            if countries.iter().any(|c| c.is_some() && *c == home) {
                continue;
            }
        }
        out.push([Value::Int(s.ext_id(other)), Value::Int(i64::from(distance))]);
    }
    Ok(out)
}
