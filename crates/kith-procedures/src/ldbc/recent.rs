//! The shape IC2 and IC9 share: the newest messages of a set of persons, before a date.

use kith_core::{NodeId, Value};

use super::schema::Ldbc;
use crate::newest::{self, Floor};
use crate::ResultSet;

pub(crate) const COLUMNS: &[&str] = &[
    "personId",
    "personFirstName",
    "personLastName",
    "messageId",
    "messageContent",
    "messageCreationDate",
];

/// The 20 newest messages created by `persons` before `before`, newest first, ties
/// by message id ascending.
pub(crate) fn newest_messages(
    s: &Ldbc<'_>,
    persons: impl Iterator<Item = NodeId>,
    before: i64,
) -> ResultSet {
    let mut candidates: Vec<(i64, i64, NodeId, NodeId)> = Vec::new();
    let mut floor = Floor::new(20);
    let date = |m: NodeId| s.int(m, s.creation_date);
    for person in persons {
        let (newest_first, runs) = s.message_runs(person);
        for run in runs {
            newest::walk(run, newest_first, Some(before), &mut floor, date, |e, d| {
                candidates.push((d, s.ext_id(e.node), e.node, person));
            });
        }
    }
    let top = super::top_k(candidates, 20, |a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut out = ResultSet::new(COLUMNS);
    for (date, id, m, person) in top {
        let [pid, first, last] = s.person_triple(person);
        out.push([
            pid,
            first,
            last,
            Value::Int(id),
            s.message_content(m),
            Value::Int(date),
        ]);
    }
    out
}
