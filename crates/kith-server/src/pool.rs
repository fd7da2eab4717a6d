//! A fixed pool of worker threads fed by two bounded queues: one for requests from
//! connections with few in flight, one for those from connections that pipeline
//! many. Workers take from the first before the second (one job in
//! `HEAVY_TURN_EVERY` from the second while both wait), so a connection flooding
//! the server cannot queue its hundreds of requests ahead of other clients' one
//! (`kith bench overload`, docs/reliability.md). With only one kind waiting, the
//! order is first come, first served, as before.

use std::thread::JoinHandle;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crossbeam_channel::{bounded, Receiver, Sender};

type Job = Box<dyn FnOnce() + Send + 'static>;

/// How long an idle worker polls for work before it parks.
const SPIN_BEFORE_PARK: std::time::Duration = std::time::Duration::from_micros(50);

/// A connection with more requests in flight than this (the new one included)
/// queues them in the heavy lane.
pub(crate) const HEAVY_IN_FLIGHT: usize = 8;

/// While both lanes wait, one job in this many comes from the heavy lane: a flood
/// is slowed, not starved.
const HEAVY_TURN_EVERY: usize = 4;

/// Which queue a job waits in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lane {
    /// Requests from connections with at most `HEAVY_IN_FLIGHT` in flight.
    Light,
    /// Requests from connections with more.
    Heavy,
}

impl Lane {
    /// The lane for a request whose connection has `in_flight` requests in flight,
    /// itself included.
    pub(crate) fn for_in_flight(in_flight: usize) -> Lane {
        if in_flight > HEAVY_IN_FLIGHT {
            Lane::Heavy
        } else {
            Lane::Light
        }
    }
}

/// Worker threads that run jobs (execute a request and encode its answer).
///
/// `submit` never blocks: when `queue_depth_max` jobs wait, it fails and the caller
/// answers `busy`.
pub(crate) struct WorkerPool {
    shared: Arc<Shared>,
    /// One token per queued job: what workers park on (one channel, as with a
    /// single queue: parking on two cost a tenth of the throughput).
    tokens: Option<Sender<()>>,
    queue_depth_max: usize,
    threads: Vec<JoinHandle<()>>,
}

/// The lanes and their count, shared by the pool and its workers.
struct Shared {
    lanes: Mutex<[VecDeque<Job>; 2]>,
    /// Jobs queued (reserved before they are pushed, released when taken).
    queued: AtomicUsize,
}

impl Shared {
    /// Takes a job for a token just received: from the light lane, except on the
    /// heavy lane's turn (`taken`, this worker's count) or when it is empty.
    fn take(&self, taken: usize) -> Job {
        let mut lanes = self.lanes.lock().unwrap_or_else(|p| p.into_inner());
        let order = if taken.is_multiple_of(HEAVY_TURN_EVERY) {
            [1, 0]
        } else {
            [0, 1]
        };
        let job = order.iter().find_map(|&lane| lanes[lane].pop_front());
        drop(lanes);
        // Every token is sent after its job is pushed, so a job waits for each one.
        let job = job.expect("a queued job for every token");
        self.queued.fetch_sub(1, Ordering::Relaxed);
        job
    }
}

/// The next token: polls (yielding the core) for `SPIN_BEFORE_PARK` before parking.
/// Under steady load the next request usually arrives within tens of microseconds,
/// and waking a parked thread costs about as much again. `None` once the pool closes.
fn next_token(tokens: &Receiver<()>) -> Option<()> {
    let spin_until = std::time::Instant::now() + SPIN_BEFORE_PARK;
    loop {
        match tokens.try_recv() {
            Ok(()) => return Some(()),
            Err(crossbeam_channel::TryRecvError::Disconnected) => return None,
            Err(crossbeam_channel::TryRecvError::Empty) => {
                if std::time::Instant::now() >= spin_until {
                    return tokens.recv().ok();
                }
                std::thread::yield_now();
            }
        }
    }
}

/// Runs a job; a panic in it ends that job only, and the worker lives on: without
/// this each such bug would retire a worker for good until the pool answered nothing
/// but `busy`. (A request's job answers its own panic first: `dispatch::on_worker`.)
fn run(job: Job) {
    if let Err(panic) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)) {
        let what = panic_text(panic.as_ref());
        tracing::error!(panic = %what, "a job panicked; the worker carries on");
    }
}

/// A panic's message, when it has one.
pub(crate) fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

/// The queue is full.
#[derive(Debug)]
pub(crate) struct QueueFull;

impl WorkerPool {
    pub(crate) fn new(workers: usize, queue_depth_max: usize) -> std::io::Result<Self> {
        let shared = Arc::new(Shared {
            lanes: Mutex::new([VecDeque::new(), VecDeque::new()]),
            queued: AtomicUsize::new(0),
        });
        let (sender, tokens) = bounded::<()>(queue_depth_max);
        let mut threads = Vec::with_capacity(workers);
        for i in 0..workers {
            let (shared, tokens) = (shared.clone(), tokens.clone());
            threads.push(
                std::thread::Builder::new()
                    .name(format!("kith-worker-{i}"))
                    .spawn(move || {
                        let mut taken = i;
                        while next_token(&tokens).is_some() {
                            taken = taken.wrapping_add(1);
                            run(shared.take(taken));
                        }
                    })?,
            );
        }
        Ok(WorkerPool {
            shared,
            tokens: Some(sender),
            queue_depth_max,
            threads,
        })
    }

    pub(crate) fn submit(
        &self,
        lane: Lane,
        job: impl FnOnce() + Send + 'static,
    ) -> Result<(), QueueFull> {
        let tokens = self.tokens.as_ref().ok_or(QueueFull)?;
        let reserved = self.shared.queued.fetch_add(1, Ordering::Relaxed);
        if reserved >= self.queue_depth_max {
            self.shared.queued.fetch_sub(1, Ordering::Relaxed);
            return Err(QueueFull);
        }
        let mut lanes = self.shared.lanes.lock().unwrap_or_else(|p| p.into_inner());
        lanes[usize::from(lane == Lane::Heavy)].push_back(Box::new(job));
        drop(lanes);
        // The reservation keeps tokens under the channel's bound: this never waits.
        tokens.try_send(()).map_err(|_| QueueFull)
    }

    /// Jobs waiting for a worker.
    pub(crate) fn queued(&self) -> usize {
        self.shared.queued.load(Ordering::Relaxed)
    }
}

impl Drop for WorkerPool {
    /// Closes the queue and waits for the workers to finish what they hold (each
    /// token left is taken with its job before the channel reports it closed).
    fn drop(&mut self) {
        drop(self.tokens.take());
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panicking_job_does_not_retire_its_worker() {
        let pool = WorkerPool::new(1, 8).expect("a pool");
        pool.submit(Lane::Light, || panic!("an engine bug"))
            .expect("queued");
        let (tx, rx) = crossbeam_channel::bounded(1);
        pool.submit(Lane::Light, move || tx.send(42).expect("sent"))
            .expect("queued");
        let got = rx.recv_timeout(std::time::Duration::from_secs(10));
        assert_eq!(got, Ok(42), "the one worker still runs jobs");
    }

    /// A flood's queued requests do not hold back another client's one.
    #[test]
    fn a_light_job_runs_before_a_queue_of_heavy_ones() {
        let pool = WorkerPool::new(1, 64).expect("a pool");
        let (hold_tx, hold_rx) = crossbeam_channel::bounded::<()>(0);
        pool.submit(Lane::Light, move || hold_rx.recv().expect("released"))
            .expect("queued");
        let order = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        for i in 0..20 {
            let order = order.clone();
            pool.submit(Lane::Heavy, move || order.lock().expect("lock").push(i))
                .expect("queued");
        }
        let (done_tx, done_rx) = crossbeam_channel::bounded(1);
        let light_order = order.clone();
        pool.submit(Lane::Light, move || {
            light_order.lock().expect("lock").push(100);
            done_tx.send(()).expect("sent");
        })
        .expect("queued");
        hold_tx.send(()).expect("the worker runs");
        done_rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("the light job ran");
        let ran = order.lock().expect("lock").clone();
        let at = ran.iter().position(|&i| i == 100).expect("ran");
        assert!(
            at <= 1,
            "the light job waited behind {at} heavy ones: {ran:?}"
        );
    }

    #[test]
    fn lanes_split_at_the_in_flight_threshold() {
        assert_eq!(Lane::for_in_flight(1), Lane::Light);
        assert_eq!(Lane::for_in_flight(HEAVY_IN_FLIGHT), Lane::Light);
        assert_eq!(Lane::for_in_flight(HEAVY_IN_FLIGHT + 1), Lane::Heavy);
    }

    #[test]
    fn the_lanes_together_hold_at_most_the_queue_limit() {
        let pool = WorkerPool::new(1, 4).expect("a pool");
        let (hold_tx, hold_rx) = crossbeam_channel::bounded::<()>(0);
        let (started_tx, started_rx) = crossbeam_channel::bounded::<()>(1);
        pool.submit(Lane::Light, move || {
            started_tx.send(()).expect("sent");
            hold_rx.recv().expect("released");
        })
        .expect("queued");
        // The worker holds the first job, so the four below all wait.
        started_rx.recv().expect("the worker started");
        for lane in [Lane::Light, Lane::Heavy, Lane::Light, Lane::Heavy] {
            pool.submit(lane, || {}).expect("queued");
        }
        assert!(pool.submit(Lane::Heavy, || {}).is_err());
        assert!(pool.submit(Lane::Light, || {}).is_err());
        hold_tx.send(()).expect("released");
    }
}
