//! `shard.ic6` (forum shard): IC6's message side, the co-occurring tags' post counts
//! over the given persons' posts here (every tag, not a top 10: the router sums the
//! shards' counts first).

use kith_core::{GraphView, Value};

use super::super::ic06::{from_persons, from_tag, tagged_first};
use super::super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["tagId", "tagName", "postCount"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shard.ic6",
    description: "S5 forum shard: tags co-occurring with tagName on posts of `persons`, counted",
    params: &[
        ParamSpec::required("persons", ParamType::IntList, "person ids").long_list(),
        ParamSpec::required("tagName", ParamType::String, "the given tag"),
    ],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let mut out = ResultSet::new(COLUMNS);
    let Some(tag) = s.tag_named(p.string("tagName")?) else {
        return Ok(out);
    };
    let reach = super::persons(&s, p)?;
    let counts = if tagged_first(&s, tag, &reach.persons) {
        from_tag(&s, tag, &reach)
    } else {
        from_persons(&s, tag, &reach.persons)
    };
    for (t, n) in counts {
        out.push([
            Value::Int(s.ext_id(t)),
            Value::String(s.text(t, s.name)),
            Value::Int(n),
        ]);
    }
    Ok(out)
}
