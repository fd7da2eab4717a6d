//! The soak's report: its verdicts, its windows as CSV and its plots.

use super::{Memory, Report, ServerWindow, Window};
use crate::ldbc::median;

/// The bound on memory growth after the warm-up (issue 18).
pub const RSS_GROWTH_MAX_PCT: f64 = 5.0;
/// Where the plot draws a figure past the histograms' last bound (60 s).
const PLOT_CAP_MS: f64 = 60_000.0;

/// The bound on latency drift: the last fifth's median p99 over the first steady
/// fifth's.
pub const P99_DRIFT_MAX: f64 = 1.5;

/// A figure of a window, when the window has it (the replica's are absent without
/// one).
type Figure = fn(&Window) -> Option<f64>;

fn primary_rss(w: &Window) -> Option<f64> {
    Some(w.memory.rss_mib)
}

fn replica_rss(w: &Window) -> Option<f64> {
    w.replica.as_ref().map(|r| r.memory.rss_mib)
}

fn replica_lag(w: &Window) -> Option<f64> {
    w.replica.as_ref()?.lag_versions.map(|v| v as f64)
}

impl Report {
    /// The windows after the warm-up (the first fifth of the run).
    pub fn steady(&self) -> &[Window] {
        &self.windows[self.windows.len() / 5..]
    }

    /// Whether the soak ran a replica.
    pub fn has_replica(&self) -> bool {
        self.windows.iter().any(|w| w.replica.is_some())
    }

    /// Requests that failed, over the whole soak.
    pub fn errors(&self) -> u64 {
        self.windows.iter().map(|w| w.errors).sum()
    }

    /// Requests answered, over the whole soak.
    pub fn requests(&self) -> f64 {
        let mut last = 0.0;
        self.windows
            .iter()
            .map(|w| {
                let n = w.ops_per_s * (w.at_s - last);
                last = w.at_s;
                n
            })
            .sum()
    }

    /// The median of `figure` over the first fifth of the steady windows and over
    /// the last fifth (medians: one window's allocator noise is not a trend).
    fn early_late(&self, figure: Figure) -> (f64, f64) {
        let steady: Vec<f64> = self.steady().iter().filter_map(figure).collect();
        let n = (steady.len() / 5).max(1);
        let early = median(steady.iter().take(n).copied().collect());
        let late = median(steady.iter().rev().take(n).copied().collect());
        (early, late)
    }

    /// Growth of `figure` after the warm-up, percent.
    fn growth_pct(&self, figure: Figure) -> f64 {
        let (early, late) = self.early_late(figure);
        (late - early) / early.max(1e-9) * 100.0
    }

    /// The primary's resident memory growth after the warm-up, percent.
    pub fn rss_growth_pct(&self) -> f64 {
        self.growth_pct(primary_rss)
    }

    /// The replica's, when there is one.
    pub fn replica_rss_growth_pct(&self) -> Option<f64> {
        self.has_replica().then(|| self.growth_pct(replica_rss))
    }

    /// The median p99 of the last fifth of the windows over that of the first steady
    /// fifth: 1 is flat.
    pub fn p99_drift(&self) -> f64 {
        let (early, late) = self.early_late(|w| Some(w.p99_ms));
        late / early.max(1e-9)
    }

    /// No error, memory within its bound on every server, latency flat.
    pub fn passed(&self) -> bool {
        self.errors() == 0
            && self.rss_growth_pct() < RSS_GROWTH_MAX_PCT
            && self
                .replica_rss_growth_pct()
                .is_none_or(|g| g < RSS_GROWTH_MAX_PCT)
            && self.p99_drift() <= P99_DRIFT_MAX
    }

    /// One line per window.
    pub fn csv(&self) -> String {
        let mut out = String::from(
            "at_s,ops_per_s,errors,p50_ms,p99_ms,p999_ms,rss_mib,rss_anon_mib,rss_file_mib,\
             replica_rss_mib,replica_rss_anon_mib,replica_rss_file_mib,replica_lag_versions,\
             server_p99_ms,write_groups,write_group_p99_ms,write_group_max_ms,checkpoints,\
             checkpoint_max_ms\n",
        );
        for w in &self.windows {
            let m = w.memory;
            out.push_str(&format!(
                "{:.0},{:.1},{},{:.3},{:.3},{:.3},{:.1},{:.1},{:.1}",
                w.at_s,
                w.ops_per_s,
                w.errors,
                w.p50_ms,
                w.p99_ms,
                w.p999_ms,
                m.rss_mib,
                m.anon_mib,
                m.file_mib
            ));
            match &w.replica {
                Some(r) => {
                    let m = r.memory;
                    let lag = r.lag_versions.map_or(String::new(), |v| v.to_string());
                    out.push_str(&format!(
                        ",{:.1},{:.1},{:.1},{lag}",
                        m.rss_mib, m.anon_mib, m.file_mib
                    ));
                }
                None => out.push_str(",,,,"),
            }
            out.push_str(&server_columns(w.server.as_ref()));
        }
        out
    }

    /// The summary with its verdicts.
    pub fn markdown(&self) -> String {
        let o = &self.options;
        let verdict = |ok: bool| if ok { "holds" } else { "**fails**" };
        let steady = self.steady();
        let p = |f: fn(&Window) -> f64| median(steady.iter().map(f).collect());
        let replica = if self.has_replica() {
            "; a read replica over Kafka applies the log and serves half the reads"
        } else {
            ""
        };
        let mut out = format!(
            "Soak: {minutes:.1} min at {fraction:.0} % of the measured maximum \
             ({max:.0} requests/s closed loop, {clients} clients, {workers} workers per server): \
             {target:.0} requests/s offered, {writes:.0} % durable writes{replica}.\n\n\
             | check | figure | bound | verdict |\n|---|---|---|---|\n\
             | errors | {errors} of {requests:.0} requests | 0 | {e_ok} |\n",
            minutes = o.duration.as_secs_f64() / 60.0,
            fraction = o.fraction * 100.0,
            max = self.max_rate,
            clients = o.clients,
            workers = o.workers,
            target = self.target_rate,
            writes = o.write_share * 100.0,
            errors = self.errors(),
            requests = self.requests(),
            e_ok = verdict(self.errors() == 0),
        );
        let first_last = |of: fn(&Window) -> Option<Memory>| {
            (
                steady.first().and_then(of).unwrap_or_default(),
                steady.last().and_then(of).unwrap_or_default(),
            )
        };
        out.push_str(&memory_row(
            "primary",
            self.rss_growth_pct(),
            first_last(|w| Some(w.memory)),
        ));
        if let Some(growth) = self.replica_rss_growth_pct() {
            let of = first_last(|w| w.replica.as_ref().map(|r| r.memory));
            out.push_str(&memory_row("replica", growth, of));
        }
        out.push_str(&format!(
            "| p99 drift (last fifth / first steady fifth) | {drift:.2}x | <= {P99_DRIFT_MAX}x | {d_ok} |\n\n\
             Steady-state medians over the windows: {ops:.0} requests/s, p50 {p50:.2} ms, \
             p99 {p99:.2} ms, p99.9 {p999:.2} ms.\n",
            drift = self.p99_drift(),
            d_ok = verdict(self.p99_drift() <= P99_DRIFT_MAX),
            ops = p(|w| w.ops_per_s),
            p50 = p(|w| w.p50_ms),
            p99 = p(|w| w.p99_ms),
            p999 = p(|w| w.p999_ms),
        ));
        if self.has_replica() {
            out.push_str(&self.lag_line());
        }
        out.push_str(&self.slowest_windows());
        out
    }

    /// The five steady windows of highest client p99, with what the primary saw in
    /// each: a stall of its disk shows in the commit groups' times, one of the
    /// server in its own request p99, and one of the machine or the load generator
    /// (which shares it) in neither.
    fn slowest_windows(&self) -> String {
        let mut slowest: Vec<&Window> = self.steady().iter().collect();
        slowest.sort_by(|a, b| b.p99_ms.total_cmp(&a.p99_ms));
        let ms = |v: Option<f64>| v.map_or("-".into(), bound);
        let mut out = String::from(
            "\nThe slowest steady windows, beside the primary's own figures (bucket bounds):\n\n\
             | at (min) | client p50 ms | client p99 ms | server p99 ms | commit groups | slowest group ms | checkpoints | slowest checkpoint ms |\n\
             |---|---|---|---|---|---|---|---|\n",
        );
        for w in slowest.into_iter().take(5) {
            let server = match w.server {
                Some(s) => format!(
                    "{} | {} | {} | {} | {}",
                    ms(s.request_p99_ms),
                    s.write_groups,
                    ms(s.write_group_max_ms),
                    s.checkpoints,
                    ms(s.checkpoint_max_ms)
                ),
                None => "? | ? | ? | ? | ?".into(),
            };
            out.push_str(&format!(
                "| {:.1} | {:.1} | {:.1} | {server} |\n",
                w.at_s / 60.0,
                w.p50_ms,
                w.p99_ms,
            ));
        }
        out.push_str("\n(- : none in the window; ? : the primary's `/metrics` did not answer.)\n");
        out
    }

    /// The replica's lag at the window ends: median, largest, and the windows where
    /// it could not be read.
    fn lag_line(&self) -> String {
        let lags: Vec<f64> = self.steady().iter().filter_map(replica_lag).collect();
        let unread = self.steady().len() - lags.len();
        let largest = lags.iter().copied().fold(0.0, f64::max);
        format!(
            "\nThe replica's lag at the end of each steady window: median {:.0} versions, \
             largest {largest:.0}, unread (no `GET /health` answer) {unread}.\n",
            median(lags),
        )
    }

    /// The plots: latency percentiles and memory over time (one point a minute,
    /// or per window for a run under ten minutes).
    pub fn svgs(&self) -> Vec<(String, String)> {
        let per = if self.windows.len() > 60 {
            self.windows.len().div_ceil(60)
        } else {
            1
        };
        let points: Vec<&[Window]> = self.windows.chunks(per).collect();
        let xs: Vec<f64> = points
            .iter()
            .map(|c| (c.last().map_or(0.0, |w| w.at_s) / 60.0 * 10.0).round() / 10.0)
            .collect();
        // The highest window of each point; none when no window of it has the figure.
        let series = |f: Figure| -> Vec<Option<f64>> {
            points
                .iter()
                .map(|c| c.iter().filter_map(f).reduce(f64::max))
                .collect()
        };
        let frame = |title, y_label| crate::svg::Frame {
            title,
            y_label,
            width: 1100.0,
            height: 440.0,
        };
        let latency = crate::svg::lines(
            &frame(
                "Soak: latency percentiles over time (the highest window of each point)",
                "ms",
            ),
            &xs,
            "minutes",
            &[
                "p50".into(),
                "p99".into(),
                "p99.9".into(),
                "server p99 (bucket bound; past 60 s drawn at 60 s)".into(),
                "slowest commit group (bucket bound)".into(),
            ],
            &[
                series(|w| Some(w.p50_ms)),
                series(|w| Some(w.p99_ms)),
                series(|w| Some(w.p999_ms)),
                series(|w| w.server?.request_p99_ms.map(|v| v.min(PLOT_CAP_MS))),
                series(|w| w.server?.write_group_max_ms.map(|v| v.min(PLOT_CAP_MS))),
            ],
        );
        let mut names: Vec<String> = vec![
            "primary RSS".into(),
            "primary anonymous".into(),
            "primary file-backed".into(),
            "requests/s / 100".into(),
        ];
        let mut lines = vec![
            series(primary_rss),
            series(|w| Some(w.memory.anon_mib)),
            series(|w| Some(w.memory.file_mib)),
            series(|w| Some(w.ops_per_s / 100.0)),
        ];
        if self.has_replica() {
            names.extend(["replica RSS".into(), "replica anonymous".into()]);
            lines.push(series(replica_rss));
            lines.push(series(|w| w.replica.as_ref().map(|r| r.memory.anon_mib)));
        }
        let memory = crate::svg::lines(
            &frame("Soak: each server's resident memory over time", "MiB"),
            &xs,
            "minutes",
            &names,
            &lines,
        );
        vec![
            ("soak-latency.svg".into(), latency),
            ("soak-memory.svg".into(), memory),
        ]
    }
}

/// A histogram's bucket bound as read: "<= B ms", or past the last bound.
fn bound(ms: f64) -> String {
    if ms.is_finite() {
        format!("<= {ms}")
    } else {
        "> 60000".into()
    }
}

/// The primary's own figures of a window as CSV columns (empty when unread), and
/// the line's end.
fn server_columns(server: Option<&ServerWindow>) -> String {
    let Some(s) = server else {
        return ",,,,,,\n".into();
    };
    let ms = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v}"));
    format!(
        ",{},{},{},{},{},{}\n",
        ms(s.request_p99_ms),
        s.write_groups,
        ms(s.write_group_p99_ms),
        ms(s.write_group_max_ms),
        s.checkpoints,
        ms(s.checkpoint_max_ms)
    )
}

/// The memory check of one server.
fn memory_row(server: &str, growth: f64, (first, last): (Memory, Memory)) -> String {
    let ok = if growth < RSS_GROWTH_MAX_PCT {
        "holds"
    } else {
        "**fails**"
    };
    format!(
        "| {server} RSS growth after warm-up (median of the last fifth / first fifth) | \
         {growth:.2} % ({:.0} -> {:.0} MiB, first and last steady window; anonymous \
         {:.0} -> {:.0}, file-backed {:.0} -> {:.0}) | < {RSS_GROWTH_MAX_PCT} % | {ok} |\n",
        first.rss_mib, last.rss_mib, first.anon_mib, last.anon_mib, first.file_mib, last.file_mib
    )
}

#[cfg(test)]
mod tests {
    use super::super::{Options, ReplicaWindow};
    use super::*;
    use std::time::Duration;

    /// Ten windows, the primary at 100 MiB throughout; the replica's memory per window
    /// from `replica`.
    fn report(replica: Option<fn(usize) -> f64>) -> Report {
        let memory = |mib: f64| Memory {
            rss_mib: mib,
            anon_mib: mib * 0.8,
            file_mib: mib * 0.2,
        };
        let windows = (0..10)
            .map(|i| Window {
                at_s: (i + 1) as f64 * 10.0,
                ops_per_s: 1000.0,
                errors: 0,
                p50_ms: 1.0,
                // One stall, mid-run.
                p99_ms: if i == 5 { 50.0 } else { 5.0 },
                p999_ms: 9.0,
                memory: memory(100.0),
                replica: replica.map(|mib| ReplicaWindow {
                    memory: memory(mib(i)),
                    lag_versions: Some(3),
                }),
                server: Some(ServerWindow {
                    request_p99_ms: Some(2.5),
                    write_groups: 40,
                    write_group_p99_ms: Some(5.0),
                    write_group_max_ms: Some(10.0 * (i + 1) as f64),
                    checkpoints: u64::from(i == 5),
                    checkpoint_max_ms: (i == 5).then_some(250.0),
                }),
            })
            .collect();
        Report {
            max_rate: 1100.0,
            target_rate: 990.0,
            windows,
            options: Options {
                kith: "kith".into(),
                data: "data".into(),
                log: "serve.log".into(),
                kafka: replica.map(|_| "127.0.0.1:9092".into()),
                replica_data: "replica-data".into(),
                duration: Duration::from_secs(100),
                max_duration: Duration::from_secs(5),
                fraction: 0.9,
                clients: 4,
                write_share: 0.1,
                workers: 2,
                nodes: 10,
            },
        }
    }

    #[test]
    fn a_flat_soak_without_a_replica_passes() {
        let report = report(None);
        assert_eq!(report.rss_growth_pct(), 0.0);
        assert_eq!(report.replica_rss_growth_pct(), None);
        assert!(report.passed());
        assert!(!report.markdown().contains("replica"));
        assert!(report
            .csv()
            .lines()
            .nth(1)
            .expect("a window")
            .ends_with(",,,,,2.5,40,5,10,0,"));
        let markdown = report.markdown();
        assert!(
            markdown.contains("|---|\n| 1.0 | 1.0 | 50.0 | <= 2.5 | 40 | <= 60 | 1 | <= 250 |\n"),
            "{markdown}"
        );
    }

    #[test]
    fn a_growing_replica_fails_the_soak() {
        let report = report(Some(|i| 100.0 + 10.0 * i as f64));
        let growth = report.replica_rss_growth_pct().expect("a replica");
        assert!(growth > RSS_GROWTH_MAX_PCT, "{growth}");
        assert!(!report.passed());
        let markdown = report.markdown();
        assert!(markdown.contains("| replica RSS growth"), "{markdown}");
        assert!(markdown.contains("median 3 versions"), "{markdown}");
    }
}
