//! `shard.ic3` (forum shard): IC3's message side, each person's messages located in
//! country X and in country Y within the window. Counts per person are partial: the
//! router sums them over the forum shards before IC3's "both above zero" filter.

use kith_core::{GraphView, NodeId, Value};
use rustc_hash::FxHashMap;

use super::super::ic03::{countries_first, country_counts, window_counts, Window};

use super::super::schema::Ldbc;
use super::super::DAY_MS;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["personId", "xCount", "yCount"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shard.ic3",
    description:
        "S5 forum shard: messages of `persons` in countries X and Y within the window, per person",
    params: &[
        ParamSpec::required("persons", ParamType::IntList, "person ids (abroad already)")
            .long_list(),
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
    let start = p.int("startDate")?;
    let end = start.saturating_add(p.int("durationDays")?.saturating_mul(DAY_MS));
    let mut out = ResultSet::new(COLUMNS);
    let (Some(x), Some(y)) = (
        s.country_named(p.string("countryXName")?),
        s.country_named(p.string("countryYName")?),
    ) else {
        return Ok(out);
    };
    let reach = super::persons(&s, p)?;
    let window = Window { start, end };
    // The shorter list, as on one server: the two countries' messages or the persons'.
    let counts = if countries_first(&s, [x, y], &reach.persons) {
        country_counts(&s, [x, y], window, &reach)
    } else {
        person_counts(&s, [x, y], window, &reach.persons)
    };
    for (other, [xs, ys]) in counts {
        if xs + ys > 0 {
            out.push([Value::Int(s.ext_id(other)), Value::Int(xs), Value::Int(ys)]);
        }
    }
    Ok(out)
}

/// Per person, their messages in the window located in X and in Y.
fn person_counts(
    s: &Ldbc<'_>,
    xy: [NodeId; 2],
    w: Window,
    persons: &[(NodeId, u8)],
) -> FxHashMap<NodeId, [i64; 2]> {
    (persons.iter())
        .map(|&(other, _)| (other, window_counts(s, other, xy, w)))
        .collect()
}
