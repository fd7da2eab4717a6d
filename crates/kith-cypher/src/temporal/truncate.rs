//! `date.truncate(unit, t [, fields])` and the same for the other four kinds: `t`
//! cut down to the start of its `unit` (millennium ... microsecond), then the fields of
//! the map set, as a value of the function's kind.

use chrono::{Datelike, NaiveDate, NaiveTime, Timelike};
use kith_core::Temporal;

use kith_core::temporal::parse::week_date;
use kith_core::temporal::{Kind, Parts};

use super::invalid;
use crate::error::{CypherError, Result};
use crate::value::Val;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Unit {
    Microsecond,
    Millisecond,
    Second,
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Quarter,
    WeekYear,
    Year,
    Decade,
    Century,
    Millennium,
}

impl Unit {
    fn parse(name: &str) -> Option<Unit> {
        Some(match name.to_ascii_lowercase().as_str() {
            "microsecond" => Unit::Microsecond,
            "millisecond" => Unit::Millisecond,
            "second" => Unit::Second,
            "minute" => Unit::Minute,
            "hour" => Unit::Hour,
            "day" => Unit::Day,
            "week" => Unit::Week,
            "month" => Unit::Month,
            "quarter" => Unit::Quarter,
            "weekyear" => Unit::WeekYear,
            "year" => Unit::Year,
            "decade" => Unit::Decade,
            "century" => Unit::Century,
            "millennium" => Unit::Millennium,
            _ => return None,
        })
    }
}

/// `kind.truncate(unit, t [, map])`.
pub(crate) fn truncate(kind: Kind, args: &[Val], now: chrono::NaiveDateTime) -> Result<Val> {
    let fname = format!("{}.truncate", kind.name());
    let unit = match &args[0] {
        Val::Str(s) => {
            Unit::parse(s).ok_or_else(|| invalid(format!("{fname}(): unknown unit '{s}'")))?
        }
        other => {
            return Err(CypherError::type_error(format!(
                "{fname}() takes a unit name, got {}",
                other.type_name()
            )))
        }
    };
    let t = match args[1].as_temporal() {
        Some(Temporal::Duration(_)) | None => return Err(super::wrong_argument(&fname, &args[1])),
        Some(t) => t,
    };
    let empty = Vec::new();
    let map = match args.get(2) {
        None => &empty,
        Some(Val::Map(m)) => &**m,
        Some(other) => {
            return Err(CypherError::type_error(format!(
                "{fname}() takes a map of fields, got {}",
                other.type_name()
            )))
        }
    };
    let mut parts = Parts::of(&t);
    if (kind.has_date() && parts.date.is_none())
        || (!kind.has_date() && unit > Unit::Day)
        || (!kind.has_time() && unit < Unit::Day)
    {
        return Err(invalid(format!(
            "{fname}(): cannot truncate a {} to a {unit:?}",
            t.type_name()
        )));
    }
    if unit >= Unit::Day {
        if let Some(date) = parts.date {
            parts.date = Some(
                truncate_date(date, unit)
                    .ok_or_else(|| invalid(format!("{fname}(): out of range")))?,
            );
        }
        parts.time = Some(NaiveTime::MIN);
    } else {
        parts.time = parts.time.map(|time| truncate_time(time, unit));
    }
    let sub_second = match (unit, parts.time) {
        (Unit::Millisecond | Unit::Microsecond, Some(time)) => {
            let n = i64::from(time.nanosecond());
            Some((n / 1_000_000, n / 1000 % 1000))
        }
        _ => None,
    };
    let built = super::build::truncated(kind, parts, map, sub_second, now)?;
    Ok(Val::temporal(built))
}

fn truncate_date(d: NaiveDate, unit: Unit) -> Option<NaiveDate> {
    let year_start = |y: i32| NaiveDate::from_ymd_opt(y, 1, 1);
    match unit {
        Unit::Millennium => year_start(d.year() / 1000 * 1000),
        Unit::Century => year_start(d.year() / 100 * 100),
        Unit::Decade => year_start(d.year() / 10 * 10),
        Unit::Year => year_start(d.year()),
        Unit::WeekYear => week_date(d.iso_week().year(), 1, 1),
        Unit::Quarter => NaiveDate::from_ymd_opt(d.year(), d.month0() / 3 * 3 + 1, 1),
        Unit::Month => NaiveDate::from_ymd_opt(d.year(), d.month(), 1),
        Unit::Week => d.checked_sub_signed(chrono::Duration::days(i64::from(
            d.weekday().num_days_from_monday(),
        ))),
        _ => Some(d),
    }
}

fn truncate_time(t: NaiveTime, unit: Unit) -> NaiveTime {
    let nano = t.nanosecond();
    let (h, m, s) = (t.hour(), t.minute(), t.second());
    let cut = match unit {
        Unit::Hour => NaiveTime::from_hms_opt(h, 0, 0),
        Unit::Minute => NaiveTime::from_hms_opt(h, m, 0),
        Unit::Second => NaiveTime::from_hms_opt(h, m, s),
        Unit::Millisecond => NaiveTime::from_hms_nano_opt(h, m, s, nano / 1_000_000 * 1_000_000),
        Unit::Microsecond => NaiveTime::from_hms_nano_opt(h, m, s, nano / 1000 * 1000),
        _ => Some(t),
    };
    cut.unwrap_or(t)
}
