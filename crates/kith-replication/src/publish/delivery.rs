//! What the publisher's threads share, and Kafka's delivery reports.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rdkafka::error::KafkaError;
use rdkafka::producer::{DeliveryResult, ProducerContext};
use rdkafka::{ClientContext, Message};

use super::{Ack, AckError};

/// State shared by the publisher, its thread, the timer and librdkafka's thread.
pub(super) struct Shared {
    /// Record bytes handed over and not yet acknowledged.
    pub(super) backlog_bytes: AtomicU64,
    /// The highest version Kafka acknowledged, with every version below it: the
    /// local log keeps what is above (`DatabaseOptions::log_consumed`).
    pub(super) acked: Arc<AtomicU64>,
    /// Where a reader finds every record after a version: `(version, offset)`, the
    /// last acknowledged record's last version and the offset after its last part.
    pub(super) resume: Mutex<(u64, i64)>,
    failed: Mutex<Option<String>>,
    /// Set by `close`: the threads stop waiting (for the broker, for room).
    pub(super) stop: AtomicBool,
    /// Set once the publisher knows where the topic ends.
    pub(super) started: AtomicBool,
    /// Set once the thread flushes for shutdown: failures from here on are purges.
    pub(super) closing: AtomicBool,
    /// Groups someone waits for, oldest first, with when the wait ends.
    pub(super) deadlines: Mutex<VecDeque<(Instant, Arc<Group>)>>,
    last_warning: Mutex<Option<Instant>>,
}

impl Shared {
    pub(super) fn new(acked: Arc<AtomicU64>) -> Shared {
        Shared {
            backlog_bytes: AtomicU64::new(0),
            acked,
            resume: Mutex::new((0, 0)),
            failed: Mutex::new(None),
            stop: AtomicBool::new(false),
            started: AtomicBool::new(false),
            closing: AtomicBool::new(false),
            deadlines: Mutex::new(VecDeque::new()),
            last_warning: Mutex::new(None),
        }
    }

    /// Publishing failed for good: every later commit is refused.
    pub(super) fn fail(&self, reason: String) {
        let mut failed = self.failed.lock().unwrap_or_else(|p| p.into_inner());
        if failed.is_none() {
            tracing::error!(
                "publishing to Kafka failed: {reason}; writes are refused until restart"
            );
            *failed = Some(reason);
        }
    }

    pub(super) fn failure(&self) -> Option<String> {
        self.failed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Ends the waits past their deadline (and forgets answered groups).
    pub(super) fn expire(&self, ack_timeout: Duration) {
        let now = Instant::now();
        let mut deadlines = self.deadlines.lock().unwrap_or_else(|p| p.into_inner());
        while let Some((at, group)) = deadlines.front() {
            if group.done.load(Ordering::Acquire) {
                deadlines.pop_front();
            } else if *at <= now {
                let group = group.clone();
                deadlines.pop_front();
                group.finish(&Err(AckError::Timeout {
                    version: group.last_version,
                    after: ack_timeout,
                }));
            } else {
                break;
            }
        }
    }

    /// Answers every wait still open (the publisher stopped).
    pub(super) fn abandon(&self, why: &AckError) {
        let open: Vec<_> = self
            .deadlines
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .drain(..)
            .collect();
        for (_, group) in open {
            group.finish(&Err(why.clone()));
        }
    }
}

/// One group on its way: answered once, by its delivery or by its deadline.
pub(super) struct Group {
    pub(super) first_version: u64,
    pub(super) last_version: u64,
    pub(super) bytes: u64,
    acks: Mutex<Vec<Ack>>,
    pub(super) done: AtomicBool,
}

impl Group {
    pub(super) fn new(first_version: u64, last_version: u64, bytes: u64, acks: Vec<Ack>) -> Group {
        Group {
            first_version,
            last_version,
            bytes,
            acks: Mutex::new(acks),
            done: AtomicBool::new(false),
        }
    }

    pub(super) fn finish(&self, result: &Result<(), AckError>) {
        if self.done.swap(true, Ordering::AcqRel) {
            return;
        }
        let acks = std::mem::take(&mut *self.acks.lock().unwrap_or_else(|p| p.into_inner()));
        for ack in acks {
            ack(result.clone());
        }
    }
}

/// librdkafka's callbacks.
pub(super) struct Context(pub(super) Arc<Shared>);

impl ClientContext for Context {
    fn error(&self, error: KafkaError, reason: &str) {
        // A broker outage repeats its error at every reconnect; say it every 10 s.
        let mut last = self
            .0
            .last_warning
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if last.is_none_or(|t| t.elapsed() >= Duration::from_secs(10)) {
            tracing::warn!(
                backlog_bytes = self.0.backlog_bytes.load(Ordering::Relaxed),
                "Kafka: {error}: {reason}"
            );
            *last = Some(Instant::now());
        }
    }
}

impl ProducerContext for Context {
    /// Set on a record's last part only.
    type DeliveryOpaque = Box<Option<Arc<Group>>>;

    fn delivery(&self, result: &DeliveryResult<'_>, opaque: Self::DeliveryOpaque) {
        let outcome = match result {
            Ok(_) => Ok(()),
            Err(_) if self.0.closing.load(Ordering::Acquire) => Err(AckError::ShutDown),
            Err((e, _)) => {
                self.0.fail(format!("the broker refused a record: {e}"));
                Err(AckError::Failed(e.to_string()))
            }
        };
        let Some(group) = *opaque else { return };
        if let Ok(message) = result {
            self.acknowledged(&group, message.offset());
        }
        group.finish(&outcome);
    }
}

impl Context {
    /// A record's last part is in the topic. The acknowledged version moves only
    /// while nothing failed and the record continues it: with the gapless guarantee
    /// a failed record stops the producer, and this keeps a record delivered after
    /// one that failed from covering it (the local log must keep the failed one).
    fn acknowledged(&self, group: &Group, offset: i64) {
        let shared = &self.0;
        shared
            .backlog_bytes
            .fetch_sub(group.bytes, Ordering::AcqRel);
        if shared.failure().is_some() {
            return;
        }
        let continues = shared
            .acked
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |acked| {
                (group.first_version <= acked + 1 && group.last_version > acked)
                    .then_some(group.last_version)
            })
            .is_ok();
        if !continues {
            let acked = shared.acked.load(Ordering::Acquire);
            if group.first_version > acked + 1 {
                shared.fail(format!(
                    "Kafka acknowledged versions {} to {} before version {}",
                    group.first_version,
                    group.last_version,
                    acked + 1
                ));
            }
            return;
        }
        let mut resume = shared.resume.lock().unwrap_or_else(|p| p.into_inner());
        *resume = (group.last_version, offset + 1);
    }
}
