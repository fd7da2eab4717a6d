//! `kith load ldbc` and `kith replay` end to end through the real binary: the test
//! data set loads, its update streams replay through the durable write path with no
//! failure, and what they added is there after a restart (read from the data
//! directory's checkpoint and log).

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::kith;

fn test_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/ldbc-snb-interactive-test")
}

#[test]
fn load_then_replay_the_update_streams() {
    let work = tempfile::tempdir().expect("tempdir");
    let dir = work.path().join("ldbc");
    let src = test_data().join("vanilla");
    let (ok, out) = kith(&[
        "load",
        "ldbc",
        src.to_str().expect("utf-8"),
        "--out",
        dir.to_str().expect("utf-8"),
    ]);
    assert!(ok, "{out}");
    assert!(out.contains("elements/s"), "{out}");

    // Loading again into the same directory is refused, and leaves it as it was.
    let (ok, out) = kith(&[
        "load",
        "ldbc",
        src.to_str().expect("utf-8"),
        "--out",
        dir.to_str().expect("utf-8"),
    ]);
    assert!(
        !ok && out.contains("already exists and is not empty"),
        "{out}"
    );

    // A person the stream adds (IU1, first line of updateStream_0_0_person.csv) is
    // not there before the replay.
    let is1 = |dir: &Path| {
        kith(&[
            "call",
            dir.to_str().expect("utf-8"),
            "ldbc.is1",
            "personId=10995116277817",
            "--json",
        ])
    };
    let (ok, out) = is1(&dir);
    assert!(
        !ok && out.contains("no Person with id 10995116277817"),
        "{out}"
    );

    let streams = test_data().join("update_streams");
    let (ok, out) = kith(&[
        "replay",
        dir.to_str().expect("utf-8"),
        streams.to_str().expect("utf-8"),
    ]);
    assert!(ok, "{out}");
    assert!(out.contains(" 0 failed"), "{out}");

    let (ok, out) = is1(&dir);
    assert!(ok, "{out}");
    assert!(out.contains("Akira") && out.contains("Ito"), "{out}");
    // IU1 stored its dates as Int epoch milliseconds (the official Cypher schema), so
    // the birthday and creationDate columns print as integers, not ISO date-times.
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let row = &json["rows"][0];
    assert_eq!(row[2], serde_json::json!(365126400000_i64), "{out}");
    assert_eq!(row[7], serde_json::json!(1290926804528_i64), "{out}");

    // A stream with a malformed line is refused before anything is applied, naming
    // the file, line and column.
    let bad = work.path().join("bad-streams");
    std::fs::create_dir(&bad).expect("mkdir");
    std::fs::write(
        bad.join("updateStream_0_0_person.csv"),
        "1290926804528|0|8|10995116277817|4398046511192|1290926804528\n1290926804529|0|8|1|x|1\n",
    )
    .expect("writes");
    let (ok, out) = kith(&[
        "replay",
        dir.to_str().expect("utf-8"),
        bad.to_str().expect("utf-8"),
    ]);
    assert!(!ok, "{out}");
    assert!(
        out.contains("updateStream_0_0_person.csv, line 2, column 5 (person2Id)"),
        "{out}"
    );
}

/// `kith replay ws://...`: the update stream goes through a running server's write
/// queue while another client reads; the reads keep being answered, and at the end
/// the server holds what the stream added.
#[test]
fn replay_to_a_running_server_while_reading() {
    use std::io::{Read, Write};
    use std::net::{TcpListener, TcpStream};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    let work = tempfile::tempdir().expect("tempdir");
    let dir = work.path().join("ldbc");
    let (ok, out) = kith(&[
        "load",
        "ldbc",
        test_data().join("vanilla").to_str().expect("utf-8"),
        "--out",
        dir.to_str().expect("utf-8"),
    ]);
    assert!(ok, "{out}");
    let addr = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port");
    let mut server = Command::new(env!("CARGO_BIN_EXE_kith"))
        .args(["serve", "--data"])
        .arg(&dir)
        .args([
            "--listen",
            &addr.to_string(),
            "--workers",
            "2",
            "--bolt-listen",
            "off",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("starts kith serve");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !common::listening(addr) {
        assert!(Instant::now() < deadline, "kith serve did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    // One HTTP call (a new connection each time, Connection: close).
    let http = move |path: &str, body: &str| -> String {
        let mut s = TcpStream::connect(addr).expect("connects");
        write!(
            s,
            "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .expect("sends");
        let mut answer = String::new();
        s.read_to_string(&mut answer).expect("reads");
        answer
    };

    let stop = Arc::new(AtomicBool::new(false));
    let reader = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut answered = 0;
            while !stop.load(Ordering::Relaxed) {
                let a = http("/v1/call/ldbc.is3", r#"{"personId": 8796093022357}"#);
                assert!(a.starts_with("HTTP/1.1 200"), "{a}");
                answered += 1;
            }
            answered
        })
    };
    let url = format!("ws://{addr}/v1/ws");
    let streams = test_data().join("update_streams");
    let (ok, out) = kith(&["replay", &url, streams.to_str().expect("utf-8")]);
    stop.store(true, Ordering::Relaxed);
    let answered = reader.join().expect("reader");
    assert!(ok, "{out}");
    assert!(out.contains(" 0 failed"), "{out}");
    assert!(answered > 0, "no read was answered during the replay");

    // The person IU1 added, read back from the server; and an update procedure
    // called over HTTP is a durable write answered with its version.
    let a = http("/v1/call/ldbc.is1", r#"{"personId": 10995116277817}"#);
    assert!(a.contains("Akira"), "{a}");
    let a = http(
        "/v1/call/ldbc.iu8",
        r#"{"person1Id": 10995116277817, "person2Id": 8796093022357, "creationDate": 1300000000000}"#,
    );
    assert!(
        a.starts_with("HTTP/1.1 200") && a.contains("version"),
        "{a}"
    );
    let a = http(
        "/v1/call/ldbc.iu8",
        r#"{"person1Id": 10995116277817, "person2Id": 42, "creationDate": 1300000000000}"#,
    );
    assert!(
        !a.starts_with("HTTP/1.1 200"),
        "a friendship with a missing person: {a}"
    );
    let _ = server.kill();
    let _ = server.wait();
}
