//! IC7: the latest likers of a person's messages. Each forum shard answers IC7 as it
//! is over its messages: per liker the latest like there, its top 20. A liker in the
//! overall top 20 is in the top 20 of the shard holding its latest like, so merging
//! the lists (per liker the latest, ties by message id) and taking the top 20 (by
//! date, ties by liker id) is exact. `isNew` is KNOWS, asked of the person shard.

use std::cmp::Reverse;

use kith_core::Value;
use kith_procedures::Params;
use rustc_hash::FxHashMap;

use crate::merge::{all_rows, int, param, top};
use crate::{RouteError, Router};

pub(crate) async fn run(r: &Router, p: &Params) -> Result<Vec<Vec<Value>>, RouteError> {
    let person = p.int("personId")?;
    let params = vec![param("personId", Value::Int(person))];
    let (friends, answers) =
        tokio::join!(r.reach(person, 1), r.on_forums("ldbc.ic7", params, 8, true));
    let friends = friends?;
    let mut latest: FxHashMap<i64, Vec<Value>> = FxHashMap::default();
    let key = |row: &Vec<Value>| (Reverse(int(&row[3])), int(&row[4]));
    for row in all_rows(answers?) {
        let liker = int(&row[0]);
        match latest.get(&liker) {
            Some(best) if key(best) <= key(&row) => {}
            _ => {
                latest.insert(liker, row);
            }
        }
    }
    let mut rows = top(latest.into_values().collect(), 20, |a, b| {
        (Reverse(int(&a[3])), int(&a[0])).cmp(&(Reverse(int(&b[3])), int(&b[0])))
    });
    r.name_rows(&mut rows, 0).await?;
    for row in &mut rows {
        row[7] = Value::Bool(!friends.contains(&int(&row[0])));
    }
    Ok(rows)
}
