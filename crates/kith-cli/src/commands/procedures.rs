//! `kith procedures`.

use anyhow::Result;
use kith_procedures::Registry;

pub fn run(json: bool) -> Result<()> {
    let registry = Registry::with_builtins();
    if json {
        let list: Vec<_> = registry
            .iter()
            .map(|p| {
                serde_json::json!({
                    "name": p.name,
                    "description": p.description,
                    "parameters": p.params.iter().map(|s| serde_json::json!({
                        "name": s.name,
                        "type": s.ty.name(),
                        "default": s.default,
                        "doc": s.doc,
                    })).collect::<Vec<_>>(),
                    "columns": p.columns,
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&list)?);
        return Ok(());
    }
    for p in registry.iter() {
        let params: Vec<String> = p
            .params
            .iter()
            .map(|s| match s.default {
                Some(d) => format!("{}: {} = {d}", s.name, s.ty.name()),
                None => format!("{}: {}", s.name, s.ty.name()),
            })
            .collect();
        println!("{}({})", p.name, params.join(", "));
        println!("    {}", p.description);
        println!("    -> {}", p.columns.join(", "));
    }
    Ok(())
}
