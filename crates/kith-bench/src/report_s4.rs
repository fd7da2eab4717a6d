//! `kith report WORK` for an S4 run (`bench/peers/s4/run.sh WORK` leaves `s4.json`): one
//! HTML page with S4's Table 4 (loading), Tables 2 and 3 (the micro-queries, client and
//! server times), Figure 3 (reads and events per second against readers, and over time)
//! and the answer checks. Every number comes from `s4.json`.

use std::fmt::Write;
use std::path::Path;

use serde_json::Value;

use crate::report_page::Written;
use crate::svg::{self, Frame};

const QUERIES: [&str; 4] = ["point_lookup", "one_hop", "two_hop", "shortest_path"];

/// Builds `WORK/report.html` and `WORK/charts/s4-*.svg` from `WORK/s4.json`.
pub fn build(work: &Path) -> Result<Written, String> {
    let path = work.join("s4.json");
    let text =
        std::fs::read_to_string(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let s4: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut charts = vec![
        latency_chart(&s4, "median_ms"),
        latency_chart(&s4, "server_mean_ms"),
    ];
    if let Some(realtime) = s4["realtime"].as_object().filter(|r| !r.is_empty()) {
        charts.push(readers_chart(realtime, "reads_per_s_while_writing"));
        charts.push(readers_chart(realtime, "events_per_s"));
        charts.push(over_time_chart(realtime));
    }
    let chart_dir = work.join("charts");
    std::fs::create_dir_all(&chart_dir)
        .map_err(|e| format!("creating {}: {e}", chart_dir.display()))?;
    let mut html = page_head(&s4);
    let mut written = Vec::new();
    for (file, caption, svg) in &charts {
        let p = chart_dir.join(file);
        std::fs::write(&p, svg).map_err(|e| format!("writing {}: {e}", p.display()))?;
        written.push(p);
        let _ = write!(
            html,
            "<figure>{svg}<figcaption>{caption}</figcaption></figure>"
        );
    }
    html.push_str(&check_table(
        &s4["check"],
        "The 21 official SQL texts on PostgreSQL against kith",
    ));
    if s4["check_after_updates"].is_object() {
        html.push_str(&check_table(
            &s4["check_after_updates"],
            "After the whole update stream (PostgreSQL's writer with the reference IU texts, kith's ingest)",
        ));
    }
    html.push_str("</body></html>\n");
    let html_path = work.join("report.html");
    std::fs::write(&html_path, html)
        .map_err(|e| format!("writing {}: {e}", html_path.display()))?;
    Ok(Written {
        html: html_path,
        charts: written,
    })
}

fn systems(s4: &Value) -> Vec<String> {
    s4["micro"]["systems"]
        .as_object()
        .map_or_else(Vec::new, |m| m.keys().cloned().collect())
}

fn page_head(s4: &Value) -> String {
    let mut html = crate::report_page::html_start("S4 side by side");
    let _ = write!(
        html,
        "<h1>S4 side by side on {} ({} elements)</h1><p>kith, PostgreSQL 15 with the reference \
         LDBC SQL, Neo4j 5.26, FalkorDB and Ladybug on the same data, parameters and machine, in one run \
         (<code>bench/peers/s4/run.sh</code>); every system through its own client from Python. \
         Ladybug is embedded: its times have no network in them.</p><h2>Table 4: loading</h2>\
         <table><tr><th>system</th><th>seconds</th><th>elements/s</th></tr>",
        s4["dataset"].as_str().unwrap_or("?"),
        s4["elements"]
    );
    let elements = s4["elements"].as_f64().unwrap_or(f64::NAN);
    for (system, seconds) in s4["load_seconds"].as_object().into_iter().flatten() {
        let secs = seconds.as_f64().unwrap_or(f64::NAN);
        let _ = write!(
            html,
            "<tr><td>{system}</td><td>{secs:.1}</td><td>{:.0}</td></tr>",
            elements / secs
        );
    }
    html.push_str("</table><h2>Tables 2 and 3: micro-queries</h2><table><tr><th>query</th>");
    for s in systems(s4) {
        let _ = write!(html, "<th>{s}: median / p99 ms (server mean)</th>");
    }
    html.push_str("</tr>");
    for q in QUERIES {
        let _ = write!(html, "<tr><td>{q}</td>");
        for s in systems(s4) {
            let r = &s4["micro"]["systems"][&s][q];
            let _ = write!(
                html,
                "<td>{} / {} ({})</td>",
                ms(&r["median_ms"]),
                ms(&r["p99_ms"]),
                ms(&r["server_mean_ms"])
            );
        }
        html.push_str("</tr>");
    }
    html.push_str("</table>");
    html
}

fn ms(v: &Value) -> String {
    v.as_f64().map_or_else(|| "—".into(), |x| format!("{x:.3}"))
}

fn latency_chart(s4: &Value, key: &str) -> (String, String, String) {
    let names = systems(s4);
    let values: Vec<Vec<Option<f64>>> = names
        .iter()
        .map(|s| {
            QUERIES
                .iter()
                .map(|q| {
                    s4["micro"]["systems"][s][q][key]
                        .as_f64()
                        .filter(|v| *v > 0.0)
                })
                .collect()
        })
        .collect();
    let (file, title) = if key == "median_ms" {
        (
            "s4-latency.svg",
            "Client-observed median per micro-query (ms, log scale)",
        )
    } else {
        (
            "s4-server.svg",
            "The server's own mean time per micro-query (ms, log scale)",
        )
    };
    let categories: Vec<String> = QUERIES.iter().map(|q| (*q).to_owned()).collect();
    let frame = Frame {
        title,
        y_label: "ms",
        width: 1000.0,
        height: 420.0,
    };
    let svg = svg::bars(&frame, &categories, &names, &values, true);
    (file.into(), format!("{title}: S4 Tables 2 and 3"), svg)
}

/// The reader counts measured, ascending, and each system's runs by count.
fn points(realtime: &serde_json::Map<String, Value>) -> Vec<f64> {
    let mut n: Vec<f64> = realtime
        .values()
        .filter_map(Value::as_object)
        .flat_map(|runs| runs.keys().filter_map(|k| k.parse::<f64>().ok()))
        .collect();
    n.sort_by(f64::total_cmp);
    n.dedup();
    n
}

fn readers_chart(realtime: &serde_json::Map<String, Value>, key: &str) -> (String, String, String) {
    let xs = points(realtime);
    let names: Vec<String> = realtime.keys().cloned().collect();
    let values: Vec<Vec<Option<f64>>> = names
        .iter()
        .map(|s| {
            xs.iter()
                .map(|n| realtime[s][format!("{n}")][key].as_f64())
                .collect()
        })
        .collect();
    let (file, title) = if key == "events_per_s" {
        (
            "s4-writes.svg",
            "The writer's events/s against concurrent readers",
        )
    } else {
        (
            "s4-reads.svg",
            "Reads/s while the writer had events, against concurrent readers",
        )
    };
    let frame = Frame {
        title,
        y_label: "per second",
        width: 900.0,
        height: 420.0,
    };
    let svg = svg::lines(&frame, &xs, "concurrent readers", &names, &values);
    (file.into(), format!("{title}: S4 Figure 3"), svg)
}

/// Reads per one-second window at the largest reader count, per system.
fn over_time_chart(realtime: &serde_json::Map<String, Value>) -> (String, String, String) {
    let most = points(realtime).last().copied().unwrap_or(1.0);
    let names: Vec<String> = realtime.keys().cloned().collect();
    let per_second: Vec<Vec<f64>> = names
        .iter()
        .map(|s| windows(&realtime[s][format!("{most}")]["samples"]))
        .collect();
    let len = per_second.iter().map(Vec::len).max().unwrap_or(0);
    let xs: Vec<f64> = (1..=len).map(|i| i as f64).collect();
    let values: Vec<Vec<Option<f64>>> = per_second
        .iter()
        .map(|w| (0..len).map(|i| w.get(i).copied()).collect())
        .collect();
    let title = format!("Reads per second over time, {most} readers, writer running");
    let frame = Frame {
        title: &title,
        y_label: "reads/s",
        width: 900.0,
        height: 420.0,
    };
    let svg = svg::lines(&frame, &xs, "seconds", &names, &values);
    (
        "s4-over-time.svg".into(),
        format!("{title}: S4 Figure 3"),
        svg,
    )
}

/// Reads in each whole second of a run's samples (`{"t", "reads"}`, every 0.2 s).
fn windows(samples: &Value) -> Vec<f64> {
    let mut out = Vec::new();
    let (mut last_reads, mut next) = (0.0, 1.0);
    for s in samples.as_array().into_iter().flatten() {
        let (t, reads) = (
            s["t"].as_f64().unwrap_or(0.0),
            s["reads"].as_f64().unwrap_or(0.0),
        );
        if t >= next {
            out.push(reads - last_reads);
            last_reads = reads;
            next += 1.0;
        }
    }
    out
}

fn check_table(check: &Value, title: &str) -> String {
    let mut html = format!(
        "<h2>{title}</h2><table><tr><th>query</th><th>cases</th><th>equal</th>\
         <th>differ only by the text's quirk</th><th>PostgreSQL over the timeout</th></tr>"
    );
    for (q, r) in check.as_object().into_iter().flatten() {
        let _ = write!(
            html,
            "<tr><td>{q}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            r["cases"], r["equal"], r["quirk"], r["timed_out"]
        );
    }
    html.push_str("</table>");
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_count_the_reads_of_each_whole_second() {
        let samples = serde_json::json!([
            {"t": 0.2, "reads": 10}, {"t": 0.4, "reads": 25}, {"t": 1.0, "reads": 50},
            {"t": 1.4, "reads": 60}, {"t": 2.05, "reads": 130}, {"t": 2.6, "reads": 150}
        ]);
        assert_eq!(windows(&samples), vec![50.0, 80.0]);
        assert!(windows(&serde_json::json!(null)).is_empty());
    }

    #[test]
    fn a_run_without_figure_3_still_has_its_tables() {
        let dir = std::env::temp_dir().join(format!("kith-s4-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("makes the folder");
        let micro = |m: f64| serde_json::json!({"median_ms": m, "p99_ms": m * 2.0, "server_mean_ms": m / 10.0});
        let s4 = serde_json::json!({
            "dataset": "test", "elements": 1000, "load_seconds": {"kith": 0.5, "postgres": 2.0},
            "micro": {"runs": 3, "systems": {
                "kith": {"point_lookup": micro(0.1), "one_hop": micro(0.1), "two_hop": micro(0.2), "shortest_path": micro(0.1)},
                "postgres": {"point_lookup": micro(0.05), "one_hop": micro(0.05), "two_hop": micro(0.4), "shortest_path": micro(5.0)}}},
            "check": {"ldbc.is1": {"cases": 50, "equal": 50, "quirk": 0, "timed_out": 0}},
            "realtime": {}
        });
        std::fs::write(dir.join("s4.json"), s4.to_string()).expect("writes");
        let written = crate::report::build(&dir).expect("builds the S4 report");
        let html = std::fs::read_to_string(&written.html).expect("reads the page");
        assert!(
            html.contains("Table 4: loading") && html.contains("<td>2000</td>"),
            "elements/s of kith"
        );
        assert!(
            html.contains("ldbc.is1") && !html.contains("Figure 3"),
            "{html}"
        );
        assert_eq!(written.charts.len(), 2, "the two latency charts");
        std::fs::remove_dir_all(&dir).expect("cleans up");
    }
}
