//! `kith query`: run a Cypher query on a data directory (in-process) or on a running
//! server (`ws://`).

use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use kith_core::Value;
use kith_cypher::{Engine, Limits, QueryResult};

use crate::{data_dir, output};

/// How long the client waits for a server's answer: the server bounds the query
/// itself (`query_timeout_ms`), and a write is answered only once it is durable.
const SERVER_WAIT: Duration = Duration::from_secs(600);

/// What `kith query` was asked.
pub struct QueryArgs<'a> {
    /// A data directory or a `ws://` URL.
    pub target: &'a str,
    /// The query text.
    pub text: &'a str,
    /// `--param key=value`, in order.
    pub params: &'a [String],
    /// `--params '{...}'`.
    pub params_json: Option<&'a str>,
    /// Print JSON.
    pub json: bool,
}

/// What a query answered, wherever it ran.
pub(crate) struct Answer {
    pub(crate) columns: Vec<String>,
    pub(crate) rows: Vec<Vec<Value>>,
    /// Set when the query wrote.
    pub(crate) commit: Option<Commit>,
    /// The plan of an EXPLAIN or PROFILE query.
    pub(crate) plan: Option<Value>,
    /// What the answer says beside its rows (docs/protocol.md 1.3.2).
    pub(crate) notifications: Vec<Value>,
}

/// What a writing query committed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Commit {
    pub(crate) version: u64,
    pub(crate) nodes_created: u64,
    pub(crate) relationships_created: u64,
}

impl fmt::Display for Commit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "committed version {}: {} node(s), {} relationship(s) created",
            self.version, self.nodes_created, self.relationships_created
        )
    }
}

pub fn run(args: &QueryArgs<'_>) -> Result<()> {
    let params = parameters(args.params, args.params_json)?;
    if !is_url(args.target) {
        // Parse before loading: a typo should not cost a load (binding needs the
        // graph's stored procedures, so it waits).
        kith_cypher::check_syntax(args.text).map_err(|e| anyhow!(e.render(args.text)))?;
    }
    let started = Instant::now();
    let mut target = Target::open(args.target)?;
    let answer = target.query(args.text, &params, None)?;
    let elapsed = started.elapsed();
    target.close()?;
    let rows = || answer.rows.iter().map(Vec::as_slice);
    if args.json {
        let mut out = output::result_json(&answer.columns, rows());
        if let Some(commit) = answer.commit {
            out["commit"] = serde_json::json!({
                "version": commit.version,
                "nodes_created": commit.nodes_created,
                "relationships_created": commit.relationships_created,
            });
        }
        if let Some(plan) = &answer.plan {
            out["plan"] = output::value_json(plan);
        }
        if !answer.notifications.is_empty() {
            let all = answer.notifications.iter().map(output::value_json);
            out["notifications"] = serde_json::Value::Array(all.collect());
        }
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    print!("{}", output::table(&answer.columns, rows()));
    println!(
        "{} row(s) in {:.1} ms",
        answer.rows.len(),
        elapsed.as_secs_f64() * 1e3
    );
    if let Some(commit) = answer.commit {
        println!("{commit}");
    }
    if let Some(plan) = &answer.plan {
        print!("{}", output::plan_text(plan));
    }
    print!("{}", output::notifications_text(&answer.notifications));
    Ok(())
}

/// Whether a target names a server rather than a data directory.
pub(crate) fn is_url(target: &str) -> bool {
    target.starts_with("ws://") || target.starts_with("wss://")
}

/// `--params` (a JSON object) overridden by each `--param key=value`.
fn parameters(pairs: &[String], json: Option<&str>) -> Result<Vec<(String, Value)>> {
    let mut params = match json {
        Some(text) => kith_protocol::message::params_from_json(text.as_bytes())
            .map_err(|e| anyhow!("--params: {e}"))?,
        None => Vec::new(),
    };
    for pair in pairs {
        let Some((key, text)) = pair.split_once('=') else {
            bail!("parameter `{pair}` must be written key=value");
        };
        params.retain(|(k, _)| k != key);
        params.push((key.to_owned(), parse_value(text)));
    }
    Ok(params)
}

/// A parameter value from the command line: `null`, `true`, `false`, an integer, a
/// float, a list (`1,2,3` or `[1,2,3]`, items parsed the same way), a JSON string in
/// double quotes (to pass `"7"` or a text with commas as a string), else the text
/// itself as a string.
fn parse_value(text: &str) -> Value {
    let text = text.trim();
    if let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        return list(inner);
    }
    if text.contains(',') && !text.starts_with('"') {
        return list(text);
    }
    scalar(text)
}

fn list(items: &str) -> Value {
    Value::List(
        items
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(scalar)
            .collect(),
    )
}

fn scalar(text: &str) -> Value {
    match text {
        "null" => return Value::Null,
        "true" => return Value::Bool(true),
        "false" => return Value::Bool(false),
        _ => {}
    }
    if let Ok(i) = text.parse::<i64>() {
        return Value::Int(i);
    }
    // Only what looks like a number: Rust also parses `inf` and `NaN` as floats.
    let numeric = text
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'));
    if numeric {
        if let Ok(x) = text.parse::<f64>() {
            return Value::Float(x);
        }
    }
    if text.len() >= 2 && text.starts_with('"') && text.ends_with('"') {
        if let Ok(s) = serde_json::from_str::<String>(text) {
            return Value::string(s);
        }
    }
    Value::string(text)
}

/// Where queries run, opened once for any number of them (`kith query` runs one,
/// `kith shell` a session's worth).
pub(crate) enum Target {
    /// A data directory, in-process.
    Local(Box<Local>),
    /// A running server, through the Rust client (boxed too: the client's
    /// configuration makes it the larger one).
    Server(Box<Server>),
}

/// A data directory opened by this process. A read sees the recovered directory (or
/// the last checkpoint while a server holds it); a query that writes commits
/// through its log, as `kith write DIR` does.
pub(crate) struct Local {
    dir: PathBuf,
    engine: Engine,
    graph: data_dir::Opened,
    wrote: bool,
}

/// A connection to a running server, with the runtime its client needs.
pub(crate) struct Server {
    runtime: tokio::runtime::Runtime,
    client: kith_client::Client,
}

impl Target {
    /// Opens a data directory, or connects to a `ws://` URL.
    pub(crate) fn open(target: &str) -> Result<Target> {
        if is_url(target) {
            return Ok(Target::Server(Box::new(Server::connect(target)?)));
        }
        let dir = PathBuf::from(target);
        let graph = data_dir::open(&dir)?;
        // Stored procedures are read from the graph this session reads.
        let procedures = match &graph {
            data_dir::Opened::Exclusive(database, _) => {
                let store = database.store().clone();
                kith_server::procedures::with_stored(
                    move || -> Arc<dyn kith_core::GraphView> { store.snapshot() },
                    Box::new(|| false),
                )
            }
            data_dir::Opened::Checkpoint(snapshot, _) => {
                let snapshot: Arc<dyn kith_core::GraphView> = Arc::new(snapshot.clone());
                kith_server::procedures::with_stored(move || snapshot.clone(), Box::new(|| false))
            }
        };
        Ok(Target::Local(Box::new(Local {
            graph,
            dir,
            engine: Engine::with_procedures(64, procedures),
            wrote: false,
        })))
    }

    /// Runs one query; setting `cancel` stops it. A Cypher error's message is the
    /// engine's, rendered with the line it points into and a caret under the column.
    pub(crate) fn query(
        &mut self,
        text: &str,
        params: &[(String, Value)],
        cancel: Option<&Arc<AtomicBool>>,
    ) -> Result<Answer> {
        match self {
            Target::Local(local) => local.query(text, params, cancel),
            Target::Server(server) => server.query(text, params, cancel),
        }
    }

    /// Ends the session: a directory that was written is synced and checkpointed.
    pub(crate) fn close(self) -> Result<()> {
        if let Target::Local(local) = self {
            if let (data_dir::Opened::Exclusive(database, _), true) = (&local.graph, local.wrote) {
                database.close()?;
            }
        }
        Ok(())
    }
}

impl Local {
    fn query(
        &mut self,
        text: &str,
        params: &[(String, Value)],
        cancel: Option<&Arc<AtomicBool>>,
    ) -> Result<Answer> {
        let prepared = self
            .engine
            .prepare(text)
            .map_err(|e| anyhow!(e.render(text)))?;
        let limits = Limits {
            result_rows_max: usize::MAX,
            cancel: cancel.cloned(),
            ..Limits::default()
        };
        let run = |graph: &dyn kith_core::GraphView| {
            kith_cypher::run(graph, &prepared, params, &limits).map_err(|e| anyhow!(e.render(text)))
        };
        let database = match &self.graph {
            data_dir::Opened::Exclusive(database, _) => database,
            data_dir::Opened::Checkpoint(snapshot, _) if !prepared.writes() => {
                return Ok(answer(run(snapshot)?, None));
            }
            data_dir::Opened::Checkpoint(..) => bail!(
                "a running server holds {}, so only its last checkpoint is read here; \
                 send writes to the server (ws://HOST:PORT/v1/ws)",
                self.dir.display()
            ),
        };
        if !prepared.writes() {
            return Ok(answer(run(&*database.store().snapshot())?, None));
        }
        let mut tx = kith_storage::Tx::new(&database.store().snapshot());
        let result = kith_cypher::run_tx(&mut tx, &prepared, params, &limits)
            .map_err(|e| anyhow!(e.render(text)))?;
        if tx.is_empty() {
            return Ok(answer(result, None));
        }
        let info = database.commit_one(&tx.into_batch())?;
        self.wrote = true;
        // A long session should not grow the log without bound (a server checkpoints
        // in the background for the same reason).
        if database.checkpoint_due() {
            database.checkpoint()?;
        }
        let commit = Commit {
            version: info.version,
            nodes_created: info.created.len() as u64,
            relationships_created: info.created_rels.len() as u64,
        };
        Ok(answer(result, Some(commit)))
    }
}

fn answer(result: QueryResult, commit: Option<Commit>) -> Answer {
    Answer {
        columns: result.columns,
        rows: result.rows,
        commit,
        plan: result.plan.map(|p| p.to_value()),
        notifications: result.notifications.iter().map(|n| n.to_value()).collect(),
    }
}

impl Server {
    fn connect(url: &str) -> Result<Server> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("starting the client runtime")?;
        let config = kith_client::ClientConfig {
            request_timeout: SERVER_WAIT,
            ..kith_client::ClientConfig::new(url)
        };
        let client = runtime
            .block_on(kith_client::Client::connect(config))
            .with_context(|| format!("connecting to {}", kith_client::redacted(url)))?;
        Ok(Server { runtime, client })
    }

    fn query(
        &self,
        text: &str,
        params: &[(String, Value)],
        cancel: Option<&Arc<AtomicBool>>,
    ) -> Result<Answer> {
        let request = self.client.cypher(text, params.to_vec());
        let result = self.runtime.block_on(async {
            let Some(flag) = cancel else {
                return Ok(request.await);
            };
            tokio::select! {
                result = request => Ok(result),
                () = set(flag) => Err(anyhow!(
                    "cancelled; the server may still be running the query (its \
                     query_timeout_ms bounds it)"
                )),
            }
        })?;
        let result = result.map_err(|e| anyhow!(render_client_error(&e, text)))?;
        Ok(Answer {
            columns: result.columns,
            rows: result.rows,
            commit: result.commit.map(|c| Commit {
                version: c.version,
                nodes_created: c.nodes_created,
                relationships_created: c.relationships_created,
            }),
            plan: result.plan,
            notifications: result.notifications,
        })
    }
}

/// Returns once `flag` is set (polled: a flag has nothing to wait on).
async fn set(flag: &AtomicBool) {
    while !flag.load(Ordering::Relaxed) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A server's Cypher error shown as the engine shows its own (`CypherError::render`):
/// the message, then the line it points into with a caret under the column.
fn render_client_error(error: &kith_client::ClientError, text: &str) -> String {
    let kith_client::ClientError::Cypher {
        cypher_code,
        message,
        line: Some(line),
        column: Some(column),
        ..
    } = error
    else {
        return error.to_string();
    };
    let source = usize::try_from(*line)
        .ok()
        .and_then(|l| text.lines().nth(l.saturating_sub(1)))
        .unwrap_or("");
    let caret = " ".repeat(usize::try_from(*column).map_or(0, |c| c.saturating_sub(1)));
    format!("{cypher_code}: {message} (line {line}, column {column})\n  {source}\n  {caret}^")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_line_values_parse_like_kith_calls() {
        assert_eq!(parse_value("7"), Value::Int(7));
        assert_eq!(parse_value("-2.5"), Value::Float(-2.5));
        assert_eq!(parse_value("true"), Value::Bool(true));
        assert_eq!(parse_value("null"), Value::Null);
        assert_eq!(parse_value("Ann"), Value::string("Ann"));
        assert_eq!(parse_value("nan"), Value::string("nan"));
        assert_eq!(parse_value("\"7\""), Value::string("7"));
        assert_eq!(parse_value("\"Lee, Ann\""), Value::string("Lee, Ann"));
        let ints = Value::List(vec![Value::Int(1), Value::Int(2), Value::Int(3)]);
        assert_eq!(parse_value("1,2,3"), ints);
        assert_eq!(parse_value("[1, 2, 3]"), ints);
        assert_eq!(parse_value("[]"), Value::List(vec![]));
        assert_eq!(
            parse_value("a,1.5"),
            Value::List(vec![Value::string("a"), Value::Float(1.5)])
        );
    }

    #[test]
    fn param_flags_override_the_json_object() {
        let params = parameters(
            &["id=7".to_owned(), "ids=1,2".to_owned()],
            Some(r#"{"id": 1, "name": "Ann"}"#),
        )
        .expect("valid");
        assert_eq!(
            params,
            vec![
                ("name".to_owned(), Value::string("Ann")),
                ("id".to_owned(), Value::Int(7)),
                (
                    "ids".to_owned(),
                    Value::List(vec![Value::Int(1), Value::Int(2)])
                ),
            ]
        );
        assert!(parameters(&["novalue".to_owned()], None).is_err());
        assert!(parameters(&[], Some("[1]")).is_err());
    }

    #[test]
    fn server_errors_render_with_a_caret_like_the_engines() {
        let text = "MATCH (p)\n  RETRUN p";
        let error = kith_client::ClientError::Cypher {
            code: kith_protocol::ErrorCode::CypherError,
            cypher_code: "Neo.ClientError.Statement.SyntaxError".into(),
            message: "unexpected `RETRUN`".into(),
            line: Some(2),
            column: Some(3),
        };
        let engine = Engine::default().prepare(text).expect_err("a syntax error");
        assert_eq!(
            render_client_error(&error, text),
            kith_cypher::CypherError {
                message: "unexpected `RETRUN`".into(),
                ..engine
            }
            .render(text)
        );
    }
}
