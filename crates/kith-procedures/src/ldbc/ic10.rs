//! IC10: friend recommendation: friends of friends born around a month, scored by
//! how many of their posts match the person's interests.

use kith_core::{GraphView, NodeId, Value};
use rustc_hash::FxHashSet;

use super::schema::Ldbc;
use super::DAY_MS;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &[
    "personId",
    "personFirstName",
    "personLastName",
    "commonInterestScore",
    "personGender",
    "personCityName",
];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "ldbc.ic10",
    description: "LDBC IC10: friends of friends born from the 21st of month to the 21st of the next, by common interests",
    params: &[
        ParamSpec::required("personId", ParamType::Int, "the start person"),
        ParamSpec::required("month", ParamType::Int, "1..12"),
    ],
    columns: COLUMNS,
    run,
};

/// (month 1..12, day 1..31) of an instant in UTC (the civil-from-days algorithm).
pub(crate) fn month_day(epoch_ms: i64) -> (i64, i64) {
    let z = epoch_ms.div_euclid(DAY_MS) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (month, day)
}

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let person = s.person(p.int("personId")?)?;
    let month = p.int("month")?;
    let next_month = month % 12 + 1;
    let interests: FxHashSet<NodeId> = s
        .out(person, s.has_interest)
        .iter()
        .map(|e| e.node)
        .collect();
    let mut rows: Vec<(i64, i64, NodeId)> = Vec::new();
    for (other, distance) in s.within_two(person) {
        if distance != 2 {
            continue;
        }
        let (m, d) = month_day(s.int(other, s.birthday));
        if !((m == month && d >= 21) || (m == next_month && d < 22)) {
            continue;
        }
        let score = interest_score(&s, other, &interests);
        rows.push((score, s.ext_id(other), other));
    }
    let mut out = ResultSet::new(COLUMNS);
    for (score, _, other) in super::top_k(rows, 10, |a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1))) {
        let [id, first, last] = s.person_triple(other);
        let city = s
            .one_out(other, s.is_located_in)
            .map_or(Value::Null, |c| s.prop(c, s.name));
        out.push([
            id,
            first,
            last,
            Value::Int(score),
            s.prop(other, s.gender),
            city,
        ]);
    }
    Ok(out)
}

/// A person's posts with one of the interests minus their posts without (here and
/// on each forum shard, whose scores the router sums).
pub(crate) fn interest_score(s: &Ldbc<'_>, person: NodeId, interests: &FxHashSet<NodeId>) -> i64 {
    let mut score = 0i64;
    for e in s.posts_among(person) {
        if !s.g.has_label(e.node, s.post) {
            continue;
        }
        let common = (s.out(e.node, s.has_tag).iter()).any(|t| interests.contains(&t.node));
        score += if common { 1 } else { -1 };
    }
    score
}

#[cfg(test)]
mod tests {
    use super::month_day;

    #[test]
    fn month_and_day_in_utc() {
        assert_eq!(month_day(0), (1, 1));
        // 1987-09-18 (an LDBC birthday, 558921600000).
        assert_eq!(month_day(558_921_600_000), (9, 18));
        // 2000-02-29T23:59:59.999Z and the next millisecond.
        assert_eq!(month_day(951_868_799_999), (2, 29));
        assert_eq!(month_day(951_868_800_000), (3, 1));
        // Before 1970.
        assert_eq!(month_day(-1), (12, 31));
    }
}
