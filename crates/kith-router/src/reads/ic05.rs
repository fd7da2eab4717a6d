//! IC5: forums joined after a date by persons within two steps, by those persons'
//! posts there. A forum lives on one shard with all its posts and members, so each
//! shard's top 20 (`shard.ic5`) is final for its forums: the merge takes the top 20
//! of them (ties by forum id).

use std::cmp::Reverse;

use kith_core::Value;
use kith_procedures::Params;

use super::pass;
use crate::merge::{int, top};
use crate::{RouteError, Router};

pub(crate) async fn run(r: &Router, p: &Params) -> Result<Vec<Vec<Value>>, RouteError> {
    let persons = r.reach(p.int("personId")?, 2).await?;
    let rows = r
        .over_persons("shard.ic5", &persons, vec![pass(p, "minDate")?], 3)
        .await?;
    let best = top(rows, 20, |a, b| {
        (Reverse(int(&a[2])), int(&a[0])).cmp(&(Reverse(int(&b[2])), int(&b[0])))
    });
    Ok(best.into_iter().map(|mut row| row.split_off(1)).collect())
}
