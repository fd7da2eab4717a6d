//! IS2: a person's 10 newest messages. Each forum shard answers its own newest 10
//! (IS2 as it is, on the person's proxy); the merge keeps the newest 10 (ties by
//! message id, descending) and names the original posts' authors.

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
        r.on_forums("ldbc.is2", params, 7, true)
    );
    exists?;
    let rows = all_rows(answers?);
    let mut rows = top(rows, 10, |a, b| {
        (Reverse(int(&a[2])), Reverse(int(&a[0]))).cmp(&(Reverse(int(&b[2])), Reverse(int(&b[0]))))
    });
    r.name_rows(&mut rows, 4).await?;
    Ok(rows)
}
