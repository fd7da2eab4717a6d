//! IS3: a person's friends, most recent friendship first.

use kith_core::{GraphView, Value};

use super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &[
    "personId",
    "firstName",
    "lastName",
    "friendshipCreationDate",
];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "ldbc.is3",
    description: "LDBC IS3: a person's friends and since when",
    params: &[ParamSpec::required(
        "personId",
        ParamType::Int,
        "the person",
    )],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let person = s.person(p.int("personId")?)?;
    let mut friends: Vec<(i64, i64, kith_core::NodeId)> = s
        .friends(person)
        .into_iter()
        .map(|e| (s.rel_int(e.rel, s.creation_date), s.ext_id(e.node), e.node))
        .collect();
    // Newest friendship first; ties by person id ascending.
    friends.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut out = ResultSet::new(COLUMNS);
    for (since, _, f) in friends {
        let [id, first, last] = s.person_triple(f);
        out.push([id, first, last, Value::Int(since)]);
    }
    Ok(out)
}
