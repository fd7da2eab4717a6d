//! kith-router: S5's router over a sharded LDBC graph (docs/sharding.md).
//!
//! The graph is split by `kith shard split` into a person shard and forum shards, each
//! an ordinary `kith serve`. [`Router::run`] answers the 21 LDBC reads (IS1-7,
//! IC1-14) with the same columns, rows and order as one server holding the whole
//! graph: each read asks the person shard who it is about, fans its message side out
//! to every forum shard at once (`shard.*` procedures, kith-procedures'
//! `ldbc/shard/`), merges (top-k merges, counts summed) and fills in the names of
//! persons that forum shards know only by id. One file per read in `reads/`.
//!
//! A shard that cannot be reached fails the whole read with `shard_unavailable`:
//! never a partial answer.

mod cypher;
mod error;
mod merge;
mod reads;
mod shard;
pub mod trace;

use kith_core::Value;
use kith_procedures::{Params, Procedure, Registry, ResultSet};

pub use cypher::CypherAnswer;
pub use error::{CypherDetail, RouteError};
pub use shard::{LocalShard, Rows, Shard, ShardCall};

/// The router: the person shard and the forum shards, by index (the index
/// `kith_ldbc::shard::forum_shard` gives a forum).
pub struct Router {
    person: Shard,
    forums: Vec<Shard>,
    /// The LDBC reads' parameter schemas and columns (the router validates a call as
    /// the procedure would, before asking any shard).
    registry: std::sync::Arc<Registry>,
    /// Person ids per forum-shard call ([`reads::PERSONS_PER_CALL`] unless set).
    persons_per_call: usize,
}

impl Router {
    /// A router over these shards' WebSocket URLs (`ws://host:port/v1/ws`). Nothing
    /// connects yet: each shard connects on first use, and again after it failed.
    pub fn new(person: &str, forums: &[String]) -> Result<Router, RouteError> {
        if forums.is_empty() {
            return Err(RouteError::config(
                "a router needs at least one forum shard",
            ));
        }
        let all: Vec<&str> = std::iter::once(person)
            .chain(forums.iter().map(String::as_str))
            .collect();
        if let Some(twice) = all.iter().enumerate().find(|(i, u)| all[..*i].contains(u)) {
            // A shard listed twice would count its messages twice.
            return Err(RouteError::config(&format!(
                "shard {} is listed twice",
                kith_client::redacted(twice.1)
            )));
        }
        let split = std::sync::Arc::default();
        let expected = |index: i64| shard::Expected {
            index,
            forum_shards: forums.len() as i64,
            split: std::sync::Arc::clone(&split),
        };
        Ok(Router {
            person: Shard::new("person", person, expected(-1)),
            forums: (forums.iter().enumerate())
                .map(|(i, url)| Shard::new(&format!("forum-{i}"), url, expected(i as i64)))
                .collect(),
            registry: std::sync::Arc::new(Registry::with_builtins()),
            persons_per_call: reads::PERSONS_PER_CALL,
        })
    }

    /// A router holding the person shard in its own process (`local`), over these
    /// forum shards' WebSocket URLs: a read's person side costs no message.
    pub fn with_local_person(
        local: std::sync::Arc<dyn LocalShard>,
        forums: &[String],
    ) -> Result<Router, RouteError> {
        let mut router = Router::new("local:person", forums)?;
        let expected = shard::Expected {
            index: -1,
            forum_shards: forums.len() as i64,
            split: std::sync::Arc::clone(router.forums[0].expected_split()),
        };
        let person = Shard::local("person", local.clone(), expected);
        // Its identity is checked now: it is no connection away.
        let (_, rows) = local.call("shard.info", &[])?;
        person.check_info(rows.first()).map_err(|why| {
            RouteError::config(&format!("the router's own data directory: {why}"))
        })?;
        router.person = person;
        Ok(router)
    }

    /// Sends at most `n` person ids per forum-shard call (a shard with a smaller
    /// message limit; tests of the split lists).
    pub fn persons_per_call(mut self, n: usize) -> Router {
        self.persons_per_call = n.max(1);
        self
    }

    /// The shards: the person shard first.
    pub fn shards(&self) -> impl Iterator<Item = &Shard> + '_ {
        std::iter::once(&self.person).chain(&self.forums)
    }

    /// Whether the router runs this procedure (the 21 LDBC reads).
    pub fn routes(procedure: &str) -> bool {
        reads::NAMES.contains(&procedure)
    }

    /// Runs an LDBC read across the shards.
    pub async fn run(
        &self,
        procedure: &str,
        params: &[(String, Value)],
    ) -> Result<ResultSet, RouteError> {
        let spec = self.spec(procedure)?;
        let p = Params::validate(spec.name, spec.params, params)?;
        // On the heap: the reads' state machines are large (a debug build's overflowed
        // a test thread's stack), and one allocation per read is nothing beside its
        // network round trips.
        let rows = Box::pin(reads::run(self, spec.name, &p, params, spec.columns.len())).await?;
        Ok(ResultSet::from_rows(spec.columns, rows))
    }

    fn spec(&self, procedure: &str) -> Result<&Procedure, RouteError> {
        if !Router::routes(procedure) {
            return Err(RouteError::not_routed(procedure));
        }
        Ok(self.registry.get(procedure)?)
    }
}
