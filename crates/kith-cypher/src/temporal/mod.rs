//! Cypher's temporal functions: `date`, `localtime`, `time`, `localdatetime`,
//! `datetime` and `duration` (from strings, maps, other temporals and the clock), their
//! `truncate`, `duration.between` and its unit forms, field access and arithmetic.
//!
//! The values are `kith_core::Temporal`; the semantics are Neo4j 5's (java.time's), as
//! the openCypher TCK states them. The default time zone is UTC.

mod arith;
mod between;
mod build;
mod fields;
mod truncate;

use chrono::NaiveDateTime;
use kith_core::temporal::{parse, Kind, Parts, Zone};
use kith_core::{Duration, Temporal};

use crate::error::{CypherError, ErrorCode, Result};
use crate::functions::Function;
use crate::value::Val;

pub use arith::{add, divide, multiply, negate, subtract};
pub use fields::field;
pub use kith_core::temporal::realtime;

/// Where a constructor's value comes from when it is not given one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// The statement's (and, kith running each statement as its own snapshot, the
    /// transaction's) fixed instant.
    Statement,
    /// The clock at the call.
    Realtime,
}

/// Calls a temporal function; `now` is the statement's instant (UTC).
pub fn call(f: Function, args: &[Val], now: &dyn Fn() -> NaiveDateTime) -> Result<Val> {
    use Function as F;
    let arg = args.first();
    if args.iter().any(Val::is_null) {
        return Ok(Val::Null);
    }
    if f == F::Timestamp {
        // The statement's clock in epoch milliseconds: one instant for the statement.
        return Ok(Val::Int(now().and_utc().timestamp_millis()));
    }
    let clock = match f {
        F::DateRealtime
        | F::LocalTimeRealtime
        | F::TimeRealtime
        | F::LocalDateTimeRealtime
        | F::DateTimeRealtime => Clock::Realtime,
        _ => Clock::Statement,
    };
    let kind = match f {
        F::Date | F::DateStatement | F::DateTransaction | F::DateRealtime => Kind::Date,
        F::LocalTime | F::LocalTimeStatement | F::LocalTimeTransaction | F::LocalTimeRealtime => {
            Kind::LocalTime
        }
        F::Time | F::TimeStatement | F::TimeTransaction | F::TimeRealtime => Kind::Time,
        F::LocalDateTime
        | F::LocalDateTimeStatement
        | F::LocalDateTimeTransaction
        | F::LocalDateTimeRealtime => Kind::LocalDateTime,
        F::DateTime | F::DateTimeStatement | F::DateTimeTransaction | F::DateTimeRealtime => {
            Kind::DateTime
        }
        F::DateTruncate => return truncate::truncate(Kind::Date, args, now()),
        F::LocalTimeTruncate => return truncate::truncate(Kind::LocalTime, args, now()),
        F::TimeTruncate => return truncate::truncate(Kind::Time, args, now()),
        F::LocalDateTimeTruncate => return truncate::truncate(Kind::LocalDateTime, args, now()),
        F::DateTimeTruncate => return truncate::truncate(Kind::DateTime, args, now()),
        F::DateTimeFromEpoch => return build::from_epoch(&args[0], &args[1]),
        F::DateTimeFromEpochMillis => return build::from_epoch_millis(&args[0]),
        F::Duration => return duration(&args[0]),
        F::DurationBetween => return between::between(None, &args[0], &args[1]),
        F::DurationInMonths => {
            return between::between(Some(between::Unit::Months), &args[0], &args[1])
        }
        F::DurationInDays => {
            return between::between(Some(between::Unit::Days), &args[0], &args[1])
        }
        F::DurationInSeconds => {
            return between::between(Some(between::Unit::Seconds), &args[0], &args[1])
        }
        other => {
            return Err(CypherError::new(
                ErrorCode::ExecutionFailed,
                format!("{} is not a temporal function", other.name()),
            ))
        }
    };
    let now = match clock {
        Clock::Statement => now(),
        Clock::Realtime => realtime(),
    };
    construct(kind, arg, now)
}

/// `kind(arg)`: the current value, a parsed string, a map of fields, or another
/// temporal's parts.
fn construct(kind: Kind, arg: Option<&Val>, now: NaiveDateTime) -> Result<Val> {
    let t = match arg {
        None => build::current(kind, Zone::UTC, now),
        Some(Val::Str(s)) => parse::parse(kind, s)?,
        Some(Val::Map(m)) => build::build(kind, m, now)?,
        Some(v) => match v.as_temporal() {
            Some(Temporal::Duration(_)) | None => return Err(wrong_argument(kind.name(), v)),
            Some(t) => select(kind, &t).ok_or_else(|| wrong_argument(kind.name(), v))?,
        },
    };
    Ok(Val::temporal(t))
}

/// `duration(arg)`: from a string or a map of units.
fn duration(arg: &Val) -> Result<Val> {
    let d = match arg {
        Val::Str(s) => parse::duration(s)?,
        Val::Map(m) => build::duration(m)?,
        Val::Temporal(t) if matches!(**t, Temporal::Duration(_)) => return Ok(arg.clone()),
        other => return Err(wrong_argument("duration", other)),
    };
    Ok(Val::temporal(Temporal::Duration(d)))
}

pub(crate) fn wrong_argument(function: &str, got: &Val) -> CypherError {
    CypherError::type_error(format!(
        "{function}() expects a string, a map or a temporal value, got {}",
        got.type_name()
    ))
}

pub(crate) fn invalid(message: impl Into<String>) -> CypherError {
    CypherError::new(ErrorCode::ArgumentError, message)
}

/// `kind(other)`: the parts of `other` the kind has (a time gets UTC if `other` has
/// no zone); `None` if `other` lacks a date the kind needs.
pub(crate) fn select(kind: Kind, other: &Temporal) -> Option<Temporal> {
    let parts = Parts::of(other);
    if kind.has_date() && parts.date.is_none() {
        return None;
    }
    if !kind.has_time() && !kind.has_date() {
        return None;
    }
    parts.make(kind)
}

/// A duration as a value.
pub(crate) fn duration_val(d: Duration) -> Val {
    Val::temporal(Temporal::Duration(d))
}
