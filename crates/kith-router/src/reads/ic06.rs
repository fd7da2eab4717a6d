//! IC6: tags that co-occur with a tag on posts of persons within two steps. Each
//! forum shard counts every co-occurring tag over its posts (`shard.ic6`); the merge
//! sums per tag, top 10 by count (ties by name).

use std::cmp::Reverse;

use kith_core::Value;
use kith_procedures::Params;
use rustc_hash::FxHashMap;

use super::pass;
use crate::merge::{int, text, top};
use crate::{RouteError, Router};

pub(crate) async fn run(r: &Router, p: &Params) -> Result<Vec<Vec<Value>>, RouteError> {
    let persons = r.reach(p.int("personId")?, 2).await?;
    let rows = r
        .over_persons("shard.ic6", &persons, vec![pass(p, "tagName")?], 3)
        .await?;
    // By tag id (two tags may share a name); ordered by name.
    let mut counts: FxHashMap<i64, (String, i64)> = FxHashMap::default();
    for row in &rows {
        let entry = (counts.entry(int(&row[0]))).or_insert_with(|| (text(&row[1]).to_owned(), 0));
        entry.1 += int(&row[2]);
    }
    let best = top(
        counts.into_values().collect(),
        10,
        |a: &(String, i64), b| (Reverse(a.1), &a.0).cmp(&(Reverse(b.1), &b.0)),
    );
    Ok((best.into_iter())
        .map(|(name, n)| vec![Value::string(name), Value::Int(n)])
        .collect())
}
