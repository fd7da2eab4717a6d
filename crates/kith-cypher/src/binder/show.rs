//! `SHOW DATABASES` and its kin: kith serves one database, `neo4j`, and lists it in
//! Neo4j's columns so drivers' tools that look for their database find it. There is
//! no `system` database to list (Bolt refuses any other name).

use std::sync::Arc;

use crate::ast::{DatabasePick, Show};
use crate::value::Val;

/// The one database kith serves, by the name drivers use by default.
pub(crate) const DATABASE: &str = "neo4j";

/// The rows `SHOW DATABASES` (`what`) answers, as maps of its columns. The address is
/// null: the engine does not know where its clients reach it.
pub(crate) fn database_rows(what: &Show, pick: &DatabasePick) -> Val {
    if let DatabasePick::Named(name) = pick {
        if !name.eq_ignore_ascii_case(DATABASE) {
            return Val::List(Arc::new(Vec::new()));
        }
    }
    let s = Val::str;
    let none = || Val::List(Arc::new(Vec::new()));
    let row = what.columns().into_iter().map(|c| {
        let v = match c {
            "name" => s(DATABASE),
            "type" => s("standard"),
            "access" => s("read-write"),
            "role" => s("primary"),
            "writer" | "default" | "home" => Val::Bool(true),
            "requestedStatus" | "currentStatus" => s("online"),
            "statusMessage" => s(""),
            "aliases" | "constituents" => none(),
            _ => Val::Null,
        };
        (Arc::from(c), v)
    });
    Val::List(Arc::new(vec![Val::Map(Arc::new(row.collect()))]))
}
