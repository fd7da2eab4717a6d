//! Property and result values.

use std::fmt;
use std::sync::Arc;

use crate::spatial::Point;
use crate::str::Str;
use crate::temporal::Temporal;

/// A property value, or a value in a procedure's result.
///
/// Strings are [`Str`]s so that results can share them with the store instead of
/// copying: a friends list of 600 names costs 600 reference-count increments.
/// `Map` only appears in results (a profile with its addresses); the store refuses
/// maps as property values, as Neo4j does.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Absent or unknown.
    Null,
    /// A boolean.
    Bool(bool),
    /// A 64-bit signed integer.
    Int(i64),
    /// A 64-bit float.
    Float(f64),
    /// A UTF-8 string.
    String(Str),
    /// An instant as milliseconds since the Unix epoch (UTC), LDBC's `LongDateFormatter`.
    DateTime(i64),
    /// A Cypher temporal value (date, time, datetime... or duration).
    Temporal(Arc<Temporal>),
    /// A spatial point (2D or 3D, cartesian or WGS-84).
    Point(Arc<Point>),
    /// A byte array (a driver's `bytes` / `[]byte`), kept whole because Neo4j hands it
    /// back as bytes; every operation but handing it back reads it as the list of its
    /// bytes as signed integers (Java's `byte[]`), as Neo4j does.
    Bytes(Arc<[u8]>),
    /// An ordered list of values.
    List(Vec<Value>),
    /// An ordered map (insertion order is kept, so output is deterministic).
    Map(Vec<(Arc<str>, Value)>),
}

/// The type of a [`Value`], used in parameter schemas and error messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueType {
    /// Any type is accepted.
    Any,
    /// [`Value::Null`].
    Null,
    /// [`Value::Bool`].
    Bool,
    /// [`Value::Int`].
    Int,
    /// [`Value::Float`].
    Float,
    /// [`Value::String`].
    String,
    /// [`Value::DateTime`].
    DateTime,
    /// [`Value::Temporal`].
    Temporal,
    /// [`Value::Point`].
    Point,
    /// [`Value::List`] whose elements all have the inner type.
    List(Box<ValueType>),
    /// [`Value::Map`].
    Map,
}

impl Value {
    /// The type of this value (lists report their first element's type, `Any` if empty).
    pub fn value_type(&self) -> ValueType {
        match self {
            Value::Null => ValueType::Null,
            Value::Bool(_) => ValueType::Bool,
            Value::Int(_) => ValueType::Int,
            Value::Float(_) => ValueType::Float,
            Value::String(_) => ValueType::String,
            Value::DateTime(_) => ValueType::DateTime,
            Value::Temporal(_) => ValueType::Temporal,
            Value::Point(_) => ValueType::Point,
            Value::Bytes(_) => ValueType::List(Box::new(ValueType::Int)),
            Value::List(items) => ValueType::List(Box::new(
                items.first().map_or(ValueType::Any, Value::value_type),
            )),
            Value::Map(_) => ValueType::Map,
        }
    }

    /// The integer, if this is an `Int`.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The string, if this is a `String`.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The epoch milliseconds, if this is a `DateTime`.
    pub fn as_datetime(&self) -> Option<i64> {
        match self {
            Value::DateTime(t) => Some(*t),
            _ => None,
        }
    }

    /// A temporal value.
    pub fn temporal(t: Temporal) -> Value {
        Value::Temporal(Arc::new(t))
    }

    /// The elements, if this is a `List`.
    pub fn as_list(&self) -> Option<&[Value]> {
        match self {
            Value::List(items) => Some(items),
            _ => None,
        }
    }

    /// A string value from anything string-like.
    pub fn string(s: impl Into<Str>) -> Value {
        Value::String(s.into())
    }
}

impl ValueType {
    /// Whether `value` is of this type (`Null` is accepted by no type but `Any`/`Null`).
    pub fn accepts(&self, value: &Value) -> bool {
        match (self, value) {
            (ValueType::Any, _) => true,
            (ValueType::List(inner), Value::List(items)) => items.iter().all(|v| inner.accepts(v)),
            (ValueType::List(inner), Value::Bytes(_)) => {
                matches!(**inner, ValueType::Any | ValueType::Int)
            }
            (expected, v) => *expected == v.value_type(),
        }
    }
}

impl fmt::Display for ValueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueType::Any => write!(f, "Any"),
            ValueType::Null => write!(f, "Null"),
            ValueType::Bool => write!(f, "Bool"),
            ValueType::Int => write!(f, "Int"),
            ValueType::Float => write!(f, "Float"),
            ValueType::String => write!(f, "String"),
            ValueType::DateTime => write!(f, "DateTime"),
            ValueType::Temporal => write!(f, "Temporal"),
            ValueType::Point => write!(f, "Point"),
            ValueType::List(inner) => write!(f, "List<{inner}>"),
            ValueType::Map => write!(f, "Map"),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => write!(f, "null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            // As Neo4j prints it (`5.0`, `1.0E20`), so a table cell says it is a float.
            Value::Float(x) => f.write_str(&java_double(*x)),
            Value::String(s) => write!(f, "{s}"),
            Value::DateTime(t) => write!(f, "{}", format_epoch_millis(*t)),
            Value::Temporal(t) => write!(f, "{t}"),
            Value::Point(p) => write!(f, "{p}"),
            Value::Bytes(bytes) => write!(f, "{:?}", signed(bytes).collect::<Vec<_>>()),
            Value::List(items) => {
                write!(f, "[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{v}")?;
                }
                write!(f, "]")
            }
            Value::Map(entries) => {
                write!(f, "{{")?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{k}: {v}")?;
                }
                write!(f, "}}")
            }
        }
    }
}

/// Every integer of at most this magnitude is exactly a float.
pub const EXACT_INTEGERS: u64 = 1 << 53;

/// Whether the numbers Cypher's `=` finds equal to `value` are itself and its
/// [`numeric_twin`] only: an integer within 2^53, or a float below it (the float
/// 2^53 is also what 2^53 + 1 rounds to). Not a number: false.
pub fn compares_exactly(value: &Value) -> bool {
    match value {
        Value::Int(i) => i.unsigned_abs() <= EXACT_INTEGERS,
        Value::Float(f) => f.abs() < EXACT_INTEGERS as f64,
        _ => false,
    }
}

/// The one value of the other number type equal to `value` by Cypher's `=` (`1.0`
/// for `1`, `1` for `1.0`), where [`compares_exactly`] holds and there is one.
pub fn numeric_twin(value: &Value) -> Option<Value> {
    if !compares_exactly(value) {
        return None;
    }
    match value {
        Value::Int(i) => Some(Value::Float(*i as f64)),
        Value::Float(f) if f.fract() == 0.0 => Some(Value::Int(*f as i64)),
        _ => None,
    }
}

/// A byte array's bytes as the integers Neo4j reads them as (Java's bytes are signed).
pub fn signed(bytes: &[u8]) -> impl ExactSizeIterator<Item = i64> + '_ {
    bytes.iter().map(|&b| i64::from(b as i8))
}

/// A float as Neo4j prints it (Java's `Double.toString`): the fewest digits that
/// read back as the same float, in plain notation with at least one decimal from
/// 10^-3 up to 10^7, and as `d.dddE±n` outside it (`1.5E10`, `1.0E-5`).
pub fn java_double(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let magnitude = x.abs();
    if magnitude == 0.0 || (1e-3..1e7).contains(&magnitude) {
        let plain = format!("{x}");
        return if plain.contains('.') {
            plain
        } else {
            plain + ".0"
        };
    }
    // `{:e}` gives the shortest digits too: 1.5e10, 1e-5.
    let scientific = format!("{x:e}");
    let (mantissa, exponent) = scientific
        .split_once('e')
        .expect("the e notation has an exponent");
    let mantissa = if mantissa.contains('.') {
        mantissa.to_owned()
    } else {
        format!("{mantissa}.0")
    };
    format!("{mantissa}E{exponent}")
}

/// Formats epoch milliseconds as an ISO-8601 UTC timestamp (`2010-03-04T05:06:07.089Z`).
pub fn format_epoch_millis(millis: i64) -> String {
    let secs = millis.div_euclid(1000);
    let ms = millis.rem_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{ms:03}Z",
        rem / 3600,
        (rem / 60) % 60,
        rem % 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian (year, month, day); Howard Hinnant's
/// algorithm, exact for every representable day.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_epoch_millis_as_utc() {
        assert_eq!(format_epoch_millis(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(
            format_epoch_millis(1_262_304_000_123),
            "2010-01-01T00:00:00.123Z"
        );
        assert_eq!(
            format_epoch_millis(951_782_400_000),
            "2000-02-29T00:00:00.000Z"
        );
        assert_eq!(format_epoch_millis(-1), "1969-12-31T23:59:59.999Z");
    }

    #[test]
    fn list_type_checks_every_element() {
        let ints = ValueType::List(Box::new(ValueType::Int));
        assert!(ints.accepts(&Value::List(vec![Value::Int(1), Value::Int(2)])));
        assert!(!ints.accepts(&Value::List(vec![Value::Int(1), Value::string("x")])));
        assert!(ints.accepts(&Value::List(vec![])));
        assert!(!ValueType::Int.accepts(&Value::Null));
    }
}
