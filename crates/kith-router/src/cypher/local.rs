//! The router's own Cypher engine: it holds no graph (`NoGraph`: a query that looks
//! into it is refused), and its CALLs of the LDBC reads run across the shards
//! (`Router::run`), so `CALL ldbc.ic9(...) YIELD ... RETURN ...` works as on one
//! server, over Bolt too. It also runs what a fan-out leaves for the router: the
//! clauses after `CALL { USE ... }` over the shards' rows.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use kith_core::{GraphView, Value};
use kith_cypher::{
    CallOutput, CypherError, ErrorCode, Limits, Prepared, ProcParam, Procedures, Signature,
};

use super::nograph::NoGraph;
use crate::{RouteError, Router};

/// How long the router's engine may run one query (its routed CALLs included).
const QUERY_TIME_MAX: Duration = Duration::from_secs(30);

/// The routed reads as procedures of the router's engine.
struct Routed {
    router: Arc<Router>,
    runtime: tokio::runtime::Handle,
    /// The first routed call's failure, answered as it is (`shard_unavailable`
    /// stays transient) rather than as the engine's procedure error.
    failed: Mutex<Option<RouteError>>,
}

impl Procedures for Routed {
    fn signature(&self, name: &str) -> Option<Signature> {
        Router::routes(name)
            .then(|| signature(&self.router.registry, name))
            .flatten()
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
        match self.runtime.block_on(self.router.run(name, args)) {
            Ok(result) => Ok(CallOutput::Rows(
                result.rows().map(<[Value]>::to_vec).collect(),
            )),
            Err(e) => {
                let message = format!("{name}: {} ({})", e.message, e.code);
                let mut failed = self.failed.lock().unwrap_or_else(|p| p.into_inner());
                failed.get_or_insert(e);
                Err(CypherError::new(ErrorCode::ProcedureCallFailed, message))
            }
        }
    }
}

/// A native procedure (a read or an update) as the engine sees it.
pub(crate) fn signature(registry: &kith_procedures::Registry, name: &str) -> Option<Signature> {
    let (description, params, outputs, writes) = match (registry.get(name), registry.update(name)) {
        (Ok(p), _) => (p.description, p.params, p.columns, false),
        (_, Some(u)) => (u.description, u.params, &[][..], true),
        _ => return None,
    };
    let param = |s: &kith_procedures::ParamSpec| ProcParam {
        name: s.name.to_owned(),
        type_name: s.ty.name().to_owned(),
        optional: s.default.is_some(),
    };
    Some(Signature {
        name: name.to_owned(),
        description: description.to_owned(),
        params: params.iter().map(param).collect(),
        outputs: outputs.iter().map(|c| (*c).to_owned()).collect(),
        writes,
    })
}

/// Columns and rows.
pub(crate) type Rows = (Vec<String>, Vec<Vec<Value>>);

/// Sets the flag when dropped: the query's future is gone (the client left, the
/// server's time limit passed), so the engine stops.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Runs `text` on the router's engine, on a blocking thread. `at`: whether error
/// positions point into the client's text.
pub(crate) async fn run(
    router: &Arc<Router>,
    text: String,
    params: Vec<(String, Value)>,
    at: bool,
) -> Result<Rows, RouteError> {
    let procedures = Arc::new(Routed {
        router: router.clone(),
        runtime: tokio::runtime::Handle::current(),
        failed: Mutex::new(None),
    });
    let cancel = Arc::new(AtomicBool::new(false));
    let _cancel_on_drop = CancelOnDrop(cancel.clone());
    let limits = Limits {
        timeout: Some(QUERY_TIME_MAX),
        cancel: Some(cancel),
        ..Limits::default()
    };
    let routed = procedures.clone();
    let ran = tokio::task::spawn_blocking(move || {
        let set = kith_cypher::procedures::ProcedureSet(routed);
        let prepared =
            Prepared::with_procedures(&text, &set).map_err(|e| RouteError::cypher(e, at))?;
        if prepared.writes() {
            return Err(RouteError::read_only(
                "a router takes no writes: updates reach the shards through their update stream (docs/sharding.md)",
            ));
        }
        let graph = NoGraph::new();
        let result = kith_cypher::run(&graph, &prepared, &params, &limits);
        if graph.looked() {
            return Err(no_graph());
        }
        result.map_err(|e| RouteError::cypher(e, at))
    })
    .await;
    let failed = procedures
        .failed
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take();
    match (ran, failed) {
        (Ok(Ok(result)), _) => Ok((result.columns, result.rows)),
        // A shard down or slow stays what it is (transient: drivers retry it); any
        // other routed failure reads as on one server, the procedure's error.
        (Ok(Err(_)), Some(routed))
            if matches!(
                routed.code,
                kith_protocol::ErrorCode::ShardUnavailable | kith_protocol::ErrorCode::Timeout
            ) =>
        {
            Err(routed)
        }
        (Ok(Err(e)), _) => Err(e),
        (Err(e), _) => Err(RouteError::bad_request(format!(
            "the router's Cypher engine stopped: {e}"
        ))),
    }
}

fn no_graph() -> RouteError {
    let mut e = RouteError::bad_request(
        "this server is a router and holds no graph: the query reads the graph (a MATCH, a \
         pattern, a label); run it with `USE <graph>` (person, forum0, ..., or kith.graph(id)) \
         or inside `CALL { USE ... }` (docs/sharding.md)",
    );
    e.code = kith_protocol::ErrorCode::CypherError;
    e.cypher = Some(crate::error::CypherDetail {
        code: "Neo.ClientError.Statement.SemanticError".into(),
        position: None,
    });
    e
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
