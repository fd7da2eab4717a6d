//! `kith procedures`: list the procedures (the stored Cypher ones of a data
//! directory or server too), register and drop stored Cypher procedures.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Subcommand;
use kith_core::Value;
use kith_procedures::{ParamSpec, Registry};

use super::query::Target;
use crate::output;

/// What to do with procedures.
#[derive(Subcommand)]
pub enum Action {
    /// List every procedure of a data directory or a running server (ws://...):
    /// native, stored Cypher, and the two that manage them.
    List {
        /// A data directory or a ws:// URL.
        target: String,
    },
    /// Store a Cypher text as a procedure, called like a native one
    /// (`CALL name(args)`, or a `call` request): its parameters are the text's
    /// $parameters in the order they first appear; registering a name again
    /// replaces it. Durable, like any write.
    Register {
        /// A data directory or a ws:// URL.
        target: String,
        /// Its name: dotted identifiers (app.friends).
        name: String,
        /// The Cypher text (or --file).
        text: Option<String>,
        /// Read the text from a file (- for stdin).
        #[arg(long)]
        file: Option<PathBuf>,
    },
    /// Drop a stored Cypher procedure.
    Drop {
        /// A data directory or a ws:// URL.
        target: String,
        /// Its name.
        name: String,
    },
}

pub fn run(action: Option<Action>, json: bool) -> Result<()> {
    match action {
        None => natives(json),
        Some(Action::List { target }) => list(&target, json),
        Some(Action::Register {
            target,
            name,
            text,
            file,
        }) => {
            let text = match (text, file) {
                (Some(t), None) => t,
                (None, Some(f)) => read_text(&f)?,
                _ => bail!("give the Cypher text, or --file, not both"),
            };
            let params = [
                ("name".to_owned(), Value::string(name.as_str())),
                ("text".to_owned(), Value::string(text.as_str())),
            ];
            manage(
                &target,
                "CALL kith.procedure.register($name, $text)",
                &params,
            )?;
            println!("registered {name}");
            Ok(())
        }
        Some(Action::Drop { target, name }) => {
            let params = [("name".to_owned(), Value::string(name.as_str()))];
            manage(&target, "CALL kith.procedure.drop($name)", &params)?;
            println!("dropped {name}");
            Ok(())
        }
    }
}

fn read_text(file: &PathBuf) -> Result<String> {
    if file.as_os_str() == "-" {
        return std::io::read_to_string(std::io::stdin()).context("reading stdin");
    }
    std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))
}

fn manage(target: &str, query: &str, params: &[(String, Value)]) -> Result<()> {
    let mut target = Target::open(target)?;
    target.query(query, params, None)?;
    target.close()
}

/// Every procedure of `target`, from its own `SHOW PROCEDURES`.
fn list(target: &str, json: bool) -> Result<()> {
    let mut target = Target::open(target)?;
    let answer = target.query(
        "SHOW PROCEDURES YIELD name, signature, description, mode",
        &[],
        None,
    )?;
    target.close()?;
    let rows = || answer.rows.iter().map(Vec::as_slice);
    if json {
        let out = output::result_json(&answer.columns, rows());
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    for row in &answer.rows {
        let text = |v: &Value| match v {
            Value::String(s) => s.to_string(),
            other => other.to_string(),
        };
        println!("{}  [{}]", text(&row[1]), text(&row[3]));
        println!("    {}", text(&row[2]));
    }
    Ok(())
}

fn params_json(params: &[ParamSpec]) -> Vec<serde_json::Value> {
    params
        .iter()
        .map(|s| {
            serde_json::json!({
                "name": s.name,
                "type": s.ty.name(),
                "default": s.default.map(|d| match d {
                    kith_procedures::DefaultValue::Int(i) => serde_json::json!(i),
                    kith_procedures::DefaultValue::Str(t) => serde_json::json!(t),
                    kith_procedures::DefaultValue::Bool(b) => serde_json::json!(b),
                    kith_procedures::DefaultValue::EmptyMap => serde_json::json!({}),
                }),
                "doc": s.doc,
            })
        })
        .collect()
}

fn params_text(params: &[ParamSpec]) -> String {
    params
        .iter()
        .map(|s| match s.default {
            Some(d) => format!("{}: {} = {d}", s.name, s.ty.name()),
            None => format!("{}: {}", s.name, s.ty.name()),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The native procedures, with their parameters' documentation (no graph needed).
fn natives(json: bool) -> Result<()> {
    let registry = Registry::with_builtins();
    if json {
        let mut list: Vec<_> = registry
            .iter()
            .map(|p| {
                serde_json::json!({
                    "name": p.name,
                    "description": p.description,
                    "kind": "read",
                    "parameters": params_json(p.params),
                    "columns": p.columns,
                })
            })
            .collect();
        list.extend(registry.updates().map(|u| {
            serde_json::json!({
                "name": u.name,
                "description": u.description,
                "kind": "update",
                "parameters": params_json(u.params),
                "columns": ["version", "nodes", "rels"],
            })
        }));
        println!("{}", serde_json::to_string_pretty(&list)?);
        return Ok(());
    }
    for p in registry.iter() {
        println!("{}({})", p.name, params_text(p.params));
        println!("    {}", p.description);
        println!("    -> {}", p.columns.join(", "));
    }
    for u in registry.updates() {
        println!("{}({})", u.name, params_text(u.params));
        println!("    {} (an update: a durable write)", u.description);
        println!("    -> version, nodes, rels");
    }
    println!();
    println!("Stored Cypher procedures live in a graph: `kith procedures list DIR|ws://...`.");
    Ok(())
}
