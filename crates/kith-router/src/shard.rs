//! One shard as the router sees it: a kith server reached over WebSocket, connected
//! on first use and again after a failure.

use std::sync::Arc;
use std::time::Duration;

use kith_client::{Client, ClientConfig, ClientError, QueryResult};
use kith_core::Value;
use kith_protocol::ErrorCode;
use tokio::sync::Mutex;

use crate::RouteError;

/// A call on one shard: its procedure and parameters.
pub type ShardCall = (&'static str, Vec<(String, Value)>);

/// A shard's server.
pub struct Shard {
    name: String,
    url: String,
    client: Mutex<Option<Arc<Client>>>,
}

/// How long a call on a shard may take (a whole read's part, fanned out).
const CALL_TIMEOUT: Duration = Duration::from_secs(30);

impl Shard {
    pub(crate) fn new(name: &str, url: &str) -> Shard {
        Shard {
            name: name.to_owned(),
            url: url.to_owned(),
            client: Mutex::new(None),
        }
    }

    /// Its name in the layout (`person`, `forum-0`, ...).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its URL without credentials.
    pub fn url(&self) -> String {
        kith_client::redacted(&self.url)
    }

    /// Whether it answers a trivial call now (a shard part with nothing to do).
    pub async fn reachable(&self) -> bool {
        let nobody = vec![("ids".to_owned(), Value::List(Vec::new()))];
        self.call("shard.persons", nobody).await.is_ok()
    }

    /// Calls `procedure` on this shard.
    pub(crate) async fn call(
        &self,
        procedure: &str,
        params: Vec<(String, Value)>,
    ) -> Result<QueryResult, RouteError> {
        let client = self.client().await?;
        match client.call(procedure, params).await {
            Ok(answer) => Ok(answer),
            Err(ClientError::Server { code, message }) => {
                Err(RouteError::from_shard(&self.name, code, &message))
            }
            Err(e) => {
                // The connection is suspect: the next call connects afresh.
                self.client.lock().await.take();
                Err(RouteError::unavailable(&self.name, &self.url(), e))
            }
        }
    }

    /// Calls `procedure`; a `not_found` (the person or message is not on this shard)
    /// is no rows.
    pub(crate) async fn call_or_empty(
        &self,
        procedure: &str,
        params: Vec<(String, Value)>,
    ) -> Result<QueryResult, RouteError> {
        match self.call(procedure, params).await {
            Err(e) if e.code == ErrorCode::NotFound => Ok(QueryResult::default()),
            other => other,
        }
    }

    async fn client(&self) -> Result<Arc<Client>, RouteError> {
        let mut slot = self.client.lock().await;
        if let Some(client) = &*slot {
            return Ok(client.clone());
        }
        let mut config = ClientConfig::new(self.url.clone());
        config.request_timeout = CALL_TIMEOUT;
        config.connections_per_url = 2;
        let client = Client::connect(config)
            .await
            .map(Arc::new)
            .map_err(|e| RouteError::unavailable(&self.name, &self.url(), e))?;
        *slot = Some(client.clone());
        Ok(client)
    }
}
