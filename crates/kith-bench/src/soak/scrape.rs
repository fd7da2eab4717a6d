//! The primary's own view of each window, from its `/metrics`: how long it took to
//! answer requests, how long the writer's commit groups (fsync included) and the
//! checkpoints took. Beside the clients' latency they tell a stall of the disk from
//! one of the server, and one of the server from one of the machine or the load
//! generator (which shares it).

use std::net::SocketAddr;

/// The histograms the soak reads.
const REQUESTS: &str = "kith_request_duration_seconds_bucket{";
const GROUPS: &str = "kith_write_group_seconds_bucket{";
const CHECKPOINTS: &str = "kith_checkpoint_seconds_bucket{";

/// A Prometheus histogram's cumulative counts by upper bound (seconds; the last is
/// `+Inf`), summed over its label sets.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Buckets(Vec<(f64, u64)>);

impl Buckets {
    /// Adds one `..._bucket{...,le="B"} N` line.
    fn add(&mut self, line: &str) -> Option<()> {
        let le = line.split("le=\"").nth(1)?.split('"').next()?;
        let bound = if le == "+Inf" {
            f64::INFINITY
        } else {
            le.parse().ok()?
        };
        let count: u64 = line.rsplit(' ').next()?.trim().parse().ok()?;
        match self.0.iter_mut().find(|(b, _)| *b == bound) {
            Some((_, n)) => *n += count,
            None => {
                self.0.push((bound, count));
                self.0.sort_by(|a, b| a.0.total_cmp(&b.0));
            }
        }
        Some(())
    }

    /// What was counted after `earlier`.
    fn since(&self, earlier: &Buckets) -> Buckets {
        let before = |bound: f64| {
            earlier
                .0
                .iter()
                .find(|(b, _)| *b == bound)
                .map_or(0, |(_, n)| *n)
        };
        Buckets(
            self.0
                .iter()
                .map(|&(b, n)| (b, n.saturating_sub(before(b))))
                .collect(),
        )
    }

    fn total(&self) -> u64 {
        self.0.last().map_or(0, |(_, n)| *n)
    }

    /// The upper bound of the bucket holding the `q` quantile, in milliseconds
    /// (`None` when nothing was counted; infinite past the last bound).
    fn quantile_ms(&self, q: f64) -> Option<f64> {
        let total = self.total();
        if total == 0 {
            return None;
        }
        let rank = ((total as f64 * q).ceil() as u64).max(1);
        let (bound, _) = self.0.iter().find(|(_, n)| *n >= rank)?;
        Some(bound * 1000.0)
    }
}

/// The primary's histograms at one moment.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scrape {
    requests: Buckets,
    groups: Buckets,
    checkpoints: Buckets,
}

impl Scrape {
    /// Reads `/metrics` of the server at `addr` (`None` when it does not answer
    /// within 5 s). Blocking: call it off the runtime.
    pub(crate) fn of(addr: SocketAddr) -> Option<Scrape> {
        crate::process::http_get(addr, "/metrics").map(|text| Scrape::parse(&text))
    }

    fn parse(text: &str) -> Scrape {
        let mut scrape = Scrape::default();
        for line in text.lines() {
            let into = if line.starts_with(REQUESTS) {
                &mut scrape.requests
            } else if line.starts_with(GROUPS) {
                &mut scrape.groups
            } else if line.starts_with(CHECKPOINTS) {
                &mut scrape.checkpoints
            } else {
                continue;
            };
            let _ = into.add(line);
        }
        scrape
    }
}

/// The primary's figures for one window (bucket bounds: a histogram has no finer
/// answer).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ServerWindow {
    /// The 99th percentile of its requests' time from arrival to answer, ms.
    pub request_p99_ms: Option<f64>,
    /// Commit groups the writer ran (committed or failed).
    pub write_groups: u64,
    /// The 99th percentile of a group's time (checks, apply, log append, fsync), ms.
    pub write_group_p99_ms: Option<f64>,
    /// The slowest group's, ms.
    pub write_group_max_ms: Option<f64>,
    /// Checkpoints written.
    pub checkpoints: u64,
    /// The slowest checkpoint's time, ms.
    pub checkpoint_max_ms: Option<f64>,
}

impl ServerWindow {
    pub(crate) fn between(earlier: &Scrape, later: &Scrape) -> ServerWindow {
        let requests = later.requests.since(&earlier.requests);
        let groups = later.groups.since(&earlier.groups);
        let checkpoints = later.checkpoints.since(&earlier.checkpoints);
        ServerWindow {
            request_p99_ms: requests.quantile_ms(0.99),
            write_groups: groups.total(),
            write_group_p99_ms: groups.quantile_ms(0.99),
            write_group_max_ms: groups.quantile_ms(1.0),
            checkpoints: checkpoints.total(),
            checkpoint_max_ms: checkpoints.quantile_ms(1.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BEFORE: &str = "\
kith_request_duration_seconds_bucket{transport=\"ws\",procedure=\"a\",le=\"0.001\"} 10
kith_request_duration_seconds_bucket{transport=\"ws\",procedure=\"a\",le=\"0.01\"} 10
kith_request_duration_seconds_bucket{transport=\"ws\",procedure=\"a\",le=\"+Inf\"} 10
kith_write_group_seconds_bucket{le=\"0.001\"} 5
kith_write_group_seconds_bucket{le=\"0.01\"} 5
kith_write_group_seconds_bucket{le=\"+Inf\"} 5
kith_write_group_seconds_sum 0.002
";

    const AFTER: &str = "\
kith_request_duration_seconds_bucket{transport=\"ws\",procedure=\"a\",le=\"0.001\"} 100
kith_request_duration_seconds_bucket{transport=\"ws\",procedure=\"a\",le=\"0.01\"} 110
kith_request_duration_seconds_bucket{transport=\"ws\",procedure=\"a\",le=\"+Inf\"} 110
kith_request_duration_seconds_bucket{transport=\"ws\",procedure=\"b\",le=\"0.001\"} 0
kith_request_duration_seconds_bucket{transport=\"ws\",procedure=\"b\",le=\"0.01\"} 0
kith_request_duration_seconds_bucket{transport=\"ws\",procedure=\"b\",le=\"+Inf\"} 1
kith_write_group_seconds_bucket{le=\"0.001\"} 104
kith_write_group_seconds_bucket{le=\"0.01\"} 105
kith_write_group_seconds_bucket{le=\"+Inf\"} 105
kith_checkpoint_seconds_bucket{le=\"0.001\"} 0
kith_checkpoint_seconds_bucket{le=\"0.01\"} 1
kith_checkpoint_seconds_bucket{le=\"+Inf\"} 1
";

    #[test]
    fn a_window_is_the_difference_of_two_scrapes() {
        let w = ServerWindow::between(&Scrape::parse(BEFORE), &Scrape::parse(AFTER));
        // 101 requests in the window: 90 under 1 ms, 10 under 10 ms, 1 past 10 ms.
        assert_eq!(w.request_p99_ms, Some(10.0));
        assert_eq!(w.write_groups, 100);
        assert_eq!(w.write_group_p99_ms, Some(1.0));
        assert_eq!(w.write_group_max_ms, Some(10.0));
        assert_eq!(w.checkpoints, 1);
        assert_eq!(w.checkpoint_max_ms, Some(10.0));
    }

    #[test]
    fn an_empty_window_has_no_percentiles() {
        let w = ServerWindow::between(&Scrape::parse(AFTER), &Scrape::parse(AFTER));
        assert_eq!(w.write_groups, 0);
        assert_eq!(w.request_p99_ms, None);
        assert_eq!(w.checkpoint_max_ms, None);
    }
}
