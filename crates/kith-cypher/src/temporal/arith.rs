//! `+`, `-`, `*`, `/` with durations: an instant plus or minus a duration, durations
//! added and subtracted, a duration scaled by a number.
//!
//! An instant moves by the duration's months, then its days, then its seconds and
//! nanoseconds, each in the units the instant has (java.time's `Duration.addTo`): a
//! date moves by whole days of the seconds, a time of day wraps around midnight and
//! ignores months and days, a datetime moves months and days on its wall clock and
//! seconds on the timeline.

use chrono::{Months, NaiveDate, NaiveDateTime, NaiveTime};
use kith_core::temporal::SECONDS_PER_DAY;
use kith_core::{Duration, Temporal, ZonedDateTime};

use kith_core::temporal::duration::approximate;
use kith_core::temporal::Zone;

use super::invalid;
use crate::error::{CypherError, Result};
use crate::value::Val;

/// `a + b`, if either side is a duration; `None` to leave the operator to others.
pub fn add(a: &Val, b: &Val) -> Option<Result<Val>> {
    match (a.as_temporal()?, b.as_temporal()?) {
        (Temporal::Duration(x), Temporal::Duration(y)) => Some(combine(&x, &y, 1)),
        (t, Temporal::Duration(d)) | (Temporal::Duration(d), t) => Some(shift(&t, &d, 1)),
        _ => None,
    }
}

/// `a - b`, if `b` is a duration.
pub fn subtract(a: &Val, b: &Val) -> Option<Result<Val>> {
    match (a.as_temporal()?, b.as_temporal()?) {
        (Temporal::Duration(x), Temporal::Duration(y)) => Some(combine(&x, &y, -1)),
        (t, Temporal::Duration(d)) => Some(shift(&t, &d, -1)),
        _ => None,
    }
}

/// `d * n` or `n * d`.
pub fn multiply(a: &Val, b: &Val) -> Option<Result<Val>> {
    let (d, n) = match (a, b) {
        (Val::Temporal(t), n) | (n, Val::Temporal(t)) => match (**t, n) {
            (Temporal::Duration(d), Val::Int(_) | Val::Float(_)) => (d, n),
            _ => return None,
        },
        _ => return None,
    };
    Some(
        match n {
            Val::Int(k) => scale_exact(&d, *k),
            Val::Float(f) => approximate(
                d.months as f64 * f,
                d.days as f64 * f,
                d.seconds as f64 * f,
                f64::from(d.nanos) * f,
            )
            .map_err(CypherError::from),
            _ => unreachable!("matched above"),
        }
        .map(super::duration_val),
    )
}

/// `d / n`.
pub fn divide(a: &Val, b: &Val) -> Option<Result<Val>> {
    let Val::Temporal(t) = a else { return None };
    let Temporal::Duration(d) = **t else {
        return None;
    };
    let n = match b {
        Val::Int(k) => *k as f64,
        Val::Float(f) => *f,
        _ => return None,
    };
    if n == 0.0 {
        return Some(Err(CypherError::new(
            crate::error::ErrorCode::ArithmeticError,
            "/ by zero",
        )));
    }
    Some(
        approximate(
            d.months as f64 / n,
            d.days as f64 / n,
            d.seconds as f64 / n,
            f64::from(d.nanos) / n,
        )
        .map(super::duration_val)
        .map_err(CypherError::from),
    )
}

/// `-d`; `None` if `a` is not a duration.
pub fn negate(a: &Val) -> Option<Result<Val>> {
    match a {
        Val::Temporal(t) => match **t {
            Temporal::Duration(d) => {
                Some(d.negated().map(super::duration_val).ok_or_else(overflow))
            }
            _ => None,
        },
        _ => None,
    }
}

fn overflow() -> CypherError {
    invalid("temporal arithmetic out of range")
}

fn scale_exact(d: &Duration, k: i64) -> Result<Duration> {
    let m = |x: i64| x.checked_mul(k).ok_or_else(overflow);
    Ok(Duration::new(
        m(d.months)?,
        m(d.days)?,
        m(d.seconds)?,
        m(i64::from(d.nanos))?,
    ))
}

fn combine(x: &Duration, y: &Duration, sign: i64) -> Result<Val> {
    let f = |a: i64, b: i64| {
        signed(b, sign)
            .and_then(|b| a.checked_add(b))
            .ok_or_else(overflow)
    };
    Ok(super::duration_val(Duration::new(
        f(x.months, y.months)?,
        f(x.days, y.days)?,
        f(x.seconds, y.seconds)?,
        i64::from(x.nanos) + sign * i64::from(y.nanos),
    )))
}

/// `t` moved by `sign` times `d`.
fn shift(t: &Temporal, d: &Duration, sign: i64) -> Result<Val> {
    let moved = match *t {
        Temporal::Date(date) => Temporal::Date(move_date(date, d, sign, true)?),
        Temporal::LocalTime(time) => Temporal::LocalTime(move_time(time, d, sign)?),
        Temporal::Time(time, offset) => Temporal::Time(move_time(time, d, sign)?, offset),
        Temporal::LocalDateTime(dt) => Temporal::LocalDateTime(move_local(dt, d, sign)?),
        Temporal::DateTime(z) => Temporal::DateTime(move_zoned(&z, d, sign)?),
        Temporal::Duration(_) => unreachable!("durations combine instead"),
    };
    Ok(Val::temporal(moved))
}

/// Months, then days (and, for a plain date, the whole days among the seconds).
fn move_date(date: NaiveDate, d: &Duration, sign: i64, whole_days: bool) -> Result<NaiveDate> {
    let months = signed(d.months, sign).ok_or_else(overflow)?;
    let date = if months >= 0 {
        date.checked_add_months(Months::new(u32::try_from(months).map_err(|_| overflow())?))
    } else {
        date.checked_sub_months(Months::new(u32::try_from(-months).map_err(|_| overflow())?))
    }
    .ok_or_else(overflow)?;
    let mut days = signed(d.days, sign).ok_or_else(overflow)?;
    if whole_days {
        days = days
            .checked_add(sign * (d.seconds / SECONDS_PER_DAY))
            .ok_or_else(overflow)?;
    }
    chrono::Duration::try_days(days)
        .and_then(|days| date.checked_add_signed(days))
        .ok_or_else(overflow)
}

/// The seconds and nanoseconds of `d`, times `sign`.
fn nanos_of(d: &Duration, sign: i64) -> Result<chrono::Duration> {
    let nanos = chrono::Duration::nanoseconds(sign * i64::from(d.nanos));
    signed(d.seconds, sign)
        .and_then(chrono::Duration::try_seconds)
        .and_then(|s| s.checked_add(&nanos))
        .ok_or_else(overflow)
}

/// `x` times `sign` (±1), `None` for the one value that has no negation.
fn signed(x: i64, sign: i64) -> Option<i64> {
    x.checked_mul(sign)
}

fn move_time(time: NaiveTime, d: &Duration, sign: i64) -> Result<NaiveTime> {
    // Only the time of day matters: whole days drop out first.
    let within_day = Duration::new(0, 0, d.seconds % SECONDS_PER_DAY, i64::from(d.nanos));
    Ok(time.overflowing_add_signed(nanos_of(&within_day, sign)?).0)
}

fn move_local(dt: NaiveDateTime, d: &Duration, sign: i64) -> Result<NaiveDateTime> {
    let date = move_date(dt.date(), d, sign, false)?;
    date.and_time(dt.time())
        .checked_add_signed(nanos_of(d, sign)?)
        .ok_or_else(overflow)
}

fn move_zoned(z: &ZonedDateTime, d: &Duration, sign: i64) -> Result<ZonedDateTime> {
    let date = move_date(z.local.date(), d, sign, false)?;
    let wall = Zone::of(z).at(date.and_time(z.local.time()), Some(z.offset));
    let utc = wall
        .utc()
        .checked_add_signed(nanos_of(d, sign)?)
        .ok_or_else(overflow)?;
    Ok(ZonedDateTime::from_utc(utc, z.zone, z.offset))
}
