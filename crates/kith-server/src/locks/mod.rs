//! Write locks of explicit transactions: a statement that changes what another open
//! transaction has changed waits for it to end, instead of both running on and one
//! being refused at commit (which a driver answers by retrying with its backoff).
//!
//! A statement of an explicit transaction runs on the transaction's private version;
//! what it changed (`WriteSet`) is then locked for the transaction, all of it or
//! nothing: a node or relationship it changes exclusively, a node it only links a
//! new relationship to shared with other linkers (two links to one node do not
//! collide, as at commit). When another transaction holds one of them, the statement
//! is undone (back to the transaction's savepoint) and waits, without a thread,
//! until that transaction ends; then it runs again (`cypher::in_transaction` moves
//! the transaction onto the newest version first when what it changes was changed
//! since it read). A wait that would close a cycle of waiting transactions is
//! refused at once as a deadlock; a wait is bounded by the query timeout. Locks are
//! released when the last copy of the transaction is gone: answered commit, rollback,
//! timeout, failure or a closed connection alike ([`LockOwner`]'s drop).
//!
//! The writer's conflict check at commit stays: auto-commit writes take no locks, so
//! one can still change a locked element first, and the later commit is refused.

mod table;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use kith_storage::WriteSet;

use table::Table;

/// Names one transaction in the lock table (never reused).
pub(crate) type LockKey = u64;

/// The lock table, shared by every transport.
#[derive(Default)]
pub(crate) struct Locks {
    table: Mutex<Table>,
    next_key: AtomicU64,
}

/// What a transaction keeps while it may hold locks: dropping the last reference
/// releases them (and wakes whoever waits for them).
pub(crate) struct LockOwner {
    key: LockKey,
    locks: Arc<Locks>,
}

impl LockOwner {
    pub(crate) fn key(&self) -> LockKey {
        self.key
    }
}

impl Drop for LockOwner {
    fn drop(&mut self) {
        self.locks.release(self.key);
    }
}

/// The answer to a request for a statement's locks.
pub(crate) enum Acquired {
    /// All of them are the transaction's now.
    Held,
    /// Others hold some; nothing was taken.
    Blocked(Blocked),
}

/// A transaction that could not take its locks, and the transactions holding them.
#[derive(Debug)]
pub(crate) struct Blocked {
    pub(crate) key: LockKey,
    pub(crate) on: Vec<LockKey>,
}

/// How a wait ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Woken {
    /// A transaction it waited for ended: run the statement again.
    Released,
    /// Waiting would close a cycle: this transaction is the one refused.
    Deadlock,
    /// It waited past its deadline.
    TimedOut,
}

/// What runs when a wait ends (called outside the table's lock, exactly once).
pub(crate) type Wake = Box<dyn FnOnce(Woken) + Send>;

impl Locks {
    /// A new owner for a transaction that has none yet.
    pub(crate) fn owner(self: &Arc<Self>) -> Arc<LockOwner> {
        Arc::new(LockOwner {
            key: self.next_key.fetch_add(1, Ordering::Relaxed),
            locks: self.clone(),
        })
    }

    /// Takes every lock `set` needs for `key`, or none of them.
    pub(crate) fn acquire(&self, key: LockKey, set: &WriteSet) -> Acquired {
        let mut table = self.lock();
        match table.blockers(key, set) {
            on if on.is_empty() => {
                table.take(key, set);
                Acquired::Held
            }
            on => Acquired::Blocked(Blocked { key, on }),
        }
    }

    /// Waits until one of the transactions `blocked` names ends, then calls `wake`
    /// (at once when one already ended, or when waiting would deadlock).
    pub(crate) fn wait(&self, blocked: Blocked, deadline: Instant, wake: Wake) {
        let mut table = self.lock();
        let refused = if blocked.on.iter().any(|b| !table.holds_any(*b)) {
            Some(Woken::Released)
        } else if table.waits_for(&blocked.on, blocked.key) {
            Some(Woken::Deadlock)
        } else {
            None
        };
        match refused {
            Some(why) => {
                drop(table);
                wake(why);
            }
            None => table.park(blocked, deadline, wake),
        }
    }

    /// Ends the waits past their deadline.
    pub(crate) fn expire(&self, now: Instant) {
        let late = self.lock().expired(now);
        for wake in late {
            wake(Woken::TimedOut);
        }
    }

    /// Transactions waiting for a lock now.
    pub(crate) fn waiting(&self) -> usize {
        self.lock().waiting()
    }

    fn release(&self, key: LockKey) {
        let woken = self.lock().release(key);
        for wake in woken {
            wake(Woken::Released);
        }
    }

    fn lock(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The owner kept with `tx`, attached first if it has none.
pub(crate) fn owner_of(locks: &Arc<Locks>, tx: &mut kith_storage::Tx) -> Arc<LockOwner> {
    if let Some(owner) = tx
        .owner()
        .and_then(|o| o.clone().downcast::<LockOwner>().ok())
    {
        return owner;
    }
    let owner = locks.owner();
    tx.set_owner(owner.clone());
    owner
}

/// How often waits are checked against their deadlines.
const EXPIRY_TICK: Duration = Duration::from_millis(20);

/// Ends waits past their deadline, until shutdown.
pub(crate) async fn expire_waits(state: Arc<crate::state::AppState>) {
    let mut shutdown = state.shutdown.clone();
    let mut tick = tokio::time::interval(EXPIRY_TICK);
    loop {
        tokio::select! {
            _ = tick.tick() => state.locks.expire(Instant::now()),
            _ = shutdown.changed() => return,
        }
    }
}

#[cfg(test)]
mod tests;
