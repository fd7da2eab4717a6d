//! IC11: friends and friends of friends who started working in a country's company
//! before a year.

use kith_core::{GraphView, NodeId, Value};

use super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &[
    "personId",
    "personFirstName",
    "personLastName",
    "organizationName",
    "organizationWorkFromYear",
];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "ldbc.ic11",
    description:
        "LDBC IC11: job referral: friends within 2 steps working in a country since before a year",
    params: &[
        ParamSpec::required("personId", ParamType::Int, "the start person"),
        ParamSpec::required("countryName", ParamType::String, "the country"),
        ParamSpec::required("workFromYear", ParamType::Int, "exclusive upper bound"),
    ],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let person = s.person(p.int("personId")?)?;
    let year = p.int("workFromYear")?;
    let mut out = ResultSet::new(COLUMNS);
    let Some(country) = s.country_named(p.string("countryName")?) else {
        return Ok(out);
    };
    let mut rows: Vec<(i64, i64, kith_core::Str, NodeId)> = Vec::new();
    for (other, _) in s.within_two(person) {
        for e in s.out(other, s.work_at) {
            let from = s.rel_int(e.rel, s.work_from);
            if from == i64::MIN {
                continue;
            }
            if from >= year || s.one_out(e.node, s.is_located_in) != Some(country) {
                continue;
            }
            rows.push((from, s.ext_id(other), s.text(e.node, s.name), other));
        }
    }
    let top = super::top_k(rows, 10, |a, b| {
        a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(b.2.cmp(&a.2))
    });
    for (from, _, company, other) in top {
        let [id, first, last] = s.person_triple(other);
        out.push([id, first, last, Value::String(company), Value::Int(from)]);
    }
    Ok(out)
}
