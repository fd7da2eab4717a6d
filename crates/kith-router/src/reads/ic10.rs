//! IC10: friends of friends born around a month, by common interests. The person
//! shard gives the candidates (with names, gender and city) and the start person's
//! interests; each forum shard scores the candidates' posts there (`shard.ic10`);
//! the merge sums the scores, top 10 by score (ties by id).

use std::cmp::Reverse;

use kith_core::Value;
use kith_procedures::Params;
use rustc_hash::FxHashMap;

use crate::merge::{id_list, int, param, top};
use crate::{RouteError, Router};

pub(crate) async fn run(r: &Router, p: &Params) -> Result<Vec<Vec<Value>>, RouteError> {
    let person = param("personId", Value::Int(p.int("personId")?));
    let candidates = vec![person.clone(), param("month", Value::Int(p.int("month")?))];
    let (candidates, interests) = tokio::join!(
        r.on_person("shard.ic10_persons", candidates, 5),
        r.on_person("shard.interests", vec![person], 1)
    );
    let candidates = candidates?.rows;
    let tags = id_list(interests?.rows.iter().map(|row| int(&row[0])));
    let ids: Vec<i64> = candidates.iter().map(|row| int(&row[0])).collect();
    let mut scores: FxHashMap<i64, i64> = FxHashMap::default();
    for row in r
        .over_persons("shard.ic10", &ids, vec![param("tags", tags)], 2)
        .await?
    {
        *scores.entry(int(&row[0])).or_default() += int(&row[1]);
    }
    let scored: Vec<(i64, Vec<Value>)> = (candidates.into_iter())
        .map(|row| (scores.get(&int(&row[0])).copied().unwrap_or(0), row))
        .collect();
    let best = top(scored, 10, |a, b| {
        (Reverse(a.0), int(&a.1[0])).cmp(&(Reverse(b.0), int(&b.1[0])))
    });
    Ok((best.into_iter())
        .map(|(score, mut row)| {
            // [id, first, last, gender, city] -> [id, first, last, score, gender, city]
            row.insert(3, Value::Int(score));
            row
        })
        .collect())
}
