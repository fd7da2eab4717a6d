//! Temporal values as Bolt's structures: Date, Time, LocalTime, LocalDateTime,
//! DateTime (offset or zone id; seconds in UTC from 5.0, or 4.4 with the `utc` patch,
//! else in local time) and Duration.

use chrono::{Datelike, NaiveDate, NaiveDateTime, NaiveTime, Timelike};
use kith_core::temporal::NANOS_PER_SECOND;
use kith_core::{Duration, Temporal, Tz, ZonedDateTime};
use kith_protocol::bolt::{Pack, Packer};

use super::{tag, Dialect};

/// Days from 0001-01-01 to 1970-01-01 (chrono counts days from the common era).
const EPOCH_DAY_CE: i64 = 719_163;

fn epoch_day(d: &NaiveDate) -> i64 {
    i64::from(d.num_days_from_ce()) - EPOCH_DAY_CE
}

fn nano_of_day(t: &NaiveTime) -> i64 {
    i64::from(t.num_seconds_from_midnight()) * NANOS_PER_SECOND + i64::from(t.nanosecond())
}

fn epoch_seconds(dt: &NaiveDateTime) -> i64 {
    dt.and_utc().timestamp()
}

/// Writes `t`.
pub(super) fn pack(p: &mut Packer<'_>, t: &Temporal, d: Dialect) {
    match t {
        Temporal::Date(date) => {
            p.struct_header(tag::DATE, 1);
            p.int(epoch_day(date));
        }
        Temporal::Time(time, offset) => {
            p.struct_header(tag::TIME, 2);
            p.int(nano_of_day(time));
            p.int(i64::from(*offset));
        }
        Temporal::LocalTime(time) => {
            p.struct_header(tag::LOCAL_TIME, 1);
            p.int(nano_of_day(time));
        }
        Temporal::LocalDateTime(dt) => {
            p.struct_header(tag::LOCAL_DATE_TIME, 2);
            p.int(epoch_seconds(dt));
            p.int(i64::from(dt.nanosecond()));
        }
        Temporal::DateTime(z) => pack_datetime(p, z, d),
        Temporal::Duration(dur) => {
            p.struct_header(tag::DURATION, 4);
            for v in [dur.months, dur.days, dur.seconds, i64::from(dur.nanos)] {
                p.int(v);
            }
        }
    }
}

fn pack_datetime(p: &mut Packer<'_>, z: &ZonedDateTime, d: Dialect) {
    let seconds = if d.utc {
        z.epoch_seconds()
    } else {
        epoch_seconds(&z.local)
    };
    let named = match (z.zone, d.utc) {
        (Some(_), true) => Some(tag::DATE_TIME_ZONE_ID),
        (Some(_), false) => Some(tag::LEGACY_DATE_TIME_ZONE_ID),
        (None, _) => None,
    };
    let tag = named.unwrap_or(if d.utc {
        tag::DATE_TIME
    } else {
        tag::LEGACY_DATE_TIME
    });
    p.struct_header(tag, 3);
    p.int(seconds);
    p.int(i64::from(z.local.nanosecond()));
    match z.zone {
        Some(zone) => p.string(zone.name()),
        None => p.int(i64::from(z.offset)),
    }
}

/// A temporal structure's value; the message names what is wrong.
pub(super) fn unpack(tag: u8, fields: &[Pack]) -> Result<Temporal, String> {
    let int = |i: usize| match fields.get(i) {
        Some(Pack::Int(v)) => Ok(*v),
        _ => Err(format!("structure 0x{tag:02X} wants an integer field {i}")),
    };
    let range = || format!("structure 0x{tag:02X} is out of range");
    let time = |nanos: i64| {
        (0..86_400 * NANOS_PER_SECOND)
            .contains(&nanos)
            .then(|| {
                NaiveTime::from_num_seconds_from_midnight_opt(
                    (nanos / NANOS_PER_SECOND) as u32,
                    (nanos % NANOS_PER_SECOND) as u32,
                )
            })
            .flatten()
            .ok_or_else(range)
    };
    let local = |seconds: i64, nanos: i64| {
        u32::try_from(nanos)
            .ok()
            .filter(|n| i64::from(*n) < NANOS_PER_SECOND)
            .and_then(|n| chrono::DateTime::from_timestamp(seconds, n))
            .map(|dt| dt.naive_utc())
            .ok_or_else(range)
    };
    let offset = |o: i64| {
        i32::try_from(o)
            .ok()
            .filter(|o| o.abs() <= 18 * 3600)
            .ok_or_else(range)
    };
    let expect = |n: usize| {
        if fields.len() == n {
            Ok(())
        } else {
            Err(format!(
                "structure 0x{tag:02X} has {n} fields, got {}",
                fields.len()
            ))
        }
    };
    Ok(match tag {
        tag::DATE => {
            expect(1)?;
            let days = int(0)?.checked_add(EPOCH_DAY_CE).ok_or_else(range)?;
            let date = i32::try_from(days)
                .ok()
                .and_then(NaiveDate::from_num_days_from_ce_opt)
                .ok_or_else(range)?;
            Temporal::Date(date)
        }
        tag::TIME => {
            expect(2)?;
            Temporal::Time(time(int(0)?)?, offset(int(1)?)?)
        }
        tag::LOCAL_TIME => {
            expect(1)?;
            Temporal::LocalTime(time(int(0)?)?)
        }
        tag::LOCAL_DATE_TIME => {
            expect(2)?;
            Temporal::LocalDateTime(local(int(0)?, int(1)?)?)
        }
        tag::DURATION => {
            expect(4)?;
            let (months, days, seconds, nanos) = (int(0)?, int(1)?, int(2)?, int(3)?);
            Temporal::Duration(Duration::new(months, days, seconds, nanos))
        }
        _ => {
            expect(3)?;
            let at = local(int(0)?, int(1)?)?;
            let utc_layout = matches!(tag, tag::DATE_TIME | tag::DATE_TIME_ZONE_ID);
            let z = match &fields[2] {
                Pack::String(name) => {
                    let zone: Tz = name
                        .parse()
                        .map_err(|_| format!("unknown time zone {name:?}"))?;
                    if utc_layout {
                        ZonedDateTime::from_utc(at, Some(zone), 0)
                    } else {
                        ZonedDateTime::in_zone(at, zone, None)
                    }
                }
                Pack::Int(o) => {
                    let o = offset(*o)?;
                    if utc_layout {
                        ZonedDateTime::from_utc(at, None, o)
                    } else {
                        ZonedDateTime {
                            local: at,
                            offset: o,
                            zone: None,
                        }
                    }
                }
                _ => {
                    return Err(format!(
                        "structure 0x{tag:02X} wants an offset or a zone id"
                    ))
                }
            };
            Temporal::DateTime(z)
        }
    })
}
