//! Parts of temporal values: the kinds, zones, and a value split into its date, time
//! and zone, from which a value of any kind is put together again.

use chrono::{NaiveDate, NaiveDateTime, NaiveTime};

use super::{Temporal, Tz, ZonedDateTime};

/// The five instant kinds a constructor makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `date`.
    Date,
    /// `localtime`.
    LocalTime,
    /// `time`.
    Time,
    /// `localdatetime`.
    LocalDateTime,
    /// `datetime`.
    DateTime,
}

impl Kind {
    /// Its Cypher name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Date => "date",
            Kind::LocalTime => "localtime",
            Kind::Time => "time",
            Kind::LocalDateTime => "localdatetime",
            Kind::DateTime => "datetime",
        }
    }

    /// Whether values of the kind have a date.
    pub fn has_date(self) -> bool {
        matches!(self, Kind::Date | Kind::LocalDateTime | Kind::DateTime)
    }

    /// Whether values of the kind have a time of day.
    pub fn has_time(self) -> bool {
        !matches!(self, Kind::Date)
    }

    /// Whether values of the kind have a zone.
    pub fn has_zone(self) -> bool {
        matches!(self, Kind::Time | Kind::DateTime)
    }
}

/// A zone: a fixed offset or an IANA region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zone {
    /// Seconds east of UTC.
    Offset(i32),
    /// An IANA region.
    Named(Tz),
}

impl Zone {
    /// UTC, the default zone.
    pub const UTC: Zone = Zone::Offset(0);

    /// `local` in this zone (an offset the value was written with is kept when the
    /// zone allows it at that time).
    pub fn at(self, local: NaiveDateTime, prefer: Option<i32>) -> ZonedDateTime {
        match self {
            Zone::Offset(offset) => ZonedDateTime {
                local,
                offset,
                zone: None,
            },
            Zone::Named(tz) => ZonedDateTime::in_zone(local, tz, prefer),
        }
    }

    /// The instant `z` seen in this zone.
    pub fn convert(self, z: &ZonedDateTime) -> ZonedDateTime {
        match self {
            Zone::Offset(o) => z.with_zone(None, o),
            Zone::Named(tz) => z.with_zone(Some(tz), 0),
        }
    }

    /// The zone of a datetime.
    pub fn of(z: &ZonedDateTime) -> Zone {
        z.zone.map_or(Zone::Offset(z.offset), Zone::Named)
    }

    /// The offset of this zone now (a `time` made in a named zone takes today's).
    pub fn offset_at(self, utc: NaiveDateTime) -> i32 {
        match self {
            Zone::Offset(o) => o,
            Zone::Named(tz) => ZonedDateTime::from_utc(utc, Some(tz), 0).offset,
        }
    }
}

/// The clock now, UTC.
pub fn realtime() -> NaiveDateTime {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    chrono::DateTime::from_timestamp(since.as_secs() as i64, since.subsec_nanos())
        .unwrap_or_default()
        .naive_utc()
}

/// The parts of a temporal value.
#[derive(Clone, Copy, Debug, Default)]
pub struct Parts {
    /// The date.
    pub date: Option<NaiveDate>,
    /// The time of day.
    pub time: Option<NaiveTime>,
    /// The zone, with the offset the value was written with if any.
    pub zone: Option<(Zone, Option<i32>)>,
}

impl Parts {
    /// The parts of `t` (none for a duration).
    pub fn of(t: &Temporal) -> Parts {
        match *t {
            Temporal::Date(d) => Parts {
                date: Some(d),
                ..Parts::default()
            },
            Temporal::LocalTime(t) => Parts {
                time: Some(t),
                ..Parts::default()
            },
            Temporal::Time(t, o) => Parts {
                time: Some(t),
                zone: Some((Zone::Offset(o), Some(o))),
                ..Parts::default()
            },
            Temporal::LocalDateTime(dt) => Parts {
                date: Some(dt.date()),
                time: Some(dt.time()),
                zone: None,
            },
            Temporal::DateTime(z) => Parts {
                date: Some(z.local.date()),
                time: Some(z.local.time()),
                zone: Some((Zone::of(&z), Some(z.offset))),
            },
            Temporal::Duration(_) => Parts::default(),
        }
    }

    /// A value of `kind` from these parts: a missing time is midnight, a missing zone
    /// UTC; `None` when the kind needs a date these parts lack.
    pub fn make(&self, kind: Kind) -> Option<Temporal> {
        let time = self.time.unwrap_or(NaiveTime::MIN);
        let (zone, prefer) = self.zone.unwrap_or((Zone::UTC, None));
        Some(match kind {
            Kind::Date => Temporal::Date(self.date?),
            Kind::LocalTime => Temporal::LocalTime(time),
            Kind::Time => {
                let offset = match (zone, self.date) {
                    (Zone::Named(_), Some(d)) => zone.at(d.and_time(time), prefer).offset,
                    (Zone::Named(_), None) => prefer.unwrap_or_else(|| zone.offset_at(realtime())),
                    (Zone::Offset(o), _) => o,
                };
                Temporal::Time(time, offset)
            }
            Kind::LocalDateTime => Temporal::LocalDateTime(self.date?.and_time(time)),
            Kind::DateTime => Temporal::DateTime(zone.at(self.date?.and_time(time), prefer)),
        })
    }
}
