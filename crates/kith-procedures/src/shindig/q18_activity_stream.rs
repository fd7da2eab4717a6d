//! Q18: the activity stream — friends' activities, newest first.

use kith_core::{Direction, GraphView, NodeId};

use super::rows::ACTIVITY_COLUMNS;
use super::schema::Shindig;
use crate::newest::{self, Floor};
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

/// `(postedTime, activity id, activity, performer id)`.
type Candidate = (i64, i64, NodeId, i64);

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Shindig::resolve(g)?;
    let person = s.person(p.int("person_id")?)?;
    let limit = p.limit("limit")?;
    let mut stream: Vec<Candidate> = Vec::new();
    let mut floor = Floor::new(limit);
    let newest_first = s.activities_newest_first();
    let time = |a: NodeId| s.time(a, s.posted_time);
    for friend in s.friends(person) {
        let friend_id = s.ext_id(friend.node);
        let list = g.neighbors(friend.node, s.performed, Direction::Out);
        newest::walk(list, newest_first, None, &mut floor, time, |a, t| {
            stream.push((t, s.ext_id(a.node), a.node, friend_id));
        });
    }
    let newest = |x: &Candidate, y: &Candidate| (y.0, y.1).cmp(&(x.0, x.1));
    if limit < stream.len() {
        stream.select_nth_unstable_by(limit, newest);
        stream.truncate(limit);
    }
    stream.sort_unstable_by(newest);
    let mut out = ResultSet::new(ACTIVITY_COLUMNS);
    out.reserve_rows(stream.len());
    for (_, _, activity, performer) in stream {
        out.push(s.activity_row_by(activity, Some(performer)));
    }
    Ok(out)
}
