//! IC12: friends' comments replying to posts tagged within a tag class hierarchy.
//! A comment and its post share a shard; each forum shard counts per friend and
//! names the tags (`shard.ic12`); the merge sums counts and unites the names, top 20
//! by count (ties by id).

use std::cmp::Reverse;
use std::collections::BTreeSet;

use kith_core::Value;
use kith_procedures::Params;
use rustc_hash::FxHashMap;

use super::pass;
use crate::merge::{int, text, top};
use crate::{RouteError, Router};

pub(crate) async fn run(r: &Router, p: &Params) -> Result<Vec<Vec<Value>>, RouteError> {
    let friends = r.reach(p.int("personId")?, 1).await?;
    let rows = r
        .over_persons("shard.ic12", &friends, vec![pass(p, "tagClassName")?], 3)
        .await?;
    let mut per: FxHashMap<i64, (i64, BTreeSet<String>)> = FxHashMap::default();
    for row in &rows {
        let entry = per.entry(int(&row[0])).or_default();
        entry.0 += int(&row[2]);
        let names = row[1].as_list().unwrap_or(&[]);
        entry.1.extend(names.iter().map(|n| text(n).to_owned()));
    }
    let best = top(
        per.into_iter().collect(),
        20,
        |a: &(i64, (i64, BTreeSet<String>)), b| (Reverse(a.1 .0), a.0).cmp(&(Reverse(b.1 .0), b.0)),
    );
    let mut out: Vec<Vec<Value>> = (best.into_iter())
        .map(|(id, (count, names))| {
            let names = Value::List(names.into_iter().map(Value::string).collect());
            vec![
                Value::Int(id),
                Value::Null,
                Value::Null,
                names,
                Value::Int(count),
            ]
        })
        .collect();
    r.name_rows(&mut out, 0).await?;
    Ok(out)
}
