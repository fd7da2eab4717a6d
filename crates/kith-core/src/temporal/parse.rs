//! ISO 8601 text: the extended (`2015-07-21T21:40:32.142+01:00`) and basic
//! (`20150721T214032.142+0100`) forms, week (`2015-W30-2`) and ordinal (`2015-202`)
//! dates, a `[Region/City]` zone, and durations (`P1Y2M3DT4H5M6.7S`,
//! `P2012-02-02T14:37:21.545`).

use chrono::{NaiveDate, NaiveTime, Weekday};

use super::duration::{compose, Num, Unit};
use super::{Duration, Kind, Parts, Temporal, Tz, Zone};

/// Text that names no value of the kind asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

type Result<T> = std::result::Result<T, ParseError>;

fn invalid(message: String) -> ParseError {
    ParseError(message)
}

/// A cursor over the text.
struct Cur<'a> {
    text: &'a str,
    at: usize,
}

impl Cur<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        let hit = self.peek() == Some(c);
        self.at += usize::from(hit);
        hit
    }

    fn done(&self) -> bool {
        self.at == self.text.len()
    }

    /// How many digits follow.
    fn run(&self) -> usize {
        self.text.as_bytes()[self.at..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    }

    /// Exactly `n` digits.
    fn digits(&mut self, n: usize) -> Option<u32> {
        if self.run() < n {
            return None;
        }
        let v = self.text[self.at..self.at + n].parse().ok()?;
        self.at += n;
        Some(v)
    }
}

/// A `kind` value from text.
pub fn parse(kind: Kind, text: &str) -> Result<Temporal> {
    let bad = || {
        invalid(format!(
            "Text cannot be parsed to a {}: '{text}'",
            kind.name()
        ))
    };
    let mut c = Cur { text, at: 0 };
    let mut parts = Parts::default();
    if kind.has_date() {
        parts.date = Some(date(&mut c).ok_or_else(bad)?);
        // A date's text has no time: `date('2015-07-21T21:40')` is refused, not cut.
        if kind.has_time() && c.eat(b'T') {
            parts.time = Some(time(&mut c).ok_or_else(bad)?);
            parts.zone = zone(&mut c).ok_or_else(bad)?;
        }
    } else {
        parts.time = Some(time(&mut c).ok_or_else(bad)?);
        parts.zone = zone(&mut c).ok_or_else(bad)?;
    }
    if !c.done() || (parts.zone.is_some() && !kind.has_zone()) {
        return Err(bad());
    }
    parts.make(kind).ok_or_else(bad)
}

fn date(c: &mut Cur<'_>) -> Option<NaiveDate> {
    let year = year(c)?;
    if c.done() || c.peek() == Some(b'T') {
        return NaiveDate::from_ymd_opt(year, 1, 1);
    }
    let dashed = c.eat(b'-');
    if c.eat(b'W') {
        let week = c.digits(2)?;
        let day = if c.done() || c.peek() == Some(b'T') {
            1
        } else {
            if dashed && !c.eat(b'-') {
                return None;
            }
            c.digits(1)?
        };
        return week_date(year, week, day);
    }
    match (dashed, c.run()) {
        (_, 3) => NaiveDate::from_yo_opt(year, c.digits(3)?),
        (true, 2) => month_day(c, year),
        (false, 4) => {
            let (m, d) = (c.digits(2)?, c.digits(2)?);
            NaiveDate::from_ymd_opt(year, m, d)
        }
        (false, 2) => NaiveDate::from_ymd_opt(year, c.digits(2)?, 1),
        _ => None,
    }
}

fn month_day(c: &mut Cur<'_>, year: i32) -> Option<NaiveDate> {
    let month = c.digits(2)?;
    let day = if c.eat(b'-') { c.digits(2)? } else { 1 };
    NaiveDate::from_ymd_opt(year, month, day)
}

/// Four digits, or a sign and any number of them.
fn year(c: &mut Cur<'_>) -> Option<i32> {
    let sign = match c.peek() {
        Some(b'+') => 1,
        Some(b'-') => -1,
        _ => return c.digits(4).map(|y| y as i32),
    };
    c.at += 1;
    let n = c.run();
    if n == 0 || n > 9 {
        return None;
    }
    Some(sign * i32::try_from(c.digits(n)?).ok()?)
}

/// The ISO week date: Monday of `week` in `year`'s week-numbering, plus `day - 1`.
pub fn week_date(year: i32, week: u32, day: u32) -> Option<NaiveDate> {
    let weekday = match day {
        1 => Weekday::Mon,
        2 => Weekday::Tue,
        3 => Weekday::Wed,
        4 => Weekday::Thu,
        5 => Weekday::Fri,
        6 => Weekday::Sat,
        7 => Weekday::Sun,
        _ => return None,
    };
    NaiveDate::from_isoywd_opt(year, week, weekday)
}

fn time(c: &mut Cur<'_>) -> Option<NaiveTime> {
    let hour = c.digits(2)?;
    let colon = c.eat(b':');
    let (mut minute, mut second, mut nano) = (0, 0, 0);
    if colon || c.run() >= 2 {
        minute = c.digits(2)?;
        if (colon && c.eat(b':')) || (!colon && c.run() >= 2) {
            second = c.digits(2)?;
            if c.eat(b'.') || c.eat(b',') {
                let n = c.run();
                if n == 0 || n > 9 {
                    return None;
                }
                nano = c.digits(n)? * 10u32.pow(9 - n as u32);
            }
        }
    }
    NaiveTime::from_hms_nano_opt(hour, minute, second, nano)
}

/// A zone as written: the zone, and the offset if the text gave one.
type ZoneText = (Zone, Option<i32>);

/// `Z`, `+HH[[:]MM[[:]SS]]`, then `[Region/City]`; `Some(None)` when there is none.
fn zone(c: &mut Cur<'_>) -> Option<Option<ZoneText>> {
    let offset = match c.peek() {
        Some(b'Z') => {
            c.at += 1;
            Some(0)
        }
        Some(sign @ (b'+' | b'-')) => {
            c.at += 1;
            let mut secs = c.digits(2)? as i32 * 3600;
            let sixty = |n: u32| (n < 60).then_some(n as i32);
            let colon = c.eat(b':');
            if colon || c.run() >= 2 {
                secs += sixty(c.digits(2)?)? * 60;
                if (colon && c.eat(b':')) || (!colon && c.run() >= 2) {
                    secs += sixty(c.digits(2)?)?;
                }
            }
            if secs > 18 * 3600 {
                return None;
            }
            Some(if sign == b'-' { -secs } else { secs })
        }
        _ => None,
    };
    if c.eat(b'[') {
        let end = c.text[c.at..].find(']')?;
        let name = &c.text[c.at..c.at + end];
        c.at += end + 1;
        return Some(Some((Zone::Named(named(name)?), offset)));
    }
    Some(offset.map(|o| (Zone::Offset(o), Some(o))))
}

/// An IANA zone by name.
pub fn named(name: &str) -> Option<Tz> {
    name.parse().ok()
}

/// A zone as the `timezone` field writes it: an offset or a region.
pub fn zone_field(text: &str) -> Result<Zone> {
    let mut c = Cur { text, at: 0 };
    if let Some(Some((z, _))) = zone(&mut c) {
        if c.done() {
            return Ok(z);
        }
    }
    named(text)
        .map(Zone::Named)
        .ok_or_else(|| invalid(format!("Invalid value for TimeZone: Text '{text}'")))
}

/// A duration from text.
pub fn duration(text: &str) -> Result<Duration> {
    let bad = || invalid(format!("Text cannot be parsed to a Duration: '{text}'"));
    let mut c = Cur { text, at: 0 };
    let negative = c.eat(b'-');
    if !c.eat(b'P') {
        return Err(bad());
    }
    let units = if c.run() >= 4 && text[c.at + c.run()..].starts_with('-') {
        date_like(&mut c).ok_or_else(bad)?
    } else {
        designators(&mut c).ok_or_else(bad)?
    };
    if !c.done() || units.is_empty() {
        return Err(bad());
    }
    let d = compose(&units).map_err(|_| invalid(format!("Duration out of range: '{text}'")))?;
    if negative {
        return d
            .negated()
            .ok_or_else(|| invalid(format!("Duration out of range: '{text}'")));
    }
    Ok(d)
}

/// `nY nM nW nD T nH nM nS`, each optional, each possibly signed or fractional.
fn designators(c: &mut Cur<'_>) -> Option<Vec<(Unit, Num)>> {
    let mut units = Vec::new();
    let mut in_time = false;
    while !c.done() {
        if c.eat(b'T') {
            if in_time {
                return None;
            }
            in_time = true;
            continue;
        }
        let n = number(c)?;
        let unit = match (c.peek()?, in_time) {
            (b'Y', false) => Unit::Years,
            (b'M', false) => Unit::Months,
            (b'W', false) => Unit::Weeks,
            (b'D', false) => Unit::Days,
            (b'H', true) => Unit::Hours,
            (b'M', true) => Unit::Minutes,
            (b'S', true) => Unit::Seconds,
            _ => return None,
        };
        c.at += 1;
        push_amount(&mut units, unit, n)?;
    }
    Some(units)
}

/// Seconds with a fraction are kept exact (whole seconds and nanoseconds), so a
/// duration's text reads back as the same duration; other fractions spread.
/// `None` for seconds beyond i64 or a fraction finer than nanoseconds.
fn push_amount(units: &mut Vec<(Unit, Num)>, unit: Unit, n: (Num, &str)) -> Option<()> {
    match (unit, n) {
        (Unit::Seconds, (Num::Float(_), text)) => {
            let text = text.replace(',', ".");
            let (whole, frac) = text.split_once('.').unwrap_or((&text, ""));
            let negative = whole.starts_with('-');
            let digits = whole.trim_start_matches('-');
            let whole: i64 = if digits.is_empty() {
                0
            } else {
                digits.parse().ok()?
            };
            if frac.len() > 9 {
                return None;
            }
            let nanos = format!("{frac:0<9}").parse::<i64>().ok()?;
            let sign = if negative { -1 } else { 1 };
            units.push((Unit::Seconds, Num::Int(sign * whole)));
            units.push((Unit::Nanos, Num::Int(sign * nanos)));
        }
        (unit, (n, _)) => units.push((unit, n)),
    }
    Some(())
}

fn number<'a>(c: &mut Cur<'a>) -> Option<(Num, &'a str)> {
    let start = c.at;
    c.eat(b'-');
    let whole = c.run();
    c.at += whole;
    if c.eat(b'.') || c.eat(b',') {
        let frac = c.run();
        c.at += frac;
        if whole + frac == 0 {
            return None;
        }
        let text = &c.text[start..c.at];
        return text
            .replace(',', ".")
            .parse()
            .ok()
            .map(|x| (Num::Float(x), text));
    }
    if whole == 0 {
        return None;
    }
    let text = &c.text[start..c.at];
    text.parse().ok().map(|n| (Num::Int(n), text))
}

/// `PYYYY-MM-DDTHH:MM:SS.fff`.
fn date_like(c: &mut Cur<'_>) -> Option<Vec<(Unit, Num)>> {
    let years = c.digits(c.run())?;
    let mut units = vec![(Unit::Years, Num::Int(i64::from(years)))];
    let next = |c: &mut Cur<'_>, sep: u8, unit: Unit, units: &mut Vec<(Unit, Num)>| {
        if !c.eat(sep) {
            return None;
        }
        units.push((unit, Num::Int(i64::from(c.digits(2)?))));
        Some(())
    };
    next(c, b'-', Unit::Months, &mut units)?;
    next(c, b'-', Unit::Days, &mut units)?;
    if c.eat(b'T') {
        units.push((Unit::Hours, Num::Int(i64::from(c.digits(2)?))));
        next(c, b':', Unit::Minutes, &mut units)?;
        if c.peek() == Some(b':') {
            c.at += 1;
            push_amount(&mut units, Unit::Seconds, number(c)?)?;
        }
    }
    Some(units)
}
