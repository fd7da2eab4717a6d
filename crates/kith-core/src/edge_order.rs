//! Which adjacency lists a store keeps newest first, and by what.
//!
//! Most lists are sorted by neighbour, so a membership test is a binary search. A
//! few are read as "the newest k" (a person's messages, a message's replies, a
//! person's activities): kept ordered by the neighbour's date, descending, such a
//! read stops after k entries instead of reading the date of every neighbour.

use crate::{ldbc_schema, shindig_schema, Direction, PropKeyId, Value};

/// How [`crate::GraphView::neighbors`] orders one type's list in one direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeOrder {
    /// By `(neighbour, relationship)` ascending.
    ByNode,
    /// By the neighbour's [`rank`] of this property descending, then by
    /// `(neighbour, relationship)` ascending; neighbours without it come last.
    NewestFirst(PropKeyId),
}

/// A list a store keeps newest first: relationships of `rel_type` seen in
/// `direction`, ordered by the neighbour's `key`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderRule {
    /// The relationship type's name.
    pub rel_type: &'static str,
    /// The direction the list is read in.
    pub direction: Direction,
    /// The neighbour's property that orders it.
    pub key: &'static str,
}

/// The lists kept newest first: those the LDBC and Shindig procedures read as
/// "the newest k". A rule applies once its type and key both exist in a graph.
pub const ORDER_RULES: &[OrderRule] = &[
    // IS2, IC2, IC9: a person's newest messages.
    OrderRule {
        rel_type: ldbc_schema::rel::HAS_CREATOR,
        direction: Direction::In,
        key: ldbc_schema::key::CREATION_DATE,
    },
    // IS7 and thread walks: a message's newest replies.
    OrderRule {
        rel_type: ldbc_schema::rel::REPLY_OF,
        direction: Direction::In,
        key: ldbc_schema::key::CREATION_DATE,
    },
    // Shindig's activity queries (Q14-Q18): a person's newest activities.
    OrderRule {
        rel_type: shindig_schema::rel::PERFORMED,
        direction: Direction::Out,
        key: shindig_schema::key::POSTED_TIME,
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
