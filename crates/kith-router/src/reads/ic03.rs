//! IC3: persons within two steps, living abroad, with messages in both countries in
//! the window. The person shard reaches the persons and keeps those living outside
//! both countries; each forum shard counts their messages there (`shard.ic3`); the
//! merge sums per person, keeps those with both counts above zero, top 20 by the X
//! count (ties by id).

use std::cmp::Reverse;

use kith_core::Value;
use kith_procedures::Params;
use rustc_hash::FxHashMap;

use super::pass;
use crate::merge::{int, param, top};
use crate::{RouteError, Router};

pub(crate) async fn run(r: &Router, p: &Params) -> Result<Vec<Vec<Value>>, RouteError> {
    let reach = vec![
        pass(p, "personId")?,
        param("steps", Value::Int(2)),
        param("abroadFromX", p.value("countryXName")?.clone()),
        param("abroadFromY", p.value("countryYName")?.clone()),
    ];
    let persons: Vec<i64> = (r.on_person("shard.reach", reach, 2).await?.rows.iter())
        .map(|row| int(&row[0]))
        .collect();
    let part = ["countryXName", "countryYName", "startDate", "durationDays"]
        .into_iter()
        .map(|n| pass(p, n))
        .collect::<Result<Vec<_>, _>>()?;
    let mut counts: FxHashMap<i64, [i64; 2]> = FxHashMap::default();
    for row in r.over_persons("shard.ic3", &persons, part, 3).await? {
        let c = counts.entry(int(&row[0])).or_default();
        c[0] += int(&row[1]);
        c[1] += int(&row[2]);
    }
    let both: Vec<(i64, i64, i64)> = (counts.into_iter())
        .filter(|(_, [x, y])| *x > 0 && *y > 0)
        .map(|(id, [x, y])| (id, x, y))
        .collect();
    let best = top(both, 20, |a, b| {
        (Reverse(a.1), a.0).cmp(&(Reverse(b.1), b.0))
    });
    let mut rows: Vec<Vec<Value>> = (best.into_iter())
        .map(|(id, x, y)| {
            let n = |i| Value::Int(i);
            vec![n(id), Value::Null, Value::Null, n(x), n(y), n(x + y)]
        })
        .collect();
    r.name_rows(&mut rows, 0).await?;
    Ok(rows)
}
