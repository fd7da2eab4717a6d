//! What an index seek over a range of values asks a store for.

use std::ops::Bound;

use crate::{Crs, Value};

/// A range of property values an index may answer (`n.k > $a AND n.k <= $b`,
/// `n.k STARTS WITH $p`). A store answers with a superset of the nodes whose value
/// lies in it, of the bounds' kind of value (numbers, strings or instants): the
/// caller checks the predicate on each node it gets.
#[derive(Clone, Debug, PartialEq)]
pub enum ValueRange<'a> {
    /// Between two bounds; the lower one's kind of value decides what is searched.
    Between {
        /// The lower bound.
        lower: Bound<&'a Value>,
        /// The upper bound.
        upper: Bound<&'a Value>,
    },
    /// Strings starting with the prefix.
    Prefix(&'a str),
    /// Strings holding the part (`CONTAINS`).
    Contains(&'a str),
    /// Strings ending with the part (`ENDS WITH`).
    Suffix(&'a str),
    /// Points of one coordinate system whose x (longitude) lies from `x_from` to
    /// `x_to`, both included; `x_from` above `x_to` wraps round (a box across the
    /// antimeridian). What `point.withinBBox` and `point.distance(...) < r` narrow
    /// a search to.
    Within {
        /// The coordinate system.
        crs: Crs,
        /// The lowest x.
        x_from: f64,
        /// The highest x.
        x_to: f64,
    },
}
