//! Numeric functions: `floor`, `ceil`, the logarithms and `sqrt`, the trigonometric
//! ones, `isNaN`, and `round` with a precision and a rounding mode.

use super::scalar::arg_type;
use super::Function;
use crate::error::{CypherError, ErrorCode, Result};
use crate::value::Val;

/// Calls one of the numeric functions here (nulls already answered).
pub(super) fn call(f: Function, args: &[Val]) -> Result<Val> {
    use Function as F;
    if f != F::Round && args.iter().any(Val::is_null) {
        return Ok(Val::Null);
    }
    let x = number(f, &args[0])?;
    Ok(Val::Float(match f {
        F::IsNaN => return Ok(Val::Bool(x.is_nan())),
        F::Round => return round(args, x),
        F::Floor => x.floor(),
        F::Ceil => x.ceil(),
        F::Sqrt => x.sqrt(),
        F::Exp => x.exp(),
        F::Log => x.ln(),
        F::Log10 => x.log10(),
        F::Sin => x.sin(),
        F::Cos => x.cos(),
        F::Tan => x.tan(),
        F::Cot => 1.0 / x.tan(),
        F::Asin => x.asin(),
        F::Acos => x.acos(),
        F::Atan => x.atan(),
        F::Atan2 => x.atan2(number(f, &args[1])?),
        F::Degrees => x.to_degrees(),
        F::Radians => x.to_radians(),
        _ => (1.0 - x.cos()) / 2.0, // haversin
    }))
}

fn number(f: Function, v: &Val) -> Result<f64> {
    match v {
        Val::Int(i) => Ok(*i as f64),
        Val::Float(x) => Ok(*x),
        other => Err(arg_type(f, "a number", other)),
    }
}

/// How `round(x, precision, mode)` rounds the digits it drops: Java's `RoundingMode`,
/// which Neo4j's `round` names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Up,
    Down,
    Ceiling,
    Floor,
    HalfUp,
    HalfDown,
    HalfEven,
    Unnecessary,
}

impl Mode {
    fn of(v: &Val) -> Result<Mode> {
        let Val::Str(name) = v else {
            return Err(arg_type(Function::Round, "a rounding mode's name", v));
        };
        Ok(match &**name {
            "UP" => Mode::Up,
            "DOWN" => Mode::Down,
            "CEILING" => Mode::Ceiling,
            "FLOOR" => Mode::Floor,
            "HALF_UP" => Mode::HalfUp,
            "HALF_DOWN" => Mode::HalfDown,
            "HALF_EVEN" => Mode::HalfEven,
            "UNNECESSARY" => Mode::Unnecessary,
            _ => {
                return Err(CypherError::new(
                    ErrorCode::ArgumentError,
                    "unknown rounding mode: valid modes are CEILING, FLOOR, UP, DOWN, HALF_EVEN, \
                     HALF_UP, HALF_DOWN and UNNECESSARY",
                ))
            }
        })
    }
}

/// `round(x)` rounds half up, towards positive infinity, into the integers' range (as
/// Java's `Math.round`, so `round(-2.5)` is -2.0); `round(x, p[, mode])` rounds the
/// decimal digits of `x` (its shortest text, as `BigDecimal.valueOf` reads it) to `p`
/// places, half away from zero unless a mode is given.
fn round(args: &[Val], x: f64) -> Result<Val> {
    if args.len() == 1 {
        let floor = x.floor();
        let r = if x - floor >= 0.5 { floor + 1.0 } else { floor };
        let saturated = r.clamp(i64::MIN as f64, i64::MAX as f64);
        return Ok(Val::Float(if x.is_nan() { x } else { saturated }));
    }
    if args[1..].iter().any(Val::is_null) {
        return Ok(Val::Null);
    }
    let precision = match &args[1] {
        Val::Int(p) => *p,
        Val::Float(p) => p.trunc() as i64,
        other => return Err(arg_type(Function::Round, "an integer precision", other)),
    };
    if precision < 0 {
        return Err(CypherError::new(
            ErrorCode::ArgumentError,
            format!("round() with a negative precision, {precision}"),
        ));
    }
    let mode = args.get(2).map_or(Ok(Mode::HalfUp), Mode::of)?;
    if !x.is_finite() {
        return Ok(Val::Float(x));
    }
    decimal_round(x, usize::try_from(precision).unwrap_or(usize::MAX), mode).map(Val::Float)
}

fn decimal_round(x: f64, places: usize, mode: Mode) -> Result<f64> {
    let text = format!("{}", x.abs()); // Rust prints the shortest digits, never an exponent
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    if fraction.len() <= places {
        return Ok(x);
    }
    let (kept, dropped) = fraction.split_at(places);
    let mut digits: Vec<u8> = whole.bytes().chain(kept.bytes()).collect();
    let first = dropped.as_bytes()[0] - b'0';
    let rest = dropped.bytes().skip(1).any(|b| b != b'0');
    let last_odd = digits.last().is_some_and(|d| (d - b'0') % 2 == 1);
    let negative = x.is_sign_negative();
    if first == 0 && !rest {
        return Ok(x);
    }
    let up = match mode {
        Mode::Up => true,
        Mode::Down => false,
        Mode::Ceiling => !negative,
        Mode::Floor => negative,
        Mode::HalfUp => first >= 5,
        Mode::HalfDown => first > 5 || (first == 5 && rest),
        Mode::HalfEven => first > 5 || (first == 5 && (rest || last_odd)),
        Mode::Unnecessary => {
            return Err(CypherError::new(
                ErrorCode::ArithmeticError,
                "round() with mode UNNECESSARY of a value that needs rounding",
            ))
        }
    };
    if up {
        increment(&mut digits);
    }
    let split = digits.len() - places;
    let (w, f) = digits.split_at(split);
    let magnitude: f64 = format!("{}.{}0", ascii(w), ascii(f))
        .parse()
        .expect("decimal digits read back as a float");
    // A decimal has no negative zero: round(-0.4, 0) is 0.0.
    Ok(if negative && magnitude != 0.0 {
        -magnitude
    } else {
        magnitude
    })
}

/// Adds one to the last of these ASCII digits, carrying (a new leading 1 if need be).
fn increment(digits: &mut Vec<u8>) {
    for d in digits.iter_mut().rev() {
        if *d == b'9' {
            *d = b'0';
        } else {
            *d += 1;
            return;
        }
    }
    digits.insert(0, b'1');
}

fn ascii(digits: &[u8]) -> &str {
    std::str::from_utf8(digits).expect("ASCII digits")
}
