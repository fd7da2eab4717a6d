//! Spatial points as Neo4j 5 defines them: 2D or 3D, in a cartesian or the WGS-84
//! geographic coordinate reference system, each system named by its SRID.

use std::cmp::Ordering;

/// A coordinate reference system: Neo4j's four, by their SRIDs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Crs {
    /// WGS-84 longitude and latitude (SRID 4326).
    Wgs84,
    /// WGS-84 longitude, latitude and height in metres (SRID 4979).
    Wgs84_3d,
    /// Cartesian x and y (SRID 7203).
    Cartesian,
    /// Cartesian x, y and z (SRID 9157).
    Cartesian3d,
}

impl Crs {
    /// Every system, in SRID order (which is how Neo4j orders points of different ones).
    pub const ALL: [Crs; 4] = [Crs::Wgs84, Crs::Wgs84_3d, Crs::Cartesian, Crs::Cartesian3d];

    /// The EPSG (or SR-ORG) code Neo4j and Bolt name the system by.
    pub fn srid(self) -> i64 {
        match self {
            Crs::Wgs84 => 4326,
            Crs::Wgs84_3d => 4979,
            Crs::Cartesian => 7203,
            Crs::Cartesian3d => 9157,
        }
    }

    /// Cypher's name of the system, as `point(...).crs` answers it.
    pub fn name(self) -> &'static str {
        match self {
            Crs::Wgs84 => "wgs-84",
            Crs::Wgs84_3d => "wgs-84-3d",
            Crs::Cartesian => "cartesian",
            Crs::Cartesian3d => "cartesian-3d",
        }
    }

    /// The system with this SRID.
    pub fn from_srid(srid: i64) -> Option<Crs> {
        Crs::ALL.into_iter().find(|c| c.srid() == srid)
    }

    /// The system with this name (case-insensitive, as Neo4j reads `crs: 'WGS-84'`).
    pub fn from_name(name: &str) -> Option<Crs> {
        Crs::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name))
    }

    /// Whether points carry a third coordinate.
    pub fn is_3d(self) -> bool {
        matches!(self, Crs::Wgs84_3d | Crs::Cartesian3d)
    }

    /// Whether coordinates are longitude and latitude in degrees.
    pub fn is_geographic(self) -> bool {
        matches!(self, Crs::Wgs84 | Crs::Wgs84_3d)
    }

    /// The system Neo4j picks when none is named: WGS-84 for longitude and latitude,
    /// cartesian for x and y, 3D for three coordinates.
    pub fn unnamed(geographic: bool, dims: usize) -> Option<Crs> {
        let kind = if geographic {
            Crs::Wgs84
        } else {
            Crs::Cartesian
        };
        kind.with_dims(dims)
    }

    /// The system of the same kind with `dims` coordinates.
    pub fn with_dims(self, dims: usize) -> Option<Crs> {
        match (self.is_geographic(), dims) {
            (true, 2) => Some(Crs::Wgs84),
            (true, 3) => Some(Crs::Wgs84_3d),
            (false, 2) => Some(Crs::Cartesian),
            (false, 3) => Some(Crs::Cartesian3d),
            _ => None,
        }
    }
}

/// Why a point could not be made.
#[derive(Clone, Debug, PartialEq)]
pub enum PointError {
    /// The number of coordinates does not fit the system (`cartesian` with a z).
    Dimensions {
        /// The system asked for.
        crs: Crs,
        /// How many coordinates were given.
        given: usize,
    },
    /// A NaN or infinite coordinate.
    NotFinite(Vec<f64>),
    /// A WGS-84 latitude outside [-90, 90] (the longitude and latitude given).
    Latitude([f64; 2]),
}

impl std::fmt::Display for PointError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PointError::Dimensions { crs, given } => {
                let (has, other) = if crs.is_3d() {
                    ("3D", "2D")
                } else {
                    ("2D", "3D")
                };
                write!(
                    f,
                    "Cannot create point with {has} coordinate reference system and {given} \
                     coordinates. Please consider using equivalent {other} coordinate \
                     reference system"
                )
            }
            PointError::NotFinite(c) => write!(
                f,
                "Cannot create a point with non-finite coordinate values: {c:?}"
            ),
            PointError::Latitude([x, y]) => write!(
                f,
                "Cannot create WGS84 point with invalid coordinate: [{x:?}, {y:?}]. Valid \
                 range for Y coordinate is [-90, 90]."
            ),
        }
    }
}

/// A point: its system and its coordinates (x, y and, in 3D, z; in WGS-84 x is the
/// longitude and y the latitude). Two points are equal when their systems are and
/// their coordinates are bit for bit, as Neo4j's are: `-0.0` and `0.0` differ here,
/// though they are one float.
#[derive(Clone, Copy, Debug)]
pub struct Point {
    crs: Crs,
    coords: [f64; 3],
}

impl Point {
    /// A point in `crs` from its coordinates, as Neo4j makes one: a longitude outside
    /// [-180, 180] wraps around, a latitude outside [-90, 90] is refused.
    pub fn new(crs: Crs, coords: &[f64]) -> Result<Point, PointError> {
        let dims = if crs.is_3d() { 3 } else { 2 };
        if coords.len() != dims {
            return Err(PointError::Dimensions {
                crs,
                given: coords.len(),
            });
        }
        if coords.iter().any(|c| !c.is_finite()) {
            return Err(PointError::NotFinite(coords.to_vec()));
        }
        let mut c = [0.0; 3];
        c[..dims].copy_from_slice(coords);
        if crs.is_geographic() {
            if !(-90.0..=90.0).contains(&c[1]) {
                return Err(PointError::Latitude([c[0], c[1]]));
            }
            c[0] = wrap_longitude(c[0]);
        }
        Ok(Point { crs, coords: c })
    }

    /// Its coordinate reference system.
    pub fn crs(&self) -> Crs {
        self.crs
    }

    /// Its coordinates: two, or three in a 3D system.
    pub fn coords(&self) -> &[f64] {
        &self.coords[..if self.crs.is_3d() { 3 } else { 2 }]
    }

    /// The first coordinate (x, or the longitude).
    pub fn x(&self) -> f64 {
        self.coords[0]
    }

    /// The second coordinate (y, or the latitude).
    pub fn y(&self) -> f64 {
        self.coords[1]
    }

    /// The third coordinate (z, or the height), in a 3D system.
    pub fn z(&self) -> Option<f64> {
        self.crs.is_3d().then_some(self.coords[2])
    }

    /// Neo4j's order of points in ORDER BY: by system (SRID), then coordinate by
    /// coordinate. (`<` between points is null in Cypher; this order is for sorting.)
    pub fn order(&self, other: &Point) -> Ordering {
        self.crs.cmp(&other.crs).then_with(|| {
            self.coords()
                .iter()
                .zip(other.coords())
                .map(|(a, b)| a.total_cmp(b))
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
        })
    }
}

impl PartialEq for Point {
    fn eq(&self, other: &Point) -> bool {
        self.crs == other.crs
            && self
                .coords
                .iter()
                .zip(&other.coords)
                .all(|(a, b)| a.to_bits() == b.to_bits())
    }
}

impl std::fmt::Display for Point {
    /// Cypher's `toString`: `point({x: 1.0, y: 2.0, crs: 'cartesian'})`, a geographic
    /// point's longitude as x and latitude as y, as Neo4j prints them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let d = crate::java_double;
        write!(f, "point({{x: {}, y: {}", d(self.x()), d(self.y()))?;
        if let Some(z) = self.z() {
            write!(f, ", z: {}", d(z))?;
        }
        write!(f, ", crs: '{}'}})", self.crs.name())
    }
}

/// A longitude brought into [-180, 180], as Neo4j brings `longitude: 190` to -170.
fn wrap_longitude(x: f64) -> f64 {
    if (-180.0..=180.0).contains(&x) {
        return x;
    }
    let wrapped = (x + 180.0).rem_euclid(360.0) - 180.0;
    if wrapped == -180.0 && x > 0.0 {
        180.0
    } else {
        wrapped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn systems_round_trip_by_srid_and_name() {
        for crs in Crs::ALL {
            assert_eq!(Crs::from_srid(crs.srid()), Some(crs));
            assert_eq!(Crs::from_name(&crs.name().to_uppercase()), Some(crs));
        }
        assert_eq!(Crs::from_srid(1), None);
    }

    #[test]
    fn geographic_points_wrap_longitude_and_refuse_bad_latitude() {
        let p = Point::new(Crs::Wgs84, &[190.0, 2.0]).expect("a point");
        assert_eq!(p.x(), -170.0);
        assert_eq!(
            Point::new(Crs::Wgs84, &[540.0, 0.0]).map(|p| p.x()),
            Ok(180.0)
        );
        assert_eq!(
            Point::new(Crs::Wgs84, &[0.0, 100.0]),
            Err(PointError::Latitude([0.0, 100.0]))
        );
        assert!(matches!(
            Point::new(Crs::Wgs84, &[f64::INFINITY, 0.0]),
            Err(PointError::NotFinite(_))
        ));
        // Cartesian points take any finite coordinate.
        assert!(Point::new(Crs::Cartesian, &[190.0, 100.0]).is_ok());
    }

    #[test]
    fn points_print_as_neo4j_prints_them() {
        let p = Point::new(Crs::Cartesian, &[0.1, 1e20]).expect("a point");
        assert_eq!(
            p.to_string(),
            "point({x: 0.1, y: 1.0E20, crs: 'cartesian'})"
        );
        let p = Point::new(Crs::Wgs84_3d, &[1.0, 2.0, 3.0]).expect("a point");
        assert_eq!(
            p.to_string(),
            "point({x: 1.0, y: 2.0, z: 3.0, crs: 'wgs-84-3d'})"
        );
    }

    #[test]
    fn negative_zero_is_another_coordinate_as_on_neo4j() {
        let a = Point::new(Crs::Cartesian, &[-0.0, 0.0]).expect("a point");
        let b = Point::new(Crs::Cartesian, &[0.0, 0.0]).expect("a point");
        assert_ne!(a, b);
        assert_eq!(a, a);
    }

    #[test]
    fn coordinates_must_fit_the_system() {
        assert!(matches!(
            Point::new(Crs::Cartesian, &[1.0, 2.0, 3.0]),
            Err(PointError::Dimensions { given: 3, .. })
        ));
        let p = Point::new(Crs::Cartesian3d, &[1.0, 2.0, 3.0]).expect("a point");
        assert_eq!(p.coords(), [1.0, 2.0, 3.0]);
        assert_eq!(p.z(), Some(3.0));
    }

    #[test]
    fn points_order_by_system_then_coordinates() {
        let a = Point::new(Crs::Wgs84, &[1.0, 1.0]).expect("a point");
        let b = Point::new(Crs::Cartesian, &[1.0, 5.0]).expect("a point");
        let c = Point::new(Crs::Cartesian, &[3.0, 1.0]).expect("a point");
        assert_eq!(a.order(&b), Ordering::Less);
        assert_eq!(b.order(&c), Ordering::Less);
        assert_eq!(c.order(&c), Ordering::Equal);
    }
}
