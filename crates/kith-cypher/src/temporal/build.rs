//! Temporal values from maps of fields (`date({year: 1984, week: 10, dayOfWeek: 3})`,
//! `datetime({date: d, time: t, timezone: 'Europe/Stockholm'})`), from the clock and
//! from epoch counts; durations from maps of units.

use std::sync::Arc;

use chrono::{Datelike, NaiveDate, NaiveDateTime, NaiveTime, Timelike};
use kith_core::temporal::NANOS_PER_SECOND;
use kith_core::{Duration, Temporal, ZonedDateTime};

use kith_core::temporal::duration::{compose, Num, Unit};
use kith_core::temporal::parse::{week_date, zone_field};
use kith_core::temporal::{Kind, Parts, Zone};

use super::invalid;
use crate::error::{CypherError, Result};
use crate::value::Val;

/// The value of `kind` now, seen in `zone`.
pub(crate) fn current(kind: Kind, zone: Zone, now: NaiveDateTime) -> Temporal {
    let z = match zone {
        Zone::Offset(o) => ZonedDateTime::from_utc(now, None, o),
        Zone::Named(tz) => ZonedDateTime::from_utc(now, Some(tz), 0),
    };
    let mut parts = Parts::of(&Temporal::DateTime(z));
    parts.zone = Some((zone, Some(z.offset)));
    parts.make(kind).expect("a datetime has every part")
}

/// The fields a constructor's map may hold.
#[derive(Default)]
struct Fields {
    year: Option<i64>,
    month: Option<i64>,
    day: Option<i64>,
    week: Option<i64>,
    day_of_week: Option<i64>,
    quarter: Option<i64>,
    day_of_quarter: Option<i64>,
    ordinal_day: Option<i64>,
    hour: Option<i64>,
    minute: Option<i64>,
    second: Option<i64>,
    milli: Option<i64>,
    micro: Option<i64>,
    nano: Option<i64>,
    epoch_seconds: Option<i64>,
    epoch_millis: Option<i64>,
    timezone: Option<Zone>,
    base: Parts,
}

impl Fields {
    fn read(kind: Kind, map: &[(Arc<str>, Val)]) -> Result<Fields> {
        let mut f = Fields::default();
        for (key, value) in map {
            if value.is_null() {
                continue;
            }
            f.set(kind, key, value)?;
        }
        Ok(f)
    }

    fn set(&mut self, kind: Kind, key: &str, value: &Val) -> Result<()> {
        let slot = match key.to_ascii_lowercase().as_str() {
            "year" => &mut self.year,
            "month" => &mut self.month,
            "day" => &mut self.day,
            "week" => &mut self.week,
            "dayofweek" => &mut self.day_of_week,
            "quarter" => &mut self.quarter,
            "dayofquarter" => &mut self.day_of_quarter,
            "ordinalday" => &mut self.ordinal_day,
            "hour" => &mut self.hour,
            "minute" => &mut self.minute,
            "second" => &mut self.second,
            "millisecond" => &mut self.milli,
            "microsecond" => &mut self.micro,
            "nanosecond" => &mut self.nano,
            "epochseconds" => &mut self.epoch_seconds,
            "epochmillis" => &mut self.epoch_millis,
            "timezone" => return self.set_zone(kind, value),
            "date" | "time" | "datetime" => return self.set_base(kind, key, value),
            _ => return Err(invalid(format!("{}() has no field `{key}`", kind.name()))),
        };
        match value {
            Val::Int(i) => *slot = Some(*i),
            other => {
                return Err(CypherError::type_error(format!(
                    "{}() field `{key}` must be an integer, got {}",
                    kind.name(),
                    other.type_name()
                )))
            }
        }
        Ok(())
    }

    fn set_zone(&mut self, kind: Kind, value: &Val) -> Result<()> {
        if !kind.has_zone() {
            return Err(invalid(format!("{}() has no time zone", kind.name())));
        }
        match value {
            Val::Str(s) => self.timezone = Some(zone_field(s)?),
            other => {
                return Err(CypherError::type_error(format!(
                    "timezone must be a string, got {}",
                    other.type_name()
                )))
            }
        }
        Ok(())
    }

    /// `date: d`, `time: t`, `datetime: dt`: the parts the result starts from.
    fn set_base(&mut self, kind: Kind, key: &str, value: &Val) -> Result<()> {
        let t = value
            .as_temporal()
            .filter(|t| !matches!(t, Temporal::Duration(_)))
            .ok_or_else(|| super::wrong_argument(kind.name(), value))?;
        let parts = Parts::of(&t);
        let missing = || {
            invalid(format!(
                "`{key}` needs a value with a {key}, got {}",
                t.type_name()
            ))
        };
        match key.to_ascii_lowercase().as_str() {
            "date" => self.base.date = Some(parts.date.ok_or_else(missing)?),
            "time" => {
                self.base.time = Some(parts.time.ok_or_else(missing)?);
                self.base.zone = parts.zone;
            }
            _ => {
                self.base.date = Some(parts.date.ok_or_else(missing)?);
                self.base.time = parts.time;
                self.base.zone = parts.zone;
            }
        }
        Ok(())
    }

    fn date(&self, base: Option<NaiveDate>) -> Result<NaiveDate> {
        let year = |week_based: bool| {
            self.year
                .or_else(|| {
                    base.map(|d| {
                        i64::from(if week_based {
                            d.iso_week().year()
                        } else {
                            d.year()
                        })
                    })
                })
                .ok_or_else(|| invalid("a date needs a year"))
                .and_then(|y| i32::try_from(y).map_err(|_| out_of_range("year", y)))
        };
        let pick = |v: Option<i64>, from_base: fn(&NaiveDate) -> u32| {
            let v = v.unwrap_or_else(|| base.as_ref().map_or(1, |d| i64::from(from_base(d))));
            u32::try_from(v).map_err(|_| out_of_range("date field", v))
        };
        let date = if self.week.is_some() || self.day_of_week.is_some() {
            let y = year(true)?;
            let w = pick(self.week, |d| d.iso_week().week())?;
            let dow = pick(self.day_of_week, |d| d.weekday().number_from_monday())?;
            week_date(y, w, dow)
        } else if self.quarter.is_some() || self.day_of_quarter.is_some() {
            let y = year(false)?;
            let q = pick(self.quarter, |d| d.month0() / 3 + 1)?;
            let doq = pick(self.day_of_quarter, day_of_quarter)?;
            quarter_date(y, q, doq)
        } else if let Some(ordinal) = self.ordinal_day {
            let ordinal =
                u32::try_from(ordinal).map_err(|_| out_of_range("ordinalDay", ordinal))?;
            NaiveDate::from_yo_opt(year(false)?, ordinal)
        } else {
            let y = year(false)?;
            NaiveDate::from_ymd_opt(
                y,
                pick(self.month, |d| d.month())?,
                pick(self.day, |d| d.day())?,
            )
        };
        date.ok_or_else(|| invalid("the date fields name no valid date"))
    }

    fn time(&self, base: Option<NaiveTime>) -> Result<NaiveTime> {
        let pick = |v: Option<i64>, from_base: fn(&NaiveTime) -> u32| {
            let v = v.unwrap_or_else(|| base.as_ref().map_or(0, |t| i64::from(from_base(t))));
            u32::try_from(v).map_err(|_| out_of_range("time field", v))
        };
        let nano = match self.sub_second()? {
            Some(n) => n,
            None => base.map_or(0, |t| t.nanosecond()),
        };
        NaiveTime::from_hms_nano_opt(
            pick(self.hour, |t| t.hour())?,
            pick(self.minute, |t| t.minute())?,
            pick(self.second, |t| t.second())?,
            nano,
        )
        .ok_or_else(|| invalid("the time fields name no valid time"))
    }

    /// The nanoseconds of the second that `millisecond`, `microsecond` and
    /// `nanosecond` give together, `None` if none is given. A finer field holds
    /// what the coarser ones given leave: microseconds below a millisecond,
    /// nanoseconds below a microsecond.
    fn sub_second(&self) -> Result<Option<u32>> {
        if self.milli.is_none() && self.micro.is_none() && self.nano.is_none() {
            return Ok(None);
        }
        let (ms, us, ns) = (
            self.milli.unwrap_or(0),
            self.micro.unwrap_or(0),
            self.nano.unwrap_or(0),
        );
        let us_limit = if self.milli.is_some() {
            1000
        } else {
            1_000_000
        };
        let ns_limit = match (self.milli, self.micro) {
            (_, Some(_)) => 1000,
            (Some(_), None) => 1_000_000,
            (None, None) => NANOS_PER_SECOND,
        };
        if !(0..1000).contains(&ms) || !(0..us_limit).contains(&us) || !(0..ns_limit).contains(&ns)
        {
            return Err(invalid("sub-second fields out of range"));
        }
        Ok(Some((ms * 1_000_000 + us * 1000 + ns) as u32))
    }

    fn has_date_fields(&self) -> bool {
        [
            self.year,
            self.month,
            self.day,
            self.week,
            self.day_of_week,
            self.quarter,
            self.day_of_quarter,
            self.ordinal_day,
        ]
        .iter()
        .any(Option::is_some)
    }

    fn has_time_fields(&self) -> bool {
        [
            self.hour,
            self.minute,
            self.second,
            self.milli,
            self.micro,
            self.nano,
        ]
        .iter()
        .any(Option::is_some)
    }
}

fn day_of_quarter(d: &NaiveDate) -> u32 {
    let first = NaiveDate::from_ymd_opt(d.year(), d.month0() / 3 * 3 + 1, 1).unwrap_or(*d);
    (d.signed_duration_since(first).num_days() + 1) as u32
}

fn quarter_date(year: i32, quarter: u32, day: u32) -> Option<NaiveDate> {
    // A quarter has at most 92 days.
    if !(1..=4).contains(&quarter) || !(1..=92).contains(&day) {
        return None;
    }
    let first = NaiveDate::from_ymd_opt(year, (quarter - 1) * 3 + 1, 1)?;
    let date = first.checked_add_days(chrono::Days::new(u64::from(day) - 1))?;
    // The day must stay inside the quarter (Q1 has 90 or 91).
    (date.month0() / 3 + 1 == quarter && date.year() == year).then_some(date)
}

fn out_of_range(what: &str, v: i64) -> CypherError {
    invalid(format!("{what} {v} is out of range"))
}

/// `kind(map)`.
pub(crate) fn build(kind: Kind, map: &[(Arc<str>, Val)], now: NaiveDateTime) -> Result<Temporal> {
    let f = Fields::read(kind, map)?;
    if f.epoch_seconds.is_some() || f.epoch_millis.is_some() {
        return epoch_fields(kind, &f);
    }
    let base = f.base;
    if base.date.is_none() && base.time.is_none() && !f.has_date_fields() && !f.has_time_fields() {
        // Only a zone (or nothing): the current value there.
        return Ok(current(kind, f.timezone.unwrap_or(Zone::UTC), now));
    }
    assemble(kind, &f, Zoning::Convert, now)
}

/// What a `timezone` field does to a value that has a zone already.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Zoning {
    /// The constructors: the same instant, seen in the new zone.
    Convert,
    /// `truncate`: the same wall clock, in the new zone.
    Replace,
}

/// `kind(map)` for `truncate`: the fields of `map` over the truncated `base`.
/// `sub_second` is the truncated value's milliseconds and microseconds when the unit
/// keeps them: a finer field then adds to them instead of replacing them.
pub(crate) fn truncated(
    kind: Kind,
    base: Parts,
    map: &[(Arc<str>, Val)],
    sub_second: Option<(i64, i64)>,
    now: NaiveDateTime,
) -> Result<Temporal> {
    let mut f = Fields::read(kind, map)?;
    if f.base.date.is_some() || f.base.time.is_some() {
        return Err(invalid(
            "truncate() takes fields, not a date or time to start from",
        ));
    }
    if let Some((ms, us)) = sub_second {
        if f.micro.is_some() || f.nano.is_some() {
            f.milli = f.milli.or(Some(ms));
            if f.nano.is_some() {
                f.micro = f.micro.or(Some(us));
            }
        }
    }
    f.base = base;
    assemble(kind, &f, Zoning::Replace, now)
}

fn assemble(kind: Kind, f: &Fields, zoning: Zoning, now: NaiveDateTime) -> Result<Temporal> {
    let base = f.base;
    let mut parts = Parts {
        date: if kind.has_date() {
            Some(f.date(base.date)?)
        } else {
            None
        },
        time: if kind.has_time() {
            Some(f.time(base.time)?)
        } else {
            None
        },
        zone: None,
    };
    if kind.has_zone() {
        let source = match (zoning, f.timezone) {
            (Zoning::Replace, Some(_)) => None,
            _ => base.zone,
        };
        parts = zoned(kind, parts, source, f.timezone, now);
    }
    parts
        .make(kind)
        .ok_or_else(|| invalid(format!("{}() needs a date", kind.name())))
}

/// The zone of a built value: the base's (the wall clock built in it), converted to
/// `timezone` when both are given, else whichever there is, else UTC.
fn zoned(
    kind: Kind,
    mut parts: Parts,
    source: Option<(Zone, Option<i32>)>,
    target: Option<Zone>,
    now: NaiveDateTime,
) -> Parts {
    match (source, target) {
        (Some((from, prefer)), Some(to)) => {
            let time = parts.time.unwrap_or(NaiveTime::MIN);
            match parts.date {
                Some(date) => {
                    let z = to.convert(&from.at(date.and_time(time), prefer));
                    parts.date = Some(z.local.date());
                    parts.time = Some(z.local.time());
                    parts.zone = Some((to, Some(z.offset)));
                }
                None => {
                    let from_offset = prefer.unwrap_or_else(|| from.offset_at(now));
                    let to_offset = to.offset_at(now);
                    let shift = i64::from(to_offset - from_offset);
                    parts.time = Some(time + chrono::Duration::seconds(shift));
                    parts.zone = Some((Zone::Offset(to_offset), Some(to_offset)));
                }
            }
        }
        (Some(z), None) => parts.zone = Some(z),
        (None, Some(to)) => {
            let offset = (kind == Kind::Time).then(|| to.offset_at(now));
            parts.zone = Some((to, offset));
        }
        (None, None) => parts.zone = Some((Zone::UTC, Some(0))),
    }
    parts
}

/// `datetime({epochSeconds: s, nanosecond: n})`, `datetime({epochMillis: ms})`.
fn epoch_fields(kind: Kind, f: &Fields) -> Result<Temporal> {
    if kind != Kind::DateTime {
        return Err(invalid(format!(
            "{}() cannot be built from an epoch count",
            kind.name()
        )));
    }
    let (secs, nanos) = match (f.epoch_seconds, f.epoch_millis) {
        (Some(s), _) => (s, i64::from(f.sub_second()?.unwrap_or(0))),
        (None, Some(ms)) => {
            // The milliseconds are in the count: only nanoseconds below them may follow.
            let below = f.nano.unwrap_or(0);
            if f.milli.is_some() || f.micro.is_some() || !(0..1_000_000).contains(&below) {
                return Err(invalid(
                    "epochMillis takes only a nanosecond below the millisecond",
                ));
            }
            (ms.div_euclid(1000), ms.rem_euclid(1000) * 1_000_000 + below)
        }
        (None, None) => unreachable!("checked by the caller"),
    };
    let z = instant(secs, nanos)?;
    Ok(Temporal::DateTime(match f.timezone {
        Some(zone) => zone.convert(&z),
        None => z,
    }))
}

/// The instant `secs` seconds and `nanos` nanoseconds after the epoch, at UTC.
fn instant(secs: i64, nanos: i64) -> Result<ZonedDateTime> {
    let secs = secs
        .checked_add(nanos.div_euclid(NANOS_PER_SECOND))
        .ok_or_else(|| invalid("epoch count out of range"))?;
    let utc = chrono::DateTime::from_timestamp(secs, nanos.rem_euclid(NANOS_PER_SECOND) as u32)
        .ok_or_else(|| invalid("epoch count out of range"))?
        .naive_utc();
    Ok(ZonedDateTime::from_utc(utc, None, 0))
}

/// `datetime.fromepoch(seconds, nanoseconds)`.
pub(crate) fn from_epoch(secs: &Val, nanos: &Val) -> Result<Val> {
    match (secs, nanos) {
        (Val::Int(s), Val::Int(n)) => Ok(Val::temporal(Temporal::DateTime(instant(*s, *n)?))),
        _ => Err(CypherError::type_error(
            "datetime.fromepoch() takes two integers",
        )),
    }
}

/// `datetime.fromepochmillis(milliseconds)`.
pub(crate) fn from_epoch_millis(ms: &Val) -> Result<Val> {
    match ms {
        Val::Int(ms) => Ok(Val::temporal(Temporal::DateTime(instant(
            ms.div_euclid(1000),
            ms.rem_euclid(1000) * 1_000_000,
        )?))),
        _ => Err(CypherError::type_error(
            "datetime.fromepochmillis() takes an integer",
        )),
    }
}

/// `duration(map)`.
pub(crate) fn duration(map: &[(Arc<str>, Val)]) -> Result<Duration> {
    let mut units = Vec::with_capacity(map.len());
    for (key, value) in map {
        let unit = match key.to_ascii_lowercase().as_str() {
            "years" => Unit::Years,
            "months" => Unit::Months,
            "weeks" => Unit::Weeks,
            "days" => Unit::Days,
            "hours" => Unit::Hours,
            "minutes" => Unit::Minutes,
            "seconds" => Unit::Seconds,
            "milliseconds" => Unit::Millis,
            "microseconds" => Unit::Micros,
            "nanoseconds" => Unit::Nanos,
            _ => return Err(invalid(format!("duration() has no unit `{key}`"))),
        };
        let n = match value {
            Val::Int(i) => Num::Int(*i),
            Val::Float(x) => Num::Float(*x),
            Val::Null => continue,
            other => {
                return Err(CypherError::type_error(format!(
                    "duration() unit `{key}` must be a number, got {}",
                    other.type_name()
                )))
            }
        };
        units.push((unit, n));
    }
    Ok(compose(&units)?)
}
