//! `shard.ic4` (forum shard): IC4's message side, the tags of the friends' posts in
//! the window with their post counts, and the tags of their posts before it. The
//! router sums counts and drops every tag some shard saw before the window.

use kith_core::{GraphView, Value};

use super::super::schema::Ldbc;
use super::super::DAY_MS;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["tagId", "tagName", "postCount", "before"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shard.ic4",
    description: "S5 forum shard: tags of posts of `persons` in the window (counted) and before it",
    params: &[
        ParamSpec::required("persons", ParamType::IntList, "the friends' ids").long_list(),
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
    let start = p.int("startDate")?;
    let end = start.saturating_add(p.int("durationDays")?.saturating_mul(DAY_MS));
    let reach = super::persons(&s, p)?;
    let persons = reach.persons.iter().map(|(n, _)| *n);
    let (in_window, before) = super::super::ic04::tag_counts(&s, persons, start, end);
    let mut out = ResultSet::new(COLUMNS);
    for (t, n) in in_window.into_iter().filter(|(t, _)| !before.contains(t)) {
        out.push([
            Value::Int(s.ext_id(t)),
            Value::String(s.text(t, s.name)),
            Value::Int(n),
            Value::Bool(false),
        ]);
    }
    for t in before {
        out.push([
            Value::Int(s.ext_id(t)),
            Value::String(s.text(t, s.name)),
            Value::Int(0),
            Value::Bool(true),
        ]);
    }
    Ok(out)
}
