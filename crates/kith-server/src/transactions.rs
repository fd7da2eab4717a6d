//! Explicit transactions of the WebSocket and HTTP transports: `begin` opens one and
//! answers its id, statements name it, `commit` or `rollback` ends it. Each holds a
//! private version (`kith_storage::Tx`) between statements. Bolt keeps its
//! transaction in its session instead (one per connection, as Bolt has it).
//!
//! Bounded: at most `transactions_max` open at once; one open past its timeout is
//! rolled back (dropped) by the next request that looks, or by the sweep the server
//! runs every second. Ids are 128 random bits: holding one is what lets a client use
//! the transaction, from any connection.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use argon2::password_hash::rand_core::{OsRng, RngCore};
use kith_protocol::ErrorCode as Code;
use kith_storage::{Snapshot, Tx};

use crate::dispatch::Reply;
use crate::error::ExecError;
use crate::state::AppState;

/// The metrics name of `begin`, `commit` and `rollback` of WebSocket and HTTP
/// transactions.
pub(crate) const TX_METRIC: &str = "transaction";

/// `begin`: a new transaction on the current version, answered with its id.
pub(crate) fn begin<R: Reply>(state: &AppState, reply: R, timeout_ms: Option<u64>) {
    let limit = state.config.transaction_timeout_ms;
    let timeout = Duration::from_millis(timeout_ms.map_or(limit, |t| t.min(limit)));
    let ops_max = state.config.write_ops_max;
    match state
        .transactions
        .begin(&state.store.snapshot(), timeout, ops_max)
    {
        Ok(id) => {
            let id = kith_core::Value::String(id.into());
            reply.answer(TX_METRIC, &["tx".to_owned()], &[id], Default::default());
        }
        Err(error) => reply.fail(TX_METRIC, &error),
    }
}

/// Rolls back transactions open past their timeout once a second (so an abandoned
/// one frees its memory even when no request looks at it), until shutdown.
pub(crate) async fn sweep_every_second(state: std::sync::Arc<AppState>) {
    let mut shutdown = state.shutdown.clone();
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    loop {
        tokio::select! {
            _ = tick.tick() => {
                let dropped = state.transactions.sweep();
                if dropped > 0 {
                    tracing::info!(dropped, "rolled back transactions open past their timeout");
                }
            }
            _ = shutdown.changed() => return,
        }
    }
}

/// `rollback`: the transaction is forgotten; answered with no rows.
pub(crate) fn rollback<R: Reply>(state: &AppState, reply: R, id: &str) {
    match state.transactions.rollback(id) {
        Ok(()) => reply.answer(TX_METRIC, &[], &[], Default::default()),
        Err(error) => reply.fail(TX_METRIC, &error),
    }
}

/// One open transaction.
struct Open {
    /// `None` while one of its statements runs.
    tx: Option<Box<Tx>>,
    /// A statement failed: it can only be rolled back.
    failed: bool,
    deadline: Instant,
}

/// The open transactions, by id.
pub(crate) struct Transactions {
    open: Mutex<HashMap<String, Open>>,
    max: usize,
}

impl Transactions {
    /// At most `max` open at once.
    pub(crate) fn new(max: usize) -> Transactions {
        Transactions {
            open: Mutex::new(HashMap::new()),
            max,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Open>> {
        // A panic while holding the lock left the map consistent (every change is
        // one insert or remove).
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Opens a transaction on `snapshot` that lives `timeout` and may make
    /// `ops_max` write operations; its id.
    pub(crate) fn begin(
        &self,
        snapshot: &Snapshot,
        timeout: Duration,
        ops_max: usize,
    ) -> Result<String, ExecError> {
        let mut open = self.lock();
        sweep(&mut open, Instant::now());
        if open.len() >= self.max {
            return Err(ExecError::new(
                Code::Busy,
                format!(
                    "{} transactions are open (transactions_max); commit or roll one back, or retry later",
                    open.len()
                ),
            ));
        }
        let mut bytes = [0u8; 16];
        OsRng.fill_bytes(&mut bytes);
        let id: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let entry = Open {
            tx: Some(Box::new(Tx::with_ops_max(snapshot, ops_max))),
            failed: false,
            deadline: Instant::now() + timeout,
        };
        open.insert(id.clone(), entry);
        Ok(id)
    }

    /// Takes the transaction out for one statement (given back with
    /// [`Transactions::give_back`], or marked failed with [`Transactions::fail`]).
    pub(crate) fn take(&self, id: &str) -> Result<Box<Tx>, ExecError> {
        let mut open = self.lock();
        let entry = live(&mut open, id)?;
        if entry.failed {
            return Err(failed());
        }
        entry.tx.take().ok_or_else(|| {
            ExecError::new(
                Code::Busy,
                "another statement of this transaction is running: send them one at a time",
            )
        })
    }

    /// Gives a transaction back after a statement.
    pub(crate) fn give_back(&self, id: &str, tx: Box<Tx>) {
        if let Some(entry) = self.lock().get_mut(id) {
            entry.tx = Some(tx);
        }
    }

    /// Marks a transaction failed after a statement failed (its version may hold
    /// half of that statement's writes).
    pub(crate) fn fail(&self, id: &str) {
        if let Some(entry) = self.lock().get_mut(id) {
            entry.failed = true;
        }
    }

    /// Ends a transaction for its commit; its private version, to commit.
    pub(crate) fn finish(&self, id: &str) -> Result<Box<Tx>, ExecError> {
        let mut open = self.lock();
        let entry = live(&mut open, id)?;
        if entry.failed {
            // Its only way out is a rollback; the commit is one.
            open.remove(id);
            return Err(failed());
        }
        if entry.tx.is_none() {
            return Err(ExecError::new(
                Code::Busy,
                "a statement of this transaction is running: commit after it answered",
            ));
        }
        let entry = open.remove(id).expect("found above");
        Ok(entry.tx.expect("checked above"))
    }

    /// Rolls a transaction back: it is forgotten.
    pub(crate) fn rollback(&self, id: &str) -> Result<(), ExecError> {
        let mut open = self.lock();
        live(&mut open, id)?;
        open.remove(id);
        Ok(())
    }

    /// Rolls back every transaction open past its timeout; how many.
    pub(crate) fn sweep(&self) -> usize {
        sweep(&mut self.lock(), Instant::now())
    }

    /// How many are open.
    pub(crate) fn len(&self) -> usize {
        self.lock().len()
    }
}

/// A transaction taken out for a statement: given back when the statement
/// succeeds, marked failed when dropped otherwise (an error, or a panic unwinding).
pub(crate) struct Lent<'a> {
    transactions: &'a Transactions,
    id: &'a str,
    returned: bool,
}

impl<'a> Lent<'a> {
    pub(crate) fn new(transactions: &'a Transactions, id: &'a str) -> Lent<'a> {
        Lent {
            transactions,
            id,
            returned: false,
        }
    }

    /// The statement succeeded: the transaction is usable again.
    pub(crate) fn give_back(mut self, tx: Box<Tx>) {
        self.transactions.give_back(self.id, tx);
        self.returned = true;
    }

    /// Leaves the transaction lent: a statement waiting for locks holds it, and gives
    /// it back (or fails it) when it runs again.
    pub(crate) fn keep(mut self) {
        self.returned = true;
    }
}

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        if !self.returned {
            self.transactions.fail(self.id);
        }
    }
}

fn sweep(open: &mut HashMap<String, Open>, now: Instant) -> usize {
    let before = open.len();
    open.retain(|_, e| e.deadline > now);
    before - open.len()
}

/// The open transaction `id`: one past its timeout is rolled back here.
fn live<'a>(open: &'a mut HashMap<String, Open>, id: &str) -> Result<&'a mut Open, ExecError> {
    let expired = match open.get(id) {
        None => {
            return Err(ExecError::new(
                Code::NotFound,
                format!(
                "no open transaction `{id}` (never begun, committed, rolled back, or timed out)"
            ),
            ))
        }
        Some(e) => e.deadline <= Instant::now(),
    };
    if expired {
        open.remove(id);
        return Err(ExecError::new(
            Code::Timeout,
            format!("transaction `{id}` was open past its timeout and was rolled back"),
        ));
    }
    Ok(open.get_mut(id).expect("present"))
}

fn failed() -> ExecError {
    ExecError::new(
        Code::CypherError,
        "a statement of this transaction failed, so it can only be rolled back",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transaction_is_used_one_statement_at_a_time_and_ends_once() {
        let t = Transactions::new(2);
        let s = Snapshot::empty();
        let id = t.begin(&s, Duration::from_secs(60), 10).expect("opens");
        let tx = t.take(&id).expect("takes");
        assert_eq!(t.take(&id).expect_err("in use").code, Code::Busy);
        assert_eq!(t.finish(&id).expect_err("in use").code, Code::Busy);
        t.give_back(&id, tx);
        t.finish(&id).expect("commits");
        assert_eq!(t.finish(&id).expect_err("gone").code, Code::NotFound);
        assert_eq!(
            t.rollback("nope").expect_err("unknown").code,
            Code::NotFound
        );
    }

    #[test]
    fn open_transactions_are_bounded_and_time_out() {
        let t = Transactions::new(2);
        let s = Snapshot::empty();
        let short = t.begin(&s, Duration::ZERO, 10).expect("opens");
        t.begin(&s, Duration::from_secs(60), 10).expect("opens");
        // The expired one is swept to make room.
        let third = t
            .begin(&s, Duration::from_secs(60), 10)
            .expect("room after the sweep");
        assert_eq!(t.take(&short).expect_err("swept").code, Code::NotFound);
        assert_eq!(
            t.begin(&s, Duration::from_secs(60), 10)
                .expect_err("full")
                .code,
            Code::Busy
        );
        t.fail(&third);
        assert_eq!(t.take(&third).expect_err("failed").code, Code::CypherError);
        t.rollback(&third).expect("rolls back");
        assert_eq!(t.len(), 1);
    }
}
