//! `point(map)`, `point.distance` and `point.withinBBox`, and a point's fields
//! (`p.x`, `p.latitude`, `p.crs`...), answered as Neo4j 5.26 answers them.

use std::sync::Arc;

use kith_core::{Crs, GraphView, Point};

use super::Function;
use crate::error::{CypherError, ErrorCode, Result};
use crate::value::Val;

/// Neo4j's earth radius for geographic distances, in metres.
const EARTH_RADIUS_METRES: f64 = 6_378_140.0;

/// Calls one of the spatial functions; a null or non-point argument of `distance` or
/// `withinBBox` answers null, as on Neo4j.
pub(super) fn call(f: Function, args: &[Val], graph: &dyn GraphView) -> Result<Val> {
    match f {
        Function::Point => point(&args[0], graph),
        Function::PointDistance => Ok(match (&args[0], &args[1]) {
            (Val::Point(a), Val::Point(b)) => distance(a, b).map_or(Val::Null, Val::Float),
            _ => Val::Null,
        }),
        _ => Ok(match (&args[0], &args[1], &args[2]) {
            (Val::Point(p), Val::Point(low), Val::Point(high)) => {
                within(p, low, high).map_or(Val::Null, Val::Bool)
            }
            _ => Val::Null,
        }),
    }
}

/// `point({x, y[, z][, crs | srid]})` or `point({longitude, latitude[, height]...})`,
/// from a map or an element's properties; null when any entry is null.
fn point(arg: &Val, graph: &dyn GraphView) -> Result<Val> {
    let entries: Vec<(Arc<str>, Val)> = match arg {
        Val::Null => return Ok(Val::Null),
        Val::Map(m) => m.to_vec(),
        Val::Node(_) | Val::Rel(_) => {
            match super::call(Function::Properties, std::slice::from_ref(arg), graph)? {
                Val::Map(m) => m.to_vec(),
                _ => return Ok(Val::Null),
            }
        }
        other => {
            return Err(CypherError::type_error(format!(
                "point() expects a map, node or relationship, got a {}",
                other.type_name()
            )))
        }
    };
    if entries.iter().any(|(_, v)| v.is_null()) {
        return Ok(Val::Null);
    }
    let get = |name: &str| entries.iter().find(|(k, _)| &**k == name).map(|(_, v)| v);
    let (names, geographic) = if get("x").is_some() && get("y").is_some() {
        (["x", "y", "z", "z"], false)
    } else if get("longitude").is_some() && get("latitude").is_some() {
        (["longitude", "latitude", "height", "z"], true)
    } else {
        return Err(not_a_point(&entries));
    };
    let mut coords = vec![number(get(names[0]))?, number(get(names[1]))?];
    if let Some(third) = get(names[2]).or_else(|| get(names[3])) {
        coords.push(number(Some(third))?);
    }
    let crs = match system(get("crs"), get("srid"))? {
        Some(crs) if geographic && !crs.is_geographic() => {
            return Err(argument(format!(
                "Geographic points does not support coordinate reference system: {}",
                crs.name()
            )))
        }
        Some(crs) => crs,
        // Without a named system the keys and the number of coordinates choose one.
        None => Crs::unnamed(geographic, coords.len()).expect("two or three coordinates"),
    };
    Point::new(crs, &coords)
        .map(|p| Val::Point(Arc::new(p)))
        .map_err(|e| argument(e.to_string()))
}

fn not_a_point(entries: &[(Arc<str>, Val)]) -> CypherError {
    let keys: Vec<String> = entries.iter().map(|(k, _)| format!("'{k}'")).collect();
    CypherError::new(
        ErrorCode::SyntaxError,
        format!(
            "A map with keys {} is not describing a valid point, a point is described either \
             by using cartesian coordinates e.g. {{x: 2.3, y: 4.5, crs: 'cartesian'}} or using \
             geographic coordinates e.g. {{latitude: 12.78, longitude: 56.7, crs: 'WGS-84'}}.",
            keys.join(", ")
        ),
    )
}

/// The system a `crs` name or an `srid` code names, if either is given.
fn system(crs: Option<&Val>, srid: Option<&Val>) -> Result<Option<Crs>> {
    match (crs, srid) {
        (Some(_), Some(_)) => Err(argument("Cannot specify both CRS and SRID".into())),
        (Some(Val::Str(name)), None) => Crs::from_name(name)
            .map(Some)
            .ok_or_else(|| argument(format!("Unknown coordinate reference system: {name}"))),
        (None, Some(Val::Int(code))) => Crs::from_srid(*code)
            .map(Some)
            .ok_or_else(|| argument(format!("Unknown coordinate reference system: code={code}"))),
        (Some(other), None) | (None, Some(other)) => Err(argument(format!(
            "Cannot assign {} to a point's coordinate reference system",
            other.type_name()
        ))),
        (None, None) => Ok(None),
    }
}

fn number(v: Option<&Val>) -> Result<f64> {
    match v {
        Some(Val::Int(i)) => Ok(*i as f64),
        Some(Val::Float(x)) => Ok(*x),
        Some(other) => Err(argument(format!(
            "Cannot assign {} to a point's coordinate",
            other.type_name()
        ))),
        None => Ok(0.0),
    }
}

fn argument(message: String) -> CypherError {
    CypherError::new(ErrorCode::ArgumentError, message)
}

/// The distance between two points of one system: straight in a cartesian one, along
/// the great circle (haversine, at the mean height in 3D) in WGS-84; `None` across
/// systems.
fn distance(a: &Point, b: &Point) -> Option<f64> {
    if a.crs() != b.crs() {
        return None;
    }
    if !a.crs().is_geographic() {
        let sum: f64 = a
            .coords()
            .iter()
            .zip(b.coords())
            .map(|(p, q)| (p - q) * (p - q))
            .sum();
        return Some(sum.sqrt());
    }
    let angle = central_angle(a, b);
    Some(match (a.z(), b.z()) {
        (Some(za), Some(zb)) => {
            let flat = (EARTH_RADIUS_METRES + (za + zb) / 2.0) * angle;
            (flat * flat + (zb - za) * (zb - za)).sqrt()
        }
        _ => EARTH_RADIUS_METRES * angle,
    })
}

/// The x (longitude) range holding every point of `center`'s system within
/// `radius` of it (as [`distance`] measures), widened a little for rounding:
/// `from > to` wraps round the antimeridian, infinite bounds take every x. What an
/// index seek of `point.distance(n.p, c) < r` searches.
pub(crate) fn x_range_within(center: &Point, radius: f64) -> (f64, f64) {
    const EVERY_X: (f64, f64) = (f64::NEG_INFINITY, f64::INFINITY);
    if !center.crs().is_geographic() {
        let margin = (radius.abs() + center.x().abs()) * 1e-9;
        return (center.x() - radius - margin, center.x() + radius + margin);
    }
    // In 3D the distance is taken at the points' mean height: any angle may be in reach.
    if center.z().is_some() {
        return EVERY_X;
    }
    let angle = radius / EARTH_RADIUS_METRES;
    let lat = center.y().to_radians();
    // A circle over a pole holds every longitude.
    if lat.abs() + angle >= std::f64::consts::FRAC_PI_2 {
        return EVERY_X;
    }
    let d_lon = (angle.sin() / lat.cos()).asin().to_degrees() * (1.0 + 1e-9) + 1e-6;
    if d_lon >= 180.0 {
        return EVERY_X;
    }
    let (mut from, mut to) = (center.x() - d_lon, center.x() + d_lon);
    if from < -180.0 {
        from += 360.0;
    }
    if to > 180.0 {
        to -= 360.0;
    }
    (from, to)
}

/// The angle between two geographic points seen from the earth's centre (radians).
fn central_angle(a: &Point, b: &Point) -> f64 {
    let (lat1, lat2) = (a.y().to_radians(), b.y().to_radians());
    let d_lat = lat2 - lat1;
    let d_lon = (b.x() - a.x()).to_radians();
    let h = (d_lat / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (d_lon / 2.0).sin().powi(2);
    2.0 * h.sqrt().atan2((1.0 - h).sqrt())
}

/// Whether `p` lies in the box from `low` to `high` (its edges included); a
/// geographic box whose low longitude is east of its high one crosses the 180th
/// meridian. `None` across systems.
fn within(p: &Point, low: &Point, high: &Point) -> Option<bool> {
    if p.crs() != low.crs() || p.crs() != high.crs() {
        return None;
    }
    let (c, lo, hi) = (p.coords(), low.coords(), high.coords());
    let x = if p.crs().is_geographic() && lo[0] > hi[0] {
        c[0] >= lo[0] || c[0] <= hi[0]
    } else {
        lo[0] <= c[0] && c[0] <= hi[0]
    };
    Some(x && (1..c.len()).all(|i| lo[i] <= c[i] && c[i] <= hi[i]))
}

/// A point's field, its name read case-insensitively as Neo4j reads it.
pub(crate) fn field(p: &Point, name: &str) -> Result<Val> {
    let geographic = p.crs().is_geographic();
    let lower = name.to_ascii_lowercase();
    let value = match lower.as_str() {
        "x" => Some(p.x()),
        "y" => Some(p.y()),
        "z" => p.z(),
        "longitude" if geographic => Some(p.x()),
        "latitude" if geographic => Some(p.y()),
        "height" if geographic => p.z(),
        "crs" => return Ok(Val::str(p.crs().name())),
        "srid" => return Ok(Val::Int(p.crs().srid())),
        "longitude" | "latitude" | "height" => {
            return Err(argument(format!(
                "Field: {name} is not available on cartesian point: {p}"
            )))
        }
        _ => return Err(argument(format!("No such field: {name}"))),
    };
    value
        .map(Val::Float)
        .ok_or_else(|| argument(format!("Field: {name} is not available on point: {p}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geo(lon: f64, lat: f64) -> Point {
        Point::new(Crs::Wgs84, &[lon, lat]).expect("a point")
    }

    #[test]
    fn geographic_distances_are_neo4j_s() {
        // Neo4j 5.26's answers, to 12 digits.
        let d = distance(&geo(0.0, 0.0), &geo(1.0, 1.0)).expect("one system");
        assert!((d - 157_425.611_154_581_2).abs() < 1e-6, "{d}");
        let d = distance(&geo(-0.12, 51.5), &geo(2.35, 48.85)).expect("one system");
        assert!((d - 343_512.422_329_525_1).abs() < 1e-6, "{d}");
    }

    #[test]
    fn boxes_across_the_antimeridian_wrap() {
        let (low, high) = (geo(170.0, -10.0), geo(-170.0, 10.0));
        assert_eq!(within(&geo(179.0, 0.0), &low, &high), Some(true));
        assert_eq!(within(&geo(0.0, 0.0), &low, &high), Some(false));
    }
}
