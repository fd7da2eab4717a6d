//! `dbms.components()`: what the server is, as Neo4j answers it. Drivers' tools and
//! libraries (langchain-neo4j, Neo4j's browser) read the first row's version to
//! decide which Cypher to send, so it names the Neo4j release whose language and
//! protocol kith answers as (the version Bolt's HELLO names), then kith itself.

use kith_core::Value;

use crate::{Procedure, ResultSet};

/// The Neo4j release kith answers as: the Bolt HELLO's `server` names it too.
pub const NEO4J_VERSION: &str = "5.26.0";

/// The procedure.
pub fn procedures() -> Vec<Procedure> {
    vec![COMPONENTS]
}

const COMPONENTS: Procedure = Procedure {
    name: "dbms.components",
    description: "The Neo4j release kith answers as, then kith's own version",
    params: &[],
    columns: &["name", "versions", "edition"],
    run: |_, _| {
        let row = |name: &str, version: &str| {
            [
                Value::string(name),
                Value::List(vec![Value::string(version)]),
                Value::string("community"),
            ]
        };
        let mut out = ResultSet::new(COMPONENTS.columns);
        out.push(row("Neo4j Kernel", NEO4J_VERSION));
        out.push(row("kith", env!("CARGO_PKG_VERSION")));
        Ok(out)
    },
};
