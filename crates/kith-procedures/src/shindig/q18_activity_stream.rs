//! Q18: the activity stream — friends' activities, newest first.

use kith_core::{Direction, GraphView, NodeId};

use super::rows::ACTIVITY_COLUMNS;
use super::schema::Shindig;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shindig.activity_stream",
    description: "Activities of a person's friends, newest first",
    params: &[
        ParamSpec::required("person_id", ParamType::Int, "the person"),
        ParamSpec::optional("limit", 100, "most rows to return; 0 for all"),
    ],
    columns: ACTIVITY_COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Shindig::resolve(g)?;
    let person = s.person(p.int("person_id")?)?;
    let limit = p.limit("limit")?;
    let mut stream: Vec<(i64, i64, NodeId)> = Vec::new();
    for friend in s.friends(person) {
        for a in g.neighbors(friend.node, s.performed, Direction::Out) {
            stream.push((s.time(a.node, s.posted_time), s.ext_id(a.node), a.node));
        }
    }
    let newest = |x: &(i64, i64, NodeId), y: &(i64, i64, NodeId)| (y.0, y.1).cmp(&(x.0, x.1));
    if limit < stream.len() {
        stream.select_nth_unstable_by(limit, newest);
        stream.truncate(limit);
    }
    stream.sort_unstable_by(newest);
    let mut out = ResultSet::new(ACTIVITY_COLUMNS);
    for (_, _, activity) in stream {
        out.push(s.activity_row(activity));
    }
    Ok(out)
}
