//! Bolt's `system` database, as far as kith has one: Neo4j's tools switch to it for
//! administration (cypher-shell's `:use system`, Neo4j Browser's listings), so a
//! session may name it, and it admits what Neo4j's admits that kith can answer
//! without a graph: `SHOW DATABASES` and its kin, `SHOW PROCEDURES`, `SHOW` /
//! `TERMINATE TRANSACTIONS`, and `CALL` of the procedures that read no graph
//! (`dbms.*`, `db.ping`, `tx.*`). Everything else is refused in Neo4j's words.

use kith_cypher::ast::{Clause, Show, Statement};
use kith_protocol::bolt::Pack;

use super::failure::Failure;

/// A database a Bolt request names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Db {
    /// `neo4j`, the graph (and the default).
    Neo4j,
    /// `system`.
    System,
}

impl Db {
    /// The database a request's `db` names (none: the default); database names
    /// are case-insensitive, as in Neo4j.
    pub(super) fn of(extra: &Pack) -> Result<Db, Failure> {
        match extra.get("db") {
            None | Some(Pack::Null) => Db::named(None),
            Some(Pack::String(db)) => Db::named(Some(db)),
            Some(_) => Err(Failure::new(
                "Neo.ClientError.Request.Invalid",
                "`db` must be a database name (a string)",
            )),
        }
    }

    /// The database `name` names (none: the default).
    pub(super) fn named(name: Option<&str>) -> Result<Db, Failure> {
        match name {
            None => Ok(Db::Neo4j),
            Some(db) if db.eq_ignore_ascii_case("neo4j") => Ok(Db::Neo4j),
            Some(db) if db.eq_ignore_ascii_case("system") => Ok(Db::System),
            Some(db) => Err(not_found(db)),
        }
    }

    /// Its name, as summaries report it.
    pub(super) fn name(self) -> &'static str {
        match self {
            Db::Neo4j => "neo4j",
            Db::System => "system",
        }
    }
}

fn not_found(db: &str) -> Failure {
    Failure::new(
        "Neo.ClientError.Database.DatabaseNotFound",
        format!("Graph not found: {db} (kith serves `neo4j`, and `system` for administration)"),
    )
}

/// Whether the `system` database runs `query`; the refusal says why not. A text
/// that does not parse is let through: running it reports its own syntax error.
pub(super) fn admit(query: &str) -> Result<(), Failure> {
    if crate::admin::parse(query).is_some() {
        return Ok(());
    }
    let Ok(statement) = kith_cypher::statement_of(query) else {
        return Ok(());
    };
    admit_statement(&statement, query)
}

fn admit_statement(statement: &Statement, query: &str) -> Result<(), Failure> {
    let clauses = &statement.query.clauses;
    match clauses.as_slice() {
        [Clause::Show(Show::Databases(_) | Show::Procedures, _)] if statement.unions.is_empty() => {
            Ok(())
        }
        [Clause::Show(what, _)] => Err(refused(format!(
            "The following commands are not allowed on a system database: SHOW {}.",
            what.noun()
        ))),
        [Clause::Call(call), rest @ ..]
            if statement.unions.is_empty()
                && rest.iter().all(|c| matches!(c, Clause::Return(_))) =>
        {
            match reads_no_graph(&call.name) {
                true => Ok(()),
                false => Err(refused(format!(
                    "kith's system database holds no graph, and `{}` reads one: call it on \
                     the database `neo4j`",
                    call.name
                ))),
            }
        }
        _ => match clauses
            .iter()
            .find(|c| !matches!(c, Clause::Call(_) | Clause::Return(_)))
        {
            Some(clause) => Err(refused(format!(
                "The following unsupported clauses were used: {}. \nThe system database \
                 supports a restricted set of Cypher clauses. The supported clause structure \
                 for procedure calls is: CALL, YIELD, RETURN. YIELD and RETURN clauses are \
                 optional. The order of the clauses is fixed and each can only occur once.",
                keyword(clause)
            ))),
            None => Err(refused(format!(
                "Not a recognised system command or procedure. This Cypher command can only \
                 be executed in a user database: {}",
                query.trim()
            ))),
        },
    }
}

/// The procedures whose answer does not depend on a graph.
fn reads_no_graph(name: &str) -> bool {
    name.starts_with("dbms.") || name.starts_with("tx.") || name == "db.ping"
}

/// The keyword a clause is written with.
fn keyword(clause: &Clause) -> &'static str {
    match clause {
        Clause::Match(m) if m.optional => "OPTIONAL MATCH",
        Clause::Match(_) => "MATCH",
        Clause::Unwind { .. } => "UNWIND",
        Clause::With(_) => "WITH",
        Clause::Return(_) => "RETURN",
        Clause::Create(_) => "CREATE",
        Clause::Set(_) => "SET",
        Clause::Remove(_) => "REMOVE",
        Clause::Delete { .. } => "DELETE",
        Clause::Merge(_) => "MERGE",
        Clause::Call(_) | Clause::Subquery(_) => "CALL",
        Clause::Show(..) => "SHOW",
        Clause::Schema(_) => "a schema command",
        Clause::Foreach { .. } => "FOREACH",
    }
}

fn refused(message: String) -> Failure {
    Failure {
        gql_status: Some("42001".to_owned()),
        ..Failure::new("Neo.ClientError.Statement.SemanticError", message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(query: &str) -> Result<(), String> {
        admit(query).map_err(|f| f.message)
    }

    #[test]
    fn the_system_database_admits_what_needs_no_graph() {
        for query in [
            "SHOW DATABASES",
            "SHOW DATABASES WHERE name = $db",
            "SHOW DATABASE neo4j YIELD name",
            "SHOW PROCEDURES YIELD name",
            "SHOW TRANSACTIONS",
            "CALL dbms.components() YIELD versions RETURN versions",
            "CALL db.ping()",
            "CALL dbms.clientConfig() YIELD name, value",
            "EXPLAIN SHOW DATABASES",
            "RETURN 1 +",
        ] {
            assert_eq!(verdict(query), Ok(()), "{query}");
        }
    }

    #[test]
    fn the_system_database_refuses_graph_work_in_neo4js_words() {
        let cases = [
            (
                "MATCH (n) RETURN n",
                "unsupported clauses were used: MATCH.",
            ),
            ("CREATE (n)", "unsupported clauses were used: CREATE."),
            (
                "CALL db.ping() YIELD success MATCH (n) RETURN n",
                "clauses were used: MATCH.",
            ),
            ("RETURN 1", "Not a recognised system command or procedure"),
            (
                "SHOW INDEXES",
                "not allowed on a system database: SHOW INDEXES.",
            ),
            ("CALL db.labels()", "`db.labels` reads one"),
        ];
        for (query, said) in cases {
            let message = verdict(query).expect_err(query);
            assert!(message.contains(said), "{query}: {message}");
        }
    }

    #[test]
    fn database_names_are_case_insensitive_and_others_not_found() {
        let db = |name: &str| Db::of(&Pack::Map(vec![("db".into(), Pack::String(name.into()))]));
        assert_eq!(db("SYSTEM"), Ok(Db::System));
        assert_eq!(db("Neo4j"), Ok(Db::Neo4j));
        assert_eq!(Db::of(&Pack::Map(vec![])), Ok(Db::Neo4j));
        let failure = db("nosuch").expect_err("no such database");
        assert_eq!(failure.code, "Neo.ClientError.Database.DatabaseNotFound");
        assert!(failure.message.contains("Graph not found: nosuch"));
    }
}
