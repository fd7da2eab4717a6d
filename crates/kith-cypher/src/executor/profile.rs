//! PROFILE's counters: which plan element is running (each operator and MATCH step
//! says so as a row enters it and when it hands back), the time and graph reads
//! since the last switch charged to the one that was running, so each element's
//! figures exclude its inputs'. Graph reads are counted where the run reads the
//! graph (`Ctx::graph`'s guard, one per method call; a scan, one per node it
//! yields). Nothing of this runs without PROFILE.

use std::cell::{Cell, RefCell};
use std::time::Instant;

use rustc_hash::FxHashMap;

use crate::planner::Counted;

/// The counters of one profiled run.
pub struct Profiler {
    current: Cell<usize>,
    since: Cell<Instant>,
    hits: Cell<u64>,
    hits_then: Cell<u64>,
    counted: RefCell<FxHashMap<usize, Counted>>,
}

impl Default for Profiler {
    fn default() -> Profiler {
        Profiler {
            current: Cell::new(0),
            since: Cell::new(Instant::now()),
            hits: Cell::new(0),
            hits_then: Cell::new(0),
            counted: RefCell::new(FxHashMap::default()),
        }
    }
}

impl Profiler {
    /// A row enters the element `key`: what ran so far is charged to the element
    /// that was running, which is returned (to [`Profiler::leave`] back to).
    pub(crate) fn enter(&self, key: usize) -> usize {
        let mut counted = self.counted.borrow_mut();
        self.charge_into(&mut counted);
        counted.entry(key).or_default().rows_in += 1;
        self.current.replace(key)
    }

    /// [`Profiler::enter`] without a row (an operator handing on what it held).
    pub(crate) fn switch(&self, key: usize) -> usize {
        self.charge();
        self.current.replace(key)
    }

    /// The element hands back to `previous`.
    pub(crate) fn leave(&self, previous: usize) {
        self.charge();
        self.current.set(previous);
    }

    fn charge(&self) {
        self.charge_into(&mut self.counted.borrow_mut());
    }

    fn charge_into(&self, counted: &mut FxHashMap<usize, Counted>) {
        let now = Instant::now();
        let hits = self.hits.get();
        let c = counted.entry(self.current.get()).or_default();
        c.nanos += now.duration_since(self.since.get()).as_nanos() as u64;
        c.db_hits += hits - self.hits_then.get();
        self.since.set(now);
        self.hits_then.set(hits);
    }

    /// What was counted for `key`.
    pub fn counted(&self, key: usize) -> Counted {
        self.charge();
        self.counted.borrow().get(&key).copied().unwrap_or_default()
    }

    /// Counts one graph read.
    #[inline]
    pub(crate) fn hit(&self) {
        self.hits.set(self.hits.get() + 1);
    }
}
