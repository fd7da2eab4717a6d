//! `dbms.components()`: what the server is, as Neo4j answers it. Drivers' tools and
//! libraries (langchain-neo4j, Neo4j's browser) read the first row's version to
//! decide which Cypher to send, so it names the Neo4j release whose language and
//! protocol kith answers as (the version Bolt's HELLO names), then kith itself.
//! With it the other procedures tools call on connecting: `db.ping()` (is this a
//! database) and `dbms.queryJmx(query)` (cypher-shell's `:sysinfo` asks it for
//! Neo4j's metrics).

use kith_core::Value;

use crate::params::{ParamSpec, ParamType};
use crate::{Procedure, ResultSet};

/// The Neo4j release kith answers as: the Bolt HELLO's `server` names it too.
pub const NEO4J_VERSION: &str = "5.26.0";

/// The procedure.
pub fn procedures() -> Vec<Procedure> {
    vec![COMPONENTS, PING, QUERY_JMX]
}

const PING: Procedure = Procedure {
    name: "db.ping",
    description: "Always true: a client that can call it is connected to a database",
    params: &[],
    columns: &["success"],
    run: |_, _| {
        let mut out = ResultSet::new(PING.columns);
        out.push([Value::Bool(true)]);
        Ok(out)
    },
};

/// kith runs in no JVM and has no JMX beans: every query matches none, as Neo4j
/// Community answers the metrics names cypher-shell asks (metrics are Enterprise's).
const QUERY_JMX: Procedure = Procedure {
    name: "dbms.queryJmx",
    description: "JMX beans matching a query: kith has none, so no rows",
    params: &[ParamSpec::required(
        "query",
        ParamType::String,
        "A JMX object-name pattern, such as `*:*`",
    )],
    columns: &["name", "description", "attributes"],
    run: |_, params| {
        params.string("query")?;
        Ok(ResultSet::new(QUERY_JMX.columns))
    },
};

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
