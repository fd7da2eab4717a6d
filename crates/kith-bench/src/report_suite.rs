//! `kith report WORK` for a query-suite run (`bench/suite/run.py WORK` leaves
//! `suite.json`): one HTML page with the per-category charts of kith, Neo4j and
//! Ladybug times (log scale), the geometric means, and every query's times and answer
//! verdict. Every number comes from `suite.json`.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use serde_json::Value;

use crate::report_page::Written;
use crate::svg::{self, Frame};

const SYSTEMS: [&str; 3] = ["kith", "neo4j", "ladybug"];

/// Builds `WORK/report.html` and `WORK/charts/suite-*.svg` from `WORK/suite.json`.
pub fn build(work: &Path) -> Result<Written, String> {
    let path = work.join("suite.json");
    let text =
        std::fs::read_to_string(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let suite: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let results = suite["results"]
        .as_array()
        .ok_or_else(|| format!("{}: no `results` list", path.display()))?;
    let chart_dir = work.join("charts");
    std::fs::create_dir_all(&chart_dir)
        .map_err(|e| format!("creating {}: {e}", chart_dir.display()))?;
    let mut html = head(&suite);
    let mut written = Vec::new();
    for (category, rows) in by_category(results) {
        let file = format!("suite-{category}.svg");
        let svg = chart(&category, &rows);
        let p = chart_dir.join(&file);
        std::fs::write(&p, &svg).map_err(|e| format!("writing {}: {e}", p.display()))?;
        written.push(p);
        let _ = write!(
            html,
            "<figure>{svg}<figcaption>{category}: median ms per query, log scale</figcaption></figure>"
        );
    }
    html.push_str(&table(results));
    html.push_str("</body></html>\n");
    let html_path = work.join("report.html");
    std::fs::write(&html_path, html)
        .map_err(|e| format!("writing {}: {e}", html_path.display()))?;
    Ok(Written {
        html: html_path,
        charts: written,
    })
}

fn by_category(results: &[Value]) -> BTreeMap<String, Vec<&Value>> {
    let mut out: BTreeMap<String, Vec<&Value>> = BTreeMap::new();
    for r in results {
        let c = r["category"].as_str().unwrap_or("other").to_owned();
        out.entry(c).or_default().push(r);
    }
    out
}

fn ms(r: &Value, system: &str) -> Option<f64> {
    r[system]["ms"].as_f64().filter(|v| *v > 0.0)
}

/// A system's time on one query as the table shows it: the median, or why there is none
/// (a query over the run's `--timeout` is not an error, and is said so).
fn cell(r: &Value, system: &str) -> String {
    match ms(r, system) {
        Some(x) => format!("{x:.2}"),
        None if r[system]["timed_out"].is_string() => "timeout".to_owned(),
        None => "-".to_owned(),
    }
}

fn head(suite: &Value) -> String {
    let mut html = crate::report_page::html_start("The query suite");
    let mean = |key: &str| {
        suite[key]
            .as_f64()
            .map_or_else(|| "-".to_owned(), |g| format!("{g:.2}x"))
    };
    let differs: Vec<&str> = suite["kith_differs_from_neo4j"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let _ = write!(
        html,
        "<h1>The query suite on {}</h1><p>{} queries (<code>bench/suite/queries.py</code> and the \
         adapted LDBC BI texts), median of {} runs after a warm-up; kith and Neo4j 5.26 through \
         Neo4j's Python driver over Bolt, Ladybug embedded (its times have no network in them).</p>\
         <ul><li>geometric mean of Neo4j / kith: <b>{}</b></li><li>geometric mean of Ladybug / kith \
         over the {} queries Ladybug ran: <b>{}</b></li><li>kith's answer differs from Neo4j's on: \
         {}</li><li>timed out (outside the means): {}</li></ul>",
        suite["dataset"].as_str().unwrap_or("?"),
        suite["queries"],
        suite["runs"],
        mean("geomean_neo4j_over_kith"),
        suite["ladybug_ran"],
        mean("geomean_ladybug_over_kith"),
        if differs.is_empty() {
            "none".to_owned()
        } else {
            differs.join(", ")
        },
        timeouts(suite)
    );
    html
}

/// `neo4j on q1, q2; ladybug on q3` from the run's `timed_out` lists, or `none`.
fn timeouts(suite: &Value) -> String {
    let Some(by_system) = suite["timed_out"].as_object() else {
        return "none".to_owned();
    };
    let parts: Vec<String> = by_system
        .iter()
        .filter_map(|(system, names)| {
            let names: Vec<&str> = names.as_array()?.iter().filter_map(Value::as_str).collect();
            (!names.is_empty()).then(|| format!("{system} on {}", names.join(", ")))
        })
        .collect();
    if parts.is_empty() {
        "none".to_owned()
    } else {
        parts.join("; ")
    }
}

fn chart(category: &str, rows: &[&Value]) -> String {
    let names: Vec<String> = rows
        .iter()
        .map(|r| r["name"].as_str().unwrap_or("?").to_owned())
        .collect();
    let series: Vec<String> = SYSTEMS.iter().map(|s| (*s).to_owned()).collect();
    let values: Vec<Vec<Option<f64>>> = SYSTEMS
        .iter()
        .map(|s| rows.iter().map(|r| ms(r, s)).collect())
        .collect();
    let title = format!("{category} (ms, log scale)");
    let frame = Frame {
        title: &title,
        y_label: "ms",
        width: 1100.0,
        height: 380.0,
    };
    svg::bars(&frame, &names, &series, &values, true)
}

fn table(results: &[Value]) -> String {
    let mut html = String::from(
        "<h2>Every query</h2><table><tr><th>query</th><th>category</th><th>kith ms</th>\
         <th>Neo4j ms</th><th>Neo4j / kith</th><th>Ladybug ms</th><th>answers</th></tr>",
    );
    for r in results {
        let (k, n) = (ms(r, "kith"), ms(r, "neo4j"));
        let ratio = match (k, n) {
            (Some(k), Some(n)) => format!("{:.2}", n / k),
            _ => "-".into(),
        };
        let lady = r["ladybug"]["skipped"]
            .as_str()
            .or(r["ladybug"]["error"].as_str())
            .map_or_else(|| cell(r, "ladybug"), |why| format!("n/a ({why})"));
        let _ = write!(
            html,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{ratio}</td><td>{}</td><td>{}</td></tr>",
            r["name"].as_str().unwrap_or("?"),
            r["category"].as_str().unwrap_or("?"),
            cell(r, "kith"),
            cell(r, "neo4j"),
            crate::svg::escape(&lady),
            crate::svg::escape(r["verdict"].as_str().unwrap_or("?"))
        );
    }
    html.push_str("</table>");
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suite_report_has_a_chart_per_category_and_every_query() {
        let dir = tempfile::tempdir().expect("temp dir");
        let suite = serde_json::json!({
            "dataset": "test", "runs": 3, "queries": 2, "ladybug_ran": 1,
            "geomean_neo4j_over_kith": 4.5, "geomean_ladybug_over_kith": null,
            "kith_differs_from_neo4j": ["b"],
            "results": [
                {"name": "a", "category": "top-k", "kith": {"ms": 1.5}, "neo4j": {"ms": 6.0},
                 "ladybug": {"ms": 2.0}, "verdict": "equal"},
                {"name": "b", "category": "writes", "kith": {"ms": 2.0}, "neo4j": {"ms": null, "error": "x"},
                 "ladybug": {"ms": null, "skipped": "writes are not run"}, "verdict": "DIFFERS (one failed)"},
                {"name": "c", "category": "top-k", "kith": {"ms": 3.0},
                 "neo4j": {"ms": null, "timed_out": "over 60 s"},
                 "ladybug": {"ms": 1.0}, "verdict": "timed out on Neo4j"}
            ],
            "timed_out": {"kith": [], "neo4j": ["c"], "ladybug": []}
        });
        std::fs::write(dir.path().join("suite.json"), suite.to_string()).expect("writes");
        let written = build(dir.path()).expect("builds");
        assert_eq!(written.charts.len(), 2);
        let html = std::fs::read_to_string(written.html).expect("reads");
        assert!(html.contains("<b>4.50x</b>"), "{html}");
        assert!(html.contains("differs from Neo4j's on: b"));
        assert!(html.contains("n/a (writes are not run)"));
        assert!(html.contains("<td>4.00</td>"), "the ratio of a");
        assert!(html.contains("<td>timeout</td>"), "c's Neo4j cell: {html}");
        assert!(html.contains("timed out (outside the means): neo4j on c"));
    }
}
