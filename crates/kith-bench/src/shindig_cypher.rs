//! S1's 19 queries as Cypher texts, for the Cypher access paths of `kith bench shindig`
//! and the Cypher mix of `kith bench throughput`.
//!
//! The texts have one home, `bench/peers/neo4j/shindig/queries.py`, which Neo4j runs
//! too; kith reads them from it (`python3 queries.py --json`) or from that command's
//! output saved as a file, so both systems always run the very same texts.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use kith_core::Value;

/// One query's text and the values of the optional parameters a call may leave out
/// (Cypher has no parameter defaults, so they are added before sending).
#[derive(Clone, Debug)]
struct Entry {
    text: String,
    defaults: Vec<(String, Value)>,
}

/// The Cypher text of each Shindig procedure.
#[derive(Clone, Debug)]
pub struct ShindigCypher {
    entries: HashMap<String, Entry>,
}

impl ShindigCypher {
    /// Reads `queries.py` (run through `python3 FILE --json`) or a JSON file holding
    /// its output: `{procedure: {"cypher": text, "defaults": {name: int}}}`.
    pub fn load(path: &Path) -> Result<ShindigCypher, String> {
        let json = if path.extension().is_some_and(|e| e == "py") {
            let out = Command::new("python3")
                .arg(path)
                .arg("--json")
                .output()
                .map_err(|e| format!("running python3 {}: {e}", path.display()))?;
            if !out.status.success() {
                return Err(format!(
                    "python3 {} --json failed: {}",
                    path.display(),
                    String::from_utf8_lossy(&out.stderr).trim()
                ));
            }
            out.stdout
        } else {
            std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))?
        };
        let value: serde_json::Value = serde_json::from_slice(&json)
            .map_err(|e| format!("{}: not the JSON of queries.py: {e}", path.display()))?;
        ShindigCypher::from_json(&value).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Parses queries.py's JSON.
    pub fn from_json(value: &serde_json::Value) -> Result<ShindigCypher, String> {
        let map = value.as_object().ok_or("expected an object by procedure")?;
        let mut entries = HashMap::new();
        for (procedure, entry) in map {
            let text = entry["cypher"]
                .as_str()
                .ok_or_else(|| format!("{procedure}: no \"cypher\" text"))?;
            let mut defaults = Vec::new();
            if let Some(d) = entry["defaults"].as_object() {
                for (name, v) in d {
                    let v = v
                        .as_i64()
                        .ok_or_else(|| format!("{procedure}: default {name} is not an integer"))?;
                    defaults.push((name.clone(), Value::Int(v)));
                }
            }
            entries.insert(
                procedure.clone(),
                Entry {
                    text: text.to_owned(),
                    defaults,
                },
            );
        }
        Ok(ShindigCypher { entries })
    }

    /// The text of `procedure`.
    pub fn text(&self, procedure: &str) -> Result<&str, String> {
        self.entries
            .get(procedure)
            .map(|e| e.text.as_str())
            .ok_or_else(|| format!("no Cypher text for {procedure}"))
    }

    /// A call's parameters for the text: `params` plus the defaults it leaves out.
    pub fn params(&self, procedure: &str, params: &[(String, Value)]) -> Vec<(String, Value)> {
        let mut out = params.to_vec();
        if let Some(e) = self.entries.get(procedure) {
            for (name, v) in &e.defaults {
                if !out.iter().any(|(n, _)| n == name) {
                    out.push((name.clone(), v.clone()));
                }
            }
        }
        out
    }

    /// Fails unless every procedure in `procedures` has a text.
    pub fn covers<'a>(&self, procedures: impl IntoIterator<Item = &'a str>) -> Result<(), String> {
        for p in procedures {
            self.text(p)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_fill_only_what_a_call_leaves_out() {
        let texts = ShindigCypher::from_json(&serde_json::json!({
            "shindig.inbox": {"cypher": "RETURN $limit", "defaults": {"limit": 0}},
            "shindig.friends": {"cypher": "RETURN 1", "defaults": {}},
        }))
        .expect("parses");
        let id = ("person_id".to_owned(), Value::Int(7));
        assert_eq!(
            texts.params("shindig.inbox", std::slice::from_ref(&id)),
            vec![id.clone(), ("limit".to_owned(), Value::Int(0))]
        );
        let given = vec![id, ("limit".to_owned(), Value::Int(5))];
        assert_eq!(texts.params("shindig.inbox", &given), given);
        assert_eq!(texts.text("shindig.friends"), Ok("RETURN 1"));
        assert!(texts.covers(["shindig.friends", "shindig.nope"]).is_err());
        assert!(ShindigCypher::from_json(&serde_json::json!({"x": {}})).is_err());
    }
}
