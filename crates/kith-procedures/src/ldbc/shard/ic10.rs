//! IC10 in parts. Person shard: the candidates (friends of friends born from the 21st
//! of the month to the 21st of the next, `shard.ic10_persons`) and the start person's
//! interests (`shard.interests`). Forum shard: each candidate's score over its posts
//! there (`shard.ic10`); the router sums the scores.

use kith_core::{GraphView, NodeId, Value};
use rustc_hash::FxHashSet;

use super::super::ic10::{interest_score, month_day};
use super::super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const PERSON_COLUMNS: &[&str] = &[
    "personId",
    "personFirstName",
    "personLastName",
    "personGender",
    "personCityName",
];

pub(crate) const PERSONS: Procedure = Procedure {
    name: "shard.ic10_persons",
    description: "S5 person shard: IC10's candidates with their names, gender and city",
    params: &[
        ParamSpec::required("personId", ParamType::Int, "the start person"),
        ParamSpec::required("month", ParamType::Int, "1..12"),
    ],
    columns: PERSON_COLUMNS,
    run: candidates,
};

fn candidates(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let person = s.person(p.int("personId")?)?;
    let month = p.int("month")?;
    let next_month = month % 12 + 1;
    let mut out = ResultSet::new(PERSON_COLUMNS);
    for (other, distance) in s.within_two(person) {
        let (m, d) = month_day(s.int(other, s.birthday));
        if distance != 2 || !((m == month && d >= 21) || (m == next_month && d < 22)) {
            continue;
        }
        let [id, first, last] = s.person_triple(other);
        let city = (s.one_out(other, s.is_located_in)).map_or(Value::Null, |c| s.prop(c, s.name));
        out.push([id, first, last, s.prop(other, s.gender), city]);
    }
    Ok(out)
}

pub(crate) const INTERESTS: Procedure = Procedure {
    name: "shard.interests",
    description: "S5 person shard: the ids of a person's interest tags",
    params: &[ParamSpec::required(
        "personId",
        ParamType::Int,
        "the person",
    )],
    columns: &["tagId"],
    run: interests,
};

fn interests(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let person = s.person(p.int("personId")?)?;
    let mut out = ResultSet::new(&["tagId"]);
    for e in s.out(person, s.has_interest) {
        out.push([Value::Int(s.ext_id(e.node))]);
    }
    Ok(out)
}

const COLUMNS: &[&str] = &["personId", "score"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shard.ic10",
    description: "S5 forum shard: per person, posts with an interest tag minus posts without",
    params: &[
        ParamSpec::required("persons", ParamType::IntList, "the candidates' ids").long_list(),
        ParamSpec::required("tags", ParamType::IntList, "the interest tags' ids").long_list(),
    ],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let interests: FxHashSet<NodeId> = (p.int_list("tags")?.into_iter())
        .filter_map(|id| g.node_by_id(s.tag, id))
        .collect();
    let mut out = ResultSet::new(COLUMNS);
    for (other, _) in super::persons(&s, p)?.persons {
        let score = interest_score(&s, other, &interests);
        if score != 0 {
            out.push([Value::Int(s.ext_id(other)), Value::Int(score)]);
        }
    }
    Ok(out)
}
