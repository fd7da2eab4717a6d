//! `shard.ic12` (forum shard): IC12's message side, per friend the comments replying
//! to posts tagged within the class hierarchy, and those tags' names. A comment and
//! the post it replies to share a shard (a thread lives with its forum); the router
//! sums counts and unites names.

use kith_core::{GraphView, Value};

use super::super::ic12::{replies, tags_below};
use super::super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["personId", "tagNames", "replyCount"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shard.ic12",
    description: "S5 forum shard: per person, comments on posts tagged in the class hierarchy",
    params: &[
        ParamSpec::required("persons", ParamType::IntList, "the friends' ids").long_list(),
        ParamSpec::required("tagClassName", ParamType::String, "the tag class"),
    ],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let mut out = ResultSet::new(COLUMNS);
    let Some(class) = s.tag_class_named(p.string("tagClassName")?) else {
        return Ok(out);
    };
    let tags = tags_below(&s, class);
    for (friend, _) in super::persons(&s, p)?.persons {
        let (count, names) = replies(&s, friend, &tags);
        if count > 0 {
            let names = names.into_iter().map(Value::String).collect();
            out.push([
                Value::Int(s.ext_id(friend)),
                Value::List(names),
                Value::Int(count),
            ]);
        }
    }
    Ok(out)
}
