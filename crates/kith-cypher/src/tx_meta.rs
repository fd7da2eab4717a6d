//! A transaction's metadata: the map a client attaches to it (Bolt's `tx_metadata`, or
//! `CALL tx.setMetaData({...})` inside it), which `CALL tx.getMetaData()` answers and
//! SHOW TRANSACTIONS lists as `metaData`. The two procedures are the engine's own: they
//! answer from the run's [`TxMetadata`], which the server shares with its listing, so
//! a `setMetaData` is seen there at once.

use std::sync::{Arc, Mutex};

use kith_core::Value;

use crate::catalog::{ProcParam, Signature};
use crate::error::{CypherError, ErrorCode, Result};

const GET: &str = "tx.getMetaData";
const SET: &str = "tx.setMetaData";

/// A map's entries, as `Value::Map` holds them.
type Entries = Vec<(Arc<str>, Value)>;

/// One transaction's metadata, shared by its statements and the server's listing.
#[derive(Clone, Debug, Default)]
pub struct TxMetadata(Arc<Mutex<Entries>>);

impl TxMetadata {
    /// Metadata holding `entries`.
    pub fn new(entries: Entries) -> TxMetadata {
        TxMetadata(Arc::new(Mutex::new(entries)))
    }

    /// The map as it is now.
    pub fn get(&self) -> Value {
        Value::Map(self.lock().clone())
    }

    fn set(&self, entries: Entries) {
        *self.lock() = entries;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries> {
        // A panic while holding it cannot leave the map half-written: it is replaced
        // whole, so the value inside stays whole.
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The signature of one of the engine's own transaction procedures.
pub fn signature(name: &str) -> Option<Signature> {
    let (params, outputs, description) = match name {
        GET => (
            vec![],
            vec!["metadata".to_owned()],
            "The metadata of the current transaction",
        ),
        SET => (
            vec![ProcParam {
                name: "data".to_owned(),
                type_name: "MAP".to_owned(),
                optional: false,
            }],
            vec![],
            "Attaches a map of data to the current transaction: SHOW TRANSACTIONS lists it",
        ),
        _ => return None,
    };
    Some(Signature {
        name: name.to_owned(),
        description: description.to_owned(),
        params,
        outputs,
        writes: false,
    })
}

/// Both signatures, for SHOW PROCEDURES.
pub fn signatures() -> Vec<Signature> {
    [GET, SET].into_iter().filter_map(signature).collect()
}

/// The rows of a call to one of them, `None` for any other procedure. A run given
/// no metadata (WebSocket and HTTP carry none, nor an embedded run) reads an empty
/// map and may not set one: it would be lost.
pub fn call(
    meta: Option<&TxMetadata>,
    name: &str,
    args: &[(String, Value)],
) -> Option<Result<Vec<Vec<Value>>>> {
    match (name, meta) {
        (GET, Some(meta)) => Some(Ok(vec![vec![meta.get()]])),
        (GET, None) => Some(Ok(vec![vec![Value::Map(Vec::new())]])),
        (SET, Some(meta)) => Some(set(meta, args)),
        (SET, None) => Some(Err(CypherError::new(
            ErrorCode::ProcedureCallFailed,
            format!("{SET}: this query's transaction carries no metadata (Bolt's do)"),
        ))),
        _ => None,
    }
}

fn set(meta: &TxMetadata, args: &[(String, Value)]) -> Result<Vec<Vec<Value>>> {
    match args.iter().find(|(n, _)| n == "data").map(|(_, v)| v) {
        Some(Value::Map(entries)) => {
            meta.set(entries.clone());
            Ok(Vec::new())
        }
        other => Err(CypherError::new(
            ErrorCode::TypeError,
            format!(
                "{SET} takes a map of data, got {}",
                other.map_or_else(|| "nothing".to_owned(), |v| v.value_type().to_string())
            ),
        )),
    }
}
