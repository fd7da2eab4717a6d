//! The router's own Cypher engine: it holds no graph (an empty one), and its CALLs
//! of the LDBC reads run across the shards (`Router::run`), so `CALL ldbc.ic9(...)
//! YIELD ... RETURN ...` works as on one server, over Bolt too. It also runs what a
//! fan-out leaves for the router: the clauses after `CALL { USE ... }` over the
//! shards' rows.

use std::sync::Arc;

use kith_core::{GraphView, Value};
use kith_cypher::{
    CallOutput, CypherError, ErrorCode, Limits, Prepared, ProcParam, Procedures, Signature,
};

use crate::{RouteError, Router};

/// The routed reads as procedures of the router's engine.
struct Routed {
    router: Arc<Router>,
    runtime: tokio::runtime::Handle,
}

impl Procedures for Routed {
    fn signature(&self, name: &str) -> Option<Signature> {
        if !Router::routes(name) {
            return None;
        }
        let p = self.router.registry.get(name).ok()?;
        Some(Signature {
            name: p.name.to_owned(),
            description: p.description.to_owned(),
            params: p.params.iter().map(param).collect(),
            outputs: p.columns.iter().map(|c| (*c).to_owned()).collect(),
            writes: false,
        })
    }

    fn list(&self) -> Vec<Signature> {
        let mut out: Vec<Signature> = (crate::reads::NAMES.iter())
            .filter_map(|n| self.signature(n))
            .collect();
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }

    fn call(
        &self,
        _: &dyn GraphView,
        name: &str,
        args: &[(String, Value)],
    ) -> Result<CallOutput, CypherError> {
        // The engine runs on a blocking thread (`run`), so waiting here holds no
        // task of the runtime.
        let answer = self.runtime.block_on(self.router.run(name, args));
        match answer {
            Ok(result) => Ok(CallOutput::Rows(
                result.rows().map(<[Value]>::to_vec).collect(),
            )),
            Err(e) => Err(CypherError::new(
                ErrorCode::ProcedureCallFailed,
                format!("{name}: {} ({})", e.message, e.code),
            )),
        }
    }
}

/// A procedure parameter as the engine sees it.
pub(crate) fn param(s: &kith_procedures::ParamSpec) -> ProcParam {
    ProcParam {
        name: s.name.to_owned(),
        type_name: s.ty.name().to_owned(),
        optional: s.default.is_some(),
    }
}

/// Columns and rows.
pub(crate) type Rows = (Vec<String>, Vec<Vec<Value>>);

/// Runs `text` on the router's engine, on a blocking thread. `at`: whether error
/// positions point into the client's text.
pub(crate) async fn run(
    router: &Arc<Router>,
    text: String,
    params: Vec<(String, Value)>,
    at: bool,
) -> Result<Rows, RouteError> {
    let procedures = Routed {
        router: router.clone(),
        runtime: tokio::runtime::Handle::current(),
    };
    let ran = tokio::task::spawn_blocking(move || {
        let set = kith_cypher::procedures::ProcedureSet(Arc::new(procedures));
        let prepared =
            Prepared::with_procedures(&text, &set).map_err(|e| RouteError::cypher(e, at))?;
        if prepared.writes() {
            return Err(RouteError::read_only(
                "a router takes no writes: updates reach the shards through their update stream (docs/sharding.md)",
            ));
        }
        let graph = kith_storage::Snapshot::empty();
        kith_cypher::run(&graph, &prepared, &params, &Limits::default())
            .map_err(|e| RouteError::cypher(e, at))
    })
    .await;
    match ran {
        Ok(Ok(result)) => Ok((result.columns, result.rows)),
        Ok(Err(e)) => Err(e),
        Err(e) => Err(RouteError::bad_request(format!(
            "the router's Cypher engine stopped: {e}"
        ))),
    }
}

/// The value of one expression over `params` (a graph id, a list of them).
pub(crate) async fn value(
    router: &Arc<Router>,
    expr: &str,
    params: Vec<(String, Value)>,
) -> Result<Value, RouteError> {
    let (_, rows) = run(router, format!("RETURN {expr} AS v"), params, false).await?;
    Ok(rows
        .into_iter()
        .next()
        .and_then(|r| r.into_iter().next())
        .unwrap_or(Value::Null))
}
