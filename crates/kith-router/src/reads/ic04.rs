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
    let rows = r.over_persons("shard.ic4", &friends, part, 4).await?;
    // By tag id (two tags may share a name); ordered by name.
    let mut counts: FxHashMap<i64, (String, i64)> = FxHashMap::default();
    let mut before: FxHashSet<i64> = FxHashSet::default();
    for row in &rows {
        let tag = int(&row[0]);
        if row[3] == Value::Bool(true) {
            before.insert(tag);
        } else {
            let entry = counts
                .entry(tag)
                .or_insert_with(|| (text(&row[1]).to_owned(), 0));
            entry.1 += int(&row[2]);
        }
    }
    let new: Vec<(String, i64)> = (counts.into_iter())
        .filter(|(tag, _)| !before.contains(tag))
        .map(|(_, named)| named)
        .collect();
    let best = top(new, 10, |a, b| {
        (Reverse(a.1), &a.0).cmp(&(Reverse(b.1), &b.0))
    });
    Ok((best.into_iter())
        .map(|(name, n)| vec![Value::string(name), Value::Int(n)])
        .collect())
}
