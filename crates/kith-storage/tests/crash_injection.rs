//! Crash injection below the log (`docs/reliability.md`, "Crash injection"): the
//! database runs on a simulated disk ([`SimDisk`]) that fails with EIO, fills up,
//! crashes the machine, or panics (a bug below the store, which the server's writer
//! survives) at one chosen write, sync, create, rename, removal or truncation. A seeded workload of transactions and checkpoints is run once without
//! a fault to count those points, then once per point and fault. After each, the
//! directory is recovered (as the process restarting, and as the machine restarting
//! with only what was synced and a torn part of the rest) and must hold exactly a
//! prefix of the committed transactions that includes every acknowledged one:
//! nothing acknowledged lost, nothing half-applied, nothing applied twice.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::{Arc, Once};

use kith_core::{GraphView, Value};
use kith_storage::disk::{Fault, SimDisk, SIMULATED_PANIC};
use kith_storage::{Database, DatabaseOptions, NodeRef, Snapshot, Store, WriteBatch, WriteOp};

const DIR: &str = "/data";

/// One step of a workload.
#[derive(Clone, Debug)]
enum Step {
    Commit(Vec<WriteBatch>),
    Checkpoint,
}

/// A seeded workload: groups of one to three transactions, each creating a node
/// numbered `tx` and perhaps linking it to and updating an earlier one (which may be
/// refused if that one was never committed), with checkpoints between.
fn workload(seed: u64, steps: usize) -> Vec<Step> {
    let mut rng = seed | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut tx = 0i64;
    (0..steps)
        .map(|_| {
            if next() % 7 == 0 {
                return Step::Checkpoint;
            }
            let group = (0..1 + next() % 3)
                .map(|_| {
                    tx += 1;
                    let mut ops = vec![WriteOp::CreateNode {
                        labels: vec!["T".into()],
                        properties: vec![
                            ("id".into(), Value::Int(tx)),
                            (
                                "text".into(),
                                Value::string("x".repeat((next() % 200) as usize)),
                            ),
                        ],
                    }];
                    if tx > 1 && next() % 2 == 0 {
                        let earlier = NodeRef::ById {
                            label: "T".into(),
                            id: 1 + (next() % (tx as u64 - 1)) as i64,
                        };
                        ops.push(WriteOp::CreateRel {
                            rel_type: "R".into(),
                            src: NodeRef::Created(0),
                            dst: earlier.clone(),
                            properties: Vec::new(),
                        });
                        ops.push(WriteOp::SetNodeProperty {
                            node: earlier,
                            key: "seen".into(),
                            value: Value::Int(tx),
                        });
                    }
                    WriteBatch { ops }
                })
                .collect();
            Step::Commit(group)
        })
        .collect()
}

fn options(disk: &SimDisk) -> DatabaseOptions {
    DatabaseOptions {
        disk: Arc::new(disk.clone()),
        ..DatabaseOptions::default()
    }
}

/// What a run acknowledged, and the groups that failed since the last success (any
/// one of which a crash may have left whole on the disk).
struct Outcome {
    /// The graph of every acknowledged transaction, applied in order.
    acked: Store,
    /// Failed groups since the last logged one: their transactions.
    in_doubt: Vec<Vec<WriteBatch>>,
}

/// Runs the workload until its end or the crash; a full disk gets its space back
/// three steps after it filled.
fn run(disk: &SimDisk, steps: &[Step]) -> Outcome {
    let mut outcome = Outcome {
        acked: Store::new(Snapshot::empty()),
        in_doubt: Vec::new(),
    };
    // A fault while a fresh directory is made: nothing was committed.
    let Ok(Ok((db, _))) = guarded(|| Database::open(Path::new(DIR), options(disk))) else {
        return outcome;
    };
    let mut full_for = None;
    for step in steps {
        if disk.crashed() {
            break;
        }
        if let Some(n) = full_for.as_mut() {
            *n += 1;
            if *n == 3 {
                disk.free_space();
            }
        }
        match step {
            Step::Checkpoint => {
                let _ = guarded(|| db.checkpoint());
            }
            Step::Commit(group) => {
                let refs: Vec<&WriteBatch> = group.iter().collect();
                // A commit that panicked is one that failed: never acknowledged.
                let committed = guarded(|| db.commit(&refs)).unwrap_or(Err(
                    kith_storage::StorageError::CapacityExceeded("panicked"),
                ));
                match committed {
                    Ok(results) => {
                        outcome.in_doubt.clear();
                        for (batch, result) in group.iter().zip(results) {
                            let shadow = outcome.acked.apply(batch);
                            match (result, shadow) {
                                (Ok(a), Ok(b)) => assert_eq!(a.version, b.version, "versions"),
                                (Err(_), Err(_)) => {}
                                (a, b) => {
                                    panic!("the database and its shadow disagree: {a:?} / {b:?}")
                                }
                            }
                        }
                    }
                    Err(e) => {
                        if e.to_string().contains("No space left") {
                            full_for.get_or_insert(0);
                        }
                        // Reads go on while writes fail.
                        assert_eq!(
                            db.store().snapshot().version(),
                            outcome.acked.snapshot().version()
                        );
                        outcome.in_doubt.push(group.clone());
                    }
                }
            }
        }
    }
    let _ = guarded(move || drop(db));
    outcome
}

/// Runs `f`, catching a [`Fault::Panic`] (whose message the panic hook keeps quiet;
/// any other panic is reported as usual and fails the test).
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, ()> {
    static QUIET: Once = Once::new();
    QUIET.call_once(|| {
        let report = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if info.payload().downcast_ref::<String>().map(String::as_str) != Some(SIMULATED_PANIC)
            {
                report(info);
            }
        }));
    });
    catch_unwind(AssertUnwindSafe(f)).map_err(|panic| {
        let simulated = panic.downcast_ref::<String>().map(String::as_str) == Some(SIMULATED_PANIC);
        if !simulated {
            std::panic::resume_unwind(panic);
        }
    })
}

/// Nodes as (id, seen, text length) and relationships as (from id, to id).
type Digest = (Vec<(i64, Option<Value>, usize)>, Vec<(i64, i64)>);

/// A version's content by transaction number (ids may be laid out differently
/// after a checkpoint): each node's `id`, `seen` and text length, each relationship
/// by its ends' ids.
fn digest(g: &dyn GraphView) -> Digest {
    let key = |k: &str| g.prop_key_id(k);
    let id = |n| match key("id").and_then(|k| g.node_property(n, k)) {
        Some(Value::Int(i)) => i,
        other => panic!("a node without an integer id: {other:?}"),
    };
    let mut nodes: Vec<_> = g
        .node_ids()
        .map(|n| {
            let seen = key("seen").and_then(|k| g.node_property(n, k));
            let text = key("text")
                .and_then(|k| g.node_property(n, k))
                .map_or(0, |v| format!("{v:?}").len());
            (id(n), seen, text)
        })
        .collect();
    nodes.sort_by_key(|n| n.0);
    let mut rels = Vec::new();
    for n in g.node_ids() {
        for t in g.rel_types_at(n, kith_core::Direction::Out) {
            for e in g.neighbors(n, t, kith_core::Direction::Out) {
                rels.push((id(n), id(e.node)));
            }
        }
    }
    rels.sort();
    (nodes, rels)
}

/// What the recovered directory may hold: the acknowledged transactions, or those
/// plus one group in doubt applied whole.
fn candidates(outcome: &Outcome) -> Vec<Digest> {
    let acked = outcome.acked.snapshot();
    let mut out = vec![digest(&*acked)];
    for group in &outcome.in_doubt {
        let store = Store::new(Snapshot::clone(&acked));
        for batch in group {
            let _ = store.apply(batch);
        }
        out.push(digest(&*store.snapshot()));
    }
    out
}

/// Recovers the directory and checks it holds one of the candidates with every
/// acknowledged commit; recovers it again (the process restarting) and after
/// another crash (recovery's own writes must be durable): the same state each time;
/// then it takes new writes.
fn check(disk: &SimDisk, outcome: &Outcome, what: &str) {
    let open = |disk: &SimDisk, how: &str| {
        Database::open(Path::new(DIR), options(disk))
            .unwrap_or_else(|e| panic!("{what}, {how}: recovery failed: {e}"))
            .0
    };
    let db = open(disk, "first recovery");
    let got = db.store().snapshot();
    let acked = outcome.acked.snapshot();
    let found = digest(&*got);
    assert!(
        candidates(outcome).contains(&found),
        "{what}: recovered version {} is no prefix of the commits (acknowledged: version {})",
        got.version(),
        acked.version()
    );
    assert!(
        got.version() >= acked.version(),
        "{what}: an acknowledged transaction was lost"
    );
    drop(db);
    let again = open(disk, "second recovery");
    assert_eq!(
        digest(&*again.store().snapshot()),
        found,
        "{what}: a second recovery differs"
    );
    drop(again);
    let db = open(&disk.crash(), "recovery after a crash after recovery");
    assert_eq!(
        digest(&*db.store().snapshot()),
        found,
        "{what}: recovery's work was not durable"
    );
    let probe = WriteBatch {
        ops: vec![WriteOp::CreateNode {
            labels: vec!["T".into()],
            properties: vec![("id".into(), Value::Int(1_000_000))],
        }],
    };
    let info = db
        .commit_one(&probe)
        .unwrap_or_else(|e| panic!("{what}: the recovered database refuses writes: {e}"));
    assert_eq!(info.version, got.version() + 1, "{what}: the next version");
}

/// Crashes at every point of recovering `disk`, then recovers again and checks.
fn crash_during_recovery(disk: &SimDisk, outcome: &Outcome, what: &str) -> usize {
    let clean = disk.fork();
    let base = clean.points();
    drop(Database::open(Path::new(DIR), options(&clean)));
    let points = clean.points() - base;
    for k in 0..points {
        let fork = disk.fork();
        fork.fail_at(base + k, Fault::Crash);
        drop(Database::open(Path::new(DIR), options(&fork)));
        check(
            &fork.crash(),
            outcome,
            &format!("{what}, crashed at recovery point {k}"),
        );
    }
    points as usize
}

/// Faults at the given points: run, then recover both ways (and, after a machine
/// crash, crash recovery itself at each of its points). Returns the recoveries run.
fn trial(seed: u64, steps: &[Step], faults: &[(u64, Fault)]) -> usize {
    let disk = SimDisk::new(seed ^ faults[0].0.wrapping_mul(0x9E37_79B9));
    for &(point, fault) in faults {
        disk.fail_at(point, fault);
    }
    let outcome = run(&disk, steps);
    let what = format!("seed {seed}, {faults:?}");
    let after_crash = disk.crash();
    let mut recoveries = 1;
    if !disk.crashed() {
        // The process restarts; the machine did not stop: the page cache survives
        // (and a full disk has room again; faults planned past the run's end are
        // dropped).
        let restarted = disk.fork();
        restarted.free_space();
        check(&restarted, &outcome, &format!("{what}, process restart"));
        recoveries += 1;
    }
    check(&after_crash, &outcome, &format!("{what}, machine restart"));
    if faults.iter().any(|(_, f)| *f == Fault::Crash) {
        recoveries += crash_during_recovery(&after_crash, &outcome, &what);
    }
    recoveries
}

fn seeds() -> u64 {
    std::env::var("KITH_CRASH_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3)
}

#[test]
fn every_fault_at_every_point_recovers_a_prefix_with_every_acknowledged_commit() {
    let (mut trials, mut recoveries) = (0, 0);
    for seed in 1..=seeds() {
        let steps = workload(seed, 24);
        let clean = SimDisk::new(seed);
        let outcome = run(&clean, &steps);
        check(
            &clean.crash(),
            &outcome,
            &format!("seed {seed}, no fault, machine restart"),
        );
        let points = clean.points();
        for point in 0..points {
            // One fault at every point; then a failure followed by a crash a few
            // operations later (while the writer cuts its tail or retries).
            let later = point + 1 + (point * 7 + seed) % 12;
            for faults in [
                vec![(point, Fault::Crash)],
                vec![(point, Fault::Error)],
                vec![(point, Fault::Full)],
                vec![(point, Fault::Error), (later, Fault::Crash)],
                vec![(point, Fault::Full), (later, Fault::Crash)],
                vec![(point, Fault::Panic)],
                vec![(point, Fault::Panic), (later, Fault::Crash)],
            ] {
                recoveries += trial(seed, &steps, &faults);
                trials += 1;
            }
        }
    }
    eprintln!(
        "crash injection: {trials} trials, {recoveries} recoveries checked; every one held a prefix with every acknowledged commit"
    );
}

#[test]
fn a_full_disk_refuses_writes_clearly_keeps_reads_and_recovers_when_space_returns() {
    let disk = SimDisk::new(7);
    let (db, _) = Database::open(Path::new(DIR), options(&disk)).expect("opens");
    let node = |id| WriteBatch {
        ops: vec![WriteOp::CreateNode {
            labels: vec!["T".into()],
            properties: vec![("id".into(), Value::Int(id))],
        }],
    };
    db.commit_one(&node(1)).expect("a first commit");
    disk.fail_at(disk.points(), Fault::Full);
    for id in 2..5 {
        let e = db.commit_one(&node(id)).expect_err("the disk is full");
        assert!(
            e.to_string().contains("No space left on device"),
            "a clear error: {e}"
        );
        assert_eq!(
            db.store().snapshot().node_count(),
            1,
            "reads go on, nothing half-written shows"
        );
    }
    disk.free_space();
    let info = db
        .commit_one(&node(5))
        .expect("space is back: writes go on without a restart");
    assert_eq!(info.version, 2);
    db.checkpoint().expect("a checkpoint");
    drop(db);
    let (db, _) = Database::open(Path::new(DIR), options(&disk.crash())).expect("recovers");
    let snapshot = db.store().snapshot();
    let t = snapshot.label_id("T").expect("the label");
    assert!(snapshot.node_by_id(t, 1).is_some() && snapshot.node_by_id(t, 5).is_some());
    assert_eq!(snapshot.node_count(), 2, "the refused writes left nothing");
}
