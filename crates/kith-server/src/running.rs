//! What runs now: each query, procedure call and routed read from its dispatch to its
//! answer, for `SHOW TRANSACTIONS` and `TERMINATE TRANSACTION` (see `admin/`).
//!
//! A request is registered when it is dispatched and removed when its reply is
//! spent: the entry's ticket rides in the reply ([`Tracked`]), so every way a request
//! ends (answer, failure, refusal, a retry's last attempt) removes it. The registry
//! holds at most what is in flight, which the worker queue and the connection limits
//! bound.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime};

use kith_core::Value;
use kith_protocol::Trailer;

use crate::dispatch::{GraphAnswer, Reply};
use crate::error::ExecError;

/// Characters of a query's text kept for the listing.
const TEXT_CHARS_MAX: usize = 2_000;

/// Where a request came from.
#[derive(Clone, Debug)]
pub(crate) struct Origin {
    /// The authenticated user (`None` on an open server).
    pub(crate) user: Option<Arc<str>>,
    /// `bolt`, `websocket` or `http`.
    pub(crate) protocol: &'static str,
    /// The connection (`bolt-7`), where the transport numbers them.
    pub(crate) connection: Option<String>,
    /// The client's address, where the transport knows it.
    pub(crate) client: Option<String>,
}

impl Origin {
    /// A request from `protocol` by `user`, its connection and address unknown.
    pub(crate) fn of(protocol: &'static str, user: Option<&str>) -> Origin {
        Origin {
            user: user.map(Arc::from),
            protocol,
            connection: None,
            client: None,
        }
    }
}

/// What a request runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A Cypher query.
    Cypher,
    /// A native procedure call.
    Call,
    /// An LDBC read across a router's shards.
    Routed,
}

/// One running request.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub(crate) id: u64,
    pub(crate) kind: Kind,
    /// The query's text or the procedure's name, cut at [`TEXT_CHARS_MAX`].
    pub(crate) text: String,
    /// Its parameters' names (values are left out: they may be personal data).
    pub(crate) params: Vec<String>,
    pub(crate) origin: Origin,
    pub(crate) started: Instant,
    pub(crate) started_at: SystemTime,
    /// Set by `TERMINATE TRANSACTION`; a query stops at its next check.
    pub(crate) terminate: Arc<AtomicBool>,
    /// Set once its writes went to the writer: it can no longer be stopped.
    pub(crate) committing: Arc<AtomicBool>,
    /// Its transaction's metadata, as it is now (`tx.setMetaData()` changes it).
    pub(crate) metadata: Option<kith_cypher::TxMetadata>,
}

/// The running requests.
#[derive(Default)]
pub(crate) struct Running {
    next: AtomicU64,
    entries: Mutex<BTreeMap<u64, Entry>>,
}

impl Running {
    /// Registers a request; it is listed until the ticket is dropped.
    pub(crate) fn start(
        self: &Arc<Self>,
        kind: Kind,
        text: &str,
        params: &[(String, Value)],
        origin: Origin,
        metadata: Option<kith_cypher::TxMetadata>,
    ) -> Ticket {
        let id = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        let text = match text.char_indices().nth(TEXT_CHARS_MAX) {
            Some((cut, _)) => format!("{}...", &text[..cut]),
            None => text.to_owned(),
        };
        let terminate = Arc::new(AtomicBool::new(false));
        let committing = Arc::new(AtomicBool::new(false));
        let entry = Entry {
            id,
            kind,
            text,
            params: params.iter().map(|(k, _)| k.clone()).collect(),
            origin,
            started: Instant::now(),
            started_at: SystemTime::now(),
            terminate: terminate.clone(),
            committing: committing.clone(),
            metadata,
        };
        self.lock().insert(id, entry);
        Ticket {
            running: self.clone(),
            id,
            terminate,
            committing,
        }
    }

    /// Every running request, oldest first.
    pub(crate) fn list(&self) -> Vec<Entry> {
        self.lock().values().cloned().collect()
    }

    /// A running request by id.
    pub(crate) fn get(&self, id: u64) -> Option<Entry> {
        self.lock().get(&id).cloned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Entry>> {
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A registered request; dropping it removes the entry.
pub(crate) struct Ticket {
    running: Arc<Running>,
    id: u64,
    terminate: Arc<AtomicBool>,
    committing: Arc<AtomicBool>,
}

impl Ticket {
    /// The flag `TERMINATE TRANSACTION` sets for this request.
    pub(crate) fn terminate_flag(&self) -> Arc<AtomicBool> {
        self.terminate.clone()
    }

    /// Removes the entry (again is nothing). Called before a request's answer goes
    /// out, so a client that has its answer no longer finds the request listed,
    /// even while a clone of its reply lives on (the one kept to answer a panic).
    fn leave(&self) {
        self.running.lock().remove(&self.id);
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.leave();
    }
}

/// A reply that keeps its request listed until it is spent.
pub(crate) struct Tracked<R> {
    inner: R,
    _ticket: Arc<Ticket>,
}

impl<R> Tracked<R> {
    pub(crate) fn new(inner: R, ticket: Ticket) -> Tracked<R> {
        Tracked {
            inner,
            _ticket: Arc::new(ticket),
        }
    }
}

impl<R: Clone> Clone for Tracked<R> {
    fn clone(&self) -> Self {
        Tracked {
            inner: self.inner.clone(),
            _ticket: self._ticket.clone(),
        }
    }
}

impl<R: Reply> Reply for Tracked<R> {
    const GRAPH: bool = R::GRAPH;

    fn arrived(&self) -> Instant {
        self.inner.arrived()
    }

    fn answer(self, metric: &str, columns: &[String], values: &[Value], trailer: Trailer) {
        self._ticket.leave();
        self.inner.answer(metric, columns, values, trailer);
    }

    fn fail(self, metric: &str, error: &ExecError) {
        self._ticket.leave();
        self.inner.fail(metric, error);
    }

    fn refuse(self, error: &ExecError) {
        self._ticket.leave();
        self.inner.refuse(error);
    }

    fn in_flight(&self) -> usize {
        self.inner.in_flight()
    }

    fn committing(&self) {
        self._ticket.committing.store(true, Ordering::Relaxed);
        self.inner.committing();
    }

    fn answer_graph(self, metric: &str, answer: GraphAnswer, trailer: Trailer) {
        self._ticket.leave();
        self.inner.answer_graph(metric, answer, trailer);
    }
}
