//! Durations from amounts of units (`{months: 0.75}`, `P1.5D`).

use super::{Duration, NANOS_PER_SECOND, SECONDS_PER_DAY};

/// A duration out of `i64` range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfRange;

/// A number of some unit: durations take fractions of any unit.
#[derive(Clone, Copy, Debug)]
pub enum Num {
    /// A whole number.
    Int(i64),
    /// A fraction.
    Float(f64),
}

/// The units a duration is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Twelve months.
    Years,
    /// Months.
    Months,
    /// Seven days.
    Weeks,
    /// Days.
    Days,
    /// 3,600 seconds.
    Hours,
    /// 60 seconds.
    Minutes,
    /// Seconds.
    Seconds,
    /// Milliseconds.
    Millis,
    /// Microseconds.
    Micros,
    /// Nanoseconds.
    Nanos,
}

impl Unit {
    /// Which of months, days, seconds, nanoseconds it counts, and how many of them.
    fn scale(self) -> (usize, i64) {
        match self {
            Unit::Years => (0, 12),
            Unit::Months => (0, 1),
            Unit::Weeks => (1, 7),
            Unit::Days => (1, 1),
            Unit::Hours => (2, 3600),
            Unit::Minutes => (2, 60),
            Unit::Seconds => (2, 1),
            Unit::Millis => (3, 1_000_000),
            Unit::Micros => (3, 1000),
            Unit::Nanos => (3, 1),
        }
    }
}

/// A duration from amounts of units: exact when they are all integers, else spread
/// as Neo4j does (a fraction of a month is an average month's fraction, 30.436875 days).
pub fn compose(units: &[(Unit, Num)]) -> Result<Duration, OutOfRange> {
    let overflow = || OutOfRange;
    if units.iter().all(|(_, n)| matches!(n, Num::Int(_))) {
        let mut sums = [0i64; 4];
        for (unit, n) in units {
            let Num::Int(n) = n else { unreachable!() };
            let (slot, scale) = unit.scale();
            let add = n.checked_mul(scale).ok_or_else(overflow)?;
            sums[slot] = sums[slot].checked_add(add).ok_or_else(overflow)?;
        }
        return Ok(Duration::new(sums[0], sums[1], sums[2], sums[3]));
    }
    let mut sums = [0f64; 4];
    for (unit, n) in units {
        let (slot, scale) = unit.scale();
        let n = match n {
            Num::Int(i) => *i as f64,
            Num::Float(x) => *x,
        };
        sums[slot] += n * scale as f64;
    }
    approximate(sums[0], sums[1], sums[2], sums[3])
}

/// Average nanoseconds in a month (365.2425 / 12 days).
const AVG_NANOS_PER_MONTH: i64 = 2_629_746_000_000_000;

/// Fractional parts carried down, each step in the order and precision Neo4j uses, so
/// results agree to the nanosecond. (A product of two exact doubles rounds as Neo4j's
/// exact integer product converted to double does, without its overflow.)
pub fn approximate(
    months: f64,
    days: f64,
    seconds: f64,
    nanos: f64,
) -> Result<Duration, OutOfRange> {
    let whole = |x: f64| {
        if x.is_finite() && x.abs() < 9.2e18 {
            Ok(x as i64)
        } else {
            Err(OutOfRange)
        }
    };
    let nanos_per_day = NANOS_PER_SECOND * SECONDS_PER_DAY;
    let months_whole = whole(months)?;
    let month_rest =
        AVG_NANOS_PER_MONTH as f64 * months - AVG_NANOS_PER_MONTH as f64 * months_whole as f64;
    let days = days + month_rest / nanos_per_day as f64;
    let days_whole = whole(days)?;
    let day_rest = nanos_per_day as f64 * days - nanos_per_day as f64 * days_whole as f64;
    let seconds = seconds + day_rest / NANOS_PER_SECOND as f64;
    let seconds_whole = whole(seconds)?;
    let second_rest =
        NANOS_PER_SECOND as f64 * seconds - NANOS_PER_SECOND as f64 * seconds_whole as f64;
    let nanos = whole(nanos + second_rest)?;
    Ok(Duration::new(
        months_whole,
        days_whole,
        seconds_whole,
        nanos,
    ))
}
