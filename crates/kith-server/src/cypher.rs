//! Cypher requests, the same for both transports: run the query on the current
//! snapshot within the server's limits, and turn what it writes into one transaction
//! for the durable write queue (`docs/protocol.md` 1.3.2).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use kith_core::write_op::WriteCounts;
use kith_core::{GraphTx, GraphView, Value};
use kith_cypher::{CypherError, ErrorCode, GraphValue, Limits, Prepared, QueryResult};
use kith_protocol::{Commit, CypherErrorDetail, ErrorCode as Code};
use kith_storage::{CommitInfo, ReadCheck, Tx, WriteBatch};

use crate::auth::Role;
use crate::error::ExecError;
use crate::state::AppState;

/// The metrics name of Cypher requests (one name: query texts would grow the label
/// set without bound).
pub(crate) const CYPHER_METRIC: &str = "cypher";

/// A query's answer before any commit: its columns, its rows, and the transaction it
/// makes with what that changes, if it writes.
pub(crate) struct Answer<T> {
    pub(crate) columns: Vec<String>,
    pub(crate) rows: Vec<Vec<T>>,
    pub(crate) writes: Option<WriteBatch>,
    /// What the writer checks before committing `writes` (the version the query
    /// read, and what it changed of it).
    pub(crate) check: Option<ReadCheck>,
    pub(crate) counts: Option<WriteCounts>,
    /// The explicit transaction the query ran in, handed back for its next statement
    /// or its commit.
    pub(crate) tx: Option<Box<Tx>>,
    /// The plan of an EXPLAIN or PROFILE query, as the trailer carries it.
    pub(crate) plan: Option<Value>,
    /// The query's notifications, as the trailer carries them.
    pub(crate) notifications: Vec<Value>,
}

/// Notifications as the trailer carries them (docs/protocol.md 1.3.2).
fn notifications(all: &[kith_cypher::notices::Notification]) -> Vec<Value> {
    all.iter().map(|n| n.to_value()).collect()
}

/// How the engine runs a query and makes the answer's values: plain values
/// ([`PLAIN`]) or graph structures kept ([`GRAPH`]); a query that only reads runs on
/// the snapshot itself, one that writes in a private version of it ([`Tx`]).
pub(crate) struct Runner<T> {
    read: fn(&dyn GraphView, &Prepared, Params<'_>, &Limits) -> EngineResult<T>,
    write: fn(&mut dyn GraphTx, &Prepared, Params<'_>, &Limits) -> EngineResult<T>,
}

type Params<'a> = &'a [(String, Value)];
type EngineResult<T> = kith_cypher::Result<QueryResult<T>>;

/// Answers of plain values (kith's own protocol).
pub(crate) const PLAIN: Runner<Value> = Runner {
    read: kith_cypher::run,
    write: kith_cypher::run_tx,
};

/// Answers keeping nodes, relationships and paths (Bolt).
pub(crate) const GRAPH: Runner<GraphValue> = Runner {
    read: kith_cypher::run_graph,
    write: kith_cypher::run_graph_tx,
};

/// A query to run, and the explicit transaction it runs in, if any (else it reads
/// the current snapshot and commits at once).
pub(crate) struct Query<'a> {
    text: &'a str,
    params: &'a [(String, Value)],
    within: Option<Box<Tx>>,
    role: Role,
    terminate: Option<Arc<AtomicBool>>,
    metadata: Option<kith_cypher::TxMetadata>,
}

impl<'a> Query<'a> {
    /// The same query, in a transaction carrying `metadata`.
    pub(crate) fn with_metadata(mut self, metadata: Option<kith_cypher::TxMetadata>) -> Query<'a> {
        self.metadata = metadata;
        self
    }

    /// The same query, stopped when `flag` is set (`TERMINATE TRANSACTION`).
    pub(crate) fn terminated_by(mut self, flag: Option<Arc<AtomicBool>>) -> Query<'a> {
        self.terminate = flag;
        self
    }

    pub(crate) fn new(
        text: &'a str,
        params: &'a [(String, Value)],
        within: Option<Box<Tx>>,
        role: Role,
    ) -> Query<'a> {
        Query {
            text,
            params,
            within,
            role,
            terminate: None,
            metadata: None,
        }
    }
}

/// Runs a query on its snapshot (by default the one current when it starts).
/// `budget` is what is left of `query_timeout_ms` after waiting for a worker;
/// `cancel` stops it when its client is gone.
pub(crate) fn run<T>(
    state: &AppState,
    query: Query<'_>,
    budget: Duration,
    cancel: Arc<AtomicBool>,
    runner: &Runner<T>,
) -> Result<Ran<T>, ExecError> {
    let prepared = state.cypher.prepare(query.text).map_err(from_cypher)?;
    // A reader's write is refused before it runs, whatever the server is.
    crate::auth::permit(query.role, prepared.writes(), false)?;
    // Refused before running: a read-only server could not commit the writes anyway.
    if prepared.writes() && state.writes.is_none() {
        return Err(ExecError::new(
            Code::ReadOnly,
            format!("{}; the query writes", state.read_only_reason()),
        ));
    }
    let limits = Limits {
        rows_max: state.config.cypher_rows_max,
        result_rows_max: state.config.result_rows_max,
        timeout: Some(budget),
        cancel: Some(cancel),
        terminate: query.terminate.clone(),
        metadata: query.metadata.clone(),
    };
    if let Some(tx) = query.within {
        let statement = (query.params, query.role);
        return in_transaction(state, tx, &prepared, statement, &limits, runner);
    }
    let snapshot = state.store.snapshot();
    if !prepared.writes() {
        let result =
            (runner.read)(&*snapshot, &prepared, query.params, &limits).map_err(from_cypher)?;
        return Ok(Ran::Answered(Answer {
            columns: result.columns,
            rows: result.rows,
            writes: None,
            check: None,
            counts: None,
            tx: None,
            plan: result.plan.map(|p| p.to_value()),
            notifications: notifications(&result.notifications),
        }));
    }
    let mut tx = Tx::with_ops_max(&snapshot, state.config.write_ops_max);
    let result = (runner.write)(&mut tx, &prepared, query.params, &limits).map_err(from_cypher)?;
    let counts = Some(tx.counts());
    let (writes, check) = if tx.is_empty() {
        (None, None)
    } else {
        let (batch, check) = checked_batch(query.role, tx)?;
        (Some(batch), Some(check))
    };
    Ok(Ran::Answered(Answer {
        columns: result.columns,
        rows: result.rows,
        writes,
        check,
        counts,
        tx: None,
        plan: result.plan.map(|p| p.to_value()),
        notifications: notifications(&result.notifications),
    }))
}

/// How a query ended: answered, or (a statement of an explicit transaction) waiting
/// for another transaction's locks.
// Nearly every query is answered: boxing the large variant would allocate per query
// to save bytes on the rare wait.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Ran<T> {
    Answered(Answer<T>),
    Blocked(Blocked),
}

/// A statement that must wait: its transaction as it was before the statement (it
/// runs again from there once woken), and whom it waits for.
pub(crate) struct Blocked {
    pub(crate) tx: Box<Tx>,
    pub(crate) wait: crate::locks::Blocked,
}

/// How many times a statement runs again on a newer version because what it changes
/// was changed since its transaction read (by commits that take no locks: each such
/// run follows one), before `conflict` is answered.
const REBASES_MAX: usize = 8;

/// A statement of an explicit transaction: it reads the transaction's version, its
/// own earlier writes included, and its writes join the transaction's once it holds
/// their locks (`crate::locks`). Where another open transaction holds one, the
/// statement is undone and waits ([`Ran::Blocked`]). Where a commit changed what it
/// changes after the transaction's snapshot, the transaction's first statement moves
/// it onto the newest version (as if it began there) and runs again; a later one
/// fails with `conflict`, since earlier statements read the older values (snapshot
/// isolation: no lost update). A statement that fails takes the transaction with it
/// (it is rolled back, as in Neo4j).
fn in_transaction<T>(
    state: &AppState,
    mut tx: Box<Tx>,
    prepared: &Prepared,
    statement: (Params<'_>, Role),
    limits: &Limits,
    runner: &Runner<T>,
) -> Result<Ran<T>, ExecError> {
    if !prepared.writes() {
        let answer = statement_in(&mut tx, prepared, statement, limits, runner)?;
        return Ok(Ran::Answered(answer.with_tx(tx)));
    }
    let owner = crate::locks::owner_of(&state.locks, &mut tx);
    let mut saved = tx.clone();
    for _ in 0..REBASES_MAX {
        let answer = statement_in(&mut tx, prepared, statement, limits, runner)?;
        // Only this statement's writes: the earlier ones hold their locks already, and
        // were checked as they were made (the commit checks everything once more).
        let set = tx.writes_after(saved.mark());
        if let crate::locks::Acquired::Blocked(wait) = state.locks.acquire(owner.key(), &set) {
            return Ok(Ran::Blocked(Blocked { tx: saved, wait }));
        }
        let changed = match &state.writes {
            Some(writes) if !set.is_empty() => writes.changed_since(tx.base_version(), &set),
            _ => None,
        };
        let Some(version) = changed else {
            return Ok(Ran::Answered(answer.with_tx(tx)));
        };
        saved.rebase(&state.store.snapshot()).map_err(|why| {
            let message = format!(
                "the transaction read version {} and changes what the commit of version \
                 {version} changed, and cannot move past it: {why}; run it again",
                tx.base_version()
            );
            ExecError::new(Code::Conflict, message)
        })?;
        tx = saved.clone();
    }
    Err(ExecError::new(
        Code::Conflict,
        format!(
            "what the statement changes was changed {REBASES_MAX} times by other commits \
             while it ran; run the transaction again"
        ),
    ))
}

/// Runs one statement on `tx`: its answer without the transaction.
fn statement_in<T>(
    tx: &mut Tx,
    prepared: &Prepared,
    (params, role): (Params<'_>, Role),
    limits: &Limits,
    runner: &Runner<T>,
) -> Result<Answer<T>, ExecError> {
    let before = tx.counts();
    let result = (runner.write)(tx, prepared, params, limits).map_err(from_cypher)?;
    // A schema change needs an admin in a transaction as outside one; refused, the
    // statement fails and takes the transaction with it.
    if tx.batch_ops().any(crate::auth::is_schema) {
        crate::auth::permit(role, true, true)?;
    }
    let counts = tx.counts().since(before);
    Ok(Answer {
        columns: result.columns,
        rows: result.rows,
        writes: None,
        check: None,
        counts: (counts != WriteCounts::default()).then_some(counts),
        tx: None,
        plan: result.plan.map(|p| p.to_value()),
        notifications: notifications(&result.notifications),
    })
}

impl<T> Answer<T> {
    /// The answer of a statement that ran in `tx`, which hands it back: the
    /// statement read its version.
    fn with_tx(self, mut tx: Box<Tx>) -> Answer<T> {
        tx.mark_read();
        Answer {
            tx: Some(tx),
            ..self
        }
    }
}

/// A query's transaction as the batch to commit, once the role allows it (its size
/// was bounded by `write_ops_max` as it ran: `Tx::with_ops_max`).
fn checked_batch(role: Role, tx: Tx) -> Result<(WriteBatch, ReadCheck), ExecError> {
    let (batch, check) = tx.into_commit();
    crate::auth::permit(role, true, crate::auth::touches_schema(&batch.ops))?;
    Ok((batch, check))
}

/// What a committed query reports: its version and what it created.
pub(crate) fn commit_summary(info: &CommitInfo) -> Commit {
    Commit {
        version: info.version,
        nodes_created: info.created.len() as u64,
        relationships_created: info.created_rels.len() as u64,
    }
}

/// The wire error for an engine error. Running past the time limit and holding too
/// many rows are the server's limits, so they keep the codes every request uses
/// (`timeout`, `result_too_large`), and a write the graph refused keeps the code of
/// that refusal (`duplicate_id`, `not_found`...); the rest are `cypher_error`. All of them carry
/// the engine's own code and, when known, the line and column.
pub(crate) fn from_cypher(error: CypherError) -> ExecError {
    let code = match (error.code, error.refused) {
        (ErrorCode::Timeout, _) => Code::Timeout,
        (ErrorCode::LimitExceeded, _) => Code::ResultTooLarge,
        (_, Some(kind)) => crate::codes::of_refusal(kind),
        _ => Code::CypherError,
    };
    let detail = CypherErrorDetail {
        code: error.code.as_str().to_owned(),
        line: error.position.map(|p| p.line as u64),
        column: error.position.map(|p| p.column as u64),
        gql_status: Some(error.gql_status().to_owned()),
    };
    ExecError {
        cypher: Some(Box::new(detail)),
        ..ExecError::new(code, error.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_errors_keep_their_code_and_position() {
        let text = "MATCH (n)\nRETRUN n";
        let err = kith_cypher::Engine::default()
            .prepare(text)
            .expect_err("a syntax error");
        let exec = from_cypher(err);
        assert_eq!(exec.code, Code::CypherError);
        let detail = exec.cypher.expect("detail");
        assert_eq!(detail.code, "Neo.ClientError.Statement.SyntaxError");
        assert_eq!(detail.line, Some(2));
        assert_eq!(detail.column, Some(1));
        assert_eq!(detail.gql_status.as_deref(), Some("42001"));
        let timeout = from_cypher(CypherError::new(ErrorCode::Timeout, "late"));
        assert_eq!(timeout.code, Code::Timeout);
        let rows = from_cypher(CypherError::new(ErrorCode::LimitExceeded, "big"));
        assert_eq!(rows.code, Code::ResultTooLarge);
    }
}
