//! What every routed read shares: fan-outs, reading shards' rows, merging and
//! naming.

use std::cmp::Ordering;

use futures_util::future::join_all;
use kith_client::QueryResult;
use kith_core::Value;
use kith_protocol::ErrorCode;
use rustc_hash::FxHashMap;

use crate::{RouteError, Router};

/// An Int value (0 for anything else: the shard parts only put Ints there).
pub(crate) fn int(v: &Value) -> i64 {
    v.as_int().unwrap_or(0)
}

/// A string value's text ("" for anything else).
pub(crate) fn text(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

/// A list of ids as a parameter value.
pub(crate) fn id_list(ids: impl IntoIterator<Item = i64>) -> Value {
    Value::List(ids.into_iter().map(Value::Int).collect())
}

/// A parameter.
pub(crate) fn param(name: &str, value: Value) -> (String, Value) {
    (name.to_owned(), value)
}

/// The first `k` of `rows` in `cmp` order.
pub(crate) fn top<T>(mut rows: Vec<T>, k: usize, cmp: impl Fn(&T, &T) -> Ordering) -> Vec<T> {
    rows.sort_by(cmp);
    rows.truncate(k);
    rows
}

/// The rows of several shards' answers, one list.
pub(crate) fn all_rows(answers: Vec<QueryResult>) -> Vec<Vec<Value>> {
    answers.into_iter().flat_map(|a| a.rows).collect()
}

/// Checks that every row of a shard part's answer has `width` values, so reads can
/// index them.
fn checked(
    shard: &str,
    procedure: &str,
    answer: QueryResult,
    width: usize,
) -> Result<QueryResult, RouteError> {
    match answer.rows.iter().find(|r| r.len() != width) {
        Some(r) => Err(RouteError::malformed(
            shard,
            procedure,
            &format!("a row of {} values, not {width}", r.len()),
        )),
        None => Ok(answer),
    }
}

impl Router {
    /// Calls the person shard; its rows have `width` values.
    pub(crate) async fn on_person(
        &self,
        procedure: &'static str,
        params: Vec<(String, Value)>,
        width: usize,
    ) -> Result<QueryResult, RouteError> {
        let answer = self.person.call(procedure, params).await?;
        checked(self.person.name(), procedure, answer, width)
    }

    /// Calls every forum shard at once with the same parameters; rows have `width`
    /// values. `lenient`: a shard's `not_found` (the person or message is not there)
    /// is no rows. Any shard unavailable fails the whole call (reported before other
    /// errors: it is the one to retry).
    pub(crate) async fn on_forums(
        &self,
        procedure: &'static str,
        params: Vec<(String, Value)>,
        width: usize,
        lenient: bool,
    ) -> Result<Vec<QueryResult>, RouteError> {
        let calls = self.forums.iter().map(|shard| {
            let params = params.clone();
            async move {
                let answer = if lenient {
                    shard.call_or_empty(procedure, params).await
                } else {
                    shard.call(procedure, params).await
                };
                answer.and_then(|a| checked(shard.name(), procedure, a, width))
            }
        });
        // Traced (kith bench shard), the shards are asked one after another, each
        // then measured without the others competing for this machine's cores.
        let answers = if crate::trace::active() {
            crate::trace::begin_group();
            let mut answers = Vec::new();
            for call in calls {
                answers.push(call.await);
            }
            crate::trace::end_group();
            answers
        } else {
            join_all(calls).await
        };
        let mut ok = Vec::with_capacity(answers.len());
        let mut failed: Option<RouteError> = None;
        for answer in answers {
            match answer {
                Ok(a) => ok.push(a),
                Err(e) => {
                    let worse = failed.as_ref().is_none_or(|f| {
                        f.code != ErrorCode::ShardUnavailable
                            && e.code == ErrorCode::ShardUnavailable
                    });
                    if worse {
                        failed = Some(e);
                    }
                }
            }
        }
        failed.map_or(Ok(ok), Err)
    }

    /// The first and last names of these persons, from the person shard.
    pub(crate) async fn names(
        &self,
        ids: impl IntoIterator<Item = i64>,
    ) -> Result<FxHashMap<i64, [Value; 2]>, RouteError> {
        let mut ids: Vec<i64> = ids.into_iter().collect();
        ids.sort_unstable();
        ids.dedup();
        if ids.is_empty() {
            return Ok(FxHashMap::default());
        }
        let answer = self
            .on_person("shard.persons", vec![param("ids", id_list(ids))], 3)
            .await?;
        Ok((answer.rows.into_iter())
            .map(|mut r| {
                let last = std::mem::replace(&mut r[2], Value::Null);
                let first = std::mem::replace(&mut r[1], Value::Null);
                (int(&r[0]), [first, last])
            })
            .collect())
    }

    /// Puts the names of the person whose id is in column `id` into the two columns
    /// after it, for every row.
    pub(crate) async fn name_rows(
        &self,
        rows: &mut [Vec<Value>],
        id: usize,
    ) -> Result<(), RouteError> {
        // A row may have no person there (a message without a creator): Null stays.
        let names = self
            .names(rows.iter().filter_map(|r| r[id].as_int()))
            .await?;
        for r in rows.iter_mut() {
            if let Some([first, last]) = r[id].as_int().and_then(|i| names.get(&i)) {
                r[id + 1] = first.clone();
                r[id + 2] = last.clone();
            }
        }
        Ok(())
    }

    /// The ids of the persons within `steps` KNOWS steps of `person` (person shard).
    pub(crate) async fn reach(&self, person: i64, steps: i64) -> Result<Vec<i64>, RouteError> {
        let params = vec![
            param("personId", Value::Int(person)),
            param("steps", Value::Int(steps)),
        ];
        let answer = self.on_person("shard.reach", params, 2).await?;
        Ok(answer.rows.iter().map(|r| int(&r[0])).collect())
    }
}
