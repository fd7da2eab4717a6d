//! LDBC SNB Interactive v1 as native procedures, one file per operation: the short
//! reads IS1–IS7, the complex reads IC1–IC14 and the updates IU1–IU8.
//!
//! Contracts (parameters, columns, order, tie-breaks): `docs/ldbc.md`, following the
//! LDBC specification. Shared lookups live in [`schema`].

mod recent;
mod schema;

mod ic01;
mod ic02;
mod ic03;
mod ic04;
mod ic05;
mod ic06;
mod ic07;
mod ic08;
mod ic09;
mod ic10;
mod ic11;
mod ic12;
mod ic13;
mod ic14;
mod is1;
mod is2;
mod is3;
mod is4;
mod is5;
mod is6;
mod is7;
pub(crate) mod micro;
mod shard;
#[cfg(test)]
mod test_set;
mod updates;

use std::cmp::Ordering;

use crate::{Procedure, UpdateProcedure};

/// All LDBC read procedures: IS1–IS7, then IC1–IC14.
pub fn procedures() -> Vec<Procedure> {
    vec![
        is1::PROCEDURE,
        is2::PROCEDURE,
        is3::PROCEDURE,
        is4::PROCEDURE,
        is5::PROCEDURE,
        is6::PROCEDURE,
        is7::PROCEDURE,
        ic01::PROCEDURE,
        ic02::PROCEDURE,
        ic03::PROCEDURE,
        ic04::PROCEDURE,
        ic05::PROCEDURE,
        ic06::PROCEDURE,
        ic07::PROCEDURE,
        ic08::PROCEDURE,
        ic09::PROCEDURE,
        ic10::PROCEDURE,
        ic11::PROCEDURE,
        ic12::PROCEDURE,
        ic13::PROCEDURE,
        ic14::PROCEDURE,
    ]
}

/// The parts of the LDBC reads a sharded graph's router calls on its shards
/// (docs/sharding.md).
pub fn shard_procedures() -> Vec<Procedure> {
    shard::procedures()
}

/// The update procedures IU1–IU8.
pub fn updates() -> Vec<UpdateProcedure> {
    updates::procedures()
}

/// The first `k` items of `items` in `cmp` order, sorted: a partial selection first,
/// so a query with 100,000 candidates and a limit of 20 sorts 20.
pub(crate) fn top_k<T>(mut items: Vec<T>, k: usize, cmp: impl Fn(&T, &T) -> Ordering) -> Vec<T> {
    if items.len() > k && k > 0 {
        items.select_nth_unstable_by(k - 1, &cmp);
        items.truncate(k);
    } else if k == 0 {
        items.clear();
    }
    items.sort_unstable_by(cmp);
    items
}

/// Milliseconds in a day.
pub(crate) const DAY_MS: i64 = 86_400_000;
