//! Temporal values in the graph file and the log: a kind byte, then fixed fields.
//!
//! Days count from 0001-01-01 (chrono's day-of-common-era) and times as nanoseconds of
//! the day, so decoding is exact; a named zone is stored by its IANA name, because the
//! zone database's numbering may change between builds while names do not.

use chrono::{NaiveDate, NaiveDateTime, NaiveTime, Timelike};
use kith_core::{Duration, Temporal, Tz, ZonedDateTime};

use crate::error::StorageError;
use crate::graph_file::{put_string, Reader};

const DATE: u8 = 0;
const LOCAL_TIME: u8 = 1;
const TIME: u8 = 2;
const LOCAL_DATE_TIME: u8 = 3;
const DATE_TIME: u8 = 4;
const DURATION: u8 = 5;

/// Appends `t`.
pub(crate) fn put(out: &mut Vec<u8>, t: &Temporal) {
    let int = |out: &mut Vec<u8>, v: i64| out.extend_from_slice(&v.to_le_bytes());
    match t {
        Temporal::Date(d) => {
            out.push(DATE);
            int(out, days(d));
        }
        Temporal::LocalTime(t) => {
            out.push(LOCAL_TIME);
            int(out, nanos(t));
        }
        Temporal::Time(t, offset) => {
            out.push(TIME);
            int(out, nanos(t));
            int(out, i64::from(*offset));
        }
        Temporal::LocalDateTime(dt) => {
            out.push(LOCAL_DATE_TIME);
            int(out, days(&dt.date()));
            int(out, nanos(&dt.time()));
        }
        Temporal::DateTime(z) => {
            out.push(DATE_TIME);
            int(out, days(&z.local.date()));
            int(out, nanos(&z.local.time()));
            int(out, i64::from(z.offset));
            put_string(out, z.zone.map_or("", |z| z.name()));
        }
        Temporal::Duration(d) => {
            out.push(DURATION);
            for v in [d.months, d.days, d.seconds, i64::from(d.nanos)] {
                int(out, v);
            }
        }
    }
}

/// Reads a value written by [`put`].
pub(crate) fn read(r: &mut Reader<'_>) -> Result<Temporal, StorageError> {
    let kind = r.u8()?;
    Ok(match kind {
        DATE => Temporal::Date(date(r)?),
        LOCAL_TIME => Temporal::LocalTime(time(r)?),
        TIME => Temporal::Time(time(r)?, offset(r)?),
        LOCAL_DATE_TIME => Temporal::LocalDateTime(NaiveDateTime::new(date(r)?, time(r)?)),
        DATE_TIME => {
            let local = NaiveDateTime::new(date(r)?, time(r)?);
            let offset = offset(r)?;
            let zone = match r.string()? {
                "" => None,
                name => Some(
                    name.parse::<Tz>()
                        .map_err(|_| r.corrupt(format!("unknown time zone {name:?}")))?,
                ),
            };
            let z = ZonedDateTime {
                local,
                offset,
                zone,
            };
            if !z.is_consistent() {
                return Err(r.corrupt(format!(
                    "datetime {local} at {offset} s is not one its zone shows"
                )));
            }
            Temporal::DateTime(z)
        }
        DURATION => {
            let (months, days, seconds, nanos) = (r.i64()?, r.i64()?, r.i64()?, r.i64()?);
            if !(0..kith_core::temporal::NANOS_PER_SECOND).contains(&nanos) {
                return Err(r.corrupt(format!("duration nanoseconds {nanos} out of range")));
            }
            Temporal::Duration(Duration::new(months, days, seconds, nanos))
        }
        other => return Err(r.corrupt(format!("unknown temporal kind {other}"))),
    })
}

fn days(d: &NaiveDate) -> i64 {
    i64::from(chrono::Datelike::num_days_from_ce(d))
}

fn nanos(t: &NaiveTime) -> i64 {
    i64::from(t.num_seconds_from_midnight()) * 1_000_000_000 + i64::from(t.nanosecond())
}

fn date(r: &mut Reader<'_>) -> Result<NaiveDate, StorageError> {
    let n = r.i64()?;
    i32::try_from(n)
        .ok()
        .and_then(NaiveDate::from_num_days_from_ce_opt)
        .ok_or_else(|| r.corrupt(format!("day number {n} out of range")))
}

fn time(r: &mut Reader<'_>) -> Result<NaiveTime, StorageError> {
    let n = r.i64()?;
    let ok = (0..86_400 * 1_000_000_000).contains(&n);
    ok.then(|| {
        NaiveTime::from_num_seconds_from_midnight_opt(
            (n / 1_000_000_000) as u32,
            (n % 1_000_000_000) as u32,
        )
    })
    .flatten()
    .ok_or_else(|| r.corrupt(format!("time of day {n} ns out of range")))
}

fn offset(r: &mut Reader<'_>) -> Result<i32, StorageError> {
    let n = r.i64()?;
    // java.time's bound, which Cypher shares: offsets within +-18:00.
    // A range, not `abs()`: i32::MIN has no absolute value (found by the fuzz target
    // `wal_record`).
    i32::try_from(n)
        .ok()
        .filter(|o| (-18 * 3600..=18 * 3600).contains(o))
        .ok_or_else(|| r.corrupt(format!("UTC offset {n} s out of range")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8]) -> Result<Temporal, StorageError> {
        let mut r = Reader {
            bytes,
            pos: 0,
            path: std::path::Path::new("test"),
        };
        read(&mut r)
    }

    #[test]
    fn values_no_zone_shows_are_refused_as_corruption() {
        let local = NaiveDate::from_ymd_opt(1984, 7, 20)
            .and_then(|d| d.and_hms_opt(12, 0, 0))
            .expect("a datetime");
        let tz: Tz = "Europe/Stockholm".parse().expect("a zone");
        let good = ZonedDateTime::in_zone(local, tz, None);
        let mut bytes = Vec::new();
        put(&mut bytes, &Temporal::DateTime(good));
        assert_eq!(decode(&bytes).expect("decodes"), Temporal::DateTime(good));
        // Stockholm is at +02:00 in July, never +05:00.
        let wrong = ZonedDateTime {
            offset: 5 * 3600,
            ..good
        };
        let mut bytes = Vec::new();
        put(&mut bytes, &Temporal::DateTime(wrong));
        let err = decode(&bytes).expect_err("inconsistent");
        assert!(err.to_string().contains("not one its zone shows"), "{err}");
        // A zone this build does not know, an offset beyond 18 hours, a bad kind.
        let mut bytes = Vec::new();
        put(&mut bytes, &Temporal::DateTime(good));
        let name_at = bytes.len() - "Europe/Stockholm".len();
        bytes[name_at..].copy_from_slice(b"Europe/Stockholn");
        assert!(decode(&bytes).is_err());
        let mut bytes = Vec::new();
        put(&mut bytes, &Temporal::Time(local.time(), 0));
        bytes[9..17].copy_from_slice(&(19 * 3600i64).to_le_bytes());
        assert!(decode(&bytes).is_err());
        assert!(decode(&[9]).is_err());
    }

    /// Regression: fuzz target `wal_record`, fuzz/regressions/wal_record/offset-i32-min.
    #[test]
    fn an_offset_of_i32_min_is_corrupt_not_a_panic() {
        let local = NaiveDate::from_ymd_opt(1984, 7, 20)
            .and_then(|d| d.and_hms_opt(12, 0, 0))
            .expect("a datetime");
        let mut bytes = Vec::new();
        put(&mut bytes, &Temporal::Time(local.time(), 0));
        let at = bytes.len() - 8;
        bytes[at..].copy_from_slice(&i64::from(i32::MIN).to_le_bytes());
        let err = decode(&bytes).expect_err("out of range");
        assert!(err.to_string().contains("out of range"), "{err}");
    }
}
