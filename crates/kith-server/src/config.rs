//! Server options and limits. Every limit carries its unit in its name.

use std::net::SocketAddr;
use std::path::PathBuf;

use serde::Deserialize;

/// Everything `kith serve` can be told, from `kith.toml` and/or flags.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct ServerConfig {
    /// Data directory (generated with the Shindig graph if it is the default and empty).
    pub data: Option<PathBuf>,
    /// Address to listen on.
    pub listen: SocketAddr,
    /// Address to serve Bolt on (`kith serve` defaults to 127.0.0.1:7687); `None`:
    /// no Bolt.
    pub bolt_listen: Option<SocketAddr>,
    /// Worker threads that execute requests and encode answers.
    pub workers: usize,
    /// Largest WebSocket message or HTTP body accepted.
    pub frame_bytes_max: usize,
    /// Largest Bolt message an authenticated client may send: drivers send large
    /// parameters (Neo4j takes them), so it is far above `frame_bytes_max`.
    pub bolt_message_bytes_max: usize,
    /// What all Bolt messages being read may hold together beyond `frame_bytes_max`
    /// each: a message that would pass it is refused.
    pub bolt_messages_bytes_total_max: usize,
    /// Largest result, in rows.
    pub result_rows_max: usize,
    /// Rows one operator of a Cypher query may hold while it runs (the bound on a
    /// query's memory; its result is bounded by `result_rows_max`).
    pub cypher_rows_max: usize,
    /// Rows per result chunk.
    pub chunk_rows: usize,
    /// Requests in flight on one WebSocket connection.
    pub inflight_per_connection_max: usize,
    /// Requests queued for the workers, all connections together.
    pub queue_depth_max: usize,
    /// Open WebSocket and Bolt connections, together.
    pub connections_max: usize,
    /// Open HTTP connections not (yet) upgraded to WebSocket; past it a new one is
    /// closed at once.
    pub http_connections_max: usize,
    /// Time an HTTP connection may take to send a request's headers (and, kept
    /// alive, to start its next request) before it is closed: slowloris.
    pub http_header_timeout_ms: u64,
    /// Time a new connection has, from being accepted, to authenticate: TLS's
    /// handshake, Bolt's, HELLO and LOGON; an HTTP connection, a request that
    /// authenticated or its WebSocket upgrade. Past it the connection is closed.
    pub auth_deadline_ms: u64,
    /// Connections waiting to authenticate, every port together (a pool apart from
    /// `connections_max`, which they never hold).
    pub unauthenticated_connections_max: usize,
    /// Of them, from one client address; past it a new one is closed at once.
    pub unauthenticated_per_address_max: usize,
    /// Time a message that began arriving (a Bolt message, a WebSocket message, an
    /// HTTP request's body) has to arrive whole, authenticated or not.
    pub message_read_timeout_ms: u64,
    /// Time a request may take before the client gets `timeout`.
    pub query_timeout_ms: u64,
    /// Time a connection's writer may make no progress before it is closed.
    pub write_stall_timeout_ms: u64,
    /// Answer bytes one WebSocket connection may hold unsent before the server stops
    /// reading its requests (a pipelining client that reads slowly is paced, not
    /// buffered without end).
    pub answer_queue_bytes_max: usize,
    /// Operations in one write request, or one transaction.
    pub write_ops_max: usize,
    /// Explicit transactions open at once over WebSocket and HTTP (`begin`).
    pub transactions_max: usize,
    /// Time an explicit transaction may stay open before it is rolled back (a
    /// `begin` may ask for less).
    pub transaction_timeout_ms: u64,
    /// Transactions waiting for the writer, all connections together.
    pub write_queue_max: usize,
    /// Transactions in one commit group (one log record, one fsync).
    pub write_group_transactions_max: usize,
    /// Operations in one commit group (a larger single transaction is its own group).
    pub write_group_ops_max: usize,
    /// Time the writer waits for more transactions before committing a group. 0: commit
    /// what is queued at once (groups still grow while the previous fsync runs).
    pub write_group_linger_us: u64,
    /// `fsync` (acknowledge after the disk has the write) or `none` (experiments only).
    pub durability: String,
    /// Log bytes that trigger a checkpoint.
    pub checkpoint_wal_bytes: u64,
    /// Seconds after which a checkpoint is written if anything changed.
    pub checkpoint_interval_s: u64,
    /// `users` (credentials whenever the data directory's `users.toml` names a user;
    /// no users is allowed only on loopback) or `none` (nobody is asked).
    pub auth: crate::auth::AuthMode,
    /// PEM certificate chain (the server's own first): with `tls_key`, every
    /// transport (HTTP, WebSocket, Bolt) speaks TLS only.
    pub tls_cert: Option<PathBuf>,
    /// PEM private key of `tls_cert` (PKCS#8, PKCS#1 or SEC1).
    pub tls_key: Option<PathBuf>,
    /// `kafka://HOST:PORT[,HOST:PORT]/TOPIC`: publish every commit group's log record
    /// there (docs/replication.md).
    pub publish: Option<String>,
    /// `async` (a write is answered once on the local disk; Kafka follows) or `sync`
    /// (once Kafka acknowledged it too).
    pub replication: String,
    /// Log record bytes waiting for Kafka's acknowledgement before writes are answered
    /// `busy` (what a broker outage may hold in memory).
    pub replication_buffer_bytes_max: u64,
    /// How long a `sync` write waits for Kafka before it is answered
    /// `replication_failed` (it stays committed on the primary).
    pub replication_ack_timeout_ms: u64,
    /// `kafka://HOST:PORT/TOPIC`: apply the LDBC update events of that topic as the
    /// single writer (S4's update path; `kith produce ldbc` fills it).
    pub ingest: Option<String>,
    /// The shard this server is in a sharded layout (`person`, `forum-3`; `kith
    /// serve` takes it from the data directory's manifest, written by `kith shard
    /// split`). With `ingest` it reads its shard's partition of a topic `kith produce
    /// ldbc --layout` filled, and a forum shard makes the proxy persons an event
    /// needs (docs/sharding.md).
    pub shard: Option<String>,
    /// The primary's Bolt address (`host:port`) in a cluster: Bolt's ROUTE names it
    /// WRITE (docs/replication.md).
    pub route_write: Option<String>,
    /// The replicas' Bolt addresses in a cluster: Bolt's ROUTE names them READ.
    pub route_read: Vec<String>,
    /// How long a request naming a version (`min_version`, a Bolt bookmark) waits for
    /// this server to apply it before it is answered `timeout`.
    pub min_version_wait_ms: u64,
    /// Log every request that runs longer than this many milliseconds (the
    /// slow-query log; 0: every request). `None`: no slow-query log.
    pub slow_query_ms: Option<u64>,
    /// `kafka://HOST:PORT[,HOST:PORT]/TOPIC`: serve as a read replica applying the log
    /// its primary publishes there.
    pub replica_of: Option<String>,
    /// The primary's HTTP address (`http://[user:password@]host:port`), from which a
    /// replica fetches a checkpoint when its directory is empty or fell behind the
    /// topic's retention.
    pub bootstrap: Option<String>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            data: None,
            listen: SocketAddr::from(([127, 0, 0, 1], 7600)),
            bolt_listen: None,
            workers: std::thread::available_parallelism().map_or(2, usize::from),
            frame_bytes_max: 1 << 20,
            bolt_message_bytes_max: 256 << 20,
            bolt_messages_bytes_total_max: 1 << 30,
            result_rows_max: 1_000_000,
            cypher_rows_max: 10_000_000,
            chunk_rows: 1_000,
            inflight_per_connection_max: 256,
            queue_depth_max: 4_096,
            connections_max: 1_024,
            http_connections_max: 4_096,
            http_header_timeout_ms: 10_000,
            auth_deadline_ms: 5_000,
            unauthenticated_connections_max: 256,
            unauthenticated_per_address_max: 64,
            message_read_timeout_ms: 10_000,
            query_timeout_ms: 10_000,
            write_stall_timeout_ms: 30_000,
            answer_queue_bytes_max: 8 << 20,
            write_ops_max: 1_000_000,
            transactions_max: 1_000,
            transaction_timeout_ms: 60_000,
            write_queue_max: 100_000,
            write_group_transactions_max: 10_000,
            write_group_ops_max: 1_000_000,
            write_group_linger_us: 0,
            durability: "fsync".into(),
            checkpoint_wal_bytes: 256 << 20,
            checkpoint_interval_s: 900,
            auth: crate::auth::AuthMode::Users,
            tls_cert: None,
            tls_key: None,
            publish: None,
            replication: "async".into(),
            replication_buffer_bytes_max: 64 << 20,
            replication_ack_timeout_ms: 10_000,
            replica_of: None,
            bootstrap: None,
            min_version_wait_ms: 5_000,
            slow_query_ms: None,
            route_write: None,
            route_read: Vec::new(),
            ingest: None,
            shard: None,
        }
    }
}

impl ServerConfig {
    /// Reads a TOML file; unknown keys are errors (a typo must not be ignored).
    pub fn from_toml(text: &str) -> Result<Self, String> {
        let config: ServerConfig = toml::from_str(text).map_err(|e| e.to_string())?;
        config.validate()?;
        Ok(config)
    }

    /// Refuses limits that cannot work.
    pub fn validate(&self) -> Result<(), String> {
        let positive = [
            ("workers", self.workers),
            ("frame_bytes_max", self.frame_bytes_max),
            ("bolt_message_bytes_max", self.bolt_message_bytes_max),
            (
                "bolt_messages_bytes_total_max",
                self.bolt_messages_bytes_total_max,
            ),
            ("result_rows_max", self.result_rows_max),
            ("cypher_rows_max", self.cypher_rows_max),
            ("chunk_rows", self.chunk_rows),
            (
                "inflight_per_connection_max",
                self.inflight_per_connection_max,
            ),
            ("queue_depth_max", self.queue_depth_max),
            ("connections_max", self.connections_max),
            ("http_connections_max", self.http_connections_max),
            (
                "http_header_timeout_ms",
                self.http_header_timeout_ms as usize,
            ),
            (
                "unauthenticated_connections_max",
                self.unauthenticated_connections_max,
            ),
            (
                "unauthenticated_per_address_max",
                self.unauthenticated_per_address_max,
            ),
            ("write_ops_max", self.write_ops_max),
            ("transactions_max", self.transactions_max),
            ("write_queue_max", self.write_queue_max),
            (
                "write_group_transactions_max",
                self.write_group_transactions_max,
            ),
            ("write_group_ops_max", self.write_group_ops_max),
        ];
        for (name, value) in positive {
            if value == 0 {
                return Err(format!("`{name}` must be at least 1"));
            }
        }
        if self.workers > 1024 {
            return Err(format!(
                "`workers` = {} is more threads than makes sense",
                self.workers
            ));
        }
        if self.query_timeout_ms == 0
            || self.min_version_wait_ms == 0
            || self.write_stall_timeout_ms == 0
            || self.transaction_timeout_ms == 0
            || self.auth_deadline_ms == 0
            || self.message_read_timeout_ms == 0
        {
            return Err("timeouts must be at least 1 ms".into());
        }
        if self.slow_query_ms.is_some_and(|ms| ms > 24 * 3600 * 1000) {
            return Err("`slow_query_ms` is at most a day (86,400,000)".into());
        }
        if self.min_version_wait_ms > 3600 * 1000 {
            return Err("`min_version_wait_ms` is at most an hour (3,600,000)".into());
        }
        if self.auth_deadline_ms > 3600 * 1000 || self.message_read_timeout_ms > 3600 * 1000 {
            return Err(
                "`auth_deadline_ms` and `message_read_timeout_ms` are at most an hour \
                 (3,600,000)"
                    .into(),
            );
        }
        if self.transaction_timeout_ms > 24 * 3600 * 1000 {
            return Err("`transaction_timeout_ms` is at most a day (86,400,000)".into());
        }
        self.durability_mode()?;
        if self.tls_cert.is_some() != self.tls_key.is_some() {
            return Err("`tls_cert` and `tls_key` go together: give both or neither".into());
        }
        self.publish_options()?;
        self.replica_url()?;
        self.ingest_url()?;
        self.shard()?;
        if !self.route_read.is_empty() && self.route_write.is_none() {
            return Err(
                "`route_read` needs `route_write` (the primary, where Neo4j drivers send writes)"
                    .into(),
            );
        }
        for address in self.route_write.iter().chain(&self.route_read) {
            let port = address
                .rsplit_once(':')
                .map(|(host, port)| (host, port.parse::<u16>()));
            if !matches!(port, Some((host, Ok(p))) if !host.is_empty() && p > 0) {
                return Err(format!(
                    "`{address}` in route_write/route_read is not a Bolt address (HOST:PORT)"
                ));
            }
        }
        if self.checkpoint_wal_bytes == 0 || self.checkpoint_interval_s == 0 {
            return Err(
                "`checkpoint_wal_bytes` and `checkpoint_interval_s` must be at least 1".into(),
            );
        }
        Ok(())
    }

    /// `auth_deadline_ms` as a duration.
    pub fn auth_deadline(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.auth_deadline_ms)
    }

    /// `message_read_timeout_ms` as a duration.
    pub fn message_read_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.message_read_timeout_ms)
    }

    /// `durability` parsed.
    pub fn durability_mode(&self) -> Result<kith_storage::Durability, String> {
        self.durability
            .parse()
            .map_err(|e| format!("`durability`: {e}"))
    }

    /// Whether writes wait for Kafka (`replication = "sync"`).
    pub fn replication_sync(&self) -> Result<bool, String> {
        match self.replication.as_str() {
            "async" => Ok(false),
            "sync" => Ok(true),
            other => Err(format!(
                "`replication` = `{other}`: expected `async` or `sync`"
            )),
        }
    }

    /// The shard this server is, if `shard` is set.
    pub fn shard(&self) -> Result<Option<kith_ldbc::shard::Shard>, String> {
        let Some(name) = &self.shard else {
            return Ok(None);
        };
        kith_ldbc::shard::Shard::parse(name)
            .map(Some)
            .ok_or_else(|| {
                format!("`shard`: `{name}` is not a shard of a layout (`person`, or `forum-N`)")
            })
    }

    /// The topic of updates to ingest, if `ingest` is set.
    pub fn ingest_url(&self) -> Result<Option<kith_replication::KafkaUrl>, String> {
        let Some(url) = &self.ingest else {
            return Ok(None);
        };
        if self.replica_of.is_some() {
            return Err("a replica takes no writes: give `ingest` to its primary".into());
        }
        let url: kith_replication::KafkaUrl = url.parse().map_err(|e| format!("`ingest`: {e}"))?;
        let published = self
            .publish
            .as_deref()
            .and_then(|p| p.parse::<kith_replication::KafkaUrl>().ok());
        if published.is_some_and(|p| p.topic == url.topic && p.brokers == url.brokers) {
            return Err(format!(
                "`ingest` and `publish` name the same topic ({url}): the server would read its own log back"
            ));
        }
        Ok(Some(url))
    }

    /// The topic a replica follows, if `replica_of` is set.
    pub fn replica_url(&self) -> Result<Option<kith_replication::KafkaUrl>, String> {
        let Some(url) = &self.replica_of else {
            if self.bootstrap.is_some() {
                return Err("`bootstrap` is for a replica: give `replica_of` too".into());
            }
            return Ok(None);
        };
        if self.publish.is_some() {
            return Err(
                "a replica does not publish: give `replica_of` or `publish`, not both".into(),
            );
        }
        if let Some(primary) = &self.bootstrap {
            if !(primary.starts_with("http://") || primary.starts_with("https://")) {
                return Err(format!(
                    "`bootstrap` = `{primary}`: expected the primary's http:// or https:// address"
                ));
            }
        }
        url.parse()
            .map(Some)
            .map_err(|e| format!("`replica_of`: {e}"))
    }

    /// Where and how to publish the log, if `publish` is set.
    pub fn publish_options(&self) -> Result<Option<kith_replication::PublishOptions>, String> {
        self.replication_sync()?;
        if self.replication_buffer_bytes_max == 0 || self.replication_ack_timeout_ms == 0 {
            return Err(
                "`replication_buffer_bytes_max` and `replication_ack_timeout_ms` must be at least 1"
                    .into(),
            );
        }
        let Some(url) = &self.publish else {
            if self.replication_sync()? {
                return Err(
                    "`replication` = `sync` needs `publish` (where to replicate to)".into(),
                );
            }
            return Ok(None);
        };
        if self.durability_mode()? == kith_storage::Durability::None {
            return Err(
                "`publish` needs `durability` = `fsync`: a record must be on the local \
                        disk before it is published, or a power loss leaves the topic ahead of \
                        the directory"
                    .into(),
            );
        }
        let url = url
            .parse::<kith_replication::KafkaUrl>()
            .map_err(|e| format!("`publish`: {e}"))?;
        Ok(Some(kith_replication::PublishOptions {
            url,
            buffer_bytes_max: self.replication_buffer_bytes_max,
            ack_timeout: std::time::Duration::from_millis(self.replication_ack_timeout_ms),
        }))
    }

    /// The database options these settings ask for.
    pub fn database_options(&self) -> Result<kith_storage::DatabaseOptions, String> {
        Ok(kith_storage::DatabaseOptions {
            durability: self.durability_mode()?,
            checkpoint_wal_bytes: self.checkpoint_wal_bytes,
            checkpoint_interval: std::time::Duration::from_secs(self.checkpoint_interval_s),
            log_consumed: None,
            ..kith_storage::DatabaseOptions::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_sets_options_and_rejects_typos() {
        let c =
            ServerConfig::from_toml("listen = \"127.0.0.1:9000\"\nworkers = 3\nchunk_rows = 10\n")
                .expect("valid");
        assert_eq!(c.listen.port(), 9000);
        assert_eq!((c.workers, c.chunk_rows), (3, 10));
        assert_eq!(c.frame_bytes_max, ServerConfig::default().frame_bytes_max);
        let err = ServerConfig::from_toml("wrokers = 3").expect_err("typo");
        assert!(err.contains("wrokers"), "{err}");
        let err = ServerConfig::from_toml("workers = 0").expect_err("zero");
        assert!(err.contains("workers"), "{err}");
    }

    #[test]
    fn publishing_is_checked_by_name() {
        let c = ServerConfig::from_toml(
            "publish = \"kafka://127.0.0.1:9092/log\"\nreplication = \"sync\"\n",
        )
        .expect("valid");
        let options = c.publish_options().expect("valid").expect("publishing");
        assert_eq!(options.url.topic, "log");
        assert_eq!(c.replication_sync(), Ok(true));
        let err =
            ServerConfig::from_toml("publish = \"127.0.0.1:9092/log\"").expect_err("no scheme");
        assert!(
            err.contains("`publish`") && err.contains("kafka://"),
            "{err}"
        );
        let err = ServerConfig::from_toml("replication = \"sync\"").expect_err("sync alone");
        assert!(err.contains("needs `publish`"), "{err}");
        let none = "publish = \"kafka://h:1/a\"\ndurability = \"none\"\n";
        let err = ServerConfig::from_toml(none).expect_err("no fsync");
        assert!(err.contains("`durability` = `fsync`"), "{err}");
        let err = ServerConfig::from_toml("replication = \"eventually\"").expect_err("bad mode");
        assert!(err.contains("eventually"), "{err}");
        let err = ServerConfig::from_toml("replication_buffer_bytes_max = 0").expect_err("zero");
        assert!(err.contains("replication_buffer_bytes_max"), "{err}");
        let both = "publish = \"kafka://h:1/a\"\nreplica_of = \"kafka://h:1/a\"\n";
        let err = ServerConfig::from_toml(both).expect_err("both");
        assert!(err.contains("not both"), "{err}");
        let err = ServerConfig::from_toml("bootstrap = \"http://h:1\"").expect_err("no replica_of");
        assert!(err.contains("`replica_of`"), "{err}");
        let same = "publish = \"kafka://h:1/a\"\ningest = \"kafka://h:1/a\"\n";
        let err = ServerConfig::from_toml(same).expect_err("same topic");
        assert!(err.contains("the same topic"), "{err}");
        let err = ServerConfig::from_toml("route_read = [\"r:7687\"]").expect_err("no write");
        assert!(err.contains("`route_read` needs `route_write`"), "{err}");
        let err = ServerConfig::from_toml("route_write = \"p\"").expect_err("no port");
        assert!(err.contains("HOST:PORT"), "{err}");
        let err = ServerConfig::from_toml("min_version_wait_ms = 3600001").expect_err("too long");
        assert!(err.contains("at most an hour"), "{err}");
        let bad = "replica_of = \"kafka://h:1/a\"\nbootstrap = \"h:1\"\n";
        let err = ServerConfig::from_toml(bad).expect_err("no scheme");
        assert!(err.contains("http://"), "{err}");
    }

    #[test]
    fn the_limits_before_authentication_are_checked_by_name() {
        let c = ServerConfig::from_toml(
            "auth_deadline_ms = 2000\nunauthenticated_connections_max = 16\n\
             unauthenticated_per_address_max = 4\nmessage_read_timeout_ms = 3000\n",
        )
        .expect("valid");
        assert_eq!(c.auth_deadline(), std::time::Duration::from_secs(2));
        assert_eq!(c.message_read_timeout(), std::time::Duration::from_secs(3));
        for zero in [
            "auth_deadline_ms",
            "message_read_timeout_ms",
            "unauthenticated_connections_max",
            "unauthenticated_per_address_max",
        ] {
            let err = ServerConfig::from_toml(&format!("{zero} = 0")).expect_err("zero");
            assert!(err.contains("at least 1"), "{zero}: {err}");
        }
        let err = ServerConfig::from_toml("auth_deadline_ms = 3600001").expect_err("too long");
        assert!(err.contains("`auth_deadline_ms`"), "{err}");
    }

    #[test]
    fn a_tls_certificate_needs_its_key() {
        let c =
            ServerConfig::from_toml("tls_cert = \"a.crt\"\ntls_key = \"a.key\"\n").expect("both");
        assert_eq!(c.tls_key.as_deref(), Some(std::path::Path::new("a.key")));
        let err = ServerConfig::from_toml("tls_cert = \"a.crt\"").expect_err("no key");
        assert!(err.contains("tls_key"), "{err}");
        let err = ServerConfig::from_toml("tls_key = \"a.key\"").expect_err("no cert");
        assert!(err.contains("tls_cert"), "{err}");
    }
}
