//! `kith bench ldbc`: per-query latency of LDBC SNB Interactive's reads (IS1–IS7,
//! IC1–IC14), in-process (the procedure alone, on a snapshot) and over WS-BSON
//! (one client, one connection, an in-process server), single caller, after a
//! warm-up.
//!
//! Complex reads take every line of the data set's substitution parameters; short
//! reads take persons and messages spread over the graph (persons: every k-th by
//! id; messages: each of those persons' newest). The calls are written to
//! `queries.json` so a peer runs exactly the same ones.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use kith_client::{Client, ClientConfig};
use kith_core::ldbc_schema::{key, label, rel};
use kith_core::{Direction, GraphView, Value};
use kith_procedures::{ParamType, Registry};
use kith_storage::Store;

/// One read and its parameter sets.
#[derive(Clone, Debug)]
pub struct Query {
    /// The procedure, e.g. `ldbc.ic3`.
    pub procedure: String,
    /// Parameter sets, used in rotation.
    pub params: Vec<Vec<(String, Value)>>,
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Measured calls per query and path (parameter sets rotate).
    pub calls: usize,
    /// Unmeasured calls per query and path first.
    pub warmup: usize,
    /// Persons (and messages) the short reads rotate over.
    pub short_sample: usize,
    /// Server worker threads.
    pub workers: usize,
}

/// One query's latency on one path, microseconds.
#[derive(Clone, Debug)]
pub struct Measurement {
    /// `in-process` or `ws-bson`.
    pub path: &'static str,
    /// The procedure.
    pub procedure: String,
    /// Calls measured.
    pub calls: usize,
    /// Median.
    pub p50_us: f64,
    /// 99th percentile.
    pub p99_us: f64,
    /// Mean rows per call.
    pub rows: f64,
}

/// A run's results.
#[derive(Clone, Debug)]
pub struct Report {
    /// The options.
    pub options: Options,
    /// Per path and query.
    pub measurements: Vec<Measurement>,
}

/// The suite: IS1–IS7 on sampled persons and messages, IC1–IC14 on the
/// substitution parameters in `params_dir` (`interactive_N_param.txt`).
pub fn queries(
    graph: &dyn GraphView,
    params_dir: &Path,
    short_sample: usize,
) -> Result<Vec<Query>, String> {
    let registry = Registry::with_builtins();
    let person = graph
        .label_id(label::PERSON)
        .ok_or("the graph has no Person nodes; load an LDBC data set with `kith load ldbc`")?;
    let id_key = graph.prop_key_id(key::ID).ok_or("no id key")?;
    let mut persons: Vec<(i64, kith_core::NodeId)> = graph
        .node_ids()
        .filter(|n| graph.has_label(*n, person))
        .filter_map(|n| graph.node_property(n, id_key)?.as_int().map(|id| (id, n)))
        .collect();
    persons.sort_unstable();
    let step = (persons.len() / short_sample.max(1)).max(1);
    let chosen: Vec<(i64, kith_core::NodeId)> = persons.iter().step_by(step).copied().collect();
    let has_creator = graph
        .rel_type_id(rel::HAS_CREATOR)
        .ok_or("no HAS_CREATOR")?;
    let created = graph
        .prop_key_id(key::CREATION_DATE)
        .ok_or("no creationDate")?;
    let date = |n| match graph.node_property(n, created) {
        Some(Value::DateTime(d) | Value::Int(d)) => *d,
        _ => i64::MIN,
    };
    let messages: Vec<i64> = chosen
        .iter()
        .filter_map(|(_, p)| {
            graph
                .neighbors(*p, has_creator, Direction::In)
                .iter()
                .max_by_key(|e| date(e.node))
                .and_then(|e| graph.node_property(e.node, id_key)?.as_int())
        })
        .collect();
    if messages.is_empty() {
        return Err("no person in the sample has a message".into());
    }
    let one = |name: &str, v: i64| vec![(name.to_owned(), Value::Int(v))];
    let mut out = Vec::new();
    for n in 1..=7 {
        let params = if n <= 3 {
            chosen.iter().map(|(id, _)| one("personId", *id)).collect()
        } else {
            messages.iter().map(|id| one("messageId", *id)).collect()
        };
        out.push(Query {
            procedure: format!("ldbc.is{n}"),
            params,
        });
    }
    for n in 1..=14 {
        let procedure = format!("ldbc.ic{n}");
        let spec = registry.get(&procedure).map_err(|e| e.to_string())?.params;
        let file = params_dir.join(format!("interactive_{n}_param.txt"));
        let text =
            std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap_or("").split('|').collect();
        let mut params = Vec::new();
        for (i, line) in lines.enumerate().filter(|(_, l)| !l.is_empty()) {
            let fields: Vec<&str> = line.split('|').collect();
            if fields.len() != header.len() {
                return Err(format!(
                    "{}, line {}: {} fields; the header has {}",
                    file.display(),
                    i + 2,
                    fields.len(),
                    header.len()
                ));
            }
            let mut set = Vec::new();
            for (name, field) in header.iter().zip(&fields) {
                let ty = spec
                    .iter()
                    .find(|p| p.name == *name)
                    .map(|p| p.ty)
                    .ok_or_else(|| {
                        format!(
                            "{}: {procedure} takes no parameter `{name}`",
                            file.display()
                        )
                    })?;
                let value = match ty {
                    ParamType::Int => Value::Int(field.parse().map_err(|_| {
                        format!(
                            "{}, line {}: {name} {field:?} is not an integer",
                            file.display(),
                            i + 2
                        )
                    })?),
                    _ => Value::string(*field),
                };
                set.push(((*name).to_owned(), value));
            }
            params.push(set);
        }
        if params.is_empty() {
            return Err(format!("{}: no parameter lines", file.display()));
        }
        out.push(Query { procedure, params });
    }
    Ok(out)
}

/// The calls as JSON for a peer: `[{"procedure", "params": [{name: value}]}]`.
pub fn queries_json(queries: &[Query]) -> serde_json::Value {
    let value = |v: &Value| -> serde_json::Value {
        match v {
            Value::Int(i) => (*i).into(),
            Value::String(s) => s.to_string().into(),
            other => other.to_string().into(),
        }
    };
    queries
        .iter()
        .map(|q| {
            serde_json::json!({
                "procedure": q.procedure,
                "params": q.params.iter().map(|set| {
                    set.iter().map(|(k, v)| (k.clone(), value(v))).collect::<serde_json::Map<_, _>>()
                }).collect::<Vec<_>>(),
            })
        })
        .collect()
}

fn summarize(
    path: &'static str,
    procedure: &str,
    mut samples: Vec<Duration>,
    rows: usize,
) -> Measurement {
    samples.sort_unstable();
    let at = |q: f64| {
        samples
            .get(((samples.len().max(1) - 1) as f64 * q).round() as usize)
            .map_or(0.0, |d| d.as_secs_f64() * 1e6)
    };
    Measurement {
        path,
        procedure: procedure.to_owned(),
        calls: samples.len(),
        p50_us: at(0.5),
        p99_us: at(0.99),
        rows: rows as f64 / samples.len().max(1) as f64,
    }
}

/// Runs the suite in-process and over WS-BSON against an in-process server on
/// `store`; `progress(done, total)` counts calls.
pub async fn run(
    store: Arc<Store>,
    queries: &[Query],
    options: Options,
    mut progress: impl FnMut(u64, u64),
) -> Result<Report, String> {
    let total = (queries.len() * (options.calls + options.warmup) * 2) as u64;
    let mut done = 0u64;
    let mut measurements = Vec::new();
    let registry = Registry::with_builtins();
    let snapshot = store.snapshot();
    for q in queries {
        let mut samples = Vec::with_capacity(options.calls);
        let mut rows = 0;
        for i in 0..options.warmup + options.calls {
            let params = &q.params[i % q.params.len()];
            let started = Instant::now();
            let result = registry
                .call(&*snapshot, &q.procedure, params)
                .map_err(|e| format!("{} {params:?}: {e}", q.procedure))?;
            let elapsed = started.elapsed();
            if i >= options.warmup {
                samples.push(elapsed);
                rows += result.len();
            }
            drop(result);
            done += 1;
            progress(done, total);
        }
        measurements.push(summarize("in-process", &q.procedure, samples, rows));
    }

    let server = crate::local_server::LocalServer::start(store, options.workers).await?;
    let addr = server.addr;
    let outcome = async {
        let client = Client::connect(ClientConfig::new(format!("ws://{addr}/v1/ws")))
            .await
            .map_err(|e| format!("connecting: {e}"))?;
        for q in queries {
            let mut samples = Vec::with_capacity(options.calls);
            let mut rows = 0;
            for i in 0..options.warmup + options.calls {
                let params = q.params[i % q.params.len()].clone();
                let started = Instant::now();
                let answer = client
                    .call(&q.procedure, params)
                    .await
                    .map_err(|e| format!("ws-bson {}: {e}", q.procedure))?;
                let elapsed = started.elapsed();
                if i >= options.warmup {
                    samples.push(elapsed);
                    rows += answer.rows.len();
                }
                done += 1;
                progress(done, total);
            }
            measurements.push(summarize("ws-bson", &q.procedure, samples, rows));
        }
        Ok::<_, String>(())
    }
    .await;
    server.stop().await;
    outcome?;
    Ok(Report {
        options,
        measurements,
    })
}

impl Report {
    /// Raw results, one line per path and query.
    pub fn csv(&self) -> String {
        let mut out = String::from("path,procedure,calls,p50_us,p99_us,rows\n");
        for m in &self.measurements {
            out.push_str(&format!(
                "{},{},{},{:.2},{:.2},{:.1}\n",
                m.path, m.procedure, m.calls, m.p50_us, m.p99_us, m.rows
            ));
        }
        out
    }

    /// A table: per query, in-process and WS-BSON median and p99, and, when
    /// `neo4j` (`{"latency": [{"procedure", "p50_us", "p99_us"}]}`) is given, Neo4j's
    /// median and kith's speed-up over it.
    pub fn markdown(&self, neo4j: Option<&serde_json::Value>) -> String {
        let neo = |p: &str, field: &str| -> Option<f64> {
            neo4j?["latency"]
                .as_array()?
                .iter()
                .find(|l| l["procedure"] == p)?[field]
                .as_f64()
        };
        let mut out = format!(
            "kith bench ldbc: {} calls per query and path after {} warm-up calls; microseconds.\n\n\
             | query | in-process p50 | in-process p99 | ws-bson p50 | ws-bson p99 | rows |{}\n|---|---:|---:|---:|---:|---:|{}\n",
            self.options.calls,
            self.options.warmup,
            if neo4j.is_some() { " Neo4j p50 | Neo4j p99 | Neo4j ÷ kith ws-bson (p50) |" } else { "" },
            if neo4j.is_some() { "---:|---:|---:|" } else { "" },
        );
        let procedures: Vec<&str> = self
            .measurements
            .iter()
            .filter(|m| m.path == "in-process")
            .map(|m| m.procedure.as_str())
            .collect();
        for p in procedures {
            let find = |path: &str| {
                self.measurements
                    .iter()
                    .find(|m| m.path == path && m.procedure == p)
            };
            let (Some(a), Some(b)) = (find("in-process"), find("ws-bson")) else {
                continue;
            };
            out.push_str(&format!(
                "| {p} | {:.1} | {:.1} | {:.0} | {:.0} | {:.1} |",
                a.p50_us, a.p99_us, b.p50_us, b.p99_us, a.rows
            ));
            if neo4j.is_some() {
                match (neo(p, "p50_us"), neo(p, "p99_us")) {
                    (Some(n50), Some(n99)) => out.push_str(&format!(
                        " {n50:.0} | {n99:.0} | {:.1}x |",
                        n50 / b.p50_us.max(1e-9)
                    )),
                    _ => out.push_str(" — | — | — |"),
                }
            }
            out.push('\n');
        }
        out
    }
}
