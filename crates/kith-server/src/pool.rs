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
                            job();
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
