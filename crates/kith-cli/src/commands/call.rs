//! `kith call`.

use std::path::Path;

use anyhow::{bail, Result};
use kith_core::Value;
use kith_procedures::{parse_cli_value, Registry};

use crate::{data_dir, output};

pub fn run(dir: &Path, procedure: &str, params: &[String], json: bool) -> Result<()> {
    let registry = Registry::with_builtins();
    // Check the name before loading the graph: a typo should not cost a load.
    let spec = registry.get(procedure)?;
    let mut values: Vec<(String, Value)> = Vec::with_capacity(params.len());
    for param in params {
        let Some((key, text)) = param.split_once('=') else {
            bail!("parameter `{param}` must be written key=value");
        };
        // A parameter the procedure does not declare is passed on as a string so the
        // registry's own error names it.
        let value = match spec.params.iter().find(|s| s.name == key) {
            Some(s) => parse_cli_value(s.ty, text),
            None => Value::string(text),
        };
        values.push((key.to_owned(), value));
    }
    let loaded = data_dir::load(dir)?;
    let started = std::time::Instant::now();
    let result = registry.call(&loaded.snapshot, procedure, &values)?;
    let elapsed = started.elapsed();
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&output::result_json(result.columns(), result.rows()))?
        );
    } else {
        print!("{}", output::table(result.columns(), result.rows()));
        println!(
            "{} row(s) in {:.1} µs",
            result.len(),
            elapsed.as_secs_f64() * 1e6
        );
    }
    Ok(())
}
