//! S1's 19-query suite, single client, per access path, with the time split.
//!
//! Each query runs its paper's count (2,000, 200, 200 x 10 or 20 calls, scaled by
//! `runs_scale`) after a warm-up, with parameters rotating over people spread across
//! the id range, over every access path: HTTP-JSON (S1's REST baseline) and the
//! WebSocket protocol in each encoding and compression. Every WebSocket call asks for
//! the server's timings, so each sample splits into client encode, server queue,
//! server execution, server encode, client decode, and the rest (network and
//! scheduling): S1's Figure 6.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use kith_client::{Client, ClientConfig, Compression, Encoding, Subprotocol};
use kith_core::shindig_schema::label;
use kith_core::{GraphView, Value};
use kith_procedures::Registry;
use kith_storage::Store;

use crate::http_client::Http;
use crate::shindig_cypher::ShindigCypher;

/// One of the 19 queries: its number in S1, procedure and run count.
#[derive(Clone, Debug)]
pub struct Query {
    /// S1's number, 1-19.
    pub number: u8,
    /// The procedure.
    pub procedure: &'static str,
    /// Calls per suite run in S1.
    pub runs: usize,
    /// Excluded from throughput mixes, as S1 did (FOAF-3, FOAF-2, recommendations).
    pub spike: bool,
    /// Parameter sets, used in rotation.
    params: Vec<Vec<(String, Value)>>,
}

impl Query {
    /// The `i`-th parameter set, in rotation.
    pub fn params(&self, i: usize) -> &[(String, Value)] {
        &self.params[i % self.params.len()]
    }
}

/// The suite's calls as JSON, so a peer runs exactly the same ones:
/// `[{"number", "procedure", "runs", "spike", "params": [{name: value}, ...]}]`.
pub fn queries_json(queries: &[Query]) -> serde_json::Value {
    let value = |v: &Value| -> serde_json::Value {
        match v {
            Value::Int(i) => (*i).into(),
            Value::List(items) => items
                .iter()
                .map(|i| serde_json::Value::from(i.as_int().unwrap_or_default()))
                .collect(),
            other => other.to_string().into(),
        }
    };
    queries
        .iter()
        .map(|q| {
            serde_json::json!({
                "number": q.number,
                "procedure": q.procedure,
                "runs": q.runs,
                "spike": q.spike,
                "params": q.params.iter().map(|set| {
                    set.iter().map(|(k, v)| (k.clone(), value(v))).collect::<serde_json::Map<_, _>>()
                }).collect::<Vec<_>>(),
            })
        })
        .collect()
}

/// The suite's queries with S1's run counts.
const SUITE: [(u8, &str, usize, bool); 19] = [
    (1, "shindig.group_members", 2000, false),
    (2, "shindig.person_groups", 2000, false),
    (3, "shindig.friend_recommendations", 200, true),
    (4, "shindig.group_recommendations", 200, false),
    (5, "shindig.friends_of_friends_3", 20, true),
    (6, "shindig.friends_of_friends", 20, true),
    (7, "shindig.shortest_path", 200, false),
    (8, "shindig.inbox", 2000, false),
    (9, "shindig.message_collections", 2000, false),
    (10, "shindig.profile", 2000, false),
    (11, "shindig.profiles", 200, false),
    (12, "shindig.friends_of_people", 200, false),
    (13, "shindig.friends", 2000, false),
    (14, "shindig.activity", 2000, false),
    (15, "shindig.person_activities", 2000, false),
    (16, "shindig.activities_of_people", 200, false),
    (17, "shindig.activities_by_ids", 200, false),
    (18, "shindig.activity_stream", 200, false),
    (19, "shindig.message", 2000, false),
];

fn int(name: &str, v: i64) -> (String, Value) {
    (name.to_owned(), Value::Int(v))
}

fn ints(name: &str, v: &[i64]) -> (String, Value) {
    (
        name.to_owned(),
        Value::List(v.iter().map(|i| Value::Int(*i)).collect()),
    )
}

/// Builds the suite's parameter sets from the graph: `sample` people spread over the
/// id range, each with one of their own activities and inbox messages (looked up
/// in-process, so every call finds data).
pub fn queries(graph: &dyn GraphView, sample: usize) -> Result<Vec<Query>, String> {
    let registry = Registry::with_builtins();
    let count = |name: &str| {
        graph.label_id(name).map_or(0, |l| {
            graph.node_ids().filter(|n| graph.has_label(*n, l)).count()
        })
    };
    let (people, groups) = (count(label::PERSON) as i64, count(label::GROUP) as i64);
    if people < 20 || groups == 0 {
        return Err("the graph is not a Shindig data set (too few Person or Group nodes); use `kith generate shindig`".into());
    }
    let first_id = |procedure: &str, person: i64| -> Option<i64> {
        let result = registry
            .call(graph, procedure, &[int("person_id", person)])
            .ok()?;
        result.row(0).and_then(|r| r[0].as_int())
    };
    // People spread over the id range (a stride coprime with most sizes), keeping
    // those with an activity and an inbox message.
    let mut chosen: Vec<(i64, i64, i64)> = Vec::new();
    for i in 0..people {
        if chosen.len() >= sample {
            break;
        }
        let p = 1 + (i * 997) % people;
        if let (Some(a), Some(m)) = (
            first_id("shindig.person_activities", p),
            first_id("shindig.inbox", p),
        ) {
            chosen.push((p, a, m));
        }
    }
    if chosen.is_empty() {
        return Err("no person has both an activity and an inbox message".into());
    }
    let ten = |k: usize| -> Vec<i64> {
        (0..10)
            .map(|j| chosen[(k + j * 7) % chosen.len()].0)
            .collect()
    };
    Ok(SUITE
        .iter()
        .map(|&(number, procedure, runs, spike)| {
            let params = chosen
                .iter()
                .enumerate()
                .map(|(k, &(p, activity, message))| match number {
                    1 => vec![int("group_id", 1 + (k as i64 * 7) % groups)],
                    4 => vec![int("person_id", p), int("limit", 10)],
                    7 => vec![
                        int("from_id", p),
                        int("to_id", chosen[(k + chosen.len() / 2) % chosen.len()].0),
                    ],
                    11 => vec![ints("person_ids", &ten(k))],
                    12 => vec![ints("person_ids", &ten(k))],
                    14 => vec![int("person_id", p), int("activity_id", activity)],
                    16 => vec![ints("person_ids", &ten(k))],
                    17 => vec![int("person_id", p), ints("activity_ids", &[activity])],
                    19 => vec![int("person_id", p), int("message_id", message)],
                    _ => vec![int("person_id", p)],
                })
                .collect();
            Query {
                number,
                procedure,
                runs,
                spike,
                params,
            }
        })
        .collect())
}

/// One way of reaching the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// HTTP/1.1 keep-alive, JSON: S1's REST baseline.
    HttpJson,
    /// The WebSocket protocol with one subprotocol.
    Ws(Subprotocol),
    /// S1's Cypher texts as WebSocket `cypher` requests in one encoding, uncompressed:
    /// S1's "Cypher BSON" beside its "Native BSON".
    Cypher(Encoding),
}

impl Path {
    /// The Cypher paths, one per encoding (they need the texts: `--cypher`).
    pub fn cypher_all() -> Vec<Path> {
        Encoding::ALL.into_iter().map(Path::Cypher).collect()
    }

    /// Every native path: REST, then each encoding with each compression.
    pub fn all() -> Vec<Path> {
        let mut paths = vec![Path::HttpJson];
        for encoding in Encoding::ALL {
            for compression in Compression::ALL {
                paths.push(Path::Ws(Subprotocol {
                    encoding,
                    compression,
                }));
            }
        }
        paths
    }

    /// `http-json`, `ws-bson`, `ws-bson-zstd`, ...
    pub fn name(self) -> String {
        match self {
            Path::HttpJson => "http-json".into(),
            Path::Ws(s) if s.compression == Compression::None => {
                format!("ws-{}", s.encoding.name())
            }
            Path::Ws(s) => format!("ws-{}-{}", s.encoding.name(), s.compression.name()),
            Path::Cypher(e) => format!("cypher-{}", e.name()),
        }
    }

    /// Parses [`Path::name`].
    pub fn parse(name: &str) -> Result<Path, String> {
        let every = || Path::all().into_iter().chain(Path::cypher_all());
        every().find(|p| p.name() == name).ok_or_else(|| {
            let names: Vec<String> = every().map(|p| p.name()).collect();
            format!("unknown path `{name}`; paths: {}", names.join(", "))
        })
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Paths, in order.
    pub paths: Vec<Path>,
    /// Multiplies S1's run counts (1.0 = the paper's; each query runs at least 5 times).
    pub runs_scale: f64,
    /// Warm-up calls per query and path, not measured.
    pub warmup: usize,
    /// Server worker threads.
    pub workers: usize,
    /// People the parameters rotate over.
    pub sample: usize,
    /// S1's Cypher texts, needed by the Cypher paths.
    pub cypher: Option<Arc<ShindigCypher>>,
}

/// The measurements of one query on one path, in microseconds.
#[derive(Clone, Debug)]
pub struct Measurement {
    /// The path's name.
    pub path: String,
    /// S1's query number.
    pub query: u8,
    /// The procedure.
    pub procedure: String,
    /// Calls measured.
    pub calls: usize,
    /// Round-trip latency.
    pub p50_us: f64,
    /// 95th percentile.
    pub p95_us: f64,
    /// 99th percentile.
    pub p99_us: f64,
    /// Mean.
    pub mean_us: f64,
    /// Mean time split: client encode, server queue, server execution, server
    /// encode, client decode; the rest of the mean round trip is network and
    /// scheduling. Server parts are 0 over HTTP (it returns no timings).
    pub split: Split,
    /// Mean answer size, bytes (HTTP only; WebSocket sizes are in `/metrics`).
    pub answer_bytes: f64,
}

/// S1 Figure 6's time split, mean microseconds per call.
#[derive(Clone, Copy, Debug, Default)]
pub struct Split {
    /// Client: building and encoding the request.
    pub client_encode_us: f64,
    /// Server: waiting for a worker.
    pub server_queue_us: f64,
    /// Server: running the procedure.
    pub server_exec_us: f64,
    /// Server: encoding and compressing the answer.
    pub server_encode_us: f64,
    /// Client: decoding the answer.
    pub client_decode_us: f64,
    /// Everything else: network, framing and scheduling.
    pub network_us: f64,
}

/// A run's results.
#[derive(Clone, Debug)]
pub struct Report {
    /// The options.
    pub options: Options,
    /// Per path and query.
    pub measurements: Vec<Measurement>,
}

struct Sample {
    total: Duration,
    client_encode: Duration,
    client_decode: Duration,
    server: kith_client::Timing,
    bytes: usize,
}

fn summarize(path: &str, query: &Query, mut samples: Vec<Sample>) -> Measurement {
    let n = samples.len().max(1) as f64;
    let mean = |f: &dyn Fn(&Sample) -> f64| samples.iter().map(f).sum::<f64>() / n;
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let split = Split {
        client_encode_us: mean(&|s| us(s.client_encode)),
        server_queue_us: mean(&|s| s.server.queue_us as f64),
        server_exec_us: mean(&|s| s.server.exec_us as f64),
        server_encode_us: mean(&|s| s.server.encode_us as f64),
        client_decode_us: mean(&|s| us(s.client_decode)),
        network_us: 0.0,
    };
    let mean_us = mean(&|s| us(s.total));
    let answer_bytes = mean(&|s| s.bytes as f64);
    let accounted = split.client_encode_us
        + split.server_queue_us
        + split.server_exec_us
        + split.server_encode_us
        + split.client_decode_us;
    samples.sort_unstable_by_key(|s| s.total);
    let at = |q: f64| {
        samples
            .get(((samples.len().max(1) - 1) as f64 * q).round() as usize)
            .map_or(0.0, |s| us(s.total))
    };
    Measurement {
        path: path.to_owned(),
        query: query.number,
        procedure: query.procedure.to_owned(),
        calls: samples.len(),
        p50_us: at(0.5),
        p95_us: at(0.95),
        p99_us: at(0.99),
        mean_us,
        split: Split {
            network_us: (mean_us - accounted).max(0.0),
            ..split
        },
        answer_bytes,
    }
}

/// A JSON object of parameters for `POST /v1/call/{procedure}` (Shindig parameters
/// are Ints and lists of Ints).
fn json_params(params: &[(String, Value)]) -> String {
    let fields: Vec<String> = params
        .iter()
        .map(|(k, v)| {
            let value = match v {
                Value::List(items) => format!(
                    "[{}]",
                    items
                        .iter()
                        .map(|i| i.as_int().unwrap_or_default().to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                ),
                other => other.as_int().unwrap_or_default().to_string(),
            };
            format!("\"{k}\":{value}")
        })
        .collect();
    format!("{{{}}}", fields.join(","))
}

/// Runs the suite against an in-process server over `store`, reporting progress
/// through `progress(done, total)` in calls.
pub async fn run(
    store: Arc<Store>,
    options: Options,
    mut progress: impl FnMut(u64, u64),
) -> Result<Report, String> {
    let queries = queries(&*store.snapshot(), options.sample)?;
    if options.paths.iter().any(|p| matches!(p, Path::Cypher(_))) {
        options
            .cypher
            .as_ref()
            .ok_or("the cypher-* paths need S1's Cypher texts (--cypher bench/peers/neo4j/shindig/queries.py)")?
            .covers(queries.iter().map(|q| q.procedure))?;
    }
    let server = crate::local_server::LocalServer::start(store, options.workers).await?;
    let outcome = measure(server.addr, &queries, &options, &mut progress).await;
    server.stop().await;
    Ok(Report {
        options,
        measurements: outcome?,
    })
}

fn runs_of(query: &Query, options: &Options) -> usize {
    ((query.runs as f64 * options.runs_scale).round() as usize).max(5)
}

async fn measure(
    addr: SocketAddr,
    queries: &[Query],
    options: &Options,
    progress: &mut impl FnMut(u64, u64),
) -> Result<Vec<Measurement>, String> {
    let per_path: usize = queries
        .iter()
        .map(|q| runs_of(q, options) + options.warmup)
        .sum();
    let planned = (per_path * options.paths.len()) as u64;
    let mut done = 0u64;
    let mut out = Vec::new();
    for path in &options.paths {
        let name = path.name();
        match path {
            Path::HttpJson => {
                let mut http = Http::connect(addr)
                    .await
                    .map_err(|e| format!("{name}: connecting: {e}"))?;
                for query in queries {
                    let url = format!("/v1/call/{}", query.procedure);
                    let mut samples = Vec::new();
                    let runs = runs_of(query, options);
                    for i in 0..options.warmup + runs {
                        let params = &query.params[i % query.params.len()];
                        let started = Instant::now();
                        let body = json_params(params);
                        let client_encode = started.elapsed();
                        let answer = http
                            .post(&url, &body)
                            .await
                            .map_err(|e| format!("{name} {}: {e}", query.procedure))?;
                        let elapsed = started.elapsed();
                        if i >= options.warmup {
                            samples.push(Sample {
                                total: elapsed,
                                client_encode,
                                client_decode: answer.decode,
                                server: kith_client::Timing::default(),
                                bytes: answer.bytes,
                            });
                        }
                        done += 1;
                        progress(done, planned);
                    }
                    out.push(summarize(&name, query, samples));
                }
            }
            Path::Ws(_) | Path::Cypher(_) => {
                let client = connect_ws(addr, *path)
                    .await
                    .map_err(|e| format!("{name}: connecting: {e}"))?;
                for query in queries {
                    let mut samples = Vec::new();
                    let runs = runs_of(query, options);
                    for i in 0..options.warmup + runs {
                        let params = &query.params[i % query.params.len()];
                        let started = Instant::now();
                        let answer = ws_call(&client, *path, options, query.procedure, params)
                            .await
                            .map_err(|e| format!("{name} {}: {e}", query.procedure))?;
                        let elapsed = started.elapsed();
                        if i >= options.warmup {
                            samples.push(Sample {
                                total: elapsed,
                                client_encode: Duration::from_micros(answer.client.encode_us),
                                client_decode: Duration::from_micros(answer.client.decode_us),
                                server: answer.timing.unwrap_or_default(),
                                bytes: 0,
                            });
                        }
                        done += 1;
                        progress(done, planned);
                    }
                    out.push(summarize(&name, query, samples));
                }
            }
        }
    }
    Ok(out)
}

/// A client for a WebSocket path: its subprotocol, one connection.
async fn connect_ws(addr: SocketAddr, path: Path) -> Result<Client, kith_client::ClientError> {
    let subprotocol = match path {
        Path::Ws(s) => s,
        Path::Cypher(encoding) => Subprotocol {
            encoding,
            compression: Compression::None,
        },
        Path::HttpJson => Subprotocol::DEFAULT,
    };
    Client::connect(ClientConfig {
        subprotocol,
        ..ClientConfig::new(format!("ws://{addr}/v1/ws"))
    })
    .await
}

/// One timed call on a WebSocket path: the procedure, or on a Cypher path its text
/// with the same parameters (plus the defaults the text needs spelled out).
async fn ws_call(
    client: &Client,
    path: Path,
    options: &Options,
    procedure: &str,
    params: &[(String, Value)],
) -> Result<kith_client::QueryResult, String> {
    let outcome = match (path, &options.cypher) {
        (Path::Cypher(_), Some(texts)) => {
            client
                .cypher_timed(texts.text(procedure)?, texts.params(procedure, params))
                .await
        }
        (Path::Cypher(_), None) => return Err("no Cypher texts".into()),
        _ => client.call_timed(procedure, params.to_vec()).await,
    };
    outcome.map_err(|e| e.to_string())
}

impl Report {
    /// Raw results as CSV, one line per path and query.
    pub fn csv(&self) -> String {
        let mut out = String::from(
            "path,query,procedure,calls,p50_us,p95_us,p99_us,mean_us,client_encode_us,server_queue_us,server_exec_us,server_encode_us,client_decode_us,network_us,answer_bytes\n",
        );
        for m in &self.measurements {
            let s = &m.split;
            out.push_str(&format!(
                "{},{},{},{},{:.1},{:.1},{:.1},{:.1},{:.1},{:.1},{:.1},{:.1},{:.1},{:.1},{:.0}\n",
                m.path,
                m.query,
                m.procedure,
                m.calls,
                m.p50_us,
                m.p95_us,
                m.p99_us,
                m.mean_us,
                s.client_encode_us,
                s.server_queue_us,
                s.server_exec_us,
                s.server_encode_us,
                s.client_decode_us,
                s.network_us,
                m.answer_bytes
            ));
        }
        out
    }

    /// Median latency per query (rows) and path (columns), with each path's median
    /// relative to REST (S1 Figure 3), as Markdown.
    pub fn markdown(&self) -> String {
        let paths: Vec<String> = self.options.paths.iter().map(|p| p.name()).collect();
        let mut out = format!(
            "kith bench shindig: single client, {} workers, S1's run counts x {}, {} warm-up calls per query. \
             Median round trip in µs; in brackets, % of the HTTP-JSON (REST) median. \
             cypher-* paths send S1's Cypher texts (bench/peers/neo4j/shindig/queries.py) as `cypher` requests.\n\n",
            self.options.workers, self.options.runs_scale, self.options.warmup
        );
        out.push_str("| # | procedure |");
        for p in &paths {
            out.push_str(&format!(" {p} |"));
        }
        out.push_str("\n|---|---|");
        out.push_str(&"---:|".repeat(paths.len()));
        out.push('\n');
        let queries: Vec<(u8, String)> = {
            let mut q: Vec<(u8, String)> = self
                .measurements
                .iter()
                .map(|m| (m.query, m.procedure.clone()))
                .collect();
            q.sort();
            q.dedup();
            q
        };
        for (number, procedure) in queries {
            let find = |path: &str| {
                self.measurements
                    .iter()
                    .find(|m| m.query == number && m.path == path)
            };
            let rest = find("http-json").map(|m| m.p50_us);
            out.push_str(&format!("| {number} | {procedure} |"));
            for p in &paths {
                match (find(p), rest) {
                    (Some(m), Some(r)) if p != "http-json" && r > 0.0 => out.push_str(&format!(
                        " {:.0} ({:.0} %) |",
                        m.p50_us,
                        100.0 * m.p50_us / r
                    )),
                    (Some(m), _) => out.push_str(&format!(" {:.0} |", m.p50_us)),
                    (None, _) => out.push_str(" — |"),
                }
            }
            out.push('\n');
        }
        out
    }
}

/// Queries over a small generated graph, for tests in this crate.
#[cfg(test)]
pub(crate) mod tests_support {
    /// The suite over a scale-0.05 Shindig graph.
    pub(crate) fn queries() -> Vec<super::Query> {
        super::queries(&super::tests::small_graph(), 8).expect("a Shindig graph")
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn paths_round_trip_by_name() {
        for path in Path::all().into_iter().chain(Path::cypher_all()) {
            assert_eq!(Path::parse(&path.name()), Ok(path));
        }
        assert_eq!(Path::all().len(), 16);
        assert_eq!(Path::parse("cypher-bson"), Ok(Path::Cypher(Encoding::Bson)));
        assert!(Path::parse("ws-xml").is_err());
    }

    #[test]
    fn every_query_gets_parameters_its_procedure_accepts() {
        let raw = small_graph();
        let queries = queries(&raw, 8).expect("a Shindig graph");
        assert_eq!(queries.len(), 19);
        let registry = Registry::with_builtins();
        for q in &queries {
            for params in &q.params {
                let result = registry.call(&raw, q.procedure, params);
                assert!(result.is_ok(), "{}: {:?}", q.procedure, result.err());
            }
        }
    }

    /// A small generated Shindig graph.
    pub(crate) fn small_graph() -> kith_storage::Snapshot {
        let raw = kith_datagen::shindig::generate(kith_datagen::shindig::ShindigConfig {
            scale: 0.05,
            seed: 9,
        })
        .expect("generates");
        kith_storage::Snapshot::from_raw(raw).expect("valid")
    }

    #[test]
    fn json_params_are_what_the_http_endpoint_parses() {
        let body = json_params(&[int("person_id", 7), ints("person_ids", &[1, 2])]);
        assert_eq!(body, r#"{"person_id":7,"person_ids":[1,2]}"#);
        let parsed = kith_protocol::message::params_from_json(body.as_bytes()).expect("parses");
        assert_eq!(
            parsed,
            vec![int("person_id", 7), ints("person_ids", &[1, 2])]
        );
    }
}
