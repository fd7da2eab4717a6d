//! The parts of LDBC reads that run on one shard of S5's layout (docs/sharding.md),
//! called by the router (`kith route`), one file per part.
//!
//! On the person shard: who a read is about (`shard.reach`, `shard.ic10_persons`,
//! `shard.interests`) and the names of persons a forum shard only knows by id
//! (`shard.persons`). On a forum shard, a read's message side for a list of persons
//! the person shard reached: partial aggregates the router sums (`shard.ic3`,
//! `shard.ic4`, `shard.ic6`, `shard.ic10`, `shard.ic12`, `shard.interactions`) or
//! top-k lists it merges (`shard.recent`, `shard.ic5`). Forum shards run IS2, IS4-7,
//! IC7 and IC8 as they are: they start from one person or message.

mod ic03;
mod ic04;
mod ic05;
mod ic06;
mod ic10;
mod ic12;
mod info;
mod interactions;
mod persons;
mod reach;
mod recent;

use super::schema::{Ldbc, Reach};
use crate::{Params, Procedure, ProcedureError};

/// The shard parts, registered beside the LDBC reads on every server.
pub(crate) fn procedures() -> Vec<Procedure> {
    vec![
        reach::PROCEDURE,
        persons::PROCEDURE,
        ic10::PERSONS,
        ic10::INTERESTS,
        recent::PROCEDURE,
        ic03::PROCEDURE,
        ic04::PROCEDURE,
        ic05::PROCEDURE,
        ic06::PROCEDURE,
        ic10::PROCEDURE,
        ic12::PROCEDURE,
        interactions::PROCEDURE,
        info::PROCEDURE,
    ]
}

/// The `persons` parameter's persons held here, marked.
fn persons(s: &Ldbc<'_>, p: &Params) -> Result<Reach, ProcedureError> {
    Ok(s.reach_of(&p.int_list("persons")?))
}

#[cfg(test)]
mod tests {
    use kith_core::Value;

    use crate::{ParamSpec, ParamType, Params, LIST_PARAM_LEN_MAX};

    #[test]
    fn a_shard_part_takes_long_person_lists_and_still_has_a_bound() {
        let spec = [ParamSpec::required("persons", ParamType::IntList, "ids").long_list()];
        let list = |n: i64| {
            vec![(
                "persons".to_owned(),
                Value::List((0..n).map(Value::Int).collect()),
            )]
        };
        let long = LIST_PARAM_LEN_MAX as i64 * 50;
        assert!(Params::validate("shard.x", &spec, &list(long)).is_ok());
        let bound = crate::params::LONG_LIST_PARAM_LEN_MAX as i64;
        let e = Params::validate("shard.x", &spec, &list(bound + 1)).expect_err("bounded");
        assert!(
            e.to_string().contains(&format!("the limit is {bound}")),
            "{e}"
        );
    }
}
