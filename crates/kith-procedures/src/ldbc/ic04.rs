//! IC4: tags that appear on friends' posts for the first time in a window.

use kith_core::{GraphView, NodeId, Value};
use rustc_hash::{FxHashMap, FxHashSet};

use super::schema::Ldbc;
use super::DAY_MS;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["tagName", "postCount"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "ldbc.ic4",
    description: "LDBC IC4: new topics among friends' posts in a window",
    params: &[
        ParamSpec::required("personId", ParamType::Int, "the start person"),
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
    let friends = s.friends(person);
    let (in_window, before) = tag_counts(&s, friends.iter().map(|e| e.node), start, end);
    let rows: Vec<(i64, kith_core::Str)> = in_window
        .into_iter()
        .filter(|(t, _)| !before.contains(t))
        .map(|(t, n)| (n, s.text(t, s.name)))
        .collect();
    let mut out = ResultSet::new(COLUMNS);
    for (n, name) in super::top_k(rows, 10, |a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1))) {
        out.push([Value::String(name), Value::Int(n)]);
    }
    Ok(out)
}

/// The tags of `persons`' posts in `[start, end)` with their post counts, and the
/// tags of their posts before `start` (IC4 here and on each forum shard).
pub(crate) fn tag_counts(
    s: &Ldbc<'_>,
    persons: impl Iterator<Item = NodeId>,
    start: i64,
    end: i64,
) -> (FxHashMap<NodeId, i64>, FxHashSet<NodeId>) {
    let mut in_window: FxHashMap<NodeId, i64> = FxHashMap::default();
    let mut before: FxHashSet<NodeId> = FxHashSet::default();
    for person in persons {
        for e in s.posts_among(person) {
            if !s.g.has_label(e.node, s.post) {
                continue;
            }
            let date = s.int(e.node, s.creation_date);
            let tags = s.out(e.node, s.has_tag);
            if date < start {
                before.extend(tags.iter().map(|t| t.node));
            } else if date < end {
                for t in tags {
                    *in_window.entry(t.node).or_default() += 1;
                }
            }
        }
    }
    (in_window, before)
}
