//! The router's answers equal one server's, case for case: every oracle-fixture
//! parameter line of IS1-7 and IC1-14 (the official test data set, and SF0.1), on 1,
//! 2, 4 and 8 forum shards made by `kith_ldbc::shard::split`, each served by a real
//! kith server in this process. One server's answers equal the fixtures
//! (kith-ldbc's `oracle.rs`), so these equal the fixtures too; they are compared
//! exactly here, order included. The same after the update stream (the events the
//! `*-after-updates` fixtures were answered after): applied to one server, and routed
//! to the shards as `kith produce ldbc --layout` routes them and applied as a shard's
//! ingest applies them (a forum shard making proxies).
//!
//! Also: a forum shard that stops makes the reads that need it fail with
//! `shard_unavailable` (reads that need only the person shard still answer), and the
//! router recovers when the shard is back; a router server answers over WebSocket.

mod common;

use common::*;
use std::path::Path;
use std::sync::Arc;

use kith_client::{Client, ClientConfig};
use kith_core::Value;
use kith_ldbc::UpdateEvent;
use kith_procedures::Registry;
use kith_protocol::ErrorCode;
use kith_router::Router;
use kith_server::{Server, ServerConfig};
use kith_storage::{Snapshot, Store, WriteBatch};
use serde_json::Value as Json;

/// Every case through the router on each shard count, against one server.
async fn check(src: &Path, dataset: &str, shard_counts: &[usize]) {
    check_after(src, dataset, shard_counts, &[]).await
}

/// `events` applied to one server and, routed, to the shards; then every case of
/// `dataset` through the router on each shard count, against the one server.
async fn check_after(src: &Path, dataset: &str, shard_counts: &[usize], events: &[UpdateEvent]) {
    let (raw, _) = kith_ldbc::load(src).expect("loads");
    let registry = Registry::with_builtins();
    let whole = Store::new(Snapshot::from_raw(raw.clone()).expect("builds"));
    for e in events {
        let ops = registry.build_update(e.procedure, &e.params).expect("op");
        whole.apply(&WriteBatch { ops }).expect("applies");
    }
    let whole = whole.snapshot();
    let cases = cases(dataset);
    for &n in shard_counts {
        let s = sharded_after(&raw, n, events).await;
        let mut failures = Vec::new();
        for (procedure, params) in &cases {
            let want = registry.call(&*whole, procedure, params);
            let got = s.router.run(procedure, params).await;
            match (want, got) {
                (Ok(w), Ok(g)) if rows(&w) == rows(&g) && w.columns() == g.columns() => {}
                (Ok(w), Ok(g)) => failures.push(format!(
                    "{procedure} {params:?}\n  one server: {:?}\n  router:     {:?}",
                    rows(&w),
                    rows(&g)
                )),
                (Err(w), Err(g)) if g.code == ErrorCode::NotFound => {
                    assert!(w.to_string().starts_with("no "), "{w}");
                }
                (w, g) => failures.push(format!(
                    "{procedure} {params:?}: one server {w:?}, router {g:?}"
                )),
            }
        }
        s.stop().await;
        assert!(
            failures.is_empty(),
            "{dataset}, {n} forum shards: {} of {} cases differ; first:\n{}",
            failures.len(),
            cases.len(),
            failures
                .iter()
                .take(3)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn test_set_answers_equal_one_server_on_1_2_4_8_forum_shards() {
    let src = shared_data().join("ldbc-snb-interactive-test/vanilla");
    check(&src, "test", &[1, 2, 4, 8]).await;
}

/// The stream's first events, as many as the oracle replayed before answering a
/// fixture (`replayed_events`; all when it does not say).
fn replayed_events(dataset: &str, streams: &Path) -> Vec<UpdateEvent> {
    let file = fixtures(dataset).join("is1.json");
    let json: Json = serde_json::from_slice(&std::fs::read(&file).expect("reads")).expect("json");
    let mut events = kith_ldbc::read_streams(streams).expect("reads the streams");
    if let Some(n) = json["replayed_events"].as_u64() {
        events.truncate(n as usize);
    }
    events
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn test_set_answers_equal_one_server_after_the_update_stream() {
    let base = shared_data().join("ldbc-snb-interactive-test");
    let events = replayed_events("test-after-updates", &base.join("update_streams"));
    assert!(events.len() > 1000, "{}", events.len());
    check_after(
        &base.join("vanilla"),
        "test-after-updates",
        &[1, 2, 4, 8],
        &events,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sf01_answers_equal_one_server_after_the_update_stream() {
    let events = replayed_events("sf0.1-after-updates", &sf01_dir().join("../update_streams"));
    check_after(&sf01_dir(), "sf0.1-after-updates", &[1, 2, 4, 8], &events).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_person_lists_go_in_parts_and_answer_the_same() {
    // Seven ids per call: every read that hands a shard persons sends several calls
    // (IC5 then sums every forum instead of merging the shards' top 20).
    let (raw, _) =
        kith_ldbc::load(&shared_data().join("ldbc-snb-interactive-test/vanilla")).expect("loads");
    let whole = Snapshot::from_raw(raw.clone()).expect("builds");
    let s = sharded(&raw, 2).await;
    let urls: Vec<String> = s.forums.iter().map(|(_, r)| r.url()).collect();
    let router = Router::new(&s.person.url(), &urls)
        .expect("router")
        .persons_per_call(7);
    let registry = Registry::with_builtins();
    let mut checked = 0;
    for (procedure, params) in cases("test") {
        if let (Ok(w), Ok(g)) = (
            registry.call(&whole, &procedure, &params),
            router.run(&procedure, &params).await,
        ) {
            assert_eq!(rows(&w), rows(&g), "{procedure} {params:?}");
            checked += 1;
        }
    }
    assert!(checked > 300, "{checked}");
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_is_not_the_shard_it_is_listed_as_is_refused() {
    let (raw, _) =
        kith_ldbc::load(&shared_data().join("ldbc-snb-interactive-test/vanilla")).expect("loads");
    let (a, b) = (sharded(&raw, 2).await, sharded(&raw, 2).await);
    let ic9 = cases("test")
        .into_iter()
        .find(|(p, _)| p == "ldbc.ic9")
        .expect("an IC9 case");
    let urls = |s: &Sharded| -> Vec<String> { s.forums.iter().map(|(_, r)| r.url()).collect() };
    // The forum shards swapped.
    let swapped: Vec<String> = urls(&a).into_iter().rev().collect();
    let router = Router::new(&a.person.url(), &swapped).expect("router");
    let e = router.run(&ic9.0, &ic9.1).await.expect_err("refused");
    assert_eq!(e.code, ErrorCode::ShardUnavailable, "{e}");
    assert!(e.message.contains("is listed as forum-0"), "{e}");
    // A forum shard of another split.
    let mixed = vec![urls(&a)[0].clone(), urls(&b)[1].clone()];
    let router = Router::new(&a.person.url(), &mixed).expect("router");
    let e = router.run(&ic9.0, &ic9.1).await.expect_err("refused");
    assert!(e.message.contains("every shard must come from one"), "{e}");
    // A server without an identity (a whole graph) is no shard.
    let whole_store = Arc::new(Store::new(Snapshot::from_raw(raw.clone()).expect("builds")));
    let whole = Running::serve(whole_store, "127.0.0.1:0".parse().expect("addr")).await;
    let router = Router::new(&a.person.url(), &[urls(&a)[0].clone(), whole.url()]).expect("router");
    let e = router.run(&ic9.0, &ic9.1).await.expect_err("refused");
    assert!(e.message.contains("no shard identity"), "{e}");
    whole.stop().await;
    // Too few forum shards listed: each says how many its split has.
    let router = Router::new(&a.person.url(), &urls(&a)[..1]).expect("router");
    let e = router.run(&ic9.0, &ic9.1).await.expect_err("refused");
    assert!(e.message.contains("split into 2 forum shards"), "{e}");
    // The right ones answer.
    let router = Router::new(&a.person.url(), &urls(&a)).expect("router");
    router.run(&ic9.0, &ic9.1).await.expect("answers");
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn users_on_the_router_and_on_the_shards() {
    use kith_server::auth::{AuthMode, Role, UserFile};
    let users = tempfile::tempdir().expect("tempdir");
    let mut file = UserFile::default();
    file.add("router", Role::Reader, "router-pw").expect("adds");
    file.add("ann", Role::Reader, "ann-pw").expect("adds");
    file.save(&UserFile::path_in(users.path())).expect("saves");
    let config = || ServerConfig {
        listen: "127.0.0.1:0".parse().expect("addr"),
        workers: 2,
        auth: AuthMode::Users,
        data: Some(users.path().to_owned()),
        ..ServerConfig::default()
    };
    let (raw, _) =
        kith_ldbc::load(&shared_data().join("ldbc-snb-interactive-test/vanilla")).expect("loads");
    let whole = Snapshot::from_raw(raw.clone()).expect("builds");
    let split = kith_ldbc::shard::split(&raw, 2).expect("splits");
    let mut shards = Vec::new();
    let shards_of = std::iter::once(kith_ldbc::shard::Shard::Person)
        .chain((0..2).map(kith_ldbc::shard::Shard::Forum));
    for (raw, shard) in std::iter::once(split.person)
        .chain(split.forums)
        .zip(shards_of)
    {
        let store = Arc::new(Store::new(Snapshot::from_raw(raw).expect("builds")));
        let ops = kith_ldbc::shard::identity_ops(shard, 2, 7);
        store.apply(&WriteBatch { ops }).expect("identity");
        let server = Server::bind(config(), store).await.expect("binds");
        shards.push(Running::run(server));
    }
    let with = |creds: &str, r: &Running| format!("ws://{creds}@{}/v1/ws", r.addr);
    let ic9 = cases("test")
        .into_iter()
        .find(|(p, _)| p == "ldbc.ic9")
        .expect("an IC9 case");
    // Shards refuse a router without their credentials: unavailable, saying why.
    let urls =
        |creds: &str| -> Vec<String> { shards[1..].iter().map(|r| with(creds, r)).collect() };
    let bad = Router::new(
        &with("router:not-the-pw", &shards[0]),
        &urls("router:not-the-pw"),
    )
    .expect("router");
    let e = bad.run(&ic9.0, &ic9.1).await.expect_err("refused");
    assert_eq!(e.code, ErrorCode::ShardUnavailable, "{e}");
    assert!(
        !e.message.contains("not-the-pw"),
        "the password is never shown: {e}"
    );
    assert!(e.message.contains("401"), "says why: {e}");
    // With them, the router serves its own users.
    let router = Router::new(
        &with("router:router-pw", &shards[0]),
        &urls("router:router-pw"),
    )
    .expect("router");
    let server = Running::run(
        Server::bind_router(config(), Arc::new(router))
            .await
            .expect("binds"),
    );
    let anonymous = Client::connect(ClientConfig::new(server.url())).await;
    let refused = match anonymous {
        Ok(client) => client.call(&ic9.0, ic9.1.clone()).await.err(),
        Err(e) => Some(e),
    };
    let refused = refused.expect("no credentials, no answer").to_string();
    assert!(refused.contains("unauthorized"), "{refused}");
    let ann = Client::connect(ClientConfig::new(with("ann:ann-pw", &server)))
        .await
        .expect("connects");
    let got = ann.call(&ic9.0, ic9.1.clone()).await.expect("answers");
    let want = Registry::with_builtins()
        .call(&whole, &ic9.0, &ic9.1)
        .expect("one server");
    assert_eq!(got.rows, rows(&want));
    drop(ann);
    server.stop().await;
    for s in shards {
        s.stop().await;
    }
}

const TEN_SECONDS: std::time::Duration = std::time::Duration::from_secs(10);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_router_holding_the_person_shard_answers_the_same() {
    let (raw, _) =
        kith_ldbc::load(&shared_data().join("ldbc-snb-interactive-test/vanilla")).expect("loads");
    let whole = Snapshot::from_raw(raw.clone()).expect("builds");
    let s = sharded(&raw, 2).await;
    let urls: Vec<String> = s.forums.iter().map(|(_, r)| r.url()).collect();
    let local = Arc::new(kith_server::LocalGraph::new(
        s.person_store.clone(),
        TEN_SECONDS,
    ));
    let router = Arc::new(Router::with_local_person(local, &urls).expect("router"));
    let registry = Registry::with_builtins();
    let mut checked = 0;
    for (procedure, params) in cases("test") {
        match (
            registry.call(&whole, &procedure, &params),
            router.run(&procedure, &params).await,
        ) {
            (Ok(w), Ok(g)) => assert_eq!(rows(&w), rows(&g), "{procedure} {params:?}"),
            (Err(_), Err(e)) => assert_eq!(e.code, ErrorCode::NotFound, "{e}"),
            (w, g) => panic!("{procedure} {params:?}: one server {w:?}, router {g:?}"),
        }
        checked += 1;
    }
    assert!(checked > 300, "{checked}");
    // USE person runs on the local shard.
    let got = router
        .cypher("USE person MATCH (p:Person) RETURN count(p) AS n", &[])
        .await
        .expect("runs");
    let persons = whole_count(&whole, "Person");
    assert_eq!(got.rows, vec![vec![Value::Int(persons)]]);
    // A forum shard's graph is not the person shard: refused by its identity.
    let forum = Arc::new(kith_server::LocalGraph::new(
        s.forums[0].0.clone(),
        TEN_SECONDS,
    ));
    let e = Router::with_local_person(forum, &urls)
        .err()
        .expect("refused");
    assert!(e.message.contains("it is forum-0"), "{e}");
    s.stop().await;
}

fn whole_count(whole: &Snapshot, label: &str) -> i64 {
    let l = kith_core::GraphView::label_id(whole, label).expect("label");
    kith_core::GraphView::nodes_with_label(whole, l).count() as i64
}

#[test]
fn a_shard_listed_twice_is_refused() {
    let e = Router::new(
        "ws://a/v1/ws",
        &["ws://b/v1/ws".into(), "ws://b/v1/ws".into()],
    )
    .err()
    .expect("refused");
    assert!(e.message.contains("listed twice"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sf01_answers_equal_one_server_on_1_2_4_8_forum_shards() {
    check(&sf01_dir(), "sf0.1", &[1, 2, 4, 8]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_forum_shard_is_shard_unavailable_until_it_is_back() {
    let (raw, _) =
        kith_ldbc::load(&shared_data().join("ldbc-snb-interactive-test/vanilla")).expect("loads");
    let mut s = sharded(&raw, 4).await;
    let ic9 = cases("test")
        .into_iter()
        .find(|(p, _)| p == "ldbc.ic9")
        .expect("an IC9 case");
    let ic13 = cases("test")
        .into_iter()
        .find(|(p, _)| p == "ldbc.ic13")
        .expect("an IC13 case");
    let before = s.router.run(&ic9.0, &ic9.1).await.expect("answers");

    let (store, down) = s.forums.remove(2);
    let addr = down.addr;
    down.stop().await;
    let e = s
        .router
        .run(&ic9.0, &ic9.1)
        .await
        .expect_err("a shard is down");
    assert_eq!(e.code, ErrorCode::ShardUnavailable, "{e}");
    assert!(e.message.contains("forum-2"), "names the shard: {e}");
    // Reads of the person shard alone do not need it.
    s.router
        .run(&ic13.0, &ic13.1)
        .await
        .expect("person shard only");
    // Every read that fans out fails the same way, never with a partial answer.
    let e = s.router.run(&ic9.0, &ic9.1).await.expect_err("still down");
    assert_eq!(e.code, ErrorCode::ShardUnavailable, "{e}");

    s.forums
        .insert(2, (store.clone(), Running::serve(store, addr).await));
    // A failed connect is believed for half a second; then the router connects again.
    let mut after = s.router.run(&ic9.0, &ic9.1).await;
    for _ in 0..50 {
        if after.is_ok() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        after = s.router.run(&ic9.0, &ic9.1).await;
    }
    let after = after.expect("recovers");
    assert_eq!(rows(&before), rows(&after));
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_router_server_answers_over_websocket_and_refuses_what_it_does_not_route() {
    let (raw, _) =
        kith_ldbc::load(&shared_data().join("ldbc-snb-interactive-test/vanilla")).expect("loads");
    let whole = Snapshot::from_raw(raw.clone()).expect("builds");
    let s = sharded(&raw, 2).await;
    let urls: Vec<String> = s.forums.iter().map(|(_, r)| r.url()).collect();
    let router = Arc::new(Router::new(&s.person.url(), &urls).expect("router"));
    let config = ServerConfig {
        listen: "127.0.0.1:0".parse().expect("addr"),
        workers: 2,
        ..ServerConfig::default()
    };
    let server = Running::run(Server::bind_router(config, router).await.expect("binds"));
    let client = Client::connect(ClientConfig::new(server.url()))
        .await
        .expect("connects");
    let registry = Registry::with_builtins();
    for (procedure, params) in cases("test").into_iter().step_by(7) {
        let want = registry.call(&whole, &procedure, &params);
        let got = client.call(&procedure, params.clone()).await;
        match (want, got) {
            (Ok(w), Ok(g)) => assert_eq!(rows(&w), g.rows, "{procedure} {params:?}"),
            (Err(_), Err(e)) => assert_eq!(e.code(), Some(ErrorCode::NotFound), "{e}"),
            (w, g) => panic!("{procedure} {params:?}: one server {w:?}, router {g:?}"),
        }
    }
    let e = client
        .call("shindig.q1", Vec::new())
        .await
        .expect_err("not routed");
    assert_eq!(e.code(), Some(ErrorCode::UnknownProcedure), "{e}");
    assert!(e.to_string().contains("not routed"), "{e}");
    // Cypher that needs a graph, with no USE: the router holds none.
    let e = client
        .cypher("MATCH (n) RETURN count(n)", Vec::new())
        .await
        .expect_err("no graph here");
    assert_eq!(e.code(), Some(ErrorCode::CypherError), "{e}");
    assert!(e.to_string().contains("USE"), "{e}");
    // With USE it runs on that shard.
    let got = client
        .cypher(
            "USE person MATCH (p:Person) RETURN count(p) AS n",
            Vec::new(),
        )
        .await
        .expect("runs on the person shard");
    let persons = kith_core::GraphView::label_id(&whole, "Person")
        .map(|l| kith_core::GraphView::nodes_with_label(&whole, l).count())
        .expect("persons");
    assert_eq!(got.rows, vec![vec![Value::Int(persons as i64)]]);
    let e = client.write(Vec::new()).await.expect_err("no writes");
    assert_eq!(e.code(), Some(ErrorCode::ReadOnly), "{e}");
    let e = client
        .call("ldbc.ic9", vec![("personId".into(), Value::Int(1))])
        .await
        .expect_err("bad");
    assert_eq!(e.code(), Some(ErrorCode::MissingParameter), "{e}");
    drop(client);
    server.stop().await;
    s.stop().await;
}
