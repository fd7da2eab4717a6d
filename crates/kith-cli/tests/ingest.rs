//! S4's update path end to end: the official LDBC test data set's update streams
//! produced into Kafka by `kith produce ldbc`, applied by `kith serve --ingest` while
//! the server is killed with SIGKILL and restarted; afterwards the graph equals the
//! streams replayed in-process once, byte for byte: every event applied exactly once.
//!
//! Needs a broker: `scripts/kafka/test` runs it with `--ignored` and the broker's
//! address in `KITH_TEST_KAFKA`. `KITH_INGEST_TRIALS` sets the kills (default 3; the
//! full run is 20).

mod common;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;

use kith_bench::process::ServeProcess;
use std::time::{Duration, Instant};

use kith_procedures::Registry;
use kith_storage::{Database, DatabaseOptions, WriteBatch};

const KITH: &str = env!("CARGO_BIN_EXE_kith");

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/ldbc-snb-interactive-test")
}

fn run(args: &[&str]) {
    let out = Command::new(KITH).args(args).output().expect("runs kith");
    assert!(
        out.status.success(),
        "kith {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn serve(dir: &Path, addr: SocketAddr, topic: &str, log: &Path) -> ServeProcess {
    let extra = ["--ingest".to_owned(), topic.to_owned()];
    kith_bench::process::serve(Path::new(KITH), dir, addr, &extra, log).expect("kith serve")
}

/// The ingest's committed offset, from `/health`.
fn next_offset(addr: SocketAddr) -> Option<i64> {
    common::health_number(addr, "next_offset").map(|o| o as i64)
}

/// A graph as bytes that depend on its content alone (graph file version 3).
fn image(dir: &Path, scratch: &Path) -> Vec<u8> {
    let (db, _) = Database::open(dir, DatabaseOptions::default()).expect("opens");
    let path = scratch.join("image.kith");
    kith_storage::write_graph_file_version(&db.store().snapshot(), &path, 3).expect("writes");
    std::fs::read(path).expect("reads")
}

/// The streams applied once, in-process, to a copy of the loaded graph.
fn replayed(loaded: &Path, streams: &Path, scratch: &Path) -> Vec<u8> {
    let (db, _) = Database::open(loaded, DatabaseOptions::default()).expect("opens");
    let registry = Registry::with_builtins();
    for event in kith_ldbc::read_streams(streams).expect("reads the streams") {
        let batch = WriteBatch {
            ops: registry
                .build_update(event.procedure, &event.params)
                .expect("an update"),
        };
        db.commit_one(&batch).expect("applies");
    }
    // The two skipped messages at the end: each version moves the cursor alone.
    for _ in 0..2 {
        db.commit_one(&WriteBatch { ops: Vec::new() })
            .expect("commits");
    }
    drop(db);
    image(loaded, scratch)
}

#[test]
#[ignore = "needs a Kafka broker: scripts/kafka/test"]
fn ingest_applies_every_event_exactly_once_across_kills() {
    let broker = std::env::var("KITH_TEST_KAFKA")
        .expect("KITH_TEST_KAFKA names a broker (HOST:PORT): run this through scripts/kafka/test");
    let trials: usize = std::env::var("KITH_INGEST_TRIALS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let scratch = tempfile::tempdir().expect("tempdir");
    let (served, expected) = (
        scratch.path().join("served"),
        scratch.path().join("expected"),
    );
    let vanilla = shared().join("vanilla");
    let streams = shared().join("update_streams");
    for dir in [&served, &expected] {
        run(&[
            "load",
            "ldbc",
            "--out",
            dir.to_str().expect("utf-8"),
            vanilla.to_str().expect("utf-8"),
        ]);
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_nanos();
    let topic = format!("kafka://{broker}/ingest-test-{nanos}");
    run(&["produce", "ldbc", streams.to_str().expect("utf-8"), &topic]);
    // Two messages the ingest must skip and go on past, each counted as failed: one
    // that is not an update event, and the stream's first new person again (the
    // store refuses it: that person exists), which makes the ingest rewind to its
    // cursor.
    let url: kith_replication::KafkaUrl = topic.parse().expect("url");
    let lines = kith_ldbc::read_stream_lines(&streams).expect("reads");
    let again = lines
        .iter()
        .find(|(event, _)| event.procedure == "ldbc.iu1")
        .expect("the stream adds a person")
        .1
        .clone()
        .into_bytes();
    kith_replication::produce_all(&url, [b"not an update event".to_vec(), again])
        .expect("produces");
    let events = lines.len() as i64 + 2;

    let addr = common::free_port();
    let log = scratch.path().join("serve.log");
    let mut server = serve(&served, addr, &topic, &log);
    let (mut kills, mut mid_stream) = (0, 0);
    let mut stride = events / (trials as i64 + 1);
    while kills < trials {
        // Kill once the cursor passes the next mark, so kills land mid-stream; the
        // marks step through the stream (kills after its end still check that a
        // restart applies nothing twice).
        let mark = stride.min(events - 1);
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut at = next_offset(addr);
        while at.is_none_or(|o| o < mark) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
            at = next_offset(addr);
        }
        server.kill();
        if at.is_some_and(|o| o > 0 && o < events) {
            mid_stream += 1;
        }
        kills += 1;
        stride += events / (trials as i64 + 1);
        server = serve(&served, addr, &topic, &log);
    }
    let deadline = Instant::now() + Duration::from_secs(120);
    while next_offset(addr) != Some(events) {
        assert!(
            Instant::now() < deadline,
            "the ingest stopped at {:?} of {events}; see {}",
            next_offset(addr),
            log.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    server.kill();
    assert!(
        mid_stream >= 1,
        "no kill landed while the stream was being applied"
    );
    let got = image(&served, scratch.path());
    let want = replayed(&expected, &streams, scratch.path());
    assert!(
        got == want,
        "the ingested graph differs from the streams applied once ({kills} kills)"
    );
    eprintln!(
        "{} events applied exactly once and two bad messages skipped, across {kills} SIGKILLs ({mid_stream} mid-stream)",
        events - 2
    );
}

/// Each shard of `layout` (as split, before any event) with its share of the
/// streams applied in-process, routed as `kith produce ldbc --layout` routes them:
/// one image per shard, person first.
fn routed_replay(layout: &Path, streams: &Path, scratch: &Path) -> Vec<Vec<u8>> {
    use kith_ldbc::shard::{with_proxies, Placement, Shard, PLACEMENT_FILE};
    let mut placement = Placement::read(&layout.join(PLACEMENT_FILE)).expect("placement");
    let n = placement.forum_shards();
    let names: Vec<String> = std::iter::once(Shard::Person)
        .chain((0..n).map(Shard::Forum))
        .map(Shard::name)
        .collect();
    let dbs: Vec<Database> = names
        .iter()
        .map(|name| {
            let options = DatabaseOptions::default();
            Database::open(&layout.join(name), options)
                .expect("opens")
                .0
        })
        .collect();
    let registry = Registry::with_builtins();
    for event in kith_ldbc::read_streams(streams).expect("reads the streams") {
        let ops = registry
            .build_update(event.procedure, &event.params)
            .expect("an update");
        let (db, ops) = match placement.route(&event).expect("routes") {
            Shard::Person => (&dbs[0], ops),
            Shard::Forum(i) => (&dbs[i + 1], with_proxies(ops)),
        };
        db.commit_one(&WriteBatch { ops }).expect("applies");
    }
    drop(dbs);
    names
        .iter()
        .map(|name| image(&layout.join(name), scratch))
        .collect()
}

#[test]
#[ignore = "needs a Kafka broker: scripts/kafka/test"]
fn sharded_ingest_applies_each_shards_partition_as_routed() {
    let broker = std::env::var("KITH_TEST_KAFKA")
        .expect("KITH_TEST_KAFKA names a broker (HOST:PORT): run this through scripts/kafka/test");
    let scratch = tempfile::tempdir().expect("tempdir");
    let path = |name: &str| scratch.path().join(name);
    let streams = shared().join("update_streams");
    run(&[
        "load",
        "ldbc",
        "--out",
        path("whole").to_str().expect("utf-8"),
        shared().join("vanilla").to_str().expect("utf-8"),
    ]);
    let layout = path("layout");
    run(&[
        "shard",
        "split",
        path("whole").to_str().expect("utf-8"),
        "--forum-shards",
        "2",
        "--out",
        layout.to_str().expect("utf-8"),
    ]);
    // The expected shards: a copy of the split, before the producer extends its
    // placement.
    let expected = path("expected");
    let copied = Command::new("cp")
        .args(["-r", layout.to_str().expect("utf-8")])
        .arg(&expected)
        .status()
        .expect("cp");
    assert!(copied.success());
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_nanos();
    let topic = format!("kafka://{broker}/sharded-ingest-{nanos}");
    // A plain (one-partition) topic is refused by a layout of three shards.
    let plain = format!("kafka://{broker}/sharded-plain-{nanos}");
    run(&[
        "produce",
        "ldbc",
        streams.to_str().expect("utf-8"),
        &plain,
        "--limit",
        "3",
    ]);
    let out = Command::new(KITH)
        .args(["produce", "ldbc", streams.to_str().expect("utf-8"), &plain])
        .args(["--layout", layout.to_str().expect("utf-8")])
        .output()
        .expect("runs");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && said.contains("3 are needed"),
        "{said}"
    );
    run(&[
        "produce",
        "ldbc",
        streams.to_str().expect("utf-8"),
        &topic,
        "--layout",
        layout.to_str().expect("utf-8"),
    ]);
    let url: kith_replication::KafkaUrl = topic.parse().expect("url");
    let ends: Vec<i64> = (0..3)
        .map(|p| {
            let reader =
                kith_replication::MessageReader::open_partition(&url, p, 0).expect("opens");
            reader.watermarks().expect("offsets").1
        })
        .collect();
    assert!(
        ends.iter().all(|&e| e > 0),
        "every shard gets events: {ends:?}"
    );

    // The forum shards as `kith serve`, the person shard inside the router (`kith
    // route --data`), each applying its own partition.
    let mut servers = Vec::new();
    let addrs: Vec<SocketAddr> = (0..3).map(|_| common::free_port()).collect();
    let forum_urls: Vec<String> = addrs[1..]
        .iter()
        .map(|a| format!("ws://{a}/v1/ws"))
        .collect();
    let route_log = path("route.log");
    let extra = ["--ingest".to_owned(), topic.clone()];
    let router = kith_bench::process::route(
        Path::new(KITH),
        kith_bench::process::Person::Data(&layout.join("person")),
        &forum_urls,
        addrs[0],
        &extra,
        &route_log,
    )
    .expect("kith route --data");
    servers.push((addrs[0], route_log, router, ends[0]));
    for (i, name) in ["forum-0", "forum-1"].iter().enumerate() {
        let log = path(&format!("{name}.log"));
        let server = serve(&layout.join(name), addrs[i + 1], &topic, &log);
        servers.push((addrs[i + 1], log, server, ends[i + 1]));
    }
    // One kill of a forum shard mid-stream: it resumes at its own cursor.
    let (addr, log, server, _) = &mut servers[1];
    while next_offset(*addr).is_none_or(|o| o < 1) {
        std::thread::sleep(Duration::from_millis(1));
    }
    server.kill();
    *server = serve(&layout.join("forum-0"), *addr, &topic, log);
    for (addr, log, _, end) in &servers {
        let deadline = Instant::now() + Duration::from_secs(120);
        while next_offset(*addr) != Some(*end) {
            assert!(
                Instant::now() < deadline,
                "the ingest stopped at {:?} of {end}; see {}",
                next_offset(*addr),
                log.display()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        assert_eq!(
            common::health_number(*addr, "failed"),
            Some(0),
            "{}",
            log.display()
        );
    }
    // The router answers over the shards as they are after the stream: one read
    // of each side checked against the whole graph with the stream applied.
    check_routed_reads(addrs[0], &path("whole"), &streams, scratch.path());
    for (_, _, server, _) in &mut servers {
        server.kill();
    }
    // A server that is no shard, pointed at the sharded topic, applies nothing and
    // says why.
    let addr = common::free_port();
    let log = path("whole.log");
    let mut plain = serve(&path("whole"), addr, &topic, &log);
    let deadline = Instant::now() + Duration::from_secs(30);
    let said = loop {
        let health = Command::new("curl")
            .args(["-sf", &format!("http://{addr}/health")])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        if health.contains("a sharded stream") || Instant::now() > deadline {
            break health;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(said.contains("a sharded stream"), "{said}");
    assert_eq!(common::health_number(addr, "applied"), Some(0), "{said}");
    plain.kill();
    let want = routed_replay(&expected, &streams, scratch.path());
    for (name, want) in ["person", "forum-0", "forum-1"].iter().zip(want) {
        let got = image(&layout.join(name), scratch.path());
        assert!(
            got == want,
            "{name} differs from its routed share applied once"
        );
    }
    eprintln!(
        "sharded ingest: partitions of {ends:?} events, each shard equal to its routed share"
    );
}

/// IS1 (person side) and IC9 (both sides) through the router at `addr` equal the
/// whole graph (`whole`, loaded, not yet updated) with the streams applied.
fn check_routed_reads(addr: SocketAddr, whole: &Path, streams: &Path, scratch: &Path) {
    let copy = scratch.join("whole-updated");
    let copied = Command::new("cp")
        .arg("-r")
        .arg(whole)
        .arg(&copy)
        .status()
        .expect("cp");
    assert!(copied.success());
    replayed(&copy, streams, scratch);
    let (db, _) = Database::open(&copy, DatabaseOptions::default()).expect("opens");
    let snapshot = db.store().snapshot();
    let registry = Registry::with_builtins();
    let events = kith_ldbc::read_streams(streams).expect("streams");
    // A person the stream added, and one it gave a new friend.
    let first = |procedure: &str, param: &str| {
        events
            .iter()
            .find(|e| e.procedure == procedure)
            .and_then(|e| e.params.iter().find(|(k, _)| k == param))
            .map(|(_, v)| v.clone())
            .expect("in the stream")
    };
    let (added, befriended) = (
        first("ldbc.iu1", "personId"),
        first("ldbc.iu8", "person1Id"),
    );
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let client = runtime
        .block_on(kith_client::Client::connect(
            kith_client::ClientConfig::new(format!("ws://{addr}/v1/ws")),
        ))
        .expect("connects to the router");
    for (procedure, params) in [
        ("ldbc.is1", vec![("personId".to_owned(), added.clone())]),
        (
            "ldbc.ic9",
            vec![
                ("personId".to_owned(), befriended),
                ("maxDate".to_owned(), kith_core::Value::Int(i64::MAX)),
            ],
        ),
    ] {
        let want = registry
            .call(&*snapshot, procedure, &params)
            .expect("one server");
        let got = runtime
            .block_on(client.call(procedure, params.clone()))
            .expect("the router answers");
        let want: Vec<Vec<kith_core::Value>> =
            want.rows().map(<[kith_core::Value]>::to_vec).collect();
        assert!(!want.is_empty(), "{procedure} {params:?} answers something");
        assert_eq!(got.rows, want, "{procedure} {params:?}");
    }
}
