//! The person shard as a router holds it in its own process (`kith route --data
//! DIR/person`, docs/sharding.md): the router's person-side calls and `USE person`
//! run here on the current version, with no message in between.

use std::sync::Arc;

use kith_core::Value;
use kith_cypher::{Engine, Limits};
use kith_procedures::Registry;
use kith_router::{LocalShard, RouteError, Rows};
use kith_storage::Store;

/// A store a router reads as its local shard.
pub struct LocalGraph {
    store: Arc<Store>,
    registry: Registry,
    cypher: Engine,
    /// How long a Cypher query may run (the server's `query_timeout_ms`).
    timeout: std::time::Duration,
}

impl LocalGraph {
    /// Reads `store` (the person shard's; an ingest may keep writing to it); a
    /// Cypher query may run for `timeout`.
    pub fn new(store: Arc<Store>, timeout: std::time::Duration) -> LocalGraph {
        LocalGraph {
            store,
            timeout,
            registry: Registry::with_builtins(),
            cypher: Engine::with_procedures(
                256,
                Arc::new(crate::procedures::NativeProcedures::builtins()),
            ),
        }
    }
}

impl LocalShard for LocalGraph {
    fn call(&self, procedure: &str, params: &[(String, Value)]) -> Result<Rows, RouteError> {
        let snapshot = self.store.snapshot();
        let result = self.registry.call(&*snapshot, procedure, params)?;
        let rows = result.rows().map(<[Value]>::to_vec).collect();
        Ok((result.columns().to_vec(), rows))
    }

    fn cypher(&self, text: &str, params: &[(String, Value)]) -> Result<Rows, RouteError> {
        let snapshot = self.store.snapshot();
        let result = self
            .cypher
            .query(
                &*snapshot,
                text,
                params,
                &Limits {
                    timeout: Some(self.timeout),
                    ..Limits::default()
                },
            )
            .map_err(RouteError::from_cypher)?;
        Ok((result.columns, result.rows))
    }
}
