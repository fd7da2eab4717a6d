//! IC4: new topics among the friends' posts in a window. Each forum shard counts the
//! tags of the friends' posts in the window and lists those of posts before it
//! (`shard.ic4`); the merge sums the counts, drops a tag any shard saw before the
//! window, top 10 by count (ties by name).

use std::cmp::Reverse;

use kith_core::Value;
use kith_procedures::Params;
use rustc_hash::{FxHashMap, FxHashSet};

use super::pass;
use crate::merge::{int, text, top};
use crate::{RouteError, Router};

pub(crate) async fn run(r: &Router, p: &Params) -> Result<Vec<Vec<Value>>, RouteError> {
    let friends = r.reach(p.int("personId")?, 1).await?;
    let part = vec![pass(p, "startDate")?, pass(p, "durationDays")?];
    let rows = r.over_persons("shard.ic4", &friends, part, 3).await?;
    let mut counts: FxHashMap<String, i64> = FxHashMap::default();
    let mut before: FxHashSet<String> = FxHashSet::default();
    for row in &rows {
        let name = text(&row[0]).to_owned();
        if row[2] == Value::Bool(true) {
            before.insert(name);
        } else {
            *counts.entry(name).or_default() += int(&row[1]);
        }
    }
    let new: Vec<(String, i64)> = (counts.into_iter())
        .filter(|(name, _)| !before.contains(name))
        .collect();
    let best = top(new, 10, |a, b| {
        (Reverse(a.1), &a.0).cmp(&(Reverse(b.1), &b.0))
    });
    Ok((best.into_iter())
        .map(|(name, n)| vec![Value::string(name), Value::Int(n)])
        .collect())
}
