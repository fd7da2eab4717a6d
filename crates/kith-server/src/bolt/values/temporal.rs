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
    let f = Fields { tag, fields };
    Ok(match tag {
        tag::DATE => Temporal::Date(f.date()?),
        tag::TIME => {
            f.expect(2)?;
            Temporal::Time(f.time(0)?, f.offset(1)?)
        }
        tag::LOCAL_TIME => {
            f.expect(1)?;
            Temporal::LocalTime(f.time(0)?)
        }
        tag::LOCAL_DATE_TIME => {
            f.expect(2)?;
            Temporal::LocalDateTime(f.wall(0, 1)?)
        }
        tag::DURATION => {
            f.expect(4)?;
            let d = Duration::try_new(f.int(0)?, f.int(1)?, f.int(2)?, f.int(3)?);
            Temporal::Duration(d.ok_or_else(|| f.range())?)
        }
        _ => Temporal::DateTime(f.datetime()?),
    })
}

/// A structure's fields, read with errors that name the structure.
struct Fields<'a> {
    tag: u8,
    fields: &'a [Pack],
}

impl Fields<'_> {
    fn range(&self) -> String {
        format!("structure 0x{:02X} is out of range", self.tag)
    }

    fn expect(&self, n: usize) -> Result<(), String> {
        if self.fields.len() == n {
            return Ok(());
        }
        Err(format!(
            "structure 0x{:02X} has {n} fields, got {}",
            self.tag,
            self.fields.len()
        ))
    }

    fn int(&self, i: usize) -> Result<i64, String> {
        match self.fields.get(i) {
            Some(Pack::Int(v)) => Ok(*v),
            _ => Err(format!(
                "structure 0x{:02X} wants an integer field {i}",
                self.tag
            )),
        }
    }

    fn date(&self) -> Result<NaiveDate, String> {
        self.expect(1)?;
        self.int(0)?
            .checked_add(EPOCH_DAY_CE)
            .and_then(|d| i32::try_from(d).ok())
            .and_then(NaiveDate::from_num_days_from_ce_opt)
            .ok_or_else(|| self.range())
    }

    /// Nanoseconds of the day.
    fn time(&self, i: usize) -> Result<NaiveTime, String> {
        let nanos = self.int(i)?;
        (0..86_400 * NANOS_PER_SECOND)
            .contains(&nanos)
            .then(|| {
                NaiveTime::from_num_seconds_from_midnight_opt(
                    (nanos / NANOS_PER_SECOND) as u32,
                    (nanos % NANOS_PER_SECOND) as u32,
                )
            })
            .flatten()
            .ok_or_else(|| self.range())
    }

    /// Seconds and nanoseconds since the epoch, as a wall clock.
    fn wall(&self, seconds: usize, nanos: usize) -> Result<NaiveDateTime, String> {
        let (s, n) = (self.int(seconds)?, self.int(nanos)?);
        u32::try_from(n)
            .ok()
            .filter(|n| i64::from(*n) < NANOS_PER_SECOND)
            .and_then(|n| chrono::DateTime::from_timestamp(s, n))
            .map(|dt| dt.naive_utc())
            .ok_or_else(|| self.range())
    }

    /// An offset in seconds, within java.time's ±18:00.
    fn offset(&self, i: usize) -> Result<i32, String> {
        i32::try_from(self.int(i)?)
            .ok()
            .filter(|o| (-18 * 3600..=18 * 3600).contains(o))
            .ok_or_else(|| self.range())
    }

    /// DateTime `I`/`F` (an offset) or DateTimeZoneId `i`/`f` (a zone id); `I` and
    /// `i` count UTC seconds, the legacy `F` and `f` local ones.
    fn datetime(&self) -> Result<ZonedDateTime, String> {
        self.expect(3)?;
        let at = self.wall(0, 1)?;
        let utc_layout = matches!(self.tag, tag::DATE_TIME | tag::DATE_TIME_ZONE_ID);
        let z = match &self.fields[2] {
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
            Pack::Int(_) => {
                let o = self.offset(2)?;
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
                    "structure 0x{:02X} wants an offset or a zone id",
                    self.tag
                ))
            }
        };
        if !z.is_consistent() {
            return Err(self.range());
        }
        Ok(z)
    }
}
