//! One request's work, the same for every transport: run the procedure on the
//! current snapshot and enforce the result limit.

use kith_core::Value;
use kith_procedures::ResultSet;
use kith_protocol::ErrorCode as Code;

use crate::error::ExecError;
use crate::state::AppState;

/// Runs a procedure on the snapshot current when it starts (it never waits for
/// writers).
pub(crate) fn execute(
    state: &AppState,
    procedure: &str,
    params: &[(String, Value)],
) -> Result<ResultSet, ExecError> {
    let snapshot = state.store.snapshot();
    let result = state
        .registry
        .call(&*snapshot, procedure, params)
        .map_err(|e| ExecError::new(crate::codes::of_procedure(&e), e.to_string()))?;
    if result.len() > state.config.result_rows_max {
        return Err(ExecError::new(
            Code::ResultTooLarge,
            format!(
                "{procedure} produced {} rows; the limit (result_rows_max) is {}",
                result.len(),
                state.config.result_rows_max
            ),
        ));
    }
    Ok(result)
}

/// The transaction of an update procedure call, with its parameters validated.
pub(crate) fn update_batch(
    state: &AppState,
    procedure: &str,
    params: &[(String, Value)],
) -> Result<kith_storage::WriteBatch, ExecError> {
    let ops = state
        .registry
        .build_update(procedure, params)
        .map_err(|e| ExecError::new(crate::codes::of_procedure(&e), e.to_string()))?;
    if ops.len() > state.config.write_ops_max {
        return Err(ExecError::new(
            Code::BadRequest,
            format!(
                "{procedure} makes {} operations; the limit (write_ops_max) is {}",
                ops.len(),
                state.config.write_ops_max
            ),
        ));
    }
    Ok(kith_storage::WriteBatch { ops })
}

/// The metrics name of write requests.
pub(crate) const WRITE_METRIC: &str = "write";

/// The answer to a committed write: one row `[version, nodes, rels]` with the ids of
/// the nodes and relationships it created, in order.
pub(crate) fn commit_row(info: &kith_storage::CommitInfo) -> (Vec<String>, Vec<Value>) {
    let columns = vec!["version".into(), "nodes".into(), "rels".into()];
    let row = vec![
        Value::Int(info.version as i64),
        Value::List(
            info.created
                .iter()
                .map(|n| Value::Int(i64::from(n.0)))
                .collect(),
        ),
        Value::List(
            info.created_rels
                .iter()
                .map(|r| Value::Int(i64::from(r.0)))
                .collect(),
        ),
    ];
    (columns, row)
}

/// The name to record in metrics: registered procedures by name, others lumped.
pub(crate) fn metric_name<'a>(state: &AppState, procedure: &'a str) -> &'a str {
    if state.registry.get(procedure).is_ok() {
        procedure
    } else {
        "<unknown>"
    }
}
