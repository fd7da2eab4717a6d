//! Who holds what, and who waits for whom.

use std::time::Instant;

use kith_core::{NodeId, RelId};
use kith_storage::WriteSet;
use rustc_hash::{FxHashMap, FxHashSet};

use super::{Blocked, LockKey, Wake};

/// One node's lock: changed by at most one transaction, or linked to by any number.
#[derive(Default)]
struct NodeLock {
    writer: Option<LockKey>,
    linkers: Vec<LockKey>,
}

impl NodeLock {
    fn is_free(&self) -> bool {
        self.writer.is_none() && self.linkers.is_empty()
    }
}

/// What one transaction holds.
#[derive(Default)]
struct Held {
    nodes: FxHashSet<NodeId>,
    rels: FxHashSet<RelId>,
}

/// A parked statement: the transactions it waits for, until when, and what runs next.
struct Waiter {
    on: Vec<LockKey>,
    deadline: Instant,
    wake: Wake,
}

#[derive(Default)]
pub(super) struct Table {
    nodes: FxHashMap<NodeId, NodeLock>,
    rels: FxHashMap<RelId, LockKey>,
    held: FxHashMap<LockKey, Held>,
    waiters: FxHashMap<LockKey, Waiter>,
}

impl Table {
    /// The other transactions holding what `set` needs for `key`.
    pub(super) fn blockers(&self, key: LockKey, set: &WriteSet) -> Vec<LockKey> {
        let mut on = Vec::new();
        let others = |k: &LockKey| *k != key;
        for n in &set.nodes {
            if let Some(lock) = self.nodes.get(n) {
                on.extend(lock.writer.iter().filter(|k| others(k)));
                on.extend(lock.linkers.iter().filter(|k| others(k)));
            }
        }
        for n in &set.links {
            if let Some(lock) = self.nodes.get(n) {
                on.extend(lock.writer.iter().filter(|k| others(k)));
            }
        }
        for r in &set.rels {
            on.extend(self.rels.get(r).filter(|k| others(k)));
        }
        on.sort_unstable();
        on.dedup();
        on
    }

    /// Gives `key` what `set` needs (nobody else holds it: see [`Table::blockers`]).
    pub(super) fn take(&mut self, key: LockKey, set: &WriteSet) {
        let held = self.held.entry(key).or_default();
        for n in &set.nodes {
            let lock = self.nodes.entry(*n).or_default();
            assert!(
                lock.writer.is_none_or(|w| w == key),
                "a node changed by two transactions"
            );
            lock.writer = Some(key);
            held.nodes.insert(*n);
        }
        for n in &set.links {
            let lock = self.nodes.entry(*n).or_default();
            if !lock.linkers.contains(&key) {
                lock.linkers.push(key);
            }
            held.nodes.insert(*n);
        }
        for r in &set.rels {
            let holder = self.rels.entry(*r).or_insert(key);
            assert_eq!(*holder, key, "a relationship changed by two transactions");
            held.rels.insert(*r);
        }
    }

    /// Whether `key` holds any lock (a transaction that ended holds none, and its
    /// key is never used again).
    pub(super) fn holds_any(&self, key: LockKey) -> bool {
        self.held.contains_key(&key)
    }

    /// Whether one of `from`, or a transaction they wait for, and so on, waits for
    /// `target`.
    pub(super) fn waits_for(&self, from: &[LockKey], target: LockKey) -> bool {
        let mut seen: FxHashSet<LockKey> = FxHashSet::default();
        let mut next: Vec<LockKey> = from.to_vec();
        while let Some(key) = next.pop() {
            if key == target {
                return true;
            }
            if seen.insert(key) {
                if let Some(waiter) = self.waiters.get(&key) {
                    next.extend(&waiter.on);
                }
            }
        }
        false
    }

    pub(super) fn park(&mut self, blocked: Blocked, deadline: Instant, wake: Wake) {
        let waiter = Waiter {
            on: blocked.on,
            deadline,
            wake,
        };
        let before = self.waiters.insert(blocked.key, waiter);
        assert!(
            before.is_none(),
            "a transaction runs one statement at a time"
        );
    }

    /// Ends `key`'s locks; the waits for it are handed back to be woken.
    pub(super) fn release(&mut self, key: LockKey) -> Vec<Wake> {
        if let Some(held) = self.held.remove(&key) {
            for n in held.nodes {
                let Some(lock) = self.nodes.get_mut(&n) else {
                    continue;
                };
                if lock.writer == Some(key) {
                    lock.writer = None;
                }
                lock.linkers.retain(|k| *k != key);
                if lock.is_free() {
                    self.nodes.remove(&n);
                }
            }
            for r in held.rels {
                self.rels.remove(&r);
            }
        }
        self.unpark(|w| w.on.contains(&key))
    }

    /// Takes the waits past `now` out.
    pub(super) fn expired(&mut self, now: Instant) -> Vec<Wake> {
        if self.waiters.is_empty() {
            return Vec::new();
        }
        self.unpark(|w| w.deadline <= now)
    }

    pub(super) fn waiting(&self) -> usize {
        self.waiters.len()
    }

    fn unpark(&mut self, pick: impl Fn(&Waiter) -> bool) -> Vec<Wake> {
        let keys: Vec<LockKey> = self
            .waiters
            .iter()
            .filter(|(_, w)| pick(w))
            .map(|(k, _)| *k)
            .collect();
        keys.iter()
            .filter_map(|k| self.waiters.remove(k))
            .map(|w| w.wake)
            .collect()
    }
}
