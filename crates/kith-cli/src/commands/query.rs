//! `kith query`: run a Cypher query on a data directory (in-process) or on a running
//! server (`ws://`).

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use kith_core::Value;
use kith_cypher::{Engine, Limits, QueryResult};
use kith_storage::{Database, DatabaseOptions, StorageError, WriteBatch};

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
struct Answer {
    columns: Vec<String>,
    rows: Vec<Vec<Value>>,
    /// Version, nodes created, relationships created.
    commit: Option<(u64, u64, u64)>,
}

pub fn run(args: &QueryArgs<'_>) -> Result<()> {
    let params = parameters(args.params, args.params_json)?;
    let started = Instant::now();
    let answer = if args.target.starts_with("ws://") || args.target.starts_with("wss://") {
        on_server(args.target, args.text, params)?
    } else {
        in_process(Path::new(args.target), args.text, &params)?
    };
    let elapsed = started.elapsed();
    let rows = || answer.rows.iter().map(Vec::as_slice);
    if args.json {
        let mut out = output::result_json(&answer.columns, rows());
        if let Some((version, nodes, rels)) = answer.commit {
            out["commit"] = serde_json::json!({
                "version": version,
                "nodes_created": nodes,
                "relationships_created": rels,
            });
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
    if let Some((version, nodes, rels)) = answer.commit {
        println!("committed version {version}: {nodes} node(s), {rels} relationship(s) created");
    }
    Ok(())
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

/// Runs the query on a data directory. A read recovers it like `kith call` (and reads
/// the last checkpoint while a server holds it); a query that writes opens it
/// exclusively and commits through its log, as `kith write DIR` does.
fn in_process(dir: &Path, text: &str, params: &[(String, Value)]) -> Result<Answer> {
    let engine = Engine::new(1);
    // Parse before loading: a typo should not cost a load.
    let prepared = engine.prepare(text).map_err(|e| anyhow!(e.render(text)))?;
    let limits = Limits {
        result_rows_max: usize::MAX,
        ..Limits::default()
    };
    let run = |graph: &dyn kith_core::GraphView| {
        kith_cypher::run(graph, &prepared, params, &limits).map_err(|e| anyhow!(e.render(text)))
    };
    if !prepared.writes() {
        let loaded = data_dir::load(dir)?;
        return Ok(answer(run(&loaded.snapshot)?, None));
    }
    let (database, _) = match Database::open(dir, DatabaseOptions::default()) {
        Err(StorageError::Locked(_)) => bail!(
            "a running server holds {}; send the query to it instead: kith query ws://HOST:PORT/v1/ws ...",
            dir.display()
        ),
        other => other.with_context(|| format!("opening {}", dir.display()))?,
    };
    let mut result = run(&*database.store().snapshot())?;
    let writes = std::mem::take(&mut result.writes);
    let commit = if writes.is_empty() {
        None
    } else {
        let info = database.commit_one(&WriteBatch { ops: writes })?;
        Some((
            info.version,
            info.created.len() as u64,
            info.created_rels.len() as u64,
        ))
    };
    database.close()?;
    Ok(answer(result, commit))
}

fn answer(result: QueryResult, commit: Option<(u64, u64, u64)>) -> Answer {
    Answer {
        columns: result.columns,
        rows: result.rows,
        commit,
    }
}

/// Sends the query to a running server through the Rust client.
fn on_server(url: &str, text: &str, params: Vec<(String, Value)>) -> Result<Answer> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the client runtime")?;
    runtime.block_on(async {
        let config = kith_client::ClientConfig {
            request_timeout: SERVER_WAIT,
            ..kith_client::ClientConfig::new(url)
        };
        let client = kith_client::Client::connect(config)
            .await
            .with_context(|| format!("connecting to {url}"))?;
        let result = client
            .cypher(text, params)
            .await
            .map_err(|e| anyhow!(render_client_error(&e, text)))?;
        Ok(Answer {
            columns: result.columns,
            rows: result.rows,
            commit: result
                .commit
                .map(|c| (c.version, c.nodes_created, c.relationships_created)),
        })
    })
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
            code: "cypher_error".into(),
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
