//! IC8: the newest 20 replies to a person's messages. A reply lives with the message
//! it answers, so each forum shard's newest 20 (IC8 as it is) merge into the newest
//! 20 (ties by comment id); the repliers are named from the person shard.

use std::cmp::Reverse;

use kith_core::Value;
use kith_procedures::Params;

use crate::merge::{all_rows, int, param, top};
use crate::{RouteError, Router};

pub(crate) async fn run(r: &Router, p: &Params) -> Result<Vec<Vec<Value>>, RouteError> {
    let person = p.int("personId")?;
    let params = vec![param("personId", Value::Int(person))];
    let (exists, answers) = tokio::join!(
        r.person_exists(person),
        r.on_forums("ldbc.ic8", params, 6, true)
    );
    exists?;
    let mut rows = top(all_rows(answers?), 20, |a, b| {
        (Reverse(int(&a[3])), int(&a[4])).cmp(&(Reverse(int(&b[3])), int(&b[4])))
    });
    r.name_rows(&mut rows, 0).await?;
    Ok(rows)
}
