//! IC5: forums joined after a date by persons within two steps, by those persons'
//! posts there. A forum lives on one shard with all its posts and members, so each
//! shard's top 20 (`shard.ic5`) is final for its forums: the merge takes the top 20
//! of them (ties by forum id).

use std::cmp::Reverse;

use kith_core::Value;
use kith_procedures::Params;

use rustc_hash::FxHashMap;

use super::pass;
use crate::merge::{int, param, top};
use crate::{RouteError, Router};

pub(crate) async fn run(r: &Router, p: &Params) -> Result<Vec<Vec<Value>>, RouteError> {
    let persons = r.reach(p.int("personId")?, 2).await?;
    // One call per shard: its top 20 is final for its forums. Persons split over
    // several calls: every forum of every call, summed here.
    let limit = if persons.len() > r.persons_per_call {
        0
    } else {
        20
    };
    let part = vec![pass(p, "minDate")?, param("limit", Value::Int(limit))];
    let mut forums: FxHashMap<i64, (Value, i64)> = FxHashMap::default();
    for row in r.over_persons("shard.ic5", &persons, part, 3).await? {
        let entry = forums.entry(int(&row[0])).or_insert((row[1].clone(), 0));
        entry.1 += int(&row[2]);
    }
    let best = top(
        forums.into_iter().collect(),
        20,
        |a: &(i64, (Value, i64)), b| (Reverse(a.1 .1), a.0).cmp(&(Reverse(b.1 .1), b.0)),
    );
    Ok((best.into_iter())
        .map(|(_, (title, n))| vec![title, Value::Int(n)])
        .collect())
}
