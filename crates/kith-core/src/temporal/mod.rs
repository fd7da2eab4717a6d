//! Temporal values as Cypher defines them: Neo4j 5's five instant types and duration.
//!
//! The store, the wire codecs and the Cypher engine share these types; the Cypher
//! functions that build, parse and compute with them live in `kith-cypher`. Text forms
//! are Neo4j's (`toString`), so a value reads the same over every transport.

use std::cmp::Ordering;
use std::fmt::{self, Write as _};

use chrono::{Datelike, NaiveDate, NaiveDateTime, NaiveTime, Offset, TimeZone, Timelike};
pub use chrono_tz::Tz;

pub mod duration;
pub mod parse;
mod parts;

pub use parse::ParseError;
pub use parts::{realtime, Kind, Parts, Zone};

/// Nanoseconds in a second.
pub const NANOS_PER_SECOND: i64 = 1_000_000_000;
/// Seconds in a day (durations count days apart from seconds, as Neo4j does).
pub const SECONDS_PER_DAY: i64 = 86_400;

/// A date, a time or an instant, or a duration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Temporal {
    /// `date`: a calendar day.
    Date(NaiveDate),
    /// `localtime`: a time of day without a zone.
    LocalTime(NaiveTime),
    /// `time`: a time of day at a UTC offset (seconds east of UTC).
    Time(NaiveTime, i32),
    /// `localdatetime`: a day and a time without a zone.
    LocalDateTime(NaiveDateTime),
    /// `datetime`: an instant, with the offset and (if named) the zone it is seen in.
    DateTime(ZonedDateTime),
    /// `duration`: months, days and seconds, kept apart because their lengths vary.
    Duration(Duration),
}

/// A datetime: the local date and time, its UTC offset, and the named zone if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ZonedDateTime {
    /// The wall-clock date and time.
    pub local: NaiveDateTime,
    /// Seconds east of UTC at that instant.
    pub offset: i32,
    /// The IANA zone, when the value was made in one (`[Europe/Stockholm]`).
    pub zone: Option<Tz>,
}

/// A duration. `nanos` is always in `0..1_000_000_000` (a negative fraction borrows a
/// second), so two durations are equal exactly when their fields are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Duration {
    /// Months (years count twelve).
    pub months: i64,
    /// Days (weeks count seven).
    pub days: i64,
    /// Seconds (hours and minutes included).
    pub seconds: i64,
    /// Nanoseconds of the second.
    pub nanos: i32,
}

impl Duration {
    /// A duration from any split of its parts; the nanoseconds carry into the seconds.
    pub fn new(months: i64, days: i64, seconds: i64, nanos: i64) -> Duration {
        Duration {
            months,
            days,
            seconds: seconds.saturating_add(nanos.div_euclid(NANOS_PER_SECOND)),
            nanos: nanos.rem_euclid(NANOS_PER_SECOND) as i32,
        }
    }

    /// [`Duration::new`], `None` where carrying the nanoseconds overflows the seconds.
    pub fn try_new(months: i64, days: i64, seconds: i64, nanos: i64) -> Option<Duration> {
        seconds.checked_add(nanos.div_euclid(NANOS_PER_SECOND))?;
        Some(Duration::new(months, days, seconds, nanos))
    }

    /// The duration the other way.
    pub fn negated(&self) -> Option<Duration> {
        Some(Duration::new(
            self.months.checked_neg()?,
            self.days.checked_neg()?,
            self.seconds.checked_neg()?,
            -i64::from(self.nanos),
        ))
    }

    /// Neo4j's order of durations: by average length (a month is 2,629,746 s, a day
    /// 86,400 s), then by months, days and seconds, so unequal durations never tie.
    pub fn order(&self, other: &Duration) -> Ordering {
        let length = |d: &Duration| {
            i128::from(d.months) * 2_629_746 * i128::from(NANOS_PER_SECOND)
                + i128::from(d.days) * i128::from(SECONDS_PER_DAY * NANOS_PER_SECOND)
                + d.total_nanos()
        };
        length(self)
            .cmp(&length(other))
            .then(self.months.cmp(&other.months))
            .then(self.days.cmp(&other.days))
            .then(self.total_nanos().cmp(&other.total_nanos()))
    }

    /// The seconds and nanoseconds as one count of nanoseconds.
    pub fn total_nanos(&self) -> i128 {
        i128::from(self.seconds) * i128::from(NANOS_PER_SECOND) + i128::from(self.nanos)
    }
}

impl ZonedDateTime {
    /// The value at `local` wall-clock time in `zone`. An ambiguous time (clocks turned
    /// back) takes `prefer` if that is one of its offsets, else the earlier one; a time
    /// in a gap (clocks turned forward) moves later by the gap, as java.time does.
    pub fn in_zone(local: NaiveDateTime, zone: Tz, prefer: Option<i32>) -> ZonedDateTime {
        use chrono::LocalResult;
        let offset = match zone.offset_from_local_datetime(&local) {
            LocalResult::Single(o) => o.fix().local_minus_utc(),
            LocalResult::Ambiguous(a, b) => {
                let (a, b) = (a.fix().local_minus_utc(), b.fix().local_minus_utc());
                match prefer {
                    Some(p) if p == b => b,
                    _ => a,
                }
            }
            LocalResult::None => {
                let before = zone
                    .offset_from_local_datetime(&shifted(local, -6 * 3600))
                    .earliest()
                    .map_or(0, |o| o.fix().local_minus_utc());
                let utc = shifted(local, -i64::from(before));
                return ZonedDateTime::from_utc(utc, Some(zone), 0);
            }
        };
        ZonedDateTime {
            local,
            offset,
            zone: Some(zone),
        }
    }

    /// The value at UTC instant `utc`, seen in `zone` (or at the fixed `offset`).
    pub fn from_utc(utc: NaiveDateTime, zone: Option<Tz>, offset: i32) -> ZonedDateTime {
        let offset = match zone {
            Some(z) => z.offset_from_utc_datetime(&utc).fix().local_minus_utc(),
            None => offset,
        };
        ZonedDateTime {
            local: shifted(utc, i64::from(offset)),
            offset,
            zone,
        }
    }

    /// The same instant seen in another zone or offset.
    pub fn with_zone(&self, zone: Option<Tz>, offset: i32) -> ZonedDateTime {
        ZonedDateTime::from_utc(self.utc(), zone, offset)
    }

    /// The UTC date and time of this instant.
    pub fn utc(&self) -> NaiveDateTime {
        shifted(self.local, -i64::from(self.offset))
    }

    /// Whether this value is one a zone can show: its instant is within chrono's
    /// range, and a named zone has this offset at this wall-clock time. Decoders
    /// check it; values built here are so by construction.
    pub fn is_consistent(&self) -> bool {
        let representable = self
            .local
            .checked_sub_signed(chrono::TimeDelta::seconds(i64::from(self.offset)))
            .is_some();
        representable
            && self.zone.is_none_or(|zone| {
                ZonedDateTime::in_zone(self.local, zone, Some(self.offset)) == *self
            })
    }

    /// Seconds since the Unix epoch.
    pub fn epoch_seconds(&self) -> i64 {
        self.utc().and_utc().timestamp()
    }
}

/// `t` moved by `seconds` (at most a day: offsets and zone gaps), held at chrono's
/// first or last representable instant rather than overflowing: only a value within
/// hours of year ±262,142 gets there, and a clamped instant orders and prints sanely
/// where a panic would take down the query's worker.
fn shifted(t: NaiveDateTime, seconds: i64) -> NaiveDateTime {
    t.checked_add_signed(chrono::TimeDelta::seconds(seconds))
        .unwrap_or(if seconds < 0 {
            NaiveDateTime::MIN
        } else {
            NaiveDateTime::MAX
        })
}

impl Temporal {
    /// The Cypher type name (`Date`, `LocalTime`, `Time`, `LocalDateTime`, `DateTime`,
    /// `Duration`).
    pub fn type_name(&self) -> &'static str {
        match self {
            Temporal::Date(_) => "Date",
            Temporal::LocalTime(_) => "LocalTime",
            Temporal::Time(..) => "Time",
            Temporal::LocalDateTime(_) => "LocalDateTime",
            Temporal::DateTime(_) => "DateTime",
            Temporal::Duration(_) => "Duration",
        }
    }

    /// The epoch milliseconds of a datetime at UTC with no named zone and nothing
    /// finer than milliseconds: the value the LDBC data's epoch-millisecond datetime
    /// equals, so indexes and hashes key both forms alike.
    pub fn utc_epoch_millis(&self) -> Option<i64> {
        match self {
            Temporal::DateTime(z) if z.offset == 0 && z.zone.is_none() => {
                let at = z.local.and_utc();
                (at.timestamp_subsec_nanos() % 1_000_000 == 0).then(|| at.timestamp_millis())
            }
            _ => None,
        }
    }

    /// The rank of the kind in ORDER BY (openCypher: datetime, localdatetime, date,
    /// time, localtime, duration).
    pub fn kind_rank(&self) -> u8 {
        match self {
            Temporal::DateTime(_) => 0,
            Temporal::LocalDateTime(_) => 1,
            Temporal::Date(_) => 2,
            Temporal::Time(..) => 3,
            Temporal::LocalTime(_) => 4,
            Temporal::Duration(_) => 5,
        }
    }

    /// `<`, `>` between two values of one instant kind: instants compare on the
    /// timeline (then by wall clock, so only identical values are equal). `None` for
    /// different kinds and for durations, which have no order.
    pub fn compare(&self, other: &Temporal) -> Option<Ordering> {
        match (self, other) {
            (Temporal::Date(a), Temporal::Date(b)) => Some(a.cmp(b)),
            (Temporal::LocalTime(a), Temporal::LocalTime(b)) => Some(a.cmp(b)),
            (Temporal::LocalDateTime(a), Temporal::LocalDateTime(b)) => Some(a.cmp(b)),
            (Temporal::Time(a, oa), Temporal::Time(b, ob)) => {
                let utc =
                    |t: &NaiveTime, o: i32| i64::from(t.num_seconds_from_midnight()) - i64::from(o);
                Some(
                    utc(a, *oa)
                        .cmp(&utc(b, *ob))
                        .then(a.nanosecond().cmp(&b.nanosecond()))
                        .then(a.cmp(b)),
                )
            }
            (Temporal::DateTime(a), Temporal::DateTime(b)) => Some(
                a.utc()
                    .cmp(&b.utc())
                    .then(a.local.cmp(&b.local))
                    .then_with(|| zone_name(a.zone).cmp(zone_name(b.zone))),
            ),
            _ => None,
        }
    }

    /// The total order of ORDER BY: kinds by [`Temporal::kind_rank`], then
    /// [`Temporal::compare`]; durations by [`Duration::order`].
    pub fn order(&self, other: &Temporal) -> Ordering {
        match (self, other) {
            (Temporal::Duration(a), Temporal::Duration(b)) => a.order(b),
            _ => self
                .kind_rank()
                .cmp(&other.kind_rank())
                .then_with(|| self.compare(other).unwrap_or(Ordering::Equal)),
        }
    }
}

fn zone_name(z: Option<Tz>) -> &'static str {
    z.map_or("", |z| z.name())
}

impl fmt::Display for Temporal {
    /// Neo4j 5's `toString`: ISO 8601 with the seconds always, and a fraction of a
    /// second only when not zero, in as few digits as it needs (`21:40:00.5`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(TimeForm::Neo4j))
    }
}

/// How a time of day is written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TimeForm {
    /// Neo4j 5's `toString`: `HH:mm:ss[.f...]`, the fraction's trailing zeros dropped.
    Neo4j,
    /// java.time's `toString`, which the openCypher TCK writes its expected values in:
    /// `HH:mm[:ss[.fff[fff[fff]]]]`, seconds only when not zero.
    JavaTime,
}

impl Temporal {
    /// The value as java.time writes it (`21:40` for a time at zero seconds), the form
    /// of the openCypher TCK's expected values; `to_string` is Neo4j's form.
    pub fn java_time_text(&self) -> String {
        self.text(TimeForm::JavaTime)
    }

    fn text(&self, form: TimeForm) -> String {
        let mut s = String::new();
        match self {
            Temporal::Date(d) => write_date(&mut s, d),
            Temporal::LocalTime(t) => write_time(&mut s, t, form),
            Temporal::Time(t, o) => {
                write_time(&mut s, t, form);
                write_offset(&mut s, *o);
            }
            Temporal::LocalDateTime(dt) => write_local(&mut s, dt, form),
            Temporal::DateTime(z) => {
                write_local(&mut s, &z.local, form);
                write_offset(&mut s, z.offset);
                if let Some(zone) = z.zone {
                    let _ = write!(s, "[{}]", zone.name());
                }
            }
            Temporal::Duration(d) => write_duration(&mut s, d),
        }
        s
    }
}

fn write_local(s: &mut String, dt: &NaiveDateTime, form: TimeForm) {
    write_date(s, &dt.date());
    s.push('T');
    write_time(s, &dt.time(), form);
}

/// `yyyy-MM-dd`; years beyond four digits carry a sign, as java.time writes them.
fn write_date(s: &mut String, d: &NaiveDate) {
    let y = d.year();
    if y > 9999 {
        let _ = write!(s, "+{y}");
    } else if y < 0 {
        let _ = write!(s, "-{:04}", -i64::from(y));
    } else {
        let _ = write!(s, "{y:04}");
    }
    let _ = write!(s, "-{:02}-{:02}", d.month(), d.day());
}

/// A time of day in `form`.
fn write_time(s: &mut String, t: &NaiveTime, form: TimeForm) {
    let _ = write!(s, "{:02}:{:02}", t.hour(), t.minute());
    let nano = t.nanosecond();
    if form == TimeForm::JavaTime && t.second() == 0 && nano == 0 {
        return;
    }
    let _ = write!(s, ":{:02}", t.second());
    if nano == 0 {
        return;
    }
    let digits = format!("{nano:09}");
    let _ = match form {
        TimeForm::Neo4j => write!(s, ".{}", digits.trim_end_matches('0')),
        TimeForm::JavaTime if nano.is_multiple_of(1_000_000) => write!(s, ".{}", &digits[..3]),
        TimeForm::JavaTime if nano.is_multiple_of(1000) => write!(s, ".{}", &digits[..6]),
        TimeForm::JavaTime => write!(s, ".{digits}"),
    };
}

/// `Z`, `+HH:MM` or `+HH:MM:SS`.
pub fn format_offset(offset: i32) -> String {
    let mut s = String::new();
    write_offset(&mut s, offset);
    s
}

fn write_offset(s: &mut String, offset: i32) {
    if offset == 0 {
        s.push('Z');
        return;
    }
    let sign = if offset < 0 { '-' } else { '+' };
    let a = offset.unsigned_abs();
    let _ = write!(s, "{sign}{:02}:{:02}", a / 3600, (a / 60) % 60);
    if !a.is_multiple_of(60) {
        let _ = write!(s, ":{:02}", a % 60);
    }
}

/// `P[nY][nM][nD][T[nH][nM][n.nS]]`, or `PT0S`; a negative fraction of a second is
/// written with the whole seconds it belongs to (`PT-1.999S`).
fn write_duration(s: &mut String, d: &Duration) {
    s.push('P');
    let unit = |s: &mut String, n: i64, u: char| {
        if n != 0 {
            let _ = write!(s, "{n}{u}");
        }
    };
    unit(s, d.months / 12, 'Y');
    unit(s, d.months % 12, 'M');
    unit(s, d.days, 'D');
    if d.seconds != 0 || d.nanos != 0 {
        let negative = d.seconds < 0;
        let (mut secs, mut nanos) = (d.seconds, i64::from(d.nanos));
        if negative && nanos != 0 {
            secs += 1;
            nanos = NANOS_PER_SECOND - nanos;
        }
        s.push('T');
        unit(s, secs / 3600, 'H');
        unit(s, (secs % 3600) / 60, 'M');
        let rest = secs % 60;
        if rest != 0 || nanos != 0 {
            if negative && rest == 0 {
                s.push('-');
            }
            let _ = write!(s, "{rest}");
            if nanos != 0 {
                let frac = format!("{nanos:09}");
                let _ = write!(s, ".{}", frac.trim_end_matches('0'));
            }
            s.push('S');
        }
    }
    if s.len() == 1 {
        s.push_str("T0S");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn time(h: u32, m: u32, s: u32, n: u32) -> NaiveTime {
        NaiveTime::from_hms_nano_opt(h, m, s, n).expect("a time")
    }

    #[test]
    fn writes_times_as_neo4j_does_and_as_java_time_does_for_the_tck() {
        let t = |n| Temporal::LocalTime(time(12, 31, 14, n)).to_string();
        assert_eq!(t(645_876_123), "12:31:14.645876123");
        assert_eq!(t(645_876_000), "12:31:14.645876");
        assert_eq!(t(645_000_000), "12:31:14.645");
        assert_eq!(t(500_000_000), "12:31:14.5");
        assert_eq!(t(500), "12:31:14.0000005");
        assert_eq!(t(0), "12:31:14");
        let noon = Temporal::LocalTime(time(12, 0, 0, 0));
        assert_eq!(noon.to_string(), "12:00:00");
        assert_eq!(noon.java_time_text(), "12:00");
        let half = Temporal::LocalTime(time(12, 0, 1, 500_000_000));
        assert_eq!(half.java_time_text(), "12:00:01.500");
        assert_eq!(
            Temporal::Time(time(12, 0, 0, 0), 0).to_string(),
            "12:00:00Z"
        );
        assert_eq!(
            Temporal::Time(time(12, 34, 56, 0), -(2 * 3600 + 5 * 60 + 7)).to_string(),
            "12:34:56-02:05:07"
        );
    }

    #[test]
    fn writes_durations_as_neo4j_does() {
        let d = |s, n| Temporal::Duration(Duration::new(0, 0, s, n)).to_string();
        assert_eq!(d(2, -1_000_000), "PT1.999S");
        assert_eq!(d(-2, 1_000_000), "PT-1.999S");
        assert_eq!(d(-2, -1_000_000), "PT-2.001S");
        assert_eq!(d(-60, -1_000_000), "PT-1M-0.001S");
        assert_eq!(d(0, 0), "PT0S");
        let big = Duration::new(149, 14, 16 * 3600 + 13 * 60 + 10, 1);
        assert_eq!(
            Temporal::Duration(big).to_string(),
            "P12Y5M14DT16H13M10.000000001S"
        );
        assert_eq!(
            Temporal::Duration(Duration::new(149, -14, 16 * 3600, 0)).to_string(),
            "P12Y5M-14DT16H"
        );
    }

    #[test]
    fn named_zones_resolve_gaps_and_overlaps() {
        let tz: Tz = "Europe/Stockholm".parse().expect("a zone");
        let at = |s: &str| NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M").expect("a datetime");
        let summer = ZonedDateTime::in_zone(at("1984-07-20T12:00"), tz, None);
        assert_eq!(summer.offset, 7200);
        // 2017-03-26 02:30 does not exist in Stockholm: it becomes 03:30 +02:00.
        let gap = ZonedDateTime::in_zone(at("2017-03-26T02:30"), tz, None);
        assert_eq!((gap.local, gap.offset), (at("2017-03-26T03:30"), 7200));
        // 2017-10-29 02:30 happens twice: the earlier offset unless asked otherwise.
        let twice = at("2017-10-29T02:30");
        assert_eq!(ZonedDateTime::in_zone(twice, tz, None).offset, 7200);
        assert_eq!(ZonedDateTime::in_zone(twice, tz, Some(3600)).offset, 3600);
        assert_eq!(
            Temporal::DateTime(summer).to_string(),
            "1984-07-20T12:00:00+02:00[Europe/Stockholm]"
        );
    }
}
