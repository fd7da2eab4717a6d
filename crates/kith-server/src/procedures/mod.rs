//! kith's native procedures as Cypher sees them: `CALL shindig.friends($id) YIELD
//! id, displayName`, `CALL ldbc.iu8(...)`, `SHOW PROCEDURES`. The engine knows
//! procedures only through `kith_cypher::Procedures`; this is the registry behind it.

use std::sync::Arc;

use kith_core::{GraphView, Value};
use kith_cypher::{CallOutput, CypherError, ErrorCode, ProcParam, Procedures, Signature};
use kith_procedures::{ParamSpec, ProcedureError, Registry};

mod client_config;

/// Whether a client must authenticate now (`dbms.clientConfig()` says so).
pub type AsksCredentials = Box<dyn Fn() -> bool + Send + Sync>;

/// Every procedure a query over `current` may call: the native ones, the server's
/// own (`dbms.clientConfig`, answering `asks_credentials`), the stored Cypher ones of
/// the current version, and `kith.procedure.register` / `drop`.
pub fn with_stored(
    current: impl Fn() -> Arc<dyn GraphView> + Send + Sync + 'static,
    asks_credentials: AsksCredentials,
) -> Arc<kith_cypher::WithStored> {
    let served = Served {
        natives: NativeProcedures::builtins(),
        asks_credentials,
    };
    kith_cypher::WithStored::new(Arc::new(served), Box::new(current))
}

/// The native procedures and those only a server can answer.
struct Served {
    natives: NativeProcedures,
    asks_credentials: AsksCredentials,
}

impl Procedures for Served {
    fn signature(&self, name: &str) -> Option<Signature> {
        match name == client_config::NAME {
            true => Some(client_config::signature()),
            false => self.natives.signature(name),
        }
    }

    fn list(&self) -> Vec<Signature> {
        let mut out = self.natives.list();
        out.push(client_config::signature());
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }

    fn call(
        &self,
        graph: &dyn GraphView,
        name: &str,
        args: &[(String, Value)],
    ) -> Result<CallOutput, CypherError> {
        match name == client_config::NAME {
            true => Ok(CallOutput::Rows(client_config::rows((self
                .asks_credentials)(
            )))),
            false => self.natives.call(graph, name, args),
        }
    }
}

/// The native procedures, read and update.
pub struct NativeProcedures(pub Registry);

impl NativeProcedures {
    /// Every procedure kith ships.
    pub fn builtins() -> NativeProcedures {
        NativeProcedures(Registry::with_builtins())
    }
}

fn params(specs: &[ParamSpec]) -> Vec<ProcParam> {
    specs
        .iter()
        .map(|p| ProcParam {
            name: p.name.to_owned(),
            type_name: p.ty.name().to_owned(),
            optional: p.default.is_some(),
        })
        .collect()
}

impl Procedures for NativeProcedures {
    fn signature(&self, name: &str) -> Option<Signature> {
        if let Some(u) = self.0.update(name) {
            return Some(Signature {
                name: u.name.to_owned(),
                description: u.description.to_owned(),
                params: params(u.params),
                outputs: Vec::new(),
                writes: true,
            });
        }
        let p = self.0.get(name).ok()?;
        Some(Signature {
            name: p.name.to_owned(),
            description: p.description.to_owned(),
            params: params(p.params),
            outputs: p.columns.iter().map(|c| (*c).to_owned()).collect(),
            writes: false,
        })
    }

    fn list(&self) -> Vec<Signature> {
        let names = self
            .0
            .iter()
            .map(|p| p.name)
            .chain(self.0.updates().map(|u| u.name));
        let mut out: Vec<Signature> = names.filter_map(|n| self.signature(n)).collect();
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }

    fn call(
        &self,
        graph: &dyn GraphView,
        name: &str,
        args: &[(String, Value)],
    ) -> Result<CallOutput, CypherError> {
        if self.0.update(name).is_some() {
            return self
                .0
                .build_update(name, args)
                .map(CallOutput::Writes)
                .map_err(|e| failed(name, &e));
        }
        let result = self
            .0
            .call(graph, name, args)
            .map_err(|e| failed(name, &e))?;
        Ok(CallOutput::Rows(
            result.rows().map(<[Value]>::to_vec).collect(),
        ))
    }
}

fn failed(name: &str, e: &ProcedureError) -> CypherError {
    let code = match e {
        ProcedureError::UnknownProcedure { .. } => ErrorCode::ProcedureNotFound,
        _ => ErrorCode::ProcedureCallFailed,
    };
    CypherError::new(code, format!("{name}: {e}"))
}

#[cfg(test)]
mod tests {
    use kith_cypher::{Engine, Limits};

    use super::*;

    fn engine() -> Engine {
        Engine::with_procedures(16, Arc::new(NativeProcedures::builtins()))
    }

    #[test]
    fn a_native_procedure_answers_through_call_and_yield() {
        let raw = kith_datagen::shindig::generate(kith_datagen::shindig::ShindigConfig {
            scale: 0.01,
            seed: 3,
        })
        .expect("generates");
        let graph = kith_storage::Snapshot::from_raw(raw).expect("valid");
        let native = Registry::with_builtins()
            .call(
                &graph,
                "shindig.friends",
                &[("person_id".to_owned(), Value::Int(1))],
            )
            .expect("runs");
        let q = "CALL shindig.friends($id) YIELD id, displayName AS name RETURN id, name";
        let params = [("id".to_owned(), Value::Int(1))];
        let cypher = engine()
            .query(&graph, q, &params, &Limits::default())
            .expect("runs");
        let params = [("person_id".to_owned(), Value::Int(1))];
        assert_eq!(cypher.rows.len(), native.len());
        assert!(!cypher.rows.is_empty(), "person 1 has friends");
        let standalone = engine()
            .query(&graph, "CALL shindig.friends", &params, &Limits::default())
            .expect("runs");
        assert_eq!(standalone.columns, native.columns());
    }

    #[test]
    fn bad_calls_are_refused_with_their_kind() {
        let graph = kith_storage::Snapshot::empty();
        let e = engine();
        let code = |q: &str| {
            e.query(&graph, q, &[], &Limits::default())
                .expect_err(q)
                .code
        };
        assert_eq!(code("CALL shindig.nope(1)"), ErrorCode::ProcedureNotFound);
        assert_eq!(
            code("CALL shindig.friends(1, 2, 3, 4)"),
            ErrorCode::SyntaxError
        );
        assert_eq!(
            code("CALL shindig.friends('x') YIELD id RETURN id"),
            ErrorCode::SyntaxError
        );
        assert_eq!(
            code("WITH 1 AS x CALL shindig.friends(x) RETURN x"),
            ErrorCode::SyntaxError
        );
        let shown = e
            .query(&graph, "SHOW PROCEDURES", &[], &Limits::default())
            .expect("lists");
        assert_eq!(shown.columns, ["name", "signature", "description", "mode"]);
        assert!(shown.rows.len() > 40, "{} procedures", shown.rows.len());
        let q = "SHOW PROCEDURES YIELD name, mode WHERE mode = 'WRITE' RETURN name ORDER BY name";
        let writes = e.query(&graph, q, &[], &Limits::default()).expect("lists");
        let names: Vec<String> = writes.rows.iter().map(|r| format!("{:?}", r[0])).collect();
        assert_eq!(names.len(), 8, "{names:?}");
        assert!(names[0].contains("ldbc.iu1"), "{names:?}");
        assert_eq!(code("SHOW PROCEDURES YIELD nope"), ErrorCode::SyntaxError);
    }
}
