//! `kith bench ldbc`: per-query latency of LDBC SNB Interactive's reads (IS1–IS7,
//! IC1–IC14), in-process (the procedure alone, on a snapshot) and over WS-BSON
//! (one client, one connection, an in-process server), single caller, after a
//! warm-up. Given the official LDBC Cypher texts, the same calls also run as those
//! texts, unmodified, on kith's Cypher engine (in-process and as WS-BSON `cypher`
//! requests, plan cache warm), and each text's parse + plan time is measured cold and
//! from the plan cache.
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
use kith_cypher::{Engine, Limits, Prepared};
use kith_procedures::{ParamType, Registry};
use kith_storage::Store;

/// One read and its parameter sets.
#[derive(Clone, Debug)]
pub struct Query {
    /// The procedure, e.g. `ldbc.ic3`.
    pub procedure: String,
    /// Parameter sets, used in rotation.
    pub params: Vec<Vec<(String, Value)>>,
    /// The official Cypher text of the same read, when it is measured too.
    pub cypher: Option<String>,
}

/// The official text's file name of a read: `ldbc.is3` -> `interactive-short-3.cypher`.
pub fn official_file(procedure: &str) -> Option<String> {
    let name = procedure.strip_prefix("ldbc.")?;
    let (kind, n) = name.split_at_checked(2)?;
    let n: u32 = n.parse().ok()?;
    match kind {
        "is" => Some(format!("interactive-short-{n}.cypher")),
        "ic" => Some(format!("interactive-complex-{n}.cypher")),
        _ => None,
    }
}

/// Reads each query's official text from `dir` (`../shared/data/ldbc-cypher`), byte
/// for byte.
pub fn attach_official_texts(queries: &mut [Query], dir: &Path) -> Result<(), String> {
    for q in queries {
        let file = official_file(&q.procedure)
            .ok_or_else(|| format!("{} has no official text", q.procedure))?;
        let path = dir.join(file);
        q.cypher =
            Some(std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?);
    }
    Ok(())
}

/// The reference driver's parameters for the official text: the procedure's, except
/// that IC3 and IC4 take `endDate = startDate + durationDays * 86400000` instead of
/// `durationDays`.
pub fn driver_params(procedure: &str, params: &[(String, Value)]) -> Vec<(String, Value)> {
    let int = |name: &str| {
        params
            .iter()
            .find(|(k, _)| k == name)
            .and_then(|(_, v)| v.as_int())
    };
    let mut out = params.to_vec();
    if matches!(procedure, "ldbc.ic3" | "ldbc.ic4") {
        if let (Some(start), Some(days)) = (int("startDate"), int("durationDays")) {
            out.retain(|(k, _)| k != "durationDays");
            out.push(("endDate".to_owned(), Value::Int(start + days * 86_400_000)));
        }
    }
    out
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
    /// `in-process` or `ws-bson` (native procedures), `cypher-in-process` or
    /// `cypher-ws-bson` (the official texts).
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
    /// Mean time the server reported running the request (0 in-process).
    pub server_exec_us: f64,
}

/// How long an official text takes to parse, bind and plan, microseconds (medians).
#[derive(Clone, Debug)]
pub struct PlanTime {
    /// The procedure whose text it is.
    pub procedure: String,
    /// From nothing: lexer, parser, binder, planner.
    pub cold_us: f64,
    /// Found in a warm plan cache (what every call after the first pays).
    pub cached_us: f64,
}

/// A run's results.
#[derive(Clone, Debug)]
pub struct Report {
    /// The options.
    pub options: Options,
    /// Per path and query.
    pub measurements: Vec<Measurement>,
    /// Per official text, when the texts were measured.
    pub plans: Vec<PlanTime>,
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
        Some(Value::DateTime(d) | Value::Int(d)) => d,
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
            cypher: None,
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
        out.push(Query {
            procedure,
            params,
            cypher: None,
        });
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
    server_exec_us: u64,
) -> Measurement {
    samples.sort_unstable();
    let n = samples.len().max(1) as f64;
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
        rows: rows as f64 / n,
        server_exec_us: server_exec_us as f64 / n,
    }
}

/// Counts calls for the progress callback.
struct Ticker<'a> {
    done: u64,
    total: u64,
    report: &'a mut dyn FnMut(u64, u64),
}

impl Ticker<'_> {
    fn tick(&mut self) {
        self.done += 1;
        (self.report)(self.done, self.total);
    }
}

/// Times `call` (which answers its row count) over the warm-up and measured calls of
/// `q`, parameters in rotation.
fn time_in_process(
    path: &'static str,
    q: &Query,
    options: &Options,
    ticker: &mut Ticker<'_>,
    mut call: impl FnMut(&[(String, Value)]) -> Result<usize, String>,
) -> Result<Measurement, String> {
    let mut samples = Vec::with_capacity(options.calls);
    let mut rows = 0;
    for i in 0..options.warmup + options.calls {
        let params = &q.params[i % q.params.len()];
        let started = Instant::now();
        let n = call(params).map_err(|e| format!("{path} {} {params:?}: {e}", q.procedure))?;
        let elapsed = started.elapsed();
        if i >= options.warmup {
            samples.push(elapsed);
            rows += n;
        }
        ticker.tick();
    }
    Ok(summarize(path, &q.procedure, samples, rows, 0))
}

/// Over WS-BSON: the procedure, or with `cypher` its official text.
async fn time_ws(
    client: &Client,
    q: &Query,
    cypher: Option<&str>,
    options: &Options,
    ticker: &mut Ticker<'_>,
) -> Result<Measurement, String> {
    let path = if cypher.is_some() {
        "cypher-ws-bson"
    } else {
        "ws-bson"
    };
    let mut samples = Vec::with_capacity(options.calls);
    let (mut rows, mut server_us) = (0, 0);
    for i in 0..options.warmup + options.calls {
        let params = &q.params[i % q.params.len()];
        let started = Instant::now();
        let answer = match cypher {
            Some(text) => {
                client
                    .cypher_timed(text, driver_params(&q.procedure, params))
                    .await
            }
            None => client.call_timed(&q.procedure, params.clone()).await,
        }
        .map_err(|e| format!("{path} {} {params:?}: {e}", q.procedure))?;
        let elapsed = started.elapsed();
        if i >= options.warmup {
            samples.push(elapsed);
            rows += answer.rows.len();
            server_us += answer.timing.map_or(0, |t| t.exec_us);
        }
        ticker.tick();
    }
    Ok(summarize(path, &q.procedure, samples, rows, server_us))
}

/// The median (the mean of the middle two for an even count; 0 for none).
pub(crate) fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// Parse + bind + plan of `text` from nothing, and the lookup in a warm plan cache.
fn plan_time(procedure: &str, text: &str) -> Result<PlanTime, String> {
    let timed = |f: &dyn Fn() -> Result<(), String>| -> Result<f64, String> {
        let started = Instant::now();
        f()?;
        Ok(started.elapsed().as_secs_f64() * 1e6)
    };
    let cold = (0..25)
        .map(|_| timed(&|| Prepared::new(text).map(drop).map_err(|e| e.to_string())))
        .collect::<Result<Vec<f64>, String>>()?;
    let engine = Engine::default();
    let cached = (0..201)
        .map(|_| timed(&|| engine.prepare(text).map(drop).map_err(|e| e.to_string())))
        .collect::<Result<Vec<f64>, String>>()?;
    Ok(PlanTime {
        procedure: procedure.to_owned(),
        cold_us: median(cold),
        // The first lookup planned the text; the rest are the cache hits.
        cached_us: median(cached[1..].to_vec()),
    })
}

/// Runs the suite in-process and over WS-BSON against an in-process server on
/// `store`, natively and, for queries with a text, in Cypher; `progress(done, total)`
/// counts calls.
pub async fn run(
    store: Arc<Store>,
    queries: &[Query],
    options: Options,
    mut progress: impl FnMut(u64, u64),
) -> Result<Report, String> {
    let texts = queries.iter().filter(|q| q.cypher.is_some()).count();
    let mut ticker = Ticker {
        done: 0,
        total: ((queries.len() * 2 + texts * 3) * (options.calls + options.warmup)) as u64,
        report: &mut progress,
    };
    let mut measurements = Vec::new();
    let mut plans = Vec::new();
    let registry = Registry::with_builtins();
    let engine = Engine::default();
    let snapshot = store.snapshot();
    let limits = Limits::default();
    for q in queries {
        measurements.push(time_in_process(
            "in-process",
            q,
            &options,
            &mut ticker,
            |params| {
                let result = registry
                    .call(&*snapshot, &q.procedure, params)
                    .map_err(|e| e.to_string())?;
                Ok(result.len())
            },
        )?);
        let Some(text) = &q.cypher else { continue };
        measurements.push(time_in_process(
            "cypher-in-process",
            q,
            &options,
            &mut ticker,
            |params| {
                let params = driver_params(&q.procedure, params);
                let result = engine
                    .query(&*snapshot, text, &params, &limits)
                    .map_err(|e| e.render(text))?;
                Ok(result.rows.len())
            },
        )?);
        // The same calls under PROFILE: what counting rows, db hits and time per
        // operator costs.
        let profiled = format!("PROFILE {text}");
        measurements.push(time_in_process(
            "cypher-profile-in-process",
            q,
            &options,
            &mut ticker,
            |params| {
                let params = driver_params(&q.procedure, params);
                let result = engine
                    .query(&*snapshot, &profiled, &params, &limits)
                    .map_err(|e| e.render(&profiled))?;
                Ok(result.rows.len())
            },
        )?);
        plans.push(plan_time(&q.procedure, text)?);
    }

    let server = crate::local_server::LocalServer::start(store, options.workers).await?;
    let addr = server.addr;
    let outcome = async {
        let client = Client::connect(ClientConfig::new(format!("ws://{addr}/v1/ws")))
            .await
            .map_err(|e| format!("connecting: {e}"))?;
        for q in queries {
            measurements.push(time_ws(&client, q, None, &options, &mut ticker).await?);
            if let Some(text) = &q.cypher {
                measurements.push(time_ws(&client, q, Some(text), &options, &mut ticker).await?);
            }
        }
        Ok::<_, String>(())
    }
    .await;
    server.stop().await;
    outcome?;
    Ok(Report {
        options,
        measurements,
        plans,
    })
}

impl Report {
    /// Raw results, one line per path and query, then (path `plan`) each text's parse +
    /// plan time: p50 = cold, p99 = from the plan cache.
    pub fn csv(&self) -> String {
        let mut out = String::from("path,procedure,calls,p50_us,p99_us,rows,server_exec_us\n");
        for m in &self.measurements {
            out.push_str(&format!(
                "{},{},{},{:.2},{:.2},{:.1},{:.1}\n",
                m.path, m.procedure, m.calls, m.p50_us, m.p99_us, m.rows, m.server_exec_us
            ));
        }
        for p in &self.plans {
            out.push_str(&format!(
                "plan,{},0,{:.2},{:.3},0,0\n",
                p.procedure, p.cold_us, p.cached_us
            ));
        }
        out
    }

    fn find(&self, path: &str, procedure: &str) -> Option<&Measurement> {
        self.measurements
            .iter()
            .find(|m| m.path == path && m.procedure == procedure)
    }

    fn procedures(&self) -> Vec<&str> {
        self.measurements
            .iter()
            .filter(|m| m.path == "in-process")
            .map(|m| m.procedure.as_str())
            .collect()
    }

    /// Tables: per query, native in-process and WS-BSON median and p99, and, when
    /// `neo4j` (bench.py's JSON: `{"latency": [{"procedure", "p50_us", "p99_us"}],
    /// "official": [...]}`) is given, Neo4j's median on the spec's Cypher and kith's
    /// speed-up over it; then, when the official texts ran, the Cypher table.
    pub fn markdown(&self, neo4j: Option<&serde_json::Value>) -> String {
        let mut out = self.native_markdown(neo4j);
        if !self.plans.is_empty() {
            out.push('\n');
            out.push_str(&self.cypher_markdown(neo4j));
            out.push_str(&self.profile_markdown());
        }
        out
    }

    fn native_markdown(&self, neo4j: Option<&serde_json::Value>) -> String {
        let mut out = format!(
            "kith bench ldbc: {} calls per query and path after {} warm-up calls; microseconds.\n\n\
             | query | in-process p50 | in-process p99 | ws-bson p50 | ws-bson p99 | rows |{}\n|---|---:|---:|---:|---:|---:|{}\n",
            self.options.calls,
            self.options.warmup,
            if neo4j.is_some() { " Neo4j p50 | Neo4j p99 | Neo4j ÷ kith ws-bson (p50) |" } else { "" },
            if neo4j.is_some() { "---:|---:|---:|" } else { "" },
        );
        for p in self.procedures() {
            let (Some(a), Some(b)) = (self.find("in-process", p), self.find("ws-bson", p)) else {
                continue;
            };
            out.push_str(&format!(
                "| {p} | {:.1} | {:.1} | {:.0} | {:.0} | {:.1} |",
                a.p50_us, a.p99_us, b.p50_us, b.p99_us, a.rows
            ));
            if neo4j.is_some() {
                match (
                    neo4j_p(neo4j, "latency", p, "p50_us"),
                    neo4j_p(neo4j, "latency", p, "p99_us"),
                ) {
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

    /// What PROFILE costs: each official text in-process, plain and under PROFILE
    /// (rows, db hits and time counted per operator), and the median overhead.
    fn profile_markdown(&self) -> String {
        let mut out = String::from(
            "\nPROFILE overhead: the same texts and calls in-process, plain and prefixed with \
             PROFILE (median µs).\n\n| query | plain p50 | PROFILE p50 | PROFILE ÷ plain |\n|---|---:|---:|---:|\n",
        );
        let mut ratios = Vec::new();
        for p in self.procedures() {
            let (Some(plain), Some(profiled)) = (
                self.find("cypher-in-process", p),
                self.find("cypher-profile-in-process", p),
            ) else {
                continue;
            };
            let ratio = profiled.p50_us / plain.p50_us.max(1e-9);
            ratios.push(ratio);
            out.push_str(&format!(
                "| {p} | {:.1} | {:.1} | {ratio:.2}x |\n",
                plain.p50_us, profiled.p50_us
            ));
        }
        out.push_str(&format!(
            "\nMedian PROFILE ÷ plain over the {} texts: {:.2}x.\n",
            ratios.len(),
            median(ratios)
        ));
        out
    }

    /// The official texts: Neo4j (same text, same parameters, Bolt) beside kith's Cypher
    /// and kith's native procedure, the ratios the targets are stated in (Neo4j ÷ kith
    /// Cypher ≥ 10x for every read; median of Cypher ÷ native ≤ 3x), and each text's
    /// parse + plan time.
    fn cypher_markdown(&self, neo4j: Option<&serde_json::Value>) -> String {
        let mut out = String::from(
            "The official LDBC Cypher texts, unmodified, with the same parameters (IC3/IC4: endDate). \
             Median µs; ws-bson = one client over WebSocket-BSON to an in-process server, plan cache warm.\n\n\
             | query | Neo4j p50 (Bolt) | kith Cypher ws-bson p50 | kith native ws-bson p50 | Neo4j ÷ kith Cypher | \
             kith Cypher ÷ native (ws-bson) | kith Cypher in-process p50 | native in-process p50 | \
             Cypher ÷ native (in-process) | rows Cypher / native | parse + plan cold | plan cache hit |\n\
             |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
        );
        let (mut ws_ratios, mut local_ratios, mut misses) = (Vec::new(), Vec::new(), Vec::new());
        let mut neo4j_count = 0;
        for p in self.procedures() {
            let m = |path| self.find(path, p);
            let (Some(cw), Some(nw), Some(ci), Some(ni)) = (
                m("cypher-ws-bson"),
                m("ws-bson"),
                m("cypher-in-process"),
                m("in-process"),
            ) else {
                continue;
            };
            let neo = neo4j_p(neo4j, "official", p, "p50_us");
            let plan = self.plans.iter().find(|x| x.procedure == p);
            let (ws, local) = (
                cw.p50_us / nw.p50_us.max(1e-9),
                ci.p50_us / ni.p50_us.max(1e-9),
            );
            ws_ratios.push(ws);
            local_ratios.push(local);
            let speedup = neo.map(|n| n / cw.p50_us.max(1e-9));
            if let Some(x) = speedup {
                neo4j_count += 1;
                if x < 10.0 {
                    misses.push(format!("{p} ({x:.1}x)"));
                }
            }
            out.push_str(&format!(
                "| {p} | {} | {:.0} | {:.0} | {} | {ws:.2}x | {:.1} | {:.1} | {local:.2}x | {:.1} / {:.1} | {} | {} |\n",
                neo.map_or("—".into(), |n| format!("{n:.0}")),
                cw.p50_us,
                nw.p50_us,
                speedup.map_or("—".into(), |x| format!("{x:.1}x")),
                ci.p50_us,
                ni.p50_us,
                ci.rows,
                ni.rows,
                plan.map_or("—".into(), |x| format!("{:.0} µs", x.cold_us)),
                plan.map_or("—".into(), |x| format!("{:.2} µs", x.cached_us)),
            ));
        }
        out.push_str(&format!(
            "\nMedian over the {} reads of kith Cypher ÷ native: {:.2}x over ws-bson, {:.2}x in-process (target ≤ 3x).\n",
            ws_ratios.len(),
            median(ws_ratios),
            median(local_ratios)
        ));
        if neo4j_count > 0 {
            out.push_str(&format!(
                "Neo4j ÷ kith Cypher (ws-bson) ≥ 10x: {} of {neo4j_count} reads{}.\n",
                neo4j_count - misses.len(),
                if misses.is_empty() {
                    String::new()
                } else {
                    format!("; missed by {}", misses.join(", "))
                }
            ));
        }
        out
    }
}

/// A field of Neo4j's measurement of `procedure` in bench.py's list `list`
/// (`latency`: the spec's Cypher; `official`: the official texts).
fn neo4j_p(
    neo4j: Option<&serde_json::Value>,
    list: &str,
    procedure: &str,
    field: &str,
) -> Option<f64> {
    neo4j?[list]
        .as_array()?
        .iter()
        .find(|l| l["procedure"] == procedure)?[field]
        .as_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn official_files_and_the_reference_drivers_parameters() {
        assert_eq!(
            official_file("ldbc.is3").as_deref(),
            Some("interactive-short-3.cypher")
        );
        assert_eq!(
            official_file("ldbc.ic14").as_deref(),
            Some("interactive-complex-14.cypher")
        );
        assert_eq!(official_file("ldbc.iu1"), None);
        let p = |k: &str, v: i64| (k.to_owned(), Value::Int(v));
        let ic4 = vec![p("personId", 7), p("startDate", 1000), p("durationDays", 2)];
        assert_eq!(
            driver_params("ldbc.ic4", &ic4),
            vec![
                p("personId", 7),
                p("startDate", 1000),
                p("endDate", 1000 + 2 * 86_400_000)
            ]
        );
        assert_eq!(driver_params("ldbc.ic5", &ic4), ic4);
    }

    #[test]
    fn the_cypher_table_gives_the_targets_ratios() {
        let m = |path, procedure: &str, p50_us| Measurement {
            path,
            procedure: procedure.to_owned(),
            calls: 1,
            p50_us,
            p99_us: p50_us,
            rows: 1.0,
            server_exec_us: 0.0,
        };
        let mut measurements = Vec::new();
        for (q, native, cypher) in [("ldbc.is1", 100.0, 150.0), ("ldbc.ic9", 1000.0, 5000.0)] {
            for path in ["in-process", "ws-bson"] {
                measurements.push(m(path, q, native));
            }
            for path in ["cypher-in-process", "cypher-ws-bson"] {
                measurements.push(m(path, q, cypher));
            }
        }
        let report = Report {
            options: Options {
                calls: 1,
                warmup: 0,
                short_sample: 1,
                workers: 1,
            },
            measurements,
            plans: ["ldbc.is1", "ldbc.ic9"]
                .map(|p| PlanTime {
                    procedure: p.into(),
                    cold_us: 80.0,
                    cached_us: 0.5,
                })
                .to_vec(),
        };
        let neo4j = serde_json::json!({"official": [
            {"procedure": "ldbc.is1", "p50_us": 3000.0},
            {"procedure": "ldbc.ic9", "p50_us": 20000.0}]});
        let md = report.markdown(Some(&neo4j));
        assert!(
            md.contains("| ldbc.is1 | 3000 | 150 | 100 | 20.0x | 1.50x |"),
            "{md}"
        );
        assert!(md.contains("missed by ldbc.ic9 (4.0x)"), "{md}");
        assert!(md.contains("3.25x over ws-bson"), "{md}");
        assert!(report.csv().contains("plan,ldbc.ic9,0,80.00,0.500,0,0"));
    }
}
