//! A fixed pool of worker threads fed by one bounded queue.

use std::thread::JoinHandle;

use crossbeam_channel::{bounded, Sender, TrySendError};

type Job = Box<dyn FnOnce() + Send + 'static>;

/// How long an idle worker polls for work before it parks.
const SPIN_BEFORE_PARK: std::time::Duration = std::time::Duration::from_micros(50);

/// Worker threads that run jobs (execute a request and encode its answer).
///
/// `submit` never blocks: when `queue_depth_max` jobs wait, it fails and the caller
/// answers `busy`.
pub(crate) struct WorkerPool {
    sender: Option<Sender<Job>>,
    threads: Vec<JoinHandle<()>>,
}

/// The next job: polls (yielding the core) for `SPIN_BEFORE_PARK` before parking.
/// Under steady load the next request usually arrives within tens of microseconds,
/// and waking a parked thread costs about as much again. `None` once the pool closes.
fn next_job(receiver: &crossbeam_channel::Receiver<Job>) -> Option<Job> {
    let spin_until = std::time::Instant::now() + SPIN_BEFORE_PARK;
    loop {
        match receiver.try_recv() {
            Ok(job) => return Some(job),
            Err(crossbeam_channel::TryRecvError::Disconnected) => return None,
            Err(crossbeam_channel::TryRecvError::Empty) => {
                if std::time::Instant::now() >= spin_until {
                    return receiver.recv().ok();
                }
                std::thread::yield_now();
            }
        }
    }
}

/// Runs a job; a panic in it (an engine bug) ends that job only. Its reply is
/// dropped, which its connection answers as an internal error, and the worker lives
/// on: without this each such bug would retire a worker for good until the pool
/// answered nothing but `busy`.
fn run(job: Job) {
    if let Err(panic) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)) {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        tracing::error!(panic = %what, "a request's job panicked; the worker carries on");
    }
}

/// The queue is full.
#[derive(Debug)]
pub(crate) struct QueueFull;

impl WorkerPool {
    pub(crate) fn new(workers: usize, queue_depth_max: usize) -> std::io::Result<Self> {
        let (sender, receiver) = bounded::<Job>(queue_depth_max);
        let mut threads = Vec::with_capacity(workers);
        for i in 0..workers {
            let receiver = receiver.clone();
            threads.push(
                std::thread::Builder::new()
                    .name(format!("kith-worker-{i}"))
                    .spawn(move || {
                        while let Some(job) = next_job(&receiver) {
                            run(job);
                        }
                    })?,
            );
        }
        Ok(WorkerPool {
            sender: Some(sender),
            threads,
        })
    }

    pub(crate) fn submit(&self, job: impl FnOnce() + Send + 'static) -> Result<(), QueueFull> {
        let sender = self.sender.as_ref().ok_or(QueueFull)?;
        sender.try_send(Box::new(job)).map_err(|e| match e {
            TrySendError::Full(_) | TrySendError::Disconnected(_) => QueueFull,
        })
    }

    /// Jobs waiting for a worker.
    pub(crate) fn queued(&self) -> usize {
        self.sender.as_ref().map_or(0, Sender::len)
    }
}

impl Drop for WorkerPool {
    /// Closes the queue and waits for the workers to finish what they hold.
    fn drop(&mut self) {
        drop(self.sender.take());
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
        pool.submit(|| panic!("an engine bug")).expect("queued");
        let (tx, rx) = crossbeam_channel::bounded(1);
        pool.submit(move || tx.send(42).expect("sent"))
            .expect("queued");
        let got = rx.recv_timeout(std::time::Duration::from_secs(10));
        assert_eq!(got, Ok(42), "the one worker still runs jobs");
    }
}
