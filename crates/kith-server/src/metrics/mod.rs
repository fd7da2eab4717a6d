//! Counters and latency histograms, rendered as Prometheus text (format 0.0.4).

mod connections;

pub(crate) use connections::Connections;
pub use connections::{CloseReason, Standing};

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Which transport a request came over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Transport {
    /// WebSocket.
    Ws,
    /// HTTP.
    Http,
    /// Bolt.
    Bolt,
}

impl Transport {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Transport::Ws => "ws",
            Transport::Http => "http",
            Transport::Bolt => "bolt",
        }
    }
}

/// Upper bounds of the latency buckets, in seconds (50 µs to 60 s: an fsync stall
/// of the soak's reached 17 s).
const BUCKETS_SECONDS: [f64; 19] = [
    0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
    1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
];

/// Durations counted into [`BUCKETS_SECONDS`].
#[derive(Clone, Default)]
pub(crate) struct Histogram {
    buckets: [u64; BUCKETS_SECONDS.len()],
    count: u64,
    sum_seconds: f64,
}

impl Histogram {
    pub(crate) fn observe(&mut self, elapsed: Duration) {
        let seconds = elapsed.as_secs_f64();
        self.count += 1;
        self.sum_seconds += seconds;
        if let Some(i) = BUCKETS_SECONDS.iter().position(|b| seconds <= *b) {
            self.buckets[i] += 1;
        }
    }

    /// Its `_bucket`, `_sum` and `_count` lines under `name`, with `labels` (`a="b"`
    /// pairs, or empty).
    pub(crate) fn render(&self, out: &mut String, name: &str, labels: &str) {
        let sep = if labels.is_empty() { "" } else { "," };
        let mut cumulative = 0;
        for (bound, n) in BUCKETS_SECONDS.iter().zip(self.buckets) {
            cumulative += n;
            let _ = writeln!(
                out,
                "{name}_bucket{{{labels}{sep}le=\"{bound}\"}} {cumulative}"
            );
        }
        let count = self.count;
        let _ = writeln!(out, "{name}_bucket{{{labels}{sep}le=\"+Inf\"}} {count}");
        let braced = if labels.is_empty() {
            String::new()
        } else {
            format!("{{{labels}}}")
        };
        let _ = writeln!(out, "{name}_sum{braced} {}", self.sum_seconds);
        let _ = writeln!(out, "{name}_count{braced} {count}");
    }
}

/// Everything `/metrics` reports.
#[derive(Default)]
pub struct Metrics {
    /// By transport, then procedure: nested so that a request finds its histogram by
    /// `&str` without allocating the key (only the first request of a name does).
    latency: Mutex<BTreeMap<Transport, BTreeMap<String, Histogram>>>,
    errors: Mutex<BTreeMap<(Transport, String), u64>>,
    connections_open: AtomicI64,
    connections_total: AtomicU64,
    bytes_in: AtomicU64,
    bytes_out: AtomicU64,
    http_connections_refused: AtomicU64,
    /// Connections by transport and standing, and closes by reason.
    pub(crate) connections: Connections,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // Metrics stay usable even if a thread panicked while holding the lock.
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Metrics {
    /// Records one answered request. `procedure` must be a registered name (unknown
    /// names are recorded as `<unknown>` so clients cannot grow the label set).
    pub fn observe(&self, transport: Transport, procedure: &str, elapsed: Duration) {
        let mut map = lock(&self.latency);
        let by_name = map.entry(transport).or_default();
        if !by_name.contains_key(procedure) {
            by_name.insert(procedure.to_owned(), Histogram::default());
        }
        if let Some(h) = by_name.get_mut(procedure) {
            h.observe(elapsed);
        }
    }

    /// Records an error answer by code.
    pub fn error(&self, transport: Transport, code: kith_protocol::ErrorCode) {
        *lock(&self.errors)
            .entry((transport, code.as_str().to_owned()))
            .or_default() += 1;
    }

    /// A WebSocket connection opened.
    /// Takes one of `max` connection slots; false when all are taken. One atomic step,
    /// so upgrades racing each other cannot pass a check together and overshoot.
    pub fn try_connection_opened(&self, max: usize) -> bool {
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        let taken = self
            .connections_open
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < max).then_some(n + 1)
            })
            .is_ok();
        if taken {
            self.connections_total.fetch_add(1, Ordering::Relaxed);
        }
        taken
    }

    /// A WebSocket connection closed.
    pub fn connection_closed(&self) {
        let before = self.connections_open.fetch_sub(1, Ordering::AcqRel);
        debug_assert!(before > 0, "a connection closed that was never opened");
    }

    /// Open WebSocket connections.
    pub fn connections_open(&self) -> i64 {
        self.connections_open.load(Ordering::Relaxed)
    }

    /// An HTTP connection closed at once: `http_connections_max` were open.
    pub fn http_connection_refused(&self) {
        self.http_connections_refused
            .fetch_add(1, Ordering::Relaxed);
    }

    /// Bytes received.
    pub fn bytes_in(&self, n: usize) {
        self.bytes_in.fetch_add(n as u64, Ordering::Relaxed);
    }

    /// Bytes sent.
    pub fn bytes_out(&self, n: usize) {
        self.bytes_out.fetch_add(n as u64, Ordering::Relaxed);
    }

    /// The Prometheus text exposition.
    pub fn render(&self, queue_depth: usize, workers: usize) -> String {
        let mut out = String::with_capacity(4096);
        let _ = writeln!(out, "# HELP kith_request_duration_seconds Time from a request's arrival to its answer being encoded.");
        let _ = writeln!(out, "# TYPE kith_request_duration_seconds histogram");
        let latency = lock(&self.latency);
        let histograms = latency
            .iter()
            .flat_map(|(t, by)| by.iter().map(move |(p, h)| (t, p, h)));
        for (transport, procedure, h) in histograms {
            let labels = format!(
                "transport=\"{}\",procedure=\"{}\"",
                transport.name(),
                procedure
            );
            h.render(&mut out, "kith_request_duration_seconds", &labels);
        }
        let _ = writeln!(out, "# HELP kith_errors_total Error answers by code.");
        let _ = writeln!(out, "# TYPE kith_errors_total counter");
        for ((transport, code), n) in lock(&self.errors).iter() {
            let _ = writeln!(
                out,
                "kith_errors_total{{transport=\"{}\",code=\"{code}\"}} {n}",
                transport.name()
            );
        }
        let gauges = [
            (
                "kith_connections_open",
                "Open WebSocket and Bolt connections that authenticated (connections_max).",
                "gauge",
                self.connections_open.load(Ordering::Relaxed).to_string(),
            ),
            (
                "kith_connections_total",
                "WebSocket and Bolt connections that authenticated, since the start.",
                "counter",
                self.connections_total.load(Ordering::Relaxed).to_string(),
            ),
            (
                "kith_http_connections_refused_total",
                "HTTP connections closed at once because http_connections_max were open.",
                "counter",
                self.http_connections_refused
                    .load(Ordering::Relaxed)
                    .to_string(),
            ),
            (
                "kith_bytes_in_total",
                "Bytes of requests received.",
                "counter",
                self.bytes_in.load(Ordering::Relaxed).to_string(),
            ),
            (
                "kith_bytes_out_total",
                "Bytes of answers sent.",
                "counter",
                self.bytes_out.load(Ordering::Relaxed).to_string(),
            ),
            (
                "kith_queue_depth",
                "Requests waiting for a worker.",
                "gauge",
                queue_depth.to_string(),
            ),
            (
                "kith_workers",
                "Worker threads.",
                "gauge",
                workers.to_string(),
            ),
        ];
        for (name, help, kind, value) in gauges {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
            );
        }
        self.connections.render(&mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_cumulative_buckets() {
        let m = Metrics::default();
        m.observe(Transport::Ws, "shindig.friends", Duration::from_micros(70));
        m.observe(Transport::Ws, "shindig.friends", Duration::from_millis(3));
        m.error(Transport::Http, kith_protocol::ErrorCode::NotFound);
        let text = m.render(2, 4);
        assert!(text.contains("kith_request_duration_seconds_bucket{transport=\"ws\",procedure=\"shindig.friends\",le=\"0.0001\"} 1"), "{text}");
        assert!(text.contains("kith_request_duration_seconds_bucket{transport=\"ws\",procedure=\"shindig.friends\",le=\"0.005\"} 2"));
        assert!(text.contains(
            "kith_request_duration_seconds_count{transport=\"ws\",procedure=\"shindig.friends\"} 2"
        ));
        assert!(text.contains("kith_errors_total{transport=\"http\",code=\"not_found\"} 1"));
        assert!(text.contains("kith_queue_depth 2"));
    }

    #[test]
    fn a_histogram_without_labels_renders_only_its_bound() {
        let mut h = Histogram::default();
        h.observe(Duration::from_micros(700));
        h.observe(Duration::from_secs(90));
        let mut text = String::new();
        h.render(&mut text, "kith_write_group_seconds", "");
        assert!(
            text.contains("kith_write_group_seconds_bucket{le=\"0.001\"} 1\n"),
            "{text}"
        );
        assert!(text.contains("kith_write_group_seconds_bucket{le=\"60\"} 1\n"));
        assert!(text.contains("kith_write_group_seconds_bucket{le=\"+Inf\"} 2\n"));
        assert!(text.contains("kith_write_group_seconds_count 2\n"));
    }
}
