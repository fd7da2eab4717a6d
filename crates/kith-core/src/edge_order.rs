//! Which adjacency lists a store keeps newest first, and by what.
//!
//! Most lists are sorted by neighbour, so a membership test is a binary search. A
//! few are read as "the newest k" (a person's messages, a message's replies, a
//! person's activities): kept ordered by the neighbour's date, descending, such a
//! read stops after k entries instead of reading the date of every neighbour.

use std::cmp::Reverse;

use crate::{ldbc_schema, shindig_schema, Direction, LabelId, PropKeyId, Value};

/// How [`crate::GraphView::neighbors`] orders one type's list in one direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeOrder {
    /// By `(neighbour, relationship)` ascending.
    ByNode,
    /// Neighbours carrying label `first` (if any) before the others; within each
    /// part by the neighbour's [`rank`] of `key` descending, then by `(neighbour,
    /// relationship)` ascending. Neighbours without the key come last in their part.
    NewestFirst {
        /// The property that orders a part.
        key: PropKeyId,
        /// The label whose neighbours form the first part.
        first: Option<LabelId>,
    },
}

/// The key a [`EdgeOrder::NewestFirst`] list sorts an edge by, ascending: whether the
/// neighbour is outside the first part, its rank descending, then the edge.
pub type SortKey = (bool, Reverse<i64>, crate::Edge);

/// [`SortKey`] of `edge` given whether its neighbour carries the first part's label
/// and the neighbour's value of the ordering key.
#[inline]
pub fn sort_key(in_first: bool, value: Option<&Value>, edge: crate::Edge) -> SortKey {
    (!in_first, Reverse(rank(value)), edge)
}

/// A list a store keeps newest first: relationships of `rel_type` seen in
/// `direction`, ordered by the neighbour's `key`, neighbours labelled `first` (if
/// any) before the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderRule {
    /// The relationship type's name.
    pub rel_type: &'static str,
    /// The direction the list is read in.
    pub direction: Direction,
    /// The neighbour's property that orders it.
    pub key: &'static str,
    /// A label whose neighbours come first, each part newest first: a query that
    /// wants only those (LDBC's posts among a person's messages) reads one run of
    /// the list, in slot order where the loader placed them so.
    pub first: Option<&'static str>,
}

/// The lists kept newest first: those the LDBC and Shindig procedures read as
/// "the newest k". A rule applies once its type and key both exist in a graph.
pub const ORDER_RULES: &[OrderRule] = &[
    // IS2, IC2, IC9: a person's newest messages.
    OrderRule {
        rel_type: ldbc_schema::rel::HAS_CREATOR,
        direction: Direction::In,
        key: ldbc_schema::key::CREATION_DATE,
        // IC4, IC5, IC6 and IC10 read only posts; in date order interleaved with
        // comments they ran 1.04-1.37x slower (docs/benchmarks.md, step 4).
        first: Some(ldbc_schema::label::POST),
    },
    // IS7 and thread walks: a message's newest replies (all comments).
    OrderRule {
        rel_type: ldbc_schema::rel::REPLY_OF,
        direction: Direction::In,
        key: ldbc_schema::key::CREATION_DATE,
        first: None,
    },
    // Shindig's activity queries (Q14-Q18): a person's newest activities.
    OrderRule {
        rel_type: shindig_schema::rel::PERFORMED,
        direction: Direction::Out,
        key: shindig_schema::key::POSTED_TIME,
        first: None,
    },
];

/// The number a [`EdgeOrder::NewestFirst`] list orders a neighbour by: an `Int` or
/// `DateTime` value as itself, anything else (or nothing) as `i64::MIN`, last.
#[inline]
pub fn rank(value: Option<&Value>) -> i64 {
    match value {
        Some(Value::Int(v) | Value::DateTime(v)) => *v,
        _ => i64::MIN,
    }
}
