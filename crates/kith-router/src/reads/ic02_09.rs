//! IC2 (friends) and IC9 (friends and friends of friends): the newest 20 messages
//! before a date. The person shard reaches the persons; each forum shard answers its
//! newest 20 of theirs (`shard.recent`); the merge keeps the newest 20 (ties by
//! message id) and names their creators.

use std::cmp::Reverse;

use kith_core::Value;
use kith_procedures::Params;

use super::pass;
use crate::merge::{int, top};
use crate::{RouteError, Router};

pub(crate) async fn run(r: &Router, p: &Params, steps: i64) -> Result<Vec<Vec<Value>>, RouteError> {
    let persons = r.reach(p.int("personId")?, steps).await?;
    let rows = r
        .over_persons("shard.recent", &persons, vec![pass(p, "maxDate")?], 6)
        .await?;
    let mut rows = top(rows, 20, |a, b| {
        (Reverse(int(&a[5])), int(&a[3])).cmp(&(Reverse(int(&b[5])), int(&b[3])))
    });
    r.name_rows(&mut rows, 0).await?;
    Ok(rows)
}
