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
//!   on all ports together and `unauthenticated_per_address_max` from one client
//!   address; past the address's cap a new connection is closed at once;
//! - when the pool is full, a newcomer takes the place of the oldest pending
//!   connection of the address with the most pending (of those as busy, the one
//!   whose oldest is oldest), if that address has more pending than the newcomer's
//!   own: a flood from a few addresses (or from many, one socket each) cannot keep a
//!   client from a quieter address from connecting, only make its own sockets give
//!   way sooner. A client loses its place only if its address is among the busiest
//!   and `unauthenticated_connections_max` newer connections came while it
//!   authenticated.
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
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use tokio::sync::Notify;

use crate::metrics::{CloseReason, Standing, Transport};
use crate::state::AppState;

/// One pending connection's entry in the pool.
struct Entry {
    id: u64,
    evict: Arc<Notify>,
}

/// The pending connections, oldest first, by client address.
#[derive(Default)]
struct Pool {
    by_address: HashMap<IpAddr, VecDeque<Entry>>,
    total: usize,
    next_id: u64,
}

impl Pool {
    fn count(&self, address: &IpAddr) -> usize {
        self.by_address.get(address).map_or(0, VecDeque::len)
    }

    /// The address with the most pending connections and how many; of addresses as
    /// busy, the one whose oldest entry is oldest.
    fn busiest(&self) -> Option<(IpAddr, usize)> {
        self.by_address
            .iter()
            .filter_map(|(a, q)| Some((*a, q.len(), q.front()?.id)))
            .max_by_key(|(_, n, oldest)| (*n, std::cmp::Reverse(*oldest)))
            .map(|(a, n, _)| (a, n))
    }

    /// Takes the oldest entry of `address` out of the pool.
    fn pop_oldest(&mut self, address: &IpAddr) -> Option<Entry> {
        let queue = self.by_address.get_mut(address)?;
        let entry = queue.pop_front()?;
        if queue.is_empty() {
            self.by_address.remove(address);
        }
        self.total -= 1;
        Some(entry)
    }

    /// Takes entry `id` of `address` out, if it is still in (an evicted one is not).
    fn remove(&mut self, address: &IpAddr, id: u64) -> bool {
        let Some(queue) = self.by_address.get_mut(address) else {
            return false;
        };
        let Some(at) = queue.iter().position(|e| e.id == id) else {
            return false;
        };
        queue.remove(at);
        if queue.is_empty() {
            self.by_address.remove(address);
        }
        self.total -= 1;
        true
    }

    fn push(&mut self, address: IpAddr, evict: Arc<Notify>) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.by_address
            .entry(address)
            .or_default()
            .push_back(Entry { id, evict });
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

    /// Admits a connection from `address`, or says why not (it is then closed at
    /// once). May evict the oldest pending connection of a busier address.
    fn admit(&self, address: IpAddr) -> Result<(u64, Arc<Notify>), CloseReason> {
        let mut pool = self.lock();
        let mine = pool.count(&address);
        if mine >= self.per_address_max {
            return Err(CloseReason::AddressMax);
        }
        if pool.total >= self.max {
            match pool.busiest() {
                // The busiest gives way only if busier than the newcomer's address:
                // eviction never turns on the less busy.
                Some((busiest, n)) if n > mine => {
                    let evicted = pool.pop_oldest(&busiest).expect("the busiest has one");
                    evicted.evict.notify_one();
                }
                _ => return Err(CloseReason::UnauthenticatedMax),
            }
        }
        let evict = Arc::new(Notify::new());
        let id = pool.push(address, evict.clone());
        debug_assert!(pool.total <= self.max, "the pool overshot its cap");
        Ok((id, evict))
    }

    /// Pending connections now, on every port.
    #[cfg(test)]
    fn pending(&self) -> usize {
        self.lock().total
    }
}

/// A connection's place in the pool until it authenticates or ends: counted in
/// `kith_connections{state="unauthenticated"}` until dropped.
pub(crate) struct Pending {
    state: Arc<AppState>,
    transport: Transport,
    address: IpAddr,
    id: u64,
    evict: Arc<Notify>,
    /// `auth_deadline_ms` after it was accepted.
    deadline: Instant,
}

impl Pending {
    /// Admits a connection of `transport` from `address`; a refusal is counted under
    /// its reason.
    pub(crate) fn admit(
        state: &Arc<AppState>,
        transport: Transport,
        address: IpAddr,
    ) -> Result<Pending, CloseReason> {
        let admitted = state.admission.admit(address);
        let connections = &state.metrics.connections;
        match admitted {
            Ok((id, evict)) => {
                connections.enter(transport, Standing::Unauthenticated);
                Ok(Pending {
                    state: state.clone(),
                    transport,
                    address,
                    id,
                    evict,
                    deadline: Instant::now() + state.config.auth_deadline(),
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
}

impl Drop for Pending {
    fn drop(&mut self) {
        // Leaving the pool, by authenticating, closing or eviction (then already out).
        self.state.admission.lock().remove(&self.address, self.id);
        self.state
            .metrics
            .connections
            .leave(self.transport, Standing::Unauthenticated);
    }
}

#[cfg(test)]
mod tests;
