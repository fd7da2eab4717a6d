//! `kith procedures`.

use anyhow::Result;
use kith_procedures::{ParamSpec, Registry};

fn params_json(params: &[ParamSpec]) -> Vec<serde_json::Value> {
    params
        .iter()
        .map(|s| {
            serde_json::json!({
                "name": s.name,
                "type": s.ty.name(),
                "default": s.default,
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

pub fn run(json: bool) -> Result<()> {
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
    Ok(())
}
