//! IS7: the replies to a message. The message's forum shard answers IS7 and IS5 (its
//! author); whether each reply's author knows the message's author is KNOWS, asked of
//! the person shard, as are the names.

use kith_core::Value;
use kith_procedures::Params;

use crate::merge::int;
use crate::{RouteError, Router};

pub(crate) async fn run(r: &Router, p: &Params) -> Result<Vec<Vec<Value>>, RouteError> {
    let (replies, author) = tokio::join!(
        r.message_rows("ldbc.is7", p, 7),
        r.message_rows("ldbc.is5", p, 3)
    );
    let mut rows = replies?;
    let author = author?.first().map(|row| int(&row[0]));
    let friends = match author {
        Some(a) if !rows.is_empty() => r.reach(a, 1).await?,
        _ => Vec::new(),
    };
    r.name_rows(&mut rows, 3).await?;
    for row in &mut rows {
        let knows = row[3].as_int().is_some_and(|a| friends.contains(&a));
        row[6] = Value::Bool(knows);
    }
    Ok(rows)
}
