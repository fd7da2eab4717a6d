//! The critical path of a routed read, for the projection S5's speed-ups are compared
//! with: on hosts of their own, the shards of one fan-out would run at once, so a read
//! would take the router's own work, plus for each round of calls the slowest shard's
//! execution and one message round trip. On one small machine the shards share the
//! cores, so the wall-clock time cannot show that; the trace records what each shard
//! itself spent (its server-side time) and when each call was in flight. A traced
//! fan-out calls its shards one after another (a *group*), so each shard's own time is
//! measured without the others competing for the same cores; the group then counts as
//! one round, costing its slowest shard.

use std::cell::RefCell;
use std::future::Future;
use std::time::Instant;

/// One call on one shard.
#[derive(Clone, Debug)]
pub struct CallRecord {
    /// The shard's name.
    pub shard: String,
    /// When the call was sent and answered, in µs from the read's start.
    pub sent_us: f64,
    /// When it was answered.
    pub answered_us: f64,
    /// The shard's own time for it (execution and encoding), µs.
    pub server_us: f64,
    /// The fan-out it belongs to (its calls ran one after another, standing for calls
    /// at once); `None` for a call of its own.
    pub group: Option<u64>,
}

/// The recorder of one traced read.
struct Recorder {
    origin: Instant,
    calls: Vec<CallRecord>,
    group: Option<u64>,
    groups: u64,
}

/// A traced read: its calls and its whole time at the router.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// Every shard call, in the order sent.
    pub calls: Vec<CallRecord>,
    /// From the read's start to its answer at the router, µs.
    pub total_us: f64,
}

tokio::task_local! {
    static CALLS: RefCell<Recorder>;
}

/// Runs `read` with its shard calls recorded (timed by the shards).
pub async fn traced<F: Future>(read: F) -> (F::Output, Trace) {
    let start = Instant::now();
    let cell = RefCell::new(Recorder {
        origin: start,
        calls: Vec::new(),
        group: None,
        groups: 0,
    });
    let (output, cell) = CALLS
        .scope(cell, async move {
            let out = read.await;
            (
                out,
                CALLS.with(|c| std::mem::take(&mut c.borrow_mut().calls)),
            )
        })
        .await;
    let trace = Trace {
        calls: cell,
        total_us: start.elapsed().as_secs_f64() * 1e6,
    };
    (output, trace)
}

/// Whether the current read is traced.
pub(crate) fn active() -> bool {
    CALLS.try_with(|_| ()).is_ok()
}

/// Records a call of the current traced read.
pub(crate) fn record(shard: &str, sent: Instant, server_us: f64) {
    let _ = CALLS.try_with(|c| {
        let mut c = c.borrow_mut();
        let origin = c.origin;
        let us = |t: Instant| t.duration_since(origin).as_secs_f64() * 1e6;
        let record = CallRecord {
            shard: shard.to_owned(),
            sent_us: us(sent),
            answered_us: us(Instant::now()),
            server_us,
            group: c.group,
        };
        c.calls.push(record);
    });
}

/// Starts a fan-out group: calls recorded until [`end_group`] belong to it.
pub(crate) fn begin_group() {
    let _ = CALLS.try_with(|c| {
        let mut c = c.borrow_mut();
        c.groups += 1;
        c.group = Some(c.groups);
    });
}

/// Ends the current fan-out group.
pub(crate) fn end_group() {
    let _ = CALLS.try_with(|c| c.borrow_mut().group = None);
}

impl Trace {
    /// The projected time on hosts of their own: calls in flight together form a
    /// round; a round costs its slowest shard's own time plus `message_us` (one round
    /// trip of a message); the router's own work is the time no call was in flight.
    pub fn critical_path_us(&self, message_us: f64) -> f64 {
        let calls = self.rounds_of_groups();
        let mut calls: Vec<&CallRecord> = calls.iter().collect();
        calls.sort_by(|a, b| a.sent_us.total_cmp(&b.sent_us));
        let (mut in_flight, mut projected) = (0.0, 0.0);
        let mut i = 0;
        while i < calls.len() {
            let (start, mut end) = (calls[i].sent_us, calls[i].answered_us);
            let mut slowest = calls[i].server_us;
            i += 1;
            while i < calls.len() && calls[i].sent_us <= end {
                end = end.max(calls[i].answered_us);
                slowest = slowest.max(calls[i].server_us);
                i += 1;
            }
            in_flight += end - start;
            projected += slowest + message_us;
        }
        (self.total_us - in_flight).max(0.0) + projected
    }

    /// Rounds of calls (calls in flight together), for reports.
    pub fn rounds(&self) -> usize {
        let calls = self.rounds_of_groups();
        let mut calls: Vec<&CallRecord> = calls.iter().collect();
        calls.sort_by(|a, b| a.sent_us.total_cmp(&b.sent_us));
        let (mut rounds, mut end) = (0, f64::NEG_INFINITY);
        for c in calls {
            if c.sent_us > end {
                rounds += 1;
            }
            end = end.max(c.answered_us);
        }
        rounds
    }
}

impl Trace {
    /// The calls with each group made one call: from its first send to its last
    /// answer, costing its slowest shard.
    fn rounds_of_groups(&self) -> Vec<CallRecord> {
        let mut out: Vec<CallRecord> = Vec::new();
        for c in &self.calls {
            let same = c
                .group
                .and_then(|g| out.iter_mut().find(|o| o.group == Some(g)));
            match same {
                Some(o) => {
                    o.sent_us = o.sent_us.min(c.sent_us);
                    o.answered_us = o.answered_us.max(c.answered_us);
                    o.server_us = o.server_us.max(c.server_us);
                }
                None => out.push(c.clone()),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(sent: f64, answered: f64, server: f64) -> CallRecord {
        CallRecord {
            shard: "s".into(),
            sent_us: sent,
            answered_us: answered,
            server_us: server,
            group: None,
        }
    }

    #[test]
    fn a_group_of_calls_one_after_another_is_one_round() {
        // The fan-out ran its three shards in turn (150-250, 250-400, 400-500).
        let grouped = |mut c: CallRecord| {
            c.group = Some(1);
            c
        };
        let trace = Trace {
            calls: vec![
                call(0.0, 100.0, 60.0),
                grouped(call(150.0, 250.0, 50.0)),
                grouped(call(250.0, 400.0, 120.0)),
                grouped(call(400.0, 500.0, 80.0)),
            ],
            total_us: 550.0,
        };
        assert_eq!(trace.rounds(), 2);
        // Router's own: 550 - 100 - 350 = 100; rounds: 60 + 10 and 120 + 10.
        assert_eq!(trace.critical_path_us(10.0), 100.0 + 70.0 + 130.0);
    }

    #[test]
    fn rounds_cost_their_slowest_shard_and_a_message() {
        // A person-shard round (0-100, the shard spent 60), then a fan-out of three
        // overlapping calls (150-400; the slowest shard spent 120), answer at 450.
        let trace = Trace {
            calls: vec![
                call(0.0, 100.0, 60.0),
                call(150.0, 300.0, 50.0),
                call(151.0, 400.0, 120.0),
                call(152.0, 350.0, 80.0),
            ],
            total_us: 450.0,
        };
        assert_eq!(trace.rounds(), 2);
        // Router's own: 450 - 100 - 250 = 100; rounds: 60 + 10 and 120 + 10.
        assert_eq!(trace.critical_path_us(10.0), 100.0 + 70.0 + 130.0);
    }
}
