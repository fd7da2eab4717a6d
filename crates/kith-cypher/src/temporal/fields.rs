//! `t.year`, `t.week`, `t.offset`, `d.monthsOfYear`...: the fields of temporal values.

use chrono::{Datelike, Timelike};
use kith_core::temporal::format_offset;
use kith_core::{Duration, Temporal};

use kith_core::temporal::{Parts, Zone};

use super::invalid;
use crate::error::Result;
use crate::value::Val;

/// Field `name` of `t` (names are case-insensitive, as Neo4j's are).
pub fn field(t: &Temporal, name: &str) -> Result<Val> {
    let lower = name.to_ascii_lowercase();
    let found = match t {
        Temporal::Duration(d) => duration_field(d, &lower),
        _ => instant_field(t, &lower),
    };
    found.ok_or_else(|| invalid(format!("a {} has no field `{name}`", t.type_name())))
}

fn instant_field(t: &Temporal, name: &str) -> Option<Val> {
    let parts = Parts::of(t);
    if let Some(v) = parts.date.and_then(|d| date_field(&d, name)) {
        return Some(Val::Int(v));
    }
    if let Some(v) = parts.time.and_then(|t| time_field(&t, name)) {
        return Some(Val::Int(v));
    }
    let (zone, offset) = parts.zone?;
    let offset = offset.unwrap_or(0);
    Some(match name {
        "timezone" => match zone {
            Zone::Named(tz) => Val::str(tz.name()),
            Zone::Offset(o) => Val::str(&format_offset(o)),
        },
        "offset" => Val::str(&format_offset(offset)),
        "offsetminutes" => Val::Int(i64::from(offset / 60)),
        "offsetseconds" => Val::Int(i64::from(offset)),
        "epochseconds" | "epochmillis" => {
            let Temporal::DateTime(z) = t else {
                return None;
            };
            let secs = z.epoch_seconds();
            if name == "epochseconds" {
                Val::Int(secs)
            } else {
                Val::Int(secs * 1000 + i64::from(z.local.nanosecond() / 1_000_000))
            }
        }
        _ => return None,
    })
}

fn date_field(d: &chrono::NaiveDate, name: &str) -> Option<i64> {
    Some(match name {
        "year" => i64::from(d.year()),
        "quarter" => i64::from(d.month0() / 3 + 1),
        "month" => i64::from(d.month()),
        "week" => i64::from(d.iso_week().week()),
        "weekyear" => i64::from(d.iso_week().year()),
        "day" => i64::from(d.day()),
        "ordinalday" => i64::from(d.ordinal()),
        "weekday" | "dayofweek" => i64::from(d.weekday().number_from_monday()),
        "dayofquarter" => {
            let first = chrono::NaiveDate::from_ymd_opt(d.year(), d.month0() / 3 * 3 + 1, 1)?;
            d.signed_duration_since(first).num_days() + 1
        }
        _ => return None,
    })
}

fn time_field(t: &chrono::NaiveTime, name: &str) -> Option<i64> {
    let nano = i64::from(t.nanosecond());
    Some(match name {
        "hour" => i64::from(t.hour()),
        "minute" => i64::from(t.minute()),
        "second" => i64::from(t.second()),
        "millisecond" => nano / 1_000_000,
        "microsecond" => nano / 1000,
        "nanosecond" => nano,
        _ => return None,
    })
}

fn duration_field(d: &Duration, name: &str) -> Option<Val> {
    let nanos = i64::from(d.nanos);
    let v = match name {
        "years" => d.months / 12,
        "quarters" => d.months / 3,
        "months" => d.months,
        "weeks" => d.days / 7,
        "days" => d.days,
        "hours" => d.seconds / 3600,
        "minutes" => d.seconds / 60,
        "seconds" => d.seconds,
        // Past the integers' range these wrap, as Neo4j's (Java's long) do:
        // `duration({seconds: 9223372036854775807}).nanoseconds` is -1000000000.
        "milliseconds" => d.seconds.wrapping_mul(1000).wrapping_add(nanos / 1_000_000),
        "microseconds" => d.seconds.wrapping_mul(1_000_000).wrapping_add(nanos / 1000),
        "nanoseconds" => d.seconds.wrapping_mul(1_000_000_000).wrapping_add(nanos),
        "quartersofyear" => (d.months % 12) / 3,
        "monthsofquarter" => d.months % 3,
        "monthsofyear" => d.months % 12,
        "daysofweek" => d.days % 7,
        "minutesofhour" => (d.seconds / 60) % 60,
        "secondsofminute" => d.seconds % 60,
        "millisecondsofsecond" => nanos / 1_000_000,
        "microsecondsofsecond" => nanos / 1000,
        "nanosecondsofsecond" => nanos,
        _ => return None,
    };
    Some(Val::Int(v))
}
