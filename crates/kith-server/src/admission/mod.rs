//! Connections before they authenticate (docs/protocol.md 3, "Connections before
//! authentication"). A socket that completes a handshake and then says nothing costs
//! its sender one file descriptor; if it held a slot of `connections_max` for as long
//! as it liked, a few thousand of them would lock every real client out. So a
//! connection, on every port, is first *pending*:
//!
//! - it must authenticate within `auth_deadline_ms` of being accepted (TLS, Bolt's
//!   handshake, HELLO and LOGON; an HTTP connection: a request that authenticated, or
//!   the WebSocket upgrade), or it is closed;
//! - pending connections have a pool of their own, `unauthenticated_connections_max`
//!   on all ports together and, once the pool is half full, at most
//!   `unauthenticated_per_address_max` from one client address (an IPv6 /64 counts
//!   as one address): past it a new connection from that address is closed at once,
//!   while with room to spare one host may open many (a driver warming its pool);
//! - when the pool is full, a newcomer takes the place of a pending connection from
//!   an address with more pending than its own: first one that has sent nothing
//!   since its handshake (a complete Bolt message, an HTTP request's headers), then
//!   the busiest address's, the oldest first. A flood from a few addresses, or from
//!   many with a socket each, cannot keep a client from a quieter address from
//!   connecting: a client that has sent its HELLO gives way only to the flood's
//!   sockets that did too, and only after `unauthenticated_connections_max` newer
//!   connections came while it authenticated.
//!
//! Only once authenticated does a WebSocket or Bolt connection take one of the
//! `connections_max` slots (`state::ConnectionSlot`), which pending ones never hold.
//!
//! - `mod.rs`: the pool ([`Gate`]) and a pending connection's place in it
//!   ([`Pending`]);
//! - `http`: an HTTP connection's standing, which the request handlers reach through
//!   a task-local;
//! - `activity`: the clock of a message that began arriving and has not ended (a
//!   WebSocket message's read deadline).

pub(crate) mod activity;
pub(crate) mod http;

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use tokio::sync::Notify;

use crate::metrics::{CloseReason, Standing, Transport};
use crate::state::AppState;

/// One pending connection's entry in the pool.
struct Entry {
    id: u64,
    evict: Arc<Notify>,
    /// Set once it sent something after its handshake.
    progress: Arc<AtomicBool>,
}

/// The pending connections, oldest first, by client address.
#[derive(Default)]
struct Pool {
    by_address: HashMap<Source, VecDeque<Entry>>,
    total: usize,
    next_id: u64,
}

/// A client address as the pool counts it: an IPv4 address, or an IPv6 /64 (one
/// host's usual allocation, so a host cannot be many addresses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Source {
    V4(u32),
    /// The address's first 64 bits.
    V6(u64),
}

impl Source {
    pub(crate) fn of(address: IpAddr) -> Source {
        match address.to_canonical() {
            IpAddr::V4(v4) => Source::V4(u32::from(v4)),
            IpAddr::V6(v6) => Source::V6((u128::from(v6) >> 64) as u64),
        }
    }
}

impl Pool {
    fn count(&self, source: &Source) -> usize {
        self.by_address.get(source).map_or(0, VecDeque::len)
    }

    /// Whom a newcomer from an address with `mine` pending replaces in a full pool:
    /// of the addresses with more pending than that, an entry that made no progress
    /// first, then the busiest address's, then the oldest.
    fn victim(&self, mine: usize) -> Option<(Source, u64)> {
        // (made progress, busiest first, oldest first): the least is evicted.
        type Rank = (bool, std::cmp::Reverse<usize>, u64);
        let mut best: Option<(Rank, Source)> = None;
        for (source, queue) in self.by_address.iter().filter(|(_, q)| q.len() > mine) {
            let idle = queue.iter().find(|e| !e.progress.load(Ordering::Acquire));
            let (progressed, entry) = match idle {
                Some(e) => (false, e),
                None => (true, queue.front().expect("queues are never empty")),
            };
            let key = (progressed, std::cmp::Reverse(queue.len()), entry.id);
            if best.as_ref().is_none_or(|(k, _)| key < *k) {
                best = Some((key, *source));
            }
        }
        best.map(|((_, _, id), source)| (source, id))
    }

    /// Takes entry `id` of `source` out, if it is still in (an evicted one is not).
    fn take(&mut self, source: &Source, id: u64) -> Option<Entry> {
        let queue = self.by_address.get_mut(source)?;
        let at = queue.iter().position(|e| e.id == id)?;
        let entry = queue.remove(at);
        if queue.is_empty() {
            self.by_address.remove(source);
        }
        self.total -= 1;
        entry
    }

    /// Takes entry `id` of `source` out; false if it was not in (evicted already).
    fn remove(&mut self, source: &Source, id: u64) -> bool {
        self.take(source, id).is_some()
    }

    fn push(&mut self, source: Source, evict: Arc<Notify>, progress: Arc<AtomicBool>) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.by_address.entry(source).or_default().push_back(Entry {
            id,
            evict,
            progress,
        });
        self.total += 1;
        id
    }
}

/// The pool of pending connections (one per server, every port).
pub(crate) struct Gate {
    pool: Mutex<Pool>,
    max: usize,
    per_address_max: usize,
}

impl Gate {
    pub(crate) fn new(max: usize, per_address_max: usize) -> Gate {
        assert!(max > 0 && per_address_max > 0, "the config refuses 0");
        Gate {
            pool: Mutex::default(),
            max,
            per_address_max: per_address_max.min(max),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Pool> {
        // The pool's bookkeeping is a few integer updates: nothing a panic leaves half
        // done, so a poisoned lock is still sound.
        self.pool.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Admits a connection from `source`, or says why not (it is then closed at
    /// once). May evict a pending connection of a busier address.
    fn admit(&self, source: Source) -> Result<Admitted, CloseReason> {
        let mut pool = self.lock();
        let mine = pool.count(&source);
        if mine >= self.per_address_max && pool.total * 2 >= self.max {
            return Err(CloseReason::AddressMax);
        }
        if pool.total >= self.max {
            // Only an address busier than the newcomer's gives way: eviction never
            // turns on the less busy.
            let (victim, id) = pool.victim(mine).ok_or(CloseReason::UnauthenticatedMax)?;
            let evicted = pool.take(&victim, id).expect("the victim is in the pool");
            evicted.evict.notify_one();
        }
        let evict = Arc::new(Notify::new());
        let progress = Arc::new(AtomicBool::new(false));
        let id = pool.push(source, evict.clone(), progress.clone());
        debug_assert!(pool.total <= self.max, "the pool overshot its cap");
        Ok(Admitted {
            id,
            evict,
            progress,
        })
    }

    /// Pending connections now, on every port.
    #[cfg(test)]
    fn pending(&self) -> usize {
        self.lock().total
    }
}

/// What the pool hands a connection it admits.
struct Admitted {
    id: u64,
    evict: Arc<Notify>,
    progress: Arc<AtomicBool>,
}

/// A connection's place in the pool until it authenticates or ends: counted in
/// `kith_connections{state="unauthenticated"}` until dropped.
pub(crate) struct Pending {
    state: Arc<AppState>,
    transport: Transport,
    source: Source,
    id: u64,
    evict: Arc<Notify>,
    progress: Arc<AtomicBool>,
    /// `auth_deadline_ms` after it was accepted.
    deadline: Instant,
    /// Whether it still holds its place (see [`Pending::leave_pool`]).
    in_pool: bool,
}

impl Pending {
    /// Admits a connection of `transport` from `address`; a refusal is counted under
    /// its reason.
    pub(crate) fn admit(
        state: &Arc<AppState>,
        transport: Transport,
        address: IpAddr,
    ) -> Result<Pending, CloseReason> {
        let source = Source::of(address);
        let admitted = state.admission.admit(source);
        let connections = &state.metrics.connections;
        match admitted {
            Ok(Admitted {
                id,
                evict,
                progress,
            }) => {
                connections.enter(transport, Standing::Unauthenticated);
                Ok(Pending {
                    state: state.clone(),
                    transport,
                    source,
                    id,
                    evict,
                    progress,
                    deadline: Instant::now() + state.config.auth_deadline(),
                    in_pool: true,
                })
            }
            Err(reason) => {
                connections.closed(transport, reason);
                Err(reason)
            }
        }
    }

    /// When the connection must have authenticated.
    pub(crate) fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Completes when a connection from a less busy address took this one's place.
    pub(crate) async fn evicted(&self) {
        self.evict.notified().await;
    }

    /// It sent something after its handshake: it gives way to a flood's silent
    /// sockets last.
    pub(crate) fn made_progress(&self) {
        self.progress.store(true, Ordering::Release);
    }

    /// Gives its place in the pool back, still unauthenticated (an HTTP request that
    /// is finishing past the deadline).
    pub(crate) fn leave_pool(&mut self) {
        if std::mem::take(&mut self.in_pool) {
            self.state.admission.lock().remove(&self.source, self.id);
        }
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        // Leaving the pool, by authenticating, closing or eviction (then already out).
        self.leave_pool();
        self.state
            .metrics
            .connections
            .leave(self.transport, Standing::Unauthenticated);
    }
}

#[cfg(test)]
mod tests;
