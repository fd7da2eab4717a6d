//! The slow-query log (`slow_query_ms`): a request that ran longer is logged once it
//! finishes, with what it ran (a procedure's name, a query's text, cut at
//! [`TEXT_CHARS_MAX`]), how long it ran and waited, and its parameters' names. Their
//! values are left out: they may be personal data or secrets.

use std::time::Duration;

use kith_core::Value;

use crate::state::AppState;

/// Characters of a query's text the log keeps.
const TEXT_CHARS_MAX: usize = 2_000;

/// What a slow request ran.
pub(crate) enum Ran<'a> {
    /// A procedure call.
    Call(&'a str),
    /// A Cypher query.
    Cypher(&'a str),
    /// An LDBC read across a router's shards.
    Routed(&'a str),
}

/// Logs the request if it ran longer than `slow_query_ms`.
pub(crate) fn note(
    state: &AppState,
    ran: Ran<'_>,
    params: &[(String, Value)],
    ran_for: Duration,
    waited: Duration,
) {
    let Some(limit) = state.config.slow_query_ms else {
        return;
    };
    if ran_for < Duration::from_millis(limit) {
        return;
    }
    let (kind, text) = match ran {
        Ran::Call(name) => ("call", name),
        Ran::Cypher(text) => ("cypher", text),
        Ran::Routed(name) => ("routed", name),
    };
    let text: String = match text.char_indices().nth(TEXT_CHARS_MAX) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_owned(),
    };
    let names: Vec<&str> = params.iter().map(|(k, _)| k.as_str()).collect();
    tracing::warn!(
        target: "kith::slow_query",
        kind,
        ran_ms = ran_for.as_secs_f64() * 1e3,
        waited_ms = waited.as_secs_f64() * 1e3,
        params = ?names,
        query = %text,
        "slow query"
    );
}
