//! `shard.ic5` (forum shard): IC5 for the persons the person shard reached. A forum
//! and its posts live on one shard, so each shard's top 20 is final for its forums
//! and the router merges the lists.

use kith_core::{GraphView, NodeId, Value};

use super::super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["forumId", "forumTitle", "postCount"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shard.ic5",
    description:
        "S5 forum shard: forums `persons` joined after minDate, by their posts there (top 20)",
    params: &[
        ParamSpec::required("persons", ParamType::IntList, "person ids").long_list(),
        ParamSpec::required("minDate", ParamType::Int, "epoch milliseconds, exclusive"),
        ParamSpec::optional(
            "limit",
            20,
            "forums answered; 0: all (the router splits long person lists and sums)",
        ),
    ],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let min_date = p.int("minDate")?;
    let reach = super::persons(&s, p)?;
    let persons = reach.persons.iter().map(|(n, _)| *n);
    let counts = super::super::ic05::forum_counts(&s, persons, min_date);
    let rows: Vec<(i64, i64, NodeId)> = (counts.into_iter())
        .map(|(f, n)| (n, s.ext_id(f), f))
        .collect();
    let mut out = ResultSet::new(COLUMNS);
    for (n, id, f) in super::super::top_k(rows, p.limit("limit")?, |a, b| {
        b.0.cmp(&a.0).then(a.1.cmp(&b.1))
    }) {
        out.push([Value::Int(id), s.prop(f, s.title), Value::Int(n)]);
    }
    Ok(out)
}
