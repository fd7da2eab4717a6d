//! `kith report RUN_DIR`: one self-contained HTML page (and the SVG charts beside it)
//! from a run's raw results, laid out like S1's figures.
//!
//! Reads `shindig.csv` (required, from `kith bench shindig --out`) and, when present,
//! `throughput.csv` (`kith bench throughput --out`), `throughput-cypher.csv` (`kith
//! bench throughput --cypher ... --out`: the same mix as Cypher requests) and
//! `neo4j.json` (the peer's
//! results, as `bench/peers/neo4j/shindig/run.py --out` writes them:
//! `{"latency": [{"procedure", "p50_us"}...], "throughput": {"cells": [{"threads",
//! "requests_per_s"}...]}}`). Every figure says what it is and where it came from.
//! A directory with an S4 run's `s4.json` gets S4's report instead (`report_s4`), one
//! with a query-suite run's `suite.json` the suite's (`report_suite`).

use crate::report_page::html_start;
pub use crate::report_page::Written;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use crate::svg::{self, Frame};

/// One CSV file as rows of named fields.
struct Table {
    rows: Vec<BTreeMap<String, String>>,
}

impl Table {
    fn read(path: &Path) -> Result<Option<Table>, String> {
        if !path.exists() {
            return Ok(None);
        }
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("reading {}: {e}", path.display()))?;
        let mut lines = text.lines();
        let header: Vec<&str> = lines
            .next()
            .ok_or_else(|| format!("{} is empty", path.display()))?
            .split(',')
            .collect();
        let mut rows = Vec::new();
        for (n, line) in lines.enumerate().filter(|(_, l)| !l.is_empty()) {
            let cells: Vec<&str> = line.split(',').collect();
            if cells.len() != header.len() {
                return Err(format!(
                    "{} line {}: {} fields, the header has {}",
                    path.display(),
                    n + 2,
                    cells.len(),
                    header.len()
                ));
            }
            rows.push(
                header
                    .iter()
                    .zip(cells)
                    .map(|(h, c)| ((*h).to_owned(), c.to_owned()))
                    .collect(),
            );
        }
        Ok(Some(Table { rows }))
    }
}

fn num(row: &BTreeMap<String, String>, key: &str) -> f64 {
    row.get(key)
        .and_then(|v| v.parse().ok())
        .unwrap_or(f64::NAN)
}

fn text<'a>(row: &'a BTreeMap<String, String>, key: &str) -> &'a str {
    row.get(key).map_or("", String::as_str)
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    v.retain(|x| x.is_finite());
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    Some(v[v.len() / 2])
}

/// Builds `RUN_DIR/report.html` and `RUN_DIR/charts/*.svg`: S4's report when the
/// directory holds an S4 run's `s4.json`, else S1's.
pub fn build(run_dir: &Path) -> Result<Written, String> {
    if run_dir.join("suite.json").exists() {
        return crate::report_suite::build(run_dir);
    }
    if run_dir.join("s4.json").exists() {
        return crate::report_s4::build(run_dir);
    }
    let shindig = Table::read(&run_dir.join("shindig.csv"))?.ok_or_else(|| {
        format!(
            "{} has no shindig.csv; run `kith bench shindig --out {}` first",
            run_dir.display(),
            run_dir.display()
        )
    })?;
    let throughput = Table::read(&run_dir.join("throughput.csv"))?;
    let cypher_tp =
        Table::read(&run_dir.join("throughput-cypher.csv"))?.map(|t| best_by_threads(&t));
    let neo4j: Option<serde_json::Value> = match std::fs::read_to_string(run_dir.join("neo4j.json"))
    {
        Ok(t) => Some(serde_json::from_str(&t).map_err(|e| format!("neo4j.json: {e}"))?),
        Err(_) => None,
    };

    let mut charts: Vec<(String, String, String)> = Vec::new(); // (file, title, svg)
                                                                // Paths in first-seen order; queries by number.
    let mut paths: Vec<String> = Vec::new();
    let mut queries: BTreeMap<u32, String> = BTreeMap::new();
    for r in &shindig.rows {
        if !paths.iter().any(|p| p == text(r, "path")) {
            paths.push(text(r, "path").to_owned());
        }
        queries.insert(num(r, "query") as u32, text(r, "procedure").to_owned());
    }
    let p50 = |path: &str, q: u32| {
        shindig
            .rows
            .iter()
            .find(|r| text(r, "path") == path && num(r, "query") as u32 == q)
            .map(|r| num(r, "p50_us"))
    };
    let neo4j_p50 = |procedure: &str| -> Option<f64> {
        neo4j.as_ref()?["latency"]
            .as_array()?
            .iter()
            .find(|l| l["procedure"] == procedure)?["p50_us"]
            .as_f64()
    };
    let categories: Vec<String> = queries
        .iter()
        .map(|(n, p)| format!("q{n} {}", p.trim_start_matches("shindig.")))
        .collect();

    // Figure: latency per query per path (uncompressed paths, plus Neo4j).
    let main_paths: Vec<String> = paths
        .iter()
        .filter(|p| p.matches('-').count() <= 1)
        .cloned()
        .collect();
    let mut series = main_paths.clone();
    let mut values: Vec<Vec<Option<f64>>> = main_paths
        .iter()
        .map(|p| queries.keys().map(|q| p50(p, *q)).collect())
        .collect();
    if neo4j.is_some() {
        series.push("neo4j-bolt (Cypher)".into());
        values.push(queries.values().map(|p| neo4j_p50(p)).collect());
    }
    charts.push((
        "latency.svg".into(),
        "Median latency per query and access path (single client, log scale)".into(),
        svg::bars(
            &Frame {
                title: "Median round trip per query (µs, log scale)",
                y_label: "µs",
                width: 1100.0,
                height: 460.0,
            },
            &categories,
            &series,
            &values,
            true,
        ),
    ));

    // Figure: each path relative to REST (S1 Figure 3), median over the queries.
    let relative: Vec<(String, f64)> = paths
        .iter()
        .filter(|p| p.as_str() != "http-json")
        .filter_map(|p| {
            let ratios: Vec<f64> = queries
                .keys()
                .filter_map(|q| Some(100.0 * p50(p, *q)? / p50("http-json", *q)?))
                .collect();
            Some((p.clone(), median(ratios)?))
        })
        .collect();
    charts.push((
        "relative.svg".into(),
        "Each path's median latency as % of REST (HTTP-JSON), median over the 19 queries (S1 Figure 3)".into(),
        svg::bars(
            &Frame {
                title: "Latency relative to REST (%; 100 = same as REST)",
                y_label: "% of REST",
                width: 1100.0,
                height: 420.0,
            },
            &relative.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>(),
            &["median over queries".to_string()],
            &[relative.iter().map(|(_, v)| Some(*v)).collect()],
            false,
        ),
    ));

    // Figure: time split per query for one WebSocket path (S1 Figure 6).
    let split_path = ["ws-bson", "ws-msgpack", "ws-json"]
        .into_iter()
        .find(|p| paths.iter().any(|x| x == p));
    if let Some(split_path) = split_path {
        let parts = [
            ("client_encode_us", "client encode"),
            ("server_queue_us", "server queue"),
            ("server_exec_us", "server execution"),
            ("server_encode_us", "server encode"),
            ("client_decode_us", "client decode"),
            ("network_us", "network and scheduling"),
        ];
        let rows: Vec<&BTreeMap<String, String>> = queries
            .keys()
            .filter_map(|q| {
                shindig
                    .rows
                    .iter()
                    .find(|r| text(r, "path") == split_path && num(r, "query") as u32 == *q)
            })
            .collect();
        let values: Vec<Vec<f64>> = parts
            .iter()
            .map(|(k, _)| rows.iter().map(|r| num(r, k).max(0.0)).collect())
            .collect();
        charts.push((
            "split.svg".into(),
            format!("Where the time goes, {split_path}: mean µs per call (S1 Figure 6)"),
            svg::stacked(
                &Frame {
                    title: &format!("Time split per query, {split_path} (mean µs)"),
                    y_label: "µs",
                    width: 1100.0,
                    height: 460.0,
                },
                &categories,
                &parts
                    .iter()
                    .map(|(_, n)| (*n).to_string())
                    .collect::<Vec<_>>(),
                &values,
            ),
        ));
    }

    // Figures from the throughput matrix.
    let mut summary_rows: Vec<(String, String, String, String)> = Vec::new();
    if let Some(t) = &throughput {
        // workers = 0 is the driver against the no-op endpoint, not a server cell.
        let ceiling = t
            .rows
            .iter()
            .find(|r| num(r, "workers") == 0.0)
            .map(|r| (num(r, "requests_per_s"), num(r, "client_cores")));
        let t = &Table {
            rows: t
                .rows
                .iter()
                .filter(|r| num(r, "workers") > 0.0)
                .cloned()
                .collect(),
        };
        let mut workers: Vec<f64> = t.rows.iter().map(|r| num(r, "workers")).collect();
        workers.sort_by(f64::total_cmp);
        workers.dedup();
        let mut threads: Vec<f64> = t.rows.iter().map(|r| num(r, "threads")).collect();
        threads.sort_by(f64::total_cmp);
        threads.dedup();
        let best = |filter: &dyn Fn(&BTreeMap<String, String>) -> bool| {
            t.rows
                .iter()
                .filter(|r| filter(r))
                .map(|r| num(r, "requests_per_s"))
                .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
        };
        let mut series: Vec<String> = workers.iter().map(|w| format!("{w} workers")).collect();
        let mut values: Vec<Vec<Option<f64>>> = workers
            .iter()
            .map(|w| {
                threads
                    .iter()
                    .map(|th| {
                        best(&|r: &BTreeMap<String, String>| {
                            num(r, "workers") == *w && num(r, "threads") == *th
                        })
                    })
                    .collect()
            })
            .collect();
        let neo4j_at: Vec<Option<f64>> = threads
            .iter()
            .map(|th| neo4j_best_throughput(&neo4j, Some(*th)))
            .collect();
        if neo4j_at.iter().any(Option::is_some) {
            series.push("Neo4j 5.26 (Bolt, Cypher)".into());
            values.push(neo4j_at.clone());
        }
        if let Some(c) = &cypher_tp {
            series.push("kith Cypher BSON (best cell)".into());
            values.push(
                threads
                    .iter()
                    .map(|th| c.get(&(*th as u64)).copied())
                    .collect(),
            );
        }
        charts.push((
            "throughput.svg".into(),
            "Throughput against client threads, per server worker count; best over connections and compression (S1 Figures 7-8)".into(),
            svg::lines(
                &Frame {
                    title: "Requests/s against client threads",
                    y_label: "requests/s",
                    width: 900.0,
                    height: 420.0,
                },
                &threads,
                "client threads",
                &series,
                &values,
            ),
        ));
        let mut combos: Vec<(String, String)> = t
            .rows
            .iter()
            .map(|r| {
                (
                    text(r, "connections").to_owned(),
                    text(r, "compression").to_owned(),
                )
            })
            .collect();
        combos.sort();
        combos.dedup();
        charts.push((
            "connections.svg".into(),
            "Best throughput per connection count and compression (S1 Figure 10)".into(),
            svg::bars(
                &Frame {
                    title: "Best requests/s per connections and compression",
                    y_label: "requests/s",
                    width: 900.0,
                    height: 420.0,
                },
                &combos
                    .iter()
                    .map(|(c, k)| format!("{c} conn, {k}"))
                    .collect::<Vec<_>>(),
                &["requests/s".to_string()],
                &[combos
                    .iter()
                    .map(|(c, k)| {
                        best(&|r: &BTreeMap<String, String>| {
                            text(r, "connections") == c && text(r, "compression") == k
                        })
                    })
                    .collect()],
                false,
            ),
        ));
        // kith over Neo4j at each client thread count both measured (the issue's
        // target is 25x), best cell each side.
        let ratios: Vec<String> = threads
            .iter()
            .zip(&neo4j_at)
            .filter_map(|(th, n)| {
                let k = best(&|r: &BTreeMap<String, String>| num(r, "threads") == *th)?;
                Some(format!("{th} threads: {:.1}x", k / n.filter(|n| *n > 0.0)?))
            })
            .collect();
        if !ratios.is_empty() {
            summary_rows.push((
                "kith ÷ Neo4j, mix throughput (best cell per thread count)".into(),
                "—".into(),
                ratios.join(", "),
                "1x".into(),
            ));
        }
        let at_128 = best(&|r: &BTreeMap<String, String>| num(r, "threads") == 128.0);
        let max = best(&|_| true);
        let fmt = |v: Option<f64>| v.map_or("not measured".into(), |v| format!("{v:.0} req/s"));
        summary_rows.push((
            "128 client threads".into(),
            "REST 70 / Native BSON 215 / Cypher BSON 83 req/s".into(),
            fmt(at_128),
            neo4j_throughput(&neo4j, Some(128.0)),
        ));
        summary_rows.push((
            "Max, single server".into(),
            "REST 85 / Native BSON 1,131 / Cypher BSON 476 req/s".into(),
            fmt(max),
            neo4j_throughput(&neo4j, None),
        ));
        if let (Some((rate, cores)), Some(max)) = (ceiling, max) {
            summary_rows.push((
                "Driver against a no-op endpoint (is the client the bottleneck?)".into(),
                "—".into(),
                format!(
                    "{rate:.0} req/s on {cores:.1} client cores: {:.1}x the best measured",
                    rate / max.max(1.0)
                ),
                "—".into(),
            ));
        }
    }
    if let Some(c) = &cypher_tp {
        summary_rows.extend(cypher_summary(c, &neo4j));
    }
    let rel_of = |p: &str| relative.iter().find(|(x, _)| x == p).map(|(_, v)| *v);
    let pct = |p: &str| rel_of(p).map_or("—".into(), |v| format!("{v:.0} %"));
    summary_rows.insert(
        0,
        (
            "Single-thread response time, % of REST".into(),
            "Native BSON 17 %, Cypher BSON 38 %".into(),
            format!(
                "ws-bson {}, ws-msgpack {}, cypher-bson {}",
                pct("ws-bson"),
                pct("ws-msgpack"),
                pct("cypher-bson")
            ),
            "—".into(),
        ),
    );

    // Write the charts and the page.
    let chart_dir = run_dir.join("charts");
    std::fs::create_dir_all(&chart_dir)
        .map_err(|e| format!("creating {}: {e}", chart_dir.display()))?;
    let mut html = html_start("kith benchmark report");
    let _ = write!(
        html,
        "<h1>kith benchmark report</h1><p>Run directory: <code>{}</code>. Latencies are single-client \
         medians; every figure comes from this run's raw files (<code>shindig.csv</code>{}{}{}). \
         The cypher-* paths and the Cypher mix send S1's Cypher texts (the ones Neo4j runs) as \
         <code>cypher</code> requests; the other paths call the native procedures.</p>",
        run_dir.display(),
        if throughput.is_some() { ", <code>throughput.csv</code>" } else { "" },
        if cypher_tp.is_some() { ", <code>throughput-cypher.csv</code>" } else { "" },
        if neo4j.is_some() { ", <code>neo4j.json</code>" } else { "; no Neo4j results in this run" },
    );
    html.push_str("<h2>Summary (layout of S1 Table 2)</h2><table><tr><th>measure</th><th>S1 (Neo4j 1.9, 2014)</th><th>kith</th><th>Neo4j 5.26 (this run)</th></tr>");
    for (m, s1, k, n) in &summary_rows {
        let _ = write!(
            html,
            "<tr><td>{m}</td><td>{s1}</td><td>{k}</td><td>{n}</td></tr>"
        );
    }
    html.push_str("</table>");
    let mut written = Vec::new();
    for (file, caption, svg) in &charts {
        let path = chart_dir.join(file);
        std::fs::write(&path, svg).map_err(|e| format!("writing {}: {e}", path.display()))?;
        written.push(path);
        let _ = write!(
            html,
            "<figure>{svg}<figcaption>{caption}</figcaption></figure>"
        );
    }
    html.push_str("<h2>Latency table (median µs)</h2><table><tr><th>query</th>");
    for p in &paths {
        let _ = write!(html, "<th>{p}</th>");
    }
    html.push_str("</tr>");
    for (q, name) in &queries {
        let _ = write!(html, "<tr><td>q{q} {name}</td>");
        for p in &paths {
            match p50(p, *q) {
                Some(v) => {
                    let _ = write!(html, "<td>{v:.0}</td>");
                }
                None => html.push_str("<td>—</td>"),
            }
        }
        html.push_str("</tr>");
    }
    html.push_str("</table></body></html>\n");
    let html_path = run_dir.join("report.html");
    std::fs::write(&html_path, html)
        .map_err(|e| format!("writing {}: {e}", html_path.display()))?;
    Ok(Written {
        html: html_path,
        charts: written,
    })
}

/// Best requests/s per client thread count over a throughput table's server cells
/// (workers = 0 is the driver's ceiling, not a server).
fn best_by_threads(t: &Table) -> BTreeMap<u64, f64> {
    let mut best = BTreeMap::new();
    for r in t.rows.iter().filter(|r| num(r, "workers") > 0.0) {
        let rate = num(r, "requests_per_s");
        let e = best.entry(num(r, "threads") as u64).or_insert(rate);
        *e = f64::max(*e, rate);
    }
    best
}

/// The summary rows of kith's Cypher mix: its best cell per thread count, and its
/// ratio to Neo4j at each thread count both measured (the issue's target is 20x).
fn cypher_summary(
    best: &BTreeMap<u64, f64>,
    neo4j: &Option<serde_json::Value>,
) -> Vec<(String, String, String, String)> {
    let per_threads = |f: &dyn Fn(u64, f64) -> Option<String>| {
        best.iter()
            .filter_map(|(th, k)| f(*th, *k))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let kith = per_threads(&|th, k| Some(format!("{th} threads: {k:.0} req/s")));
    let neo = per_threads(&|th, _| {
        neo4j_best_throughput(neo4j, Some(th as f64)).map(|n| format!("{th} threads: {n:.0} req/s"))
    });
    let ratios = per_threads(&|th, k| {
        let n = neo4j_best_throughput(neo4j, Some(th as f64)).filter(|n| *n > 0.0)?;
        Some(format!("{th} threads: {:.1}x", k / n))
    });
    let mut rows = vec![(
        "Cypher BSON mix throughput (best cell per client thread count)".into(),
        "Cypher BSON 83 req/s at 128 threads, 476 max".into(),
        kith,
        if neo.is_empty() {
            "not in this run".into()
        } else {
            neo
        },
    )];
    if !ratios.is_empty() {
        rows.push((
            "kith Cypher BSON ÷ Neo4j, mix throughput (both Cypher)".into(),
            "—".into(),
            ratios,
            "1x".into(),
        ));
    }
    rows
}

/// Neo4j's throughput cells: a list, or (bench/peers/neo4j/shindig/run.py) a map
/// holding them under `cells`. `None` when the run has no Neo4j throughput.
fn neo4j_cells(neo4j: &Option<serde_json::Value>) -> Option<&Vec<serde_json::Value>> {
    neo4j.as_ref().and_then(|n| {
        n["throughput"]
            .as_array()
            .or_else(|| n["throughput"]["cells"].as_array())
    })
}

/// Neo4j's best requests/s, at `threads` client threads or over all cells.
fn neo4j_best_throughput(neo4j: &Option<serde_json::Value>, threads: Option<f64>) -> Option<f64> {
    neo4j_cells(neo4j)?
        .iter()
        .filter(|r| threads.is_none_or(|t| r["threads"].as_f64() == Some(t)))
        .filter_map(|r| r["requests_per_s"].as_f64())
        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
}

fn neo4j_throughput(neo4j: &Option<serde_json::Value>, threads: Option<f64>) -> String {
    if neo4j_cells(neo4j).is_none() {
        return "not in this run".into();
    }
    neo4j_best_throughput(neo4j, threads).map_or("not measured".into(), |v| format!("{v:.0} req/s"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_is_built_from_raw_files_and_names_what_is_missing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let err = build(dir.path()).err().expect("no shindig.csv");
        assert!(err.contains("kith bench shindig"), "{err}");
        let mut csv = String::from("path,query,procedure,calls,p50_us,p95_us,p99_us,mean_us,client_encode_us,server_queue_us,server_exec_us,server_encode_us,client_decode_us,network_us,answer_bytes\n");
        for (path, scale) in [("http-json", 1.0), ("ws-bson", 0.5), ("ws-bson-zstd", 0.8)] {
            for q in 1..=3 {
                csv.push_str(&format!(
                    "{path},{q},shindig.q{q},10,{:.1},1,1,1,1,2,3,4,5,6,0\n",
                    100.0 * scale * f64::from(q)
                ));
            }
        }
        std::fs::write(dir.path().join("shindig.csv"), csv).expect("writes");
        std::fs::write(
            dir.path().join("throughput.csv"),
            "encoding,compression,connections,workers,threads,requests_per_s,p50_us,p99_us,errors,client_cores,server_cores\n\
             bson,none,1,2,4,1000,1,1,0,0.1,0.2\nbson,none,8,2,128,3000,1,1,0,0.1,0.2\n",
        )
        .expect("writes");
        let written = build(dir.path()).expect("builds");
        let html = std::fs::read_to_string(&written.html).expect("reads");
        assert_eq!(written.charts.len(), 5);
        assert!(html.contains("ws-bson 50 %"), "relative to REST");
        assert!(html.contains("3000 req/s"));
        assert!(html.contains("no Neo4j results in this run"));
        assert!(!html.contains("NaN"));

        // With Neo4j's results beside it: the ratio per thread count and Neo4j's line.
        std::fs::write(
            dir.path().join("neo4j.json"),
            r#"{"latency":[{"procedure":"shindig.q1","p50_us":5000}],
                "throughput":{"cells":[{"threads":4,"requests_per_s":100},{"threads":128,"requests_per_s":150}]}}"#,
        )
        .expect("writes");
        let written = build(dir.path()).expect("builds");
        let html = std::fs::read_to_string(&written.html).expect("reads");
        assert!(
            html.contains("4 threads: 10.0x, 128 threads: 20.0x"),
            "{html}"
        );
        assert!(html.contains("Neo4j 5.26 (Bolt, Cypher)"));
        assert!(!html.contains("no Neo4j results in this run"));

        // kith's Cypher mix beside it: its own line and its ratio to Neo4j (the
        // driver-ceiling row, workers = 0, is not a server cell).
        std::fs::write(
            dir.path().join("throughput-cypher.csv"),
            "api,encoding,compression,connections,workers,threads,requests_per_s,p50_us,p99_us,errors,client_cores,server_cores\n\
             cypher,bson,none,1,2,4,2500,1,1,0,0.1,0.2\ncypher,bson,none,8,2,128,4000,1,1,0,0.1,0.2\n\
             cypher,bson,none,8,0,128,99999,1,1,0,0.1,0\n",
        )
        .expect("writes");
        let written = build(dir.path()).expect("builds");
        let html = std::fs::read_to_string(&written.html).expect("reads");
        assert!(
            html.contains("4 threads: 25.0x, 128 threads: 26.7x"),
            "{html}"
        );
        assert!(html.contains("kith Cypher BSON (best cell)"));
        assert!(html.contains("128 threads: 4000 req/s"));
    }
}
