//! A primary and its read replicas as one client (S1's cluster driver): writes go
//! to the primary, reads are spread over the replicas in turn, and a [`Session`]
//! carries the version of its last write so its reads see it (read-your-writes;
//! docs/replication.md).

use std::sync::atomic::{AtomicU64, Ordering};

use kith_core::Value;
use kith_protocol::Request;

use crate::{Client, ClientConfig, ClientError, CypherResult, QueryResult, WriteResult};

/// The primary's client and the replicas' (when there are any).
pub struct Cluster {
    primary: Client,
    replicas: Option<Client>,
}

impl Cluster {
    /// Connects to the primary and to every replica (`replicas.urls`; each request
    /// takes the next connection in turn). Without replicas, reads go to the primary.
    pub async fn connect(
        primary: ClientConfig,
        replicas: Option<ClientConfig>,
    ) -> Result<Cluster, ClientError> {
        let primary = Client::connect(primary).await?;
        let replicas = match replicas {
            Some(config) if !config.urls.is_empty() => Some(Client::connect(config).await?),
            _ => None,
        };
        Ok(Cluster { primary, replicas })
    }

    /// A session: its reads see its own writes (and whatever it was told to see
    /// with [`Session::observe`]).
    pub fn session(&self) -> Session<'_> {
        Session {
            cluster: self,
            version: AtomicU64::new(0),
        }
    }

    fn reader(&self) -> &Client {
        self.replicas.as_ref().unwrap_or(&self.primary)
    }
}

/// A chain of requests that reads its own writes.
pub struct Session<'a> {
    cluster: &'a Cluster,
    version: AtomicU64,
}

impl Session<'_> {
    /// The version its reads wait for: its last write's (or an observed one).
    pub fn version(&self) -> u64 {
        self.version.load(Ordering::Acquire)
    }

    /// Makes its reads wait for `version` too (a version another session wrote).
    pub fn observe(&self, version: u64) {
        self.version.fetch_max(version, Ordering::AcqRel);
    }

    fn wanted(&self) -> Option<u64> {
        Some(self.version()).filter(|v| *v > 0)
    }

    /// Calls a read procedure on a replica, once it has the session's version.
    pub async fn call(
        &self,
        procedure: &str,
        params: Vec<(String, Value)>,
    ) -> Result<QueryResult, ClientError> {
        let request = Request::Call {
            procedure: procedure.to_owned(),
            params,
            timing: false,
        };
        self.cluster.reader().send_at(request, self.wanted()).await
    }

    /// Runs a Cypher query that only reads on a replica, once it has the session's
    /// version (a query that writes is refused there `read_only`: use
    /// [`Session::cypher`]).
    pub async fn read(
        &self,
        query: &str,
        params: Vec<(String, Value)>,
    ) -> Result<CypherResult, ClientError> {
        let request = Request::Cypher {
            query: query.to_owned(),
            params,
            timing: false,
            tx: None,
        };
        self.cluster.reader().send_at(request, self.wanted()).await
    }

    /// Runs a Cypher query on the primary; a query that wrote moves the session's
    /// version to its commit.
    pub async fn cypher(
        &self,
        query: &str,
        params: Vec<(String, Value)>,
    ) -> Result<CypherResult, ClientError> {
        let result = self.cluster.primary.cypher(query, params).await?;
        if let Some(commit) = result.commit {
            self.observe(commit.version);
        }
        Ok(result)
    }

    /// Calls an update procedure (LDBC's IU1-IU8) on the primary; the session's
    /// version moves to its commit.
    pub async fn update(
        &self,
        procedure: &str,
        params: Vec<(String, Value)>,
    ) -> Result<WriteResult, ClientError> {
        let result = self.cluster.primary.call(procedure, params).await?;
        let write = WriteResult::from_result(result)?;
        self.observe(write.version);
        Ok(write)
    }

    /// Commits a transaction on the primary; the session's version moves to it.
    pub async fn write(&self, ops: Vec<Value>) -> Result<WriteResult, ClientError> {
        let write = self.cluster.primary.write(ops).await?;
        self.observe(write.version);
        Ok(write)
    }
}
