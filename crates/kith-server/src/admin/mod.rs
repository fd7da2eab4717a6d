//! `SHOW TRANSACTIONS` and `TERMINATE TRANSACTION[S]`, as Neo4j 5 spells them: the
//! running queries and calls ([`crate::running`]), listed or stopped. A Cypher text
//! that opens with either is taken here before the engine sees it.
//!
//! `SHOW TRANSACTIONS [ids] [YIELD ... [WHERE ...] [RETURN ...] | WHERE ...]` becomes
//! an ordinary query over the listing (`UNWIND $rows ... WITH <columns> ...`), so
//! YIELD, WHERE, ORDER BY, SKIP, LIMIT and RETURN behave as everywhere else, on every
//! transport. An admin sees and stops every request; anyone else only their own.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use kith_core::{Temporal, Value};
use kith_protocol::{ErrorCode as Code, Trailer};

use crate::auth::Role;
use crate::dispatch::{GraphAnswer, Job, Reply};
use crate::error::ExecError;
use crate::running::{Entry, Kind, Origin, Tracked};
use crate::state::AppState;
use kith_cypher::GraphValue;

mod users;

/// The parameter the rewritten SHOW query reads its rows from.
const ROWS_PARAM: &str = "__kith_transactions";
/// A transaction id's prefix (Neo4j's are `neo4j-transaction-N`).
const ID_PREFIX: &str = "kith-transaction-";
/// SHOW's columns without YIELD, as Neo4j 5 gives them.
const DEFAULT_COLUMNS: &[&str] = &[
    "database",
    "transactionId",
    "currentQueryId",
    "connectionId",
    "clientAddress",
    "username",
    "currentQuery",
    "startTime",
    "status",
    "elapsedTime",
];
/// Columns YIELD can name beyond the defaults.
const MORE_COLUMNS: &[&str] = &["protocol", "kind", "parameters", "metaData"];

/// A parsed admin command.
#[derive(Debug, PartialEq)]
pub(crate) enum Admin {
    /// `SHOW TRANSACTIONS`: the ids it is limited to, and what follows them.
    Show { ids: Option<Ids>, tail: String },
    /// `TERMINATE TRANSACTIONS`.
    Terminate { ids: Ids },
    /// `SHOW USERS` or (`current`) `SHOW CURRENT USER`, and what follows.
    Users { current: bool, tail: String },
}

/// Transaction ids as written.
#[derive(Debug, PartialEq)]
pub(crate) enum Ids {
    /// `'kith-transaction-1', 'kith-transaction-2'`.
    Listed(Vec<String>),
    /// `$ids`: a string or a list of strings.
    Param(String),
}

/// The command `query` is, if it is one; `Err` for one that is malformed.
pub(crate) fn parse(query: &str) -> Option<Result<Admin, ExecError>> {
    let text = query.trim().trim_end_matches(';').trim_end();
    let (verb, rest) = split_word(text);
    let show = verb.eq_ignore_ascii_case("SHOW");
    if !show && !verb.eq_ignore_ascii_case("TERMINATE") {
        return None;
    }
    let (noun, rest) = split_word(rest);
    if show {
        if let Some(current) = users::noun(noun, rest) {
            let rest = if current { split_word(rest).1 } else { rest };
            return Some(show_tail("SHOW USERS", rest).map(|tail| Admin::Users { current, tail }));
        }
    }
    if !noun.eq_ignore_ascii_case("TRANSACTIONS") && !noun.eq_ignore_ascii_case("TRANSACTION") {
        return None;
    }
    Some(parse_rest(show, rest))
}

/// Clauses a SHOW's tail may not hold: it projects and filters the listing, and
/// reads nothing else (no graph, no procedures) and writes nothing. (Subqueries such
/// as `COUNT { ... }` need MATCH inside; the listing holds no nodes for a pattern.)
const NOT_IN_SHOW: &[&str] = &[
    "MATCH", "OPTIONAL", "CREATE", "MERGE", "SET", "DELETE", "DETACH", "REMOVE", "CALL", "UNWIND",
    "FOREACH", "LOAD", "USE", "UNION",
];

/// What follows a SHOW command, checked: empty, or YIELD / WHERE over its columns.
fn show_tail(command: &str, tail: &str) -> Result<String, ExecError> {
    let tail = tail.trim();
    if let Some(word) = NOT_IN_SHOW.iter().find(|w| has_word(tail, w)) {
        return Err(bad(format!(
            "{command} takes YIELD, WHERE, ORDER BY, SKIP, LIMIT and RETURN over its own columns, not {word}"
        )));
    }
    let (word, _) = split_word(tail);
    if !tail.is_empty()
        && !word.eq_ignore_ascii_case("YIELD")
        && !word.eq_ignore_ascii_case("WHERE")
    {
        return Err(bad(format!(
            "{command}: expected YIELD or WHERE after it, found `{tail}`"
        )));
    }
    Ok(tail.to_owned())
}

fn parse_rest(show: bool, rest: &str) -> Result<Admin, ExecError> {
    let (ids, tail) = ids(rest)?;
    if show {
        let tail = show_tail("SHOW TRANSACTIONS", tail)?;
        return Ok(Admin::Show { ids, tail });
    }
    let tail = tail.trim();
    match (ids, tail.is_empty()) {
        (Some(ids), true) => Ok(Admin::Terminate { ids }),
        (None, _) => Err(bad(
            "TERMINATE TRANSACTIONS needs the ids to stop, e.g. TERMINATE TRANSACTION 'kith-transaction-12'".into(),
        )),
        (Some(_), false) => Err(bad(format!(
            "TERMINATE TRANSACTIONS takes transaction ids only, found `{tail}` after them"
        ))),
    }
}

fn bad(message: String) -> ExecError {
    ExecError::new(Code::CypherError, message)
}

/// The first word and what follows it.
fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    (&text[..end], &text[end..])
}

/// Ids at the start of `text`: string literals separated by commas, or a parameter.
fn ids(text: &str) -> Result<(Option<Ids>, &str), ExecError> {
    let text = text.trim_start();
    if let Some(rest) = text.strip_prefix('$') {
        let (name, tail) = split_word(rest);
        if name.is_empty() {
            return Err(bad("a parameter's name must follow `$`".into()));
        }
        return Ok((Some(Ids::Param(name.to_owned())), tail));
    }
    let mut listed = Vec::new();
    let mut rest = text;
    while let Some(quote) = rest.chars().next().filter(|c| *c == '\'' || *c == '"') {
        let body = &rest[1..];
        let end = body
            .find(quote)
            .ok_or_else(|| bad("a transaction id's quote is never closed".into()))?;
        listed.push(body[..end].to_owned());
        rest = body[end + 1..].trim_start();
        match rest.strip_prefix(',') {
            Some(more) => rest = more.trim_start(),
            None => break,
        }
    }
    Ok(((!listed.is_empty()).then_some(Ids::Listed(listed)), rest))
}

/// The request numbers `ids` name; a malformed id is an error.
fn resolve(ids: &Ids, params: &[(String, Value)]) -> Result<Vec<(String, Option<u64>)>, ExecError> {
    let texts: Vec<String> = match ids {
        Ids::Listed(list) => list.clone(),
        Ids::Param(name) => match params.iter().find(|(k, _)| k == name).map(|(_, v)| v) {
            Some(Value::String(s)) => vec![s.to_string()],
            Some(Value::List(items)) => items
                .iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s.to_string()),
                    other => Err(bad(format!(
                        "${name}: a transaction id is a string, not {other}"
                    ))),
                })
                .collect::<Result<_, _>>()?,
            Some(other) => {
                return Err(bad(format!(
                    "${name}: expected transaction ids, got {other}"
                )))
            }
            None => {
                return Err(ExecError::new(
                    Code::MissingParameter,
                    format!("the parameter ${name} is not given"),
                ))
            }
        },
    };
    Ok(texts
        .into_iter()
        .map(|t| {
            let n = t.strip_prefix(ID_PREFIX).and_then(|n| n.parse().ok());
            (t, n)
        })
        .collect())
}

/// Whether `role`/`origin` may see or stop `entry`.
fn visible(entry: &Entry, role: Role, origin: &Origin) -> bool {
    role == Role::Admin || origin.user.is_none() || entry.origin.user == origin.user
}

/// Runs an admin command that arrived as the Cypher job `job`.
pub(crate) fn run<R: Reply>(
    state: &Arc<AppState>,
    job: Job,
    admin: Result<Admin, ExecError>,
    reply: R,
    cancel: Arc<AtomicBool>,
    origin: Origin,
) {
    let Job::Cypher {
        query,
        params,
        timing,
        within,
        named,
        role,
        metadata,
    } = job
    else {
        return reply.refuse(&ExecError::new(
            Code::Internal,
            "an admin command that is no query",
        ));
    };
    let admin = match admin {
        Ok(admin) => admin,
        Err(e) => return reply.fail(crate::cypher::CYPHER_METRIC, &e),
    };
    match admin {
        Admin::Terminate { ids } => match terminate(state, &ids, &params, role, &origin) {
            // Bolt's explicit transaction (`within`) is handed back with the rows.
            Ok((columns, values)) => {
                let rows = values
                    .chunks(columns.len())
                    .map(|row| row.iter().cloned().map(GraphValue::Plain).collect())
                    .collect();
                let answer = GraphAnswer {
                    columns,
                    rows,
                    tx: within,
                    counts: None,
                };
                reply.answer_graph(crate::cypher::CYPHER_METRIC, answer, Trailer::default())
            }
            Err(e) => reply.fail(crate::cypher::CYPHER_METRIC, &e),
        },
        Admin::Show { .. } | Admin::Users { .. } => {
            // Listed first, so the listing shows the SHOW itself, as Neo4j's does.
            let ticket = state.running.start(
                Kind::Cypher,
                &query,
                &params,
                origin.clone(),
                metadata.clone(),
            );
            let terminate = ticket.terminate_flag();
            let listed = match &admin {
                Admin::Show { ids, tail } => show_rows(state, ids.as_ref(), &params, role, &origin)
                    .map(|rows| (rows, show_query(tail, DEFAULT_COLUMNS, MORE_COLUMNS))),
                Admin::Users { current, tail } => users::rows(state, *current, role, &origin)
                    .map(|rows| (rows, show_query(tail, users::COLUMNS, &[]))),
                Admin::Terminate { .. } => unreachable!("TERMINATE is answered above"),
            };
            let (rows, listing) = match listed {
                Ok(listed) => listed,
                Err(e) => return reply.fail(crate::cypher::CYPHER_METRIC, &e),
            };
            let mut params = params;
            params.push((ROWS_PARAM.to_owned(), Value::List(rows)));
            let job = Job::Cypher {
                query: listing,
                params,
                timing,
                within,
                named,
                role,
                metadata,
            };
            crate::dispatch::cypher_now(
                state,
                job,
                Tracked::new(reply, ticket),
                (cancel, Some(terminate)),
                query,
            );
        }
    }
}

fn show_rows(
    state: &AppState,
    ids: Option<&Ids>,
    params: &[(String, Value)],
    role: Role,
    origin: &Origin,
) -> Result<Vec<Value>, ExecError> {
    let wanted: Option<Vec<Option<u64>>> = match ids {
        Some(ids) => Some(resolve(ids, params)?.into_iter().map(|(_, n)| n).collect()),
        None => None,
    };
    Ok(state
        .running
        .list()
        .into_iter()
        .filter(|e| visible(e, role, origin))
        .filter(|e| wanted.as_ref().is_none_or(|w| w.contains(&Some(e.id))))
        .map(|e| row(&e))
        .collect())
}

fn row(e: &Entry) -> Value {
    let text = |s: &str| Value::String(s.into());
    let elapsed = e.started.elapsed();
    let started_ms = e
        .started_at
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    let status = if e.committing.load(Ordering::Relaxed) {
        "Committing"
    } else if e.terminate.load(Ordering::Relaxed) {
        "Terminated"
    } else {
        "Running"
    };
    let query = match e.kind {
        Kind::Cypher => e.text.clone(),
        Kind::Call | Kind::Routed => format!("CALL {}", e.text),
    };
    let kind = match e.kind {
        Kind::Cypher => "cypher",
        Kind::Call => "call",
        Kind::Routed => "routed",
    };
    let duration = kith_core::Duration::new(
        0,
        0,
        elapsed.as_secs() as i64,
        i64::from(elapsed.subsec_nanos()),
    );
    let fields: Vec<(&str, Value)> = vec![
        ("database", text("neo4j")),
        ("transactionId", text(&format!("{ID_PREFIX}{}", e.id))),
        ("currentQueryId", text(&format!("kith-query-{}", e.id))),
        (
            "connectionId",
            text(e.origin.connection.as_deref().unwrap_or(e.origin.protocol)),
        ),
        (
            "clientAddress",
            e.origin.client.as_deref().map(text).unwrap_or(Value::Null),
        ),
        (
            "username",
            e.origin.user.as_deref().map(text).unwrap_or(Value::Null),
        ),
        ("currentQuery", text(&query)),
        ("startTime", Value::DateTime(started_ms)),
        ("status", text(status)),
        (
            "elapsedTime",
            Value::Temporal(Arc::new(Temporal::Duration(duration))),
        ),
        ("protocol", text(e.origin.protocol)),
        (
            "metaData",
            e.metadata
                .as_ref()
                .map_or_else(|| Value::Map(Vec::new()), |m| m.get()),
        ),
        ("kind", text(kind)),
        (
            "parameters",
            Value::List(e.params.iter().map(|p| text(p)).collect()),
        ),
    ];
    Value::Map(fields.into_iter().map(|(k, v)| (Arc::from(k), v)).collect())
}

/// The query SHOW runs over its rows: `defaults` are its columns without YIELD,
/// `more` those YIELD may name beside them.
fn show_query(tail: &str, defaults: &[&str], more: &[&str]) -> String {
    let columns: Vec<String> = defaults
        .iter()
        .chain(more)
        .map(|c| format!("t.{c} AS {c}"))
        .collect();
    let head = format!("UNWIND ${ROWS_PARAM} AS t WITH {}", columns.join(", "));
    let every: Vec<&str> = defaults.iter().chain(more).copied().collect();
    let defaults = defaults.join(", ");
    let (word, rest) = split_word(tail);
    let rest = rest.trim();
    if tail.is_empty() {
        format!("{head} RETURN {defaults}")
    } else if word.eq_ignore_ascii_case("WHERE") {
        format!("{head} WITH * {tail} RETURN {defaults}")
    } else if has_return(rest) {
        format!("{head} WITH {rest}")
    } else {
        // Without RETURN, the columns are the yielded ones in their order (`*`: all).
        let yielded = yielded_names(rest).unwrap_or_else(|| every.join(", "));
        format!("{head} WITH {rest} RETURN {yielded}")
    }
}

/// The names YIELD's items bind (`a, b AS c` gives `a, c`); `None` for `*`.
fn yielded_names(items: &str) -> Option<String> {
    let end = ["ORDER", "WHERE", "SKIP", "LIMIT"]
        .iter()
        .filter_map(|k| word_at(items, k))
        .min()
        .unwrap_or(items.len());
    let list = items[..end].trim();
    if list == "*" {
        return None;
    }
    let names: Vec<&str> = list
        .split(',')
        .map(|item| {
            let item = item.trim();
            match word_at(item, "AS") {
                Some(at) => item[at + 2..].trim(),
                None => item,
            }
        })
        .collect();
    Some(names.join(", "))
}

/// Where the word `word` (any case) first stands alone in `text`.
fn word_at(text: &str, word: &str) -> Option<usize> {
    let upper = text.to_ascii_uppercase();
    let bytes = upper.as_bytes();
    let boundary =
        |i: usize| i >= bytes.len() || !(bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_');
    upper
        .match_indices(word)
        .map(|(i, _)| i)
        .find(|&i| (i == 0 || boundary(i - 1)) && boundary(i + word.len()))
}

/// Whether `text` has a RETURN clause (outside string literals).
fn has_return(text: &str) -> bool {
    has_word(text, "RETURN")
}

/// Whether `text` holds the word `word` (any case) outside string literals.
fn has_word(text: &str, word: &str) -> bool {
    let mut plain = String::with_capacity(text.len());
    let mut quote = None;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None => plain.push(c),
        }
    }
    plain
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w.eq_ignore_ascii_case(word))
}

fn terminate(
    state: &AppState,
    ids: &Ids,
    params: &[(String, Value)],
    role: Role,
    origin: &Origin,
) -> Result<(Vec<String>, Vec<Value>), ExecError> {
    let columns = vec!["transactionId".into(), "username".into(), "message".into()];
    let mut values = Vec::new();
    for (text, id) in resolve(ids, params)? {
        let entry = id.and_then(|n| state.running.get(n));
        // Another user's request is "not found" to someone who may not see it: a
        // different answer would tell them it exists, and whose it is.
        let (user, message) = match entry {
            Some(e) if visible(&e, role, origin) => {
                let message = if e.committing.load(Ordering::Relaxed) {
                    "Transaction is committing its writes and cannot be stopped."
                } else {
                    e.terminate.store(true, Ordering::Relaxed);
                    match e.kind {
                        Kind::Call => "Transaction terminated. (A procedure call runs to its end, within query_timeout_ms.)",
                        Kind::Cypher | Kind::Routed => "Transaction terminated.",
                    }
                };
                (e.origin.user.clone(), message)
            }
            _ => (None, "Transaction not found."),
        };
        let user = user
            .as_deref()
            .map(|u| Value::String(u.into()))
            .unwrap_or(Value::Null);
        values.extend([
            Value::String(text.as_str().into()),
            user,
            Value::String(message.into()),
        ]);
    }
    Ok((columns, values))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transactions_query(tail: &str) -> String {
        show_query(tail, DEFAULT_COLUMNS, MORE_COLUMNS)
    }

    #[test]
    fn commands_parse() {
        assert_eq!(parse("MATCH (n) RETURN n"), None);
        assert_eq!(parse("SHOW INDEXES"), None);
        assert_eq!(
            parse("show transactions;").map(|r| r.ok()),
            Some(Some(Admin::Show {
                ids: None,
                tail: String::new()
            }))
        );
        assert_eq!(
            parse("SHOW TRANSACTIONS 'kith-transaction-3', \"kith-transaction-4\" YIELD *")
                .map(|r| r.ok()),
            Some(Some(Admin::Show {
                ids: Some(Ids::Listed(vec![
                    "kith-transaction-3".into(),
                    "kith-transaction-4".into()
                ])),
                tail: "YIELD *".into()
            }))
        );
        assert_eq!(
            parse("TERMINATE TRANSACTION $ids").map(|r| r.ok()),
            Some(Some(Admin::Terminate {
                ids: Ids::Param("ids".into())
            }))
        );
        let err = |q: &str| {
            parse(q)
                .and_then(|r| r.err())
                .map(|e| e.message)
                .unwrap_or_default()
        };
        assert!(err("TERMINATE TRANSACTIONS").contains("needs the ids"));
        assert!(err("TERMINATE TRANSACTION 'x' YIELD *").contains("ids only"));
        assert!(err("SHOW TRANSACTIONS RETURN 1").contains("expected YIELD or WHERE"));
        // The tail reads the listing alone: no graph, no procedures, no writes.
        for tail in [
            "WHERE true CREATE (n)",
            "YIELD * MATCH (a) RETURN count(*)",
            "YIELD * CALL db.labels() YIELD label RETURN label",
            "WHERE COUNT { MATCH (n) } > 0",
        ] {
            let message = err(&format!("SHOW TRANSACTIONS {tail}"));
            assert!(
                message.contains("over its own columns, not"),
                "{tail}: {message}"
            );
        }
        let q =
            "SHOW TRANSACTIONS YIELD * WHERE currentQuery CONTAINS 'MATCH' RETURN transactionId";
        assert!(parse(q).is_some_and(|r| r.is_ok()));
    }

    #[test]
    fn show_queries() {
        assert!(transactions_query("").ends_with("RETURN database, transactionId, currentQueryId, connectionId, clientAddress, username, currentQuery, startTime, status, elapsedTime"));
        assert!(transactions_query("WHERE username = 'ann'")
            .contains("WITH * WHERE username = 'ann' RETURN database"));
        assert!(transactions_query(
            "YIELD transactionId, currentQuery AS q ORDER BY transactionId"
        )
        .ends_with(
            "WITH transactionId, currentQuery AS q ORDER BY transactionId RETURN transactionId, q"
        ));
        assert!(transactions_query("YIELD * WHERE status = 'Running'").ends_with("RETURN database, transactionId, currentQueryId, connectionId, clientAddress, username, currentQuery, startTime, status, elapsedTime, protocol, kind, parameters, metaData"));
        assert!(transactions_query("YIELD * RETURN count(*) AS n")
            .ends_with("WITH * RETURN count(*) AS n"));
        assert!(!has_return("YIELD x WHERE x = 'RETURN'"));
    }
}
