//! IC14: every shortest KNOWS path between two persons, weighted by the two ends'
//! interactions along each step. The person shard finds the paths (IC14 as it is;
//! it holds no messages, so its weights are 0); every forum shard weighs each step's
//! pair over its comments (`shard.interactions`); the merge sums a pair's weights,
//! weighs the paths and orders them heaviest first (ties by the ids).

use kith_core::Value;
use kith_procedures::Params;
use rustc_hash::FxHashMap;

use crate::merge::{int, param};
use crate::{RouteError, Router};

pub(crate) async fn run(r: &Router, p: &Params) -> Result<Vec<Vec<Value>>, RouteError> {
    let ends = vec![
        param("person1Id", Value::Int(p.int("person1Id")?)),
        param("person2Id", Value::Int(p.int("person2Id")?)),
    ];
    let paths: Vec<Vec<i64>> = (r.on_person("ldbc.ic14", ends, 2).await?.rows.iter())
        .map(|row| row[0].as_list().unwrap_or(&[]).iter().map(int).collect())
        .collect();
    let mut pairs: Vec<(i64, i64)> = (paths.iter())
        .flat_map(|path| path.windows(2).map(|w| (w[0].min(w[1]), w[0].max(w[1]))))
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    let mut weights: FxHashMap<(i64, i64), f64> = FxHashMap::default();
    if !pairs.is_empty() {
        let list = pairs
            .iter()
            .map(|(a, b)| Value::List(vec![Value::Int(*a), Value::Int(*b)]));
        let params = vec![param("pairs", Value::List(list.collect()))];
        for answer in r.on_forums("shard.interactions", params, 3, false).await? {
            for row in answer.rows {
                let w = if let Value::Float(w) = row[2] { w } else { 0.0 };
                *weights.entry((int(&row[0]), int(&row[1]))).or_default() += w;
            }
        }
    }
    let mut weighed: Vec<(f64, Vec<i64>)> = (paths.into_iter())
        .map(|path| {
            let pair = |w: &[i64]| (w[0].min(w[1]), w[0].max(w[1]));
            let weight = path
                .windows(2)
                .map(|w| weights.get(&pair(w)).copied().unwrap_or(0.0))
                .sum();
            (weight, path)
        })
        .collect();
    weighed.sort_by(|x, y| y.0.total_cmp(&x.0).then_with(|| x.1.cmp(&y.1)));
    Ok((weighed.into_iter())
        .map(|(w, path)| {
            vec![
                Value::List(path.into_iter().map(Value::Int).collect()),
                Value::Float(w),
            ]
        })
        .collect())
}
