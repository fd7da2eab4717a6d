//! `duration.between(a, b)`, `duration.inMonths`, `duration.inDays`,
//! `duration.inSeconds`.
//!
//! java.time's `until`, as Neo4j uses it: before each step the two values are given
//! the parts one has and the other lacks (a date gets midnight, a time gets the other's
//! date, a local value the other's zone). `between` takes whole months, then whole
//! days, then the rest as seconds; a month or day only counts once the wall clock has
//! passed the start's time of day.

use chrono::{Datelike, NaiveDate, NaiveDateTime, NaiveTime, Timelike};
use kith_core::{Duration, Temporal};

use kith_core::temporal::{Parts, Zone};

use super::invalid;
use crate::error::Result;
use crate::value::Val;

/// The unit of `duration.inX`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unit {
    Months,
    Days,
    Seconds,
}

/// The difference from `a` to `b`; `unit` `None` for `duration.between`.
pub(crate) fn between(unit: Option<Unit>, a: &Val, b: &Val) -> Result<Val> {
    let instant = |v: &Val| match v.as_temporal() {
        Some(Temporal::Duration(_)) | None => Err(super::wrong_argument("duration.between", v)),
        Some(t) => Ok(Parts::of(&t)),
    };
    let (from, to) = (instant(a)?, instant(b)?);
    let both_dated = from.date.is_some() && to.date.is_some();
    let d = match unit {
        Some(Unit::Months) => Duration::new(
            if both_dated {
                until_months(from, to)?
            } else {
                0
            },
            0,
            0,
            0,
        ),
        Some(Unit::Days) => {
            Duration::new(0, if both_dated { until_days(from, to)? } else { 0 }, 0, 0)
        }
        Some(Unit::Seconds) => nanos_duration(0, 0, until_nanos(from, to)?)?,
        None => {
            let (mut from, mut months, mut days) = (from, 0, 0);
            if both_dated {
                months = until_months(from, to)?;
                from = plus(from, months, 0)?;
                days = until_days(from, to)?;
                from = plus(from, 0, days)?;
            }
            nanos_duration(months, days, until_nanos(from, to)?)?
        }
    };
    Ok(super::duration_val(d))
}

fn nanos_duration(months: i64, days: i64, nanos: i128) -> Result<Duration> {
    let secs = i64::try_from(nanos.div_euclid(1_000_000_000)).map_err(|_| range())?;
    Ok(Duration::new(
        months,
        days,
        secs,
        nanos.rem_euclid(1_000_000_000) as i64,
    ))
}

fn range() -> crate::error::CypherError {
    invalid("duration.between: the difference is out of range")
}

/// Gives each side the parts the other has: a time if `time_based` or the other has
/// one, the other's date, the other's zone.
fn align(mut from: Parts, mut to: Parts, time_based: bool) -> (Parts, Parts) {
    let midnight = |p: &mut Parts| {
        if p.date.is_some() && p.time.is_none() {
            p.time = Some(NaiveTime::MIN);
        }
    };
    if time_based {
        midnight(&mut from);
        midnight(&mut to);
    } else if from.time.is_some() && to.time.is_none() {
        midnight(&mut to);
    } else if to.time.is_some() && from.time.is_none() {
        midnight(&mut from);
    }
    if from.date.is_some() && to.date.is_none() {
        to.date = from.date;
    } else if to.date.is_some() && from.date.is_none() {
        from.date = to.date;
    }
    if from.zone.is_some() && to.zone.is_none() {
        to.zone = Some(attach(&to, from.zone));
    } else if to.zone.is_some() && from.zone.is_none() {
        from.zone = Some(attach(&from, to.zone));
    }
    (from, to)
}

/// The zone `zone` given to the local value `p`, with the offset it has there.
fn attach(p: &Parts, zone: Option<(Zone, Option<i32>)>) -> (Zone, Option<i32>) {
    let (zone, offset) = zone.expect("checked by the caller");
    let offset = match (zone, p.date) {
        (Zone::Named(_), Some(d)) => {
            zone.at(d.and_time(p.time.unwrap_or(NaiveTime::MIN)), None)
                .offset
        }
        _ => offset.unwrap_or(0),
    };
    (zone, Some(offset))
}

/// The wall clock of `p` (which has a date), and the same instant of `other` seen in
/// `p`'s zone.
fn walls(from: Parts, to: Parts) -> (NaiveDateTime, NaiveDateTime, bool) {
    let local = |p: &Parts| {
        p.date
            .expect("aligned values both have dates")
            .and_time(p.time.unwrap_or(NaiveTime::MIN))
    };
    let (start, mut end) = (local(&from), local(&to));
    if let (Some((zone, offset)), Some((_, to_offset))) = (from.zone, to.zone) {
        let to_utc = end - chrono::Duration::seconds(i64::from(to_offset.unwrap_or(0)));
        let from_offset = offset.unwrap_or(0);
        end = match zone {
            Zone::Named(tz) => kith_core::ZonedDateTime::from_utc(to_utc, Some(tz), 0).local,
            Zone::Offset(_) => to_utc + chrono::Duration::seconds(i64::from(from_offset)),
        };
    }
    (start, end, from.time.is_some())
}

/// The end date, moved a day back (or forward) when its time of day has not yet
/// reached the start's: a whole day has not passed.
fn end_date(start: NaiveDateTime, end: NaiveDateTime, timed: bool) -> NaiveDate {
    let mut date = end.date();
    if timed {
        if date > start.date() && end.time() < start.time() {
            date = date.pred_opt().unwrap_or(date);
        } else if date < start.date() && end.time() > start.time() {
            date = date.succ_opt().unwrap_or(date);
        }
    }
    date
}

fn until_months(from: Parts, to: Parts) -> Result<i64> {
    let (from, to) = align(from, to, false);
    let (start, end, timed) = walls(from, to);
    let (s, e) = (start.date(), end_date(start, end, timed));
    let packed =
        |d: NaiveDate| (i64::from(d.year()) * 12 + i64::from(d.month0())) * 32 + i64::from(d.day());
    Ok((packed(e) - packed(s)) / 32)
}

fn until_days(from: Parts, to: Parts) -> Result<i64> {
    let (from, to) = align(from, to, false);
    let (start, end, timed) = walls(from, to);
    Ok(end_date(start, end, timed)
        .signed_duration_since(start.date())
        .num_days())
}

fn until_nanos(from: Parts, to: Parts) -> Result<i128> {
    let (from, to) = align(from, to, true);
    let utc_nanos = |p: &Parts| {
        let time = p.time.unwrap_or(NaiveTime::MIN);
        let day = p.date.map_or(0, |d| i128::from(d.num_days_from_ce()));
        let of_day = i128::from(time.num_seconds_from_midnight()) * 1_000_000_000
            + i128::from(time.nanosecond());
        let offset = p.zone.and_then(|(_, o)| o).map_or(0, i128::from) * 1_000_000_000;
        day * 86_400_000_000_000 + of_day - offset
    };
    Ok(utc_nanos(&to) - utc_nanos(&from))
}

/// `p` moved by whole months and days on its wall clock (the zone's offset then
/// follows the new date).
fn plus(p: Parts, months: i64, days: i64) -> Result<Parts> {
    let date = p.date.expect("only dated values move by months");
    let moved = if months >= 0 {
        date.checked_add_months(chrono::Months::new(
            u32::try_from(months).map_err(|_| range())?,
        ))
    } else {
        date.checked_sub_months(chrono::Months::new(
            u32::try_from(-months).map_err(|_| range())?,
        ))
    }
    .and_then(|d| d.checked_add_signed(chrono::Duration::days(days)))
    .ok_or_else(range)?;
    let zone = p.zone.map(|(zone, offset)| {
        let local = moved.and_time(p.time.unwrap_or(NaiveTime::MIN));
        (zone, Some(zone.at(local, offset).offset))
    });
    Ok(Parts {
        date: Some(moved),
        time: p.time,
        zone,
    })
}
