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
        .over_persons("shard.ic6", &persons, vec![pass(p, "tagName")?], 2)
        .await?;
    let mut counts: FxHashMap<String, i64> = FxHashMap::default();
    for row in &rows {
        *counts.entry(text(&row[0]).to_owned()).or_default() += int(&row[1]);
    }
    let best = top(counts.into_iter().collect(), 10, |a: &(String, i64), b| {
        (Reverse(a.1), &a.0).cmp(&(Reverse(b.1), &b.0))
    });
    Ok((best.into_iter())
        .map(|(name, n)| vec![Value::string(name), Value::Int(n)])
        .collect())
}
