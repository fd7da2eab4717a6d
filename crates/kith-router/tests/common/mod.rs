//! What the router's tests share: the data sets, the fixture cases, and shards
//! served by real kith servers in the test's process.
#![allow(dead_code)] // each test file uses its part

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use kith_core::Value;
use kith_ldbc::shard::{with_proxies, Shard};
use kith_ldbc::UpdateEvent;
use kith_procedures::Registry;
use kith_router::Router;
use kith_server::{Server, ServerConfig};
use kith_storage::{RawGraph, Snapshot, Store, WriteBatch};
use serde_json::Value as Json;
use tokio::sync::oneshot;

pub fn shared_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data")
}

pub fn fixtures(dataset: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../kith-ldbc/tests/fixtures")
        .join(dataset)
}

/// SF0.1, unpacked once per target directory from the shared archive (the same
/// place kith-ldbc's oracle test unpacks it).
pub fn sf01_dir() -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ldbc-sf0.1");
    let done = root.join(".unpacked");
    if !done.exists() {
        let archive = shared_data().join("ldbc-snb-sf0.1-datagen.tar.zst");
        let file =
            std::fs::File::open(&archive).unwrap_or_else(|e| panic!("{}: {e}", archive.display()));
        let _ = std::fs::remove_dir_all(&root);
        tar::Archive::new(zstd::Decoder::new(file).expect("zstd"))
            .unpack(&root)
            .expect("unpacks");
        std::fs::write(&done, "").expect("marks");
    }
    root.join("sf0.1/social_network")
}

pub fn from_json(v: &Json) -> Value {
    match v {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => n
            .as_i64()
            .map_or_else(|| Value::Float(n.as_f64().expect("number")), Value::Int),
        Json::String(s) => Value::string(s.as_str()),
        Json::Array(items) => Value::List(items.iter().map(from_json).collect()),
        Json::Object(_) => panic!("parameters are never maps"),
    }
}

/// Every fixture case of a data set: (procedure, parameters).
pub fn cases(dataset: &str) -> Vec<(String, Vec<(String, Value)>)> {
    let mut out = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixtures(dataset))
        .expect("fixtures")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    for file in files {
        let json: Json =
            serde_json::from_slice(&std::fs::read(&file).expect("reads")).expect("json");
        let procedure = json["procedure"].as_str().expect("procedure").to_owned();
        for case in json["cases"].as_array().expect("cases") {
            let params = (case["params"].as_object().expect("params").iter())
                .map(|(k, v)| (k.clone(), from_json(v)))
                .collect();
            out.push((procedure.clone(), params));
        }
    }
    assert!(out.len() > 300, "only {} cases in {dataset}", out.len());
    out
}

/// A kith server in this process over a graph.
pub struct Running {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Running {
    pub async fn serve(store: Arc<Store>, addr: SocketAddr) -> Running {
        let config = ServerConfig {
            listen: addr,
            workers: 2,
            ..ServerConfig::default()
        };
        Running::run(Server::bind(config, store).await.expect("binds"))
    }

    pub fn run(server: Server) -> Running {
        let addr = server.local_addr().expect("bound");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(server.run(async move {
            let _ = stopped.await;
        }));
        Running {
            addr,
            stop: Some(stop),
            task,
        }
    }

    pub fn url(&self) -> String {
        format!("ws://{}/v1/ws", self.addr)
    }

    pub async fn stop(mut self) {
        let _ = self.stop.take().map(|s| s.send(()));
        self.task.await.expect("task").expect("clean shutdown");
    }
}

/// The shards of a split, each served, and a router over them.
pub struct Sharded {
    pub person: Running,
    pub person_store: Arc<Store>,
    pub forums: Vec<(Arc<Store>, Running)>,
    pub router: Router,
}

pub async fn sharded(whole: &RawGraph, n: usize) -> Sharded {
    sharded_after(whole, n, &[]).await
}

/// A new split id for each split a test makes.
static SPLITS: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(1);

/// The shards of a split with `events` applied as `kith produce ldbc --layout` routes
/// them and a shard's ingest applies them (a forum shard with proxies).
pub async fn sharded_after(whole: &RawGraph, n: usize, events: &[UpdateEvent]) -> Sharded {
    let split = kith_ldbc::shard::split(whole, n).expect("splits");
    let any = || "127.0.0.1:0".parse().expect("addr");
    // Each with its identity, as `kith shard split` records it (`shard.info`).
    let split_id = SPLITS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let store = |raw, shard| {
        let store = Arc::new(Store::new(Snapshot::from_raw(raw).expect("builds")));
        let ops = kith_ldbc::shard::identity_ops(shard, n, split_id);
        store.apply(&WriteBatch { ops }).expect("identity");
        store
    };
    let person_store = store(split.person, Shard::Person);
    let forum_stores: Vec<Arc<Store>> = (split.forums.into_iter().enumerate())
        .map(|(i, raw)| store(raw, Shard::Forum(i)))
        .collect();
    let mut placement = split.placement;
    let registry = Registry::with_builtins();
    for e in events {
        let ops = registry.build_update(e.procedure, &e.params).expect("op");
        let (target, ops) = match placement.route(e).expect("routes") {
            Shard::Person => (&person_store, ops),
            Shard::Forum(i) => (&forum_stores[i], with_proxies(ops)),
        };
        target
            .apply(&WriteBatch { ops })
            .unwrap_or_else(|err| panic!("{} at {}: {err}", e.procedure, e.timestamp));
    }
    let person = Running::serve(person_store.clone(), any()).await;
    let mut forums = Vec::new();
    for s in forum_stores {
        forums.push((s.clone(), Running::serve(s, any()).await));
    }
    let urls: Vec<String> = forums.iter().map(|(_, r)| r.url()).collect();
    let router = Router::new(&person.url(), &urls).expect("router");
    Sharded {
        person,
        person_store,
        forums,
        router,
    }
}

impl Sharded {
    pub async fn stop(self) {
        self.person.stop().await;
        for (_, f) in self.forums {
            f.stop().await;
        }
    }
}

pub fn rows(result: &kith_procedures::ResultSet) -> Vec<Vec<Value>> {
    result.rows().map(<[Value]>::to_vec).collect()
}
