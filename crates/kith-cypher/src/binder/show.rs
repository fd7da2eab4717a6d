//! `SHOW DATABASES` and its kin: kith serves one graph, `neo4j`, and over Bolt a
//! `system` database for administration (no graph of its own: the server admits to
//! it what needs none), and lists both in Neo4j's columns so drivers' tools that
//! look for their database find it.

use std::sync::Arc;

use crate::ast::{DatabasePick, Show};
use crate::value::Val;

/// The one database kith serves, by the name drivers use by default.
pub(crate) const DATABASE: &str = "neo4j";

/// The name of the database of administration commands (the server admits to it
/// what needs no graph).
pub(crate) const SYSTEM: &str = "system";

/// The rows `SHOW DATABASES` (`what`) answers, as maps of its columns: `neo4j`, then
/// `system`, as Neo4j lists them. The address is null: the engine does not know
/// where its clients reach it.
pub(crate) fn database_rows(what: &Show, pick: &DatabasePick) -> Val {
    let rows = [DATABASE, SYSTEM].into_iter().filter(|db| match pick {
        DatabasePick::All => true,
        DatabasePick::Named(name) => name.eq_ignore_ascii_case(db),
        DatabasePick::Default => *db == DATABASE,
    });
    let rows = rows.map(|db| database_row(what, db)).collect();
    Val::List(Arc::new(rows))
}

fn database_row(what: &Show, db: &str) -> Val {
    let s = Val::str;
    let none = || Val::List(Arc::new(Vec::new()));
    let graph = db == DATABASE;
    let row = what.columns().into_iter().map(|c| {
        let v = match c {
            "name" => s(db),
            "type" => s(if graph { "standard" } else { "system" }),
            "access" => s("read-write"),
            "role" => s("primary"),
            "writer" => Val::Bool(true),
            "default" | "home" => Val::Bool(graph),
            "requestedStatus" | "currentStatus" => s("online"),
            "statusMessage" => s(""),
            "aliases" | "constituents" => none(),
            _ => Val::Null,
        };
        (Arc::from(c), v)
    });
    Val::Map(Arc::new(row.collect()))
}
