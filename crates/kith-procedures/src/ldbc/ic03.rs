//! IC3: friends and friends of friends living abroad who posted in both of two
//! countries during a window.

use kith_core::{GraphView, Value};

use super::schema::Ldbc;
use super::DAY_MS;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &[
    "personId",
    "personFirstName",
    "personLastName",
    "xCount",
    "yCount",
    "count",
];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "ldbc.ic3",
    description: "LDBC IC3: friends within 2 steps abroad with messages in countries X and Y",
    params: &[
        ParamSpec::required("personId", ParamType::Int, "the start person"),
        ParamSpec::required("countryXName", ParamType::String, "country X"),
        ParamSpec::required("countryYName", ParamType::String, "country Y"),
        ParamSpec::required(
            "startDate",
            ParamType::Int,
            "window start, epoch ms, inclusive",
        ),
        ParamSpec::required("durationDays", ParamType::Int, "window length in days"),
    ],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let person = s.person(p.int("personId")?)?;
    let start = p.int("startDate")?;
    let end = start.saturating_add(p.int("durationDays")?.saturating_mul(DAY_MS));
    let mut out = ResultSet::new(COLUMNS);
    let (Some(x), Some(y)) = (
        s.country_named(p.string("countryXName")?),
        s.country_named(p.string("countryYName")?),
    ) else {
        return Ok(out);
    };
    let mut rows = Vec::new();
    for (other, _) in s.within_two(person) {
        let home = s
            .one_out(other, s.is_located_in)
            .and_then(|city| s.country_of(city));
        if home == Some(x) || home == Some(y) {
            continue;
        }
        let (mut x_count, mut y_count) = (0i64, 0i64);
        for e in s.inc(other, s.has_creator) {
            let date = s.int(e.node, s.creation_date);
            if date < start || date >= end {
                continue;
            }
            match s.one_out(e.node, s.is_located_in) {
                Some(c) if c == x => x_count += 1,
                Some(c) if c == y => y_count += 1,
                _ => {}
            }
        }
        if x_count > 0 && y_count > 0 {
            rows.push((x_count, y_count, s.ext_id(other), other));
        }
    }
    for (x_count, y_count, _, other) in
        super::top_k(rows, 20, |a, b| b.0.cmp(&a.0).then(a.2.cmp(&b.2)))
    {
        let [id, first, last] = s.person_triple(other);
        out.push([
            id,
            first,
            last,
            Value::Int(x_count),
            Value::Int(y_count),
            Value::Int(x_count + y_count),
        ]);
    }
    Ok(out)
}
