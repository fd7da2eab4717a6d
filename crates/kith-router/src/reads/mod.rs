//! The 21 LDBC reads across shards, one file per read (the person-only ones share
//! `person.rs`: they run whole on the person shard).

mod ic02_09;
mod ic03;
mod ic04;
mod ic05;
mod ic06;
mod ic07;
mod ic08;
mod ic10;
mod ic12;
mod ic14;
mod is2;
mod is4_5_6;
mod is7;
mod person;

use kith_core::Value;
use kith_procedures::{Params, ProcedureError};

use crate::merge::{id_list, param};
use crate::{RouteError, Router};

/// Person ids per forum-shard call: about 15 bytes each in BSON, so a call stays
/// well under a shard's default 1 MiB message limit.
pub(crate) const PERSONS_PER_CALL: usize = 40_000;

/// The reads a router runs.
pub(crate) const NAMES: &[&str] = &[
    "ldbc.is1",
    "ldbc.is2",
    "ldbc.is3",
    "ldbc.is4",
    "ldbc.is5",
    "ldbc.is6",
    "ldbc.is7",
    "ldbc.ic1",
    "ldbc.ic2",
    "ldbc.ic3",
    "ldbc.ic4",
    "ldbc.ic5",
    "ldbc.ic6",
    "ldbc.ic7",
    "ldbc.ic8",
    "ldbc.ic9",
    "ldbc.ic10",
    "ldbc.ic11",
    "ldbc.ic12",
    "ldbc.ic13",
    "ldbc.ic14",
];

/// The rows of `procedure` (one of [`NAMES`], parameters validated).
pub(crate) async fn run(
    r: &Router,
    procedure: &'static str,
    p: &Params,
    given: &[(String, Value)],
    width: usize,
) -> Result<Vec<Vec<Value>>, RouteError> {
    match procedure {
        "ldbc.is1" | "ldbc.is3" | "ldbc.ic1" | "ldbc.ic11" | "ldbc.ic13" => {
            person::run(r, procedure, given, width).await
        }
        "ldbc.is2" => is2::run(r, p).await,
        "ldbc.is4" | "ldbc.is5" | "ldbc.is6" => is4_5_6::run(r, procedure, p, width).await,
        "ldbc.is7" => is7::run(r, p).await,
        "ldbc.ic2" => ic02_09::run(r, p, 1).await,
        "ldbc.ic9" => ic02_09::run(r, p, 2).await,
        "ldbc.ic3" => ic03::run(r, p).await,
        "ldbc.ic4" => ic04::run(r, p).await,
        "ldbc.ic5" => ic05::run(r, p).await,
        "ldbc.ic6" => ic06::run(r, p).await,
        "ldbc.ic7" => ic07::run(r, p).await,
        "ldbc.ic8" => ic08::run(r, p).await,
        "ldbc.ic10" => ic10::run(r, p).await,
        "ldbc.ic12" => ic12::run(r, p).await,
        "ldbc.ic14" => ic14::run(r, p).await,
        _ => Err(RouteError::not_routed(procedure)),
    }
}

impl Router {
    /// `not_found` unless the person shard holds this person.
    pub(crate) async fn person_exists(&self, id: i64) -> Result<(), RouteError> {
        let answer = self
            .on_person("shard.persons", vec![param("ids", id_list([id]))], 3)
            .await?;
        if answer.rows.is_empty() {
            return Err(ProcedureError::NotFound {
                label: "Person",
                id,
            }
            .into());
        }
        Ok(())
    }

    /// A forum-shard part over the persons a read reached, with its other
    /// parameters; no call when nobody was reached. A long list goes in parts of
    /// `persons_per_call` ([`PERSONS_PER_CALL`]: a shard takes messages of `frame_bytes_max`, 1 MiB by
    /// default), one after another: every part is additive over persons, so the
    /// merges take the parts' rows as they take the shards'.
    pub(crate) async fn over_persons(
        &self,
        procedure: &'static str,
        persons: &[i64],
        params: Vec<(String, Value)>,
        width: usize,
    ) -> Result<Vec<Vec<Value>>, RouteError> {
        let mut rows = Vec::new();
        for part in persons.chunks(self.persons_per_call) {
            let mut params = params.clone();
            params.push(param("persons", id_list(part.iter().copied())));
            let answers = self.on_forums(procedure, params, width, false).await?;
            rows.extend(crate::merge::all_rows(answers));
        }
        Ok(rows)
    }
}

/// A parameter of the call, copied for a shard part.
pub(crate) fn pass(p: &Params, name: &str) -> Result<(String, Value), RouteError> {
    Ok(param(name, p.value(name)?.clone()))
}
