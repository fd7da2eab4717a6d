//! `valueType(x)`: a value's type as Neo4j 5 names it (`INTEGER NOT NULL`,
//! `LIST<STRING | INTEGER> NOT NULL`). A list's item type is the union of its items'
//! types, in Neo4j's order of types, each `NOT NULL` unless a null item stands among
//! them; an empty list's item type is `NOTHING`, which another list type absorbs.

use kith_core::Temporal;

use crate::ast::types::{CypherType, TypeKind};

use crate::value::Val;

/// The name of `v`'s type.
pub(super) fn value_type(v: &Val) -> String {
    match of(v) {
        None => "NULL".to_owned(),
        Some(t) => format!("{} NOT NULL", t.name()),
    }
}

/// A non-null type, ordered as Neo4j orders a union's members: by its rank, and a list
/// type by its item type.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Type {
    rank: u8,
    name: &'static str,
    items: Option<Union>,
}

/// A list's rank among the types (after MAP, before PATH).
const LIST: u8 = 15;

/// A list's item type: its members (sorted, distinct) and whether a null stands too.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Union {
    members: Vec<Type>,
    nullable: bool,
}

fn of(v: &Val) -> Option<Type> {
    let simple = |rank, name| Some(simple(rank, name));
    match v {
        Val::Null => None,
        Val::Bool(_) => simple(1, "BOOLEAN"),
        Val::Str(_) => simple(2, "STRING"),
        Val::Int(_) => simple(3, "INTEGER"),
        Val::Float(_) => simple(4, "FLOAT"),
        Val::DateTime(_) => simple(9, "ZONED DATETIME"),
        Val::Temporal(t) => Some(temporal(t)),
        Val::Point(_) => simple(11, "POINT"),
        Val::Node(_) => simple(12, "NODE"),
        Val::Rel(_) => simple(13, "RELATIONSHIP"),
        Val::Map(_) => simple(14, "MAP"),
        Val::List(items) => Some(Type {
            rank: LIST,
            name: "LIST",
            items: Some(union(items)),
        }),
        Val::Path(_) => simple(16, "PATH"),
        // Even an empty one: Neo4j types a byte array by its Java type.
        Val::Bytes(_) => Some(Type {
            rank: LIST,
            name: "LIST",
            items: Some(Union {
                members: vec![Type {
                    rank: 3,
                    name: "INTEGER",
                    items: None,
                }],
                nullable: false,
            }),
        }),
    }
}

fn simple(rank: u8, name: &'static str) -> Type {
    Type {
        rank,
        name,
        items: None,
    }
}

fn temporal(t: &Temporal) -> Type {
    let (rank, name) = match t {
        Temporal::Date(_) => (5, "DATE"),
        Temporal::LocalTime(_) => (6, "LOCAL TIME"),
        Temporal::Time(..) => (7, "ZONED TIME"),
        Temporal::LocalDateTime(_) => (8, "LOCAL DATETIME"),
        Temporal::DateTime(_) => (9, "ZONED DATETIME"),
        Temporal::Duration(_) => (10, "DURATION"),
    };
    simple(rank, name)
}

fn union(items: &[Val]) -> Union {
    let mut members: Vec<Type> = items.iter().filter_map(of).collect();
    members.sort();
    members.dedup();
    let nothing = |t: &Type| {
        t.items
            .as_ref()
            .is_some_and(|u| u.members.is_empty() && !u.nullable)
    };
    if members.iter().filter(|t| t.rank == LIST).count() > 1 {
        members.retain(|t| !nothing(t));
    }
    Union {
        members,
        nullable: items.iter().any(Val::is_null),
    }
}

impl Type {
    fn name(&self) -> String {
        match &self.items {
            None => self.name.to_owned(),
            Some(u) => format!("LIST<{}>", u.name()),
        }
    }
}

impl Union {
    fn name(&self) -> String {
        if self.members.is_empty() {
            return if self.nullable { "NULL" } else { "NOTHING" }.to_owned();
        }
        let suffix = if self.nullable { "" } else { " NOT NULL" };
        self.members
            .iter()
            .map(|t| format!("{}{suffix}", t.name()))
            .collect::<Vec<_>>()
            .join(" | ")
    }
}

/// Whether `v` belongs to type `t` (`v IS :: t`): null to every nullable type, a list
/// to `LIST<T>` when each item belongs to `T`, a value to `PROPERTY VALUE` when a
/// property could hold it.
pub(crate) fn conforms(v: &Val, t: &CypherType) -> bool {
    use TypeKind as K;
    if v.is_null() {
        // `ANY<NOTHING>` or `ANY<INTEGER NOT NULL>` holds no null: a union's
        // members decide as much as its own `NOT NULL`.
        return t.nullable
            && match &t.kind {
                TypeKind::Union(members) => members.iter().any(|m| conforms(v, m)),
                _ => true,
            };
    }
    match (&t.kind, v) {
        (K::Any, _) => true,
        (K::Union(members), _) => members.iter().any(|m| conforms(v, m)),
        (K::List(item), Val::List(items)) => items.iter().all(|i| conforms(i, item)),
        (K::List(item), Val::Bytes(_)) => conforms(&Val::Int(0), item),
        (K::PropertyValue, _) => storable(v),
        (K::Boolean, Val::Bool(_))
        | (K::String, Val::Str(_))
        | (K::Integer, Val::Int(_))
        | (K::Float, Val::Float(_))
        | (K::ZonedDateTime, Val::DateTime(_))
        | (K::Node, Val::Node(_))
        | (K::Relationship, Val::Rel(_))
        | (K::Map, Val::Map(_))
        | (K::Path, Val::Path(_))
        | (K::Point, Val::Point(_)) => true,
        (kind, Val::Temporal(tv)) => *kind == temporal_kind(tv),
        _ => false,
    }
}

fn temporal_kind(t: &Temporal) -> TypeKind {
    match t {
        Temporal::Date(_) => TypeKind::Date,
        Temporal::LocalTime(_) => TypeKind::LocalTime,
        Temporal::Time(..) => TypeKind::ZonedTime,
        Temporal::LocalDateTime(_) => TypeKind::LocalDateTime,
        Temporal::DateTime(_) => TypeKind::ZonedDateTime,
        Temporal::Duration(_) => TypeKind::Duration,
    }
}

/// What a property may hold: a scalar, or a list of non-null scalars of one type.
fn storable(v: &Val) -> bool {
    match v {
        Val::List(items) => {
            let first = items.first().and_then(of);
            items.iter().all(|i| scalar(i) && of(i) == first)
        }
        Val::Bytes(_) => true,
        other => scalar(other),
    }
}

fn scalar(v: &Val) -> bool {
    matches!(
        v,
        Val::Bool(_)
            | Val::Str(_)
            | Val::Int(_)
            | Val::Float(_)
            | Val::DateTime(_)
            | Val::Temporal(_)
            | Val::Point(_)
    )
}
