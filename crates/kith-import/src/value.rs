//! Fields as property values, by their column's type.

use std::sync::Arc;

use kith_core::temporal::{self, Temporal};
use kith_core::{Crs, Point, Str, Value};

use crate::header::PropType;

/// How fields become values, beyond their type.
#[derive(Clone, Copy, Debug)]
pub struct FieldRules {
    /// Between an array's elements.
    pub array_delimiter: u8,
    /// `""` is no value rather than an empty string.
    pub ignore_empty_strings: bool,
    /// Unquoted strings lose surrounding spaces.
    pub trim_strings: bool,
}

/// A field's value; `Ok(None)` when the field gives no property (it is empty). The
/// error says why the text is not a value of the type.
pub fn value(
    bytes: &[u8],
    quoted: bool,
    ty: PropType,
    array: bool,
    rules: FieldRules,
) -> Result<Option<Value>, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "the field is not UTF-8 text".to_owned())?;
    let stringy = matches!(ty, PropType::String | PropType::Char);
    let text = if !stringy || (rules.trim_strings && !quoted) {
        text.trim()
    } else {
        text
    };
    if text.is_empty() {
        let keep = quoted && stringy && !array && !rules.ignore_empty_strings;
        return Ok(keep.then(|| Value::String(Str::new(""))));
    }
    if array {
        let delimiter = char::from(rules.array_delimiter);
        let items = text
            .split(delimiter)
            .map(|item| scalar(if stringy { item } else { item.trim() }, ty))
            .collect::<Result<Vec<_>, _>>()?;
        one_system(&items)?;
        if ty == PropType::Int(8) {
            // `byte[]` is a byte array, as Neo4j's importer stores it.
            let bytes = items
                .iter()
                .filter_map(Value::as_int)
                .map(|b| b as i8 as u8);
            return Ok(Some(Value::Bytes(bytes.collect())));
        }
        return Ok(Some(Value::List(items)));
    }
    scalar(text, ty).map(Some)
}

fn scalar(text: &str, ty: PropType) -> Result<Value, String> {
    match ty {
        PropType::Int(bits) => int(text, bits),
        PropType::Float => text
            .parse::<f64>()
            .map(Value::Float)
            .map_err(|_| format!("`{text}` is not a number")),
        PropType::Boolean => match text {
            _ if text.eq_ignore_ascii_case("true") => Ok(Value::Bool(true)),
            _ if text.eq_ignore_ascii_case("false") => Ok(Value::Bool(false)),
            _ => Err(format!("`{text}` is not true or false")),
        },
        PropType::Char if text.chars().count() != 1 => {
            Err(format!("`{text}` is not one character"))
        }
        PropType::Char | PropType::String => Ok(Value::String(Str::new(text))),
        PropType::Temporal(kind) => {
            let t = temporal::parse::parse(kind, text).map_err(|e| e.to_string())?;
            // A UTC instant to the millisecond is kept in kith's 8-byte form: the two
            // are the same value to every query (see `Temporal::utc_epoch_millis`).
            Ok(match t.utc_epoch_millis() {
                Some(ms) => Value::DateTime(ms),
                None => Value::Temporal(Arc::new(t)),
            })
        }
        PropType::Duration => temporal::parse::duration(text)
            .map(|d| Value::Temporal(Arc::new(Temporal::Duration(d))))
            .map_err(|e| e.to_string()),
        PropType::Point => point(text).map(|p| Value::Point(Arc::new(p))),
    }
}

/// A property's points share one coordinate system, as Cypher stores them.
fn one_system(items: &[Value]) -> Result<(), String> {
    let mut systems = items.iter().filter_map(|v| match v {
        Value::Point(p) => Some(p.crs()),
        _ => None,
    });
    match systems.next() {
        Some(first) if systems.any(|c| c != first) => {
            Err("an array's points must share one coordinate reference system".to_owned())
        }
        _ => Ok(()),
    }
}

/// `{x: 1.0, y: 2.0[, z: 3.0][, crs: 'cartesian' | srid: 7203]}`, or the same with
/// `longitude`, `latitude` and `height` (WGS-84 unless a system is named).
fn point(text: &str) -> Result<Point, String> {
    let bad = || format!("`{text}` is not a point (`{{x: 1.0, y: 2.0, crs: 'cartesian'}}`)");
    let body = text
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .ok_or_else(bad)?;
    let mut fields: Vec<(String, String)> = Vec::new();
    for entry in body.split(',') {
        let (k, v) = entry.split_once(':').ok_or_else(bad)?;
        let v = v.trim().trim_matches(|c| c == '\'' || c == '"');
        fields.push((k.trim().to_ascii_lowercase(), v.to_owned()));
    }
    let get = |name: &str| {
        fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let geographic = get("x").is_none() && get("longitude").is_some();
    let names = if geographic {
        ["longitude", "latitude", "height"]
    } else {
        ["x", "y", "z"]
    };
    let mut coords = Vec::new();
    for (i, name) in names.into_iter().enumerate() {
        match get(name) {
            Some(v) => coords.push(
                v.parse::<f64>()
                    .map_err(|_| format!("{name} `{v}` is not a number"))?,
            ),
            None if i < 2 => return Err(bad()),
            None => {}
        }
    }
    let crs = match (get("crs"), get("srid")) {
        (Some(name), _) => Crs::from_name(name)
            .ok_or_else(|| format!("unknown coordinate reference system `{name}`"))?,
        (None, Some(code)) => code
            .parse()
            .ok()
            .and_then(Crs::from_srid)
            .ok_or_else(|| format!("unknown SRID `{code}`"))?,
        (None, None) => Crs::unnamed(geographic, coords.len()).expect("two or three coordinates"),
    };
    Point::new(crs, &coords).map_err(|e| e.to_string())
}

fn int(text: &str, bits: u32) -> Result<Value, String> {
    let n: i64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not an integer"))?;
    let fits = bits >= 64 || (n >= -(1i64 << (bits - 1)) && n < (1i64 << (bits - 1)));
    if !fits {
        let name = match bits {
            8 => "byte",
            16 => "short",
            _ => "int",
        };
        return Err(format!(
            "`{text}` does not fit a {name} ({bits} bits; use long)"
        ));
    }
    Ok(Value::Int(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: FieldRules = FieldRules {
        array_delimiter: b';',
        ignore_empty_strings: false,
        trim_strings: false,
    };

    fn v(text: &str, quoted: bool, ty: PropType, array: bool) -> Result<Option<Value>, String> {
        value(text.as_bytes(), quoted, ty, array, RULES)
    }

    #[test]
    fn scalars_by_type() {
        assert_eq!(
            v("42", false, PropType::Int(64), false),
            Ok(Some(Value::Int(42)))
        );
        assert_eq!(
            v(" 7 ", false, PropType::Int(32), false),
            Ok(Some(Value::Int(7)))
        );
        assert_eq!(
            v("2.5", false, PropType::Float, false),
            Ok(Some(Value::Float(2.5)))
        );
        assert_eq!(
            v("TRUE", false, PropType::Boolean, false),
            Ok(Some(Value::Bool(true)))
        );
        assert_eq!(
            v(" a b ", false, PropType::String, false),
            Ok(Some(Value::String(Str::new(" a b "))))
        );
        assert!(v("300", false, PropType::Int(8), false)
            .expect_err("overflow")
            .contains("byte"));
        assert!(v("x", false, PropType::Int(64), false)
            .expect_err("bad")
            .contains("`x` is not an integer"));
        assert!(v("ab", false, PropType::Char, false).is_err());
    }

    #[test]
    fn empty_fields_are_absent_and_quoted_empty_strings_kept() {
        assert_eq!(v("", false, PropType::String, false), Ok(None));
        assert_eq!(
            v("", true, PropType::String, false),
            Ok(Some(Value::String(Str::new(""))))
        );
        assert_eq!(v("", false, PropType::Int(64), false), Ok(None));
        let rules = FieldRules {
            ignore_empty_strings: true,
            ..RULES
        };
        assert_eq!(value(b"", true, PropType::String, false, rules), Ok(None));
    }

    #[test]
    fn arrays_split_on_the_array_delimiter() {
        assert_eq!(
            v("1;2;3", false, PropType::Int(64), true),
            Ok(Some(Value::List(vec![
                Value::Int(1),
                Value::Int(2),
                Value::Int(3)
            ])))
        );
        assert!(v("1;x", false, PropType::Int(64), true).is_err());
    }

    #[test]
    fn points_read_as_neo4j_s_importer_reads_them() {
        let p = |t: &str| match v(t, true, PropType::Point, false) {
            Ok(Some(Value::Point(p))) => Ok(*p),
            other => Err(format!("{other:?}")),
        };
        let cartesian = p("{x: 1.0, y: 2.0, crs: 'cartesian'}").expect("a point");
        assert_eq!(
            (cartesian.crs(), cartesian.coords()),
            (Crs::Cartesian, &[1.0, 2.0][..])
        );
        let geo = p("{latitude: 55.5, longitude: 12.5, height: 3}").expect("a point");
        assert_eq!(
            (geo.crs(), geo.coords()),
            (Crs::Wgs84_3d, &[12.5, 55.5, 3.0][..])
        );
        let srid = p("{x: 1, y: 2, z: 3, srid: 9157}").expect("a point");
        assert_eq!(srid.crs(), Crs::Cartesian3d);
        for bad in [
            "1, 2",
            "{x: 1}",
            "{x: a, y: 2}",
            "{x: 1, y: 2, crs: 'mars'}",
            "{longitude: 1, latitude: 100}",
        ] {
            assert!(p(bad).is_err(), "{bad}");
        }
        let mixed = v(
            "{x: 1, y: 2};{latitude: 1, longitude: 2}",
            true,
            PropType::Point,
            true,
        );
        assert!(mixed.is_err(), "{mixed:?}");
        // An array of points splits on the array delimiter.
        let list = v("{x: 1, y: 2};{x: 3, y: 4}", true, PropType::Point, true).expect("points");
        assert!(matches!(list, Some(Value::List(items)) if items.len() == 2));
    }

    #[test]
    fn utc_millisecond_datetimes_are_instants() {
        let ty = PropType::Temporal(temporal::Kind::DateTime);
        assert_eq!(
            v("1970-01-01T00:00:01.500Z", false, ty, false),
            Ok(Some(Value::DateTime(1500)))
        );
        assert!(matches!(
            v("2020-05-01T10:00+02:00", false, ty, false),
            Ok(Some(Value::Temporal(_)))
        ));
        assert!(matches!(
            v(
                "2020-05-01",
                false,
                PropType::Temporal(temporal::Kind::Date),
                false
            ),
            Ok(Some(Value::Temporal(_)))
        ));
        assert!(matches!(
            v("P1DT2H", false, PropType::Duration, false),
            Ok(Some(Value::Temporal(_)))
        ));
        assert!(v("yesterday", false, ty, false).is_err());
    }
}
