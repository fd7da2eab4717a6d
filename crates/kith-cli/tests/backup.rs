//! `kith backup` and `kith restore` end to end through the real binary: backups taken
//! from a server while a client commits transactions are each consistent (the
//! invariant every transaction keeps holds in the restored graph), only an admin may
//! take one, and bad input is refused without leaving a directory behind.

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

mod common;
use common::{free_port, kith, wait_listening};

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn add_user(data: &Path, name: &str, role: &str, password: &str) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kith"))
        .args([
            "user",
            "add",
            name,
            "--role",
            role,
            "--data",
            s(data),
            "--password-stdin",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("runs kith user add");
    writeln!(child.stdin.take().expect("stdin"), "{password}").expect("password");
    assert!(child.wait().expect("waits").success());
}

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve(data: &Path, addr: std::net::SocketAddr) -> Server {
    let child = Command::new(env!("CARGO_BIN_EXE_kith"))
        .args([
            "serve",
            "--data",
            s(data),
            "--listen",
            &addr.to_string(),
            "--bolt-listen",
            "off",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts kith serve");
    wait_listening(addr, "kith serve");
    Server(child)
}

/// The counter and the number of items: every transaction adds one to each.
fn invariant(data: &Path) -> (String, bool) {
    let (ok, out) = kith(&[
        "query",
        s(data),
        "MATCH (c:Counter) OPTIONAL MATCH (i:Item) WITH c, count(i) AS items \
         RETURN c.n = items AS same, c.n AS n",
        "--json",
    ]);
    assert!(ok, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    (
        out.clone(),
        v["rows"][0][0] == serde_json::Value::Bool(true),
    )
}

#[test]
fn online_backups_are_consistent_and_restore() {
    let work = tempfile::tempdir().expect("tempdir");
    let data = work.path().join("data");
    let (ok, out) = kith(&["generate", "shindig", "--scale", "0.1", "--out", s(&data)]);
    assert!(ok, "{out}");
    add_user(&data, "ada", "admin", "ada-pw");
    add_user(&data, "rita", "reader", "rita-pw");
    let addr = free_port();
    let _server = serve(&data, addr);
    let ws = format!("ws://ada:ada-pw@{addr}/v1/ws");
    let (ok, out) = kith(&["query", &ws, "CREATE (:Counter {n: 0})"]);
    assert!(ok, "{out}");

    // A client commits transactions that keep count(Item) = Counter.n throughout.
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (stop, ws) = (stop.clone(), ws.clone());
        std::thread::spawn(move || {
            let mut commits = 0;
            while !stop.load(Ordering::Relaxed) {
                let q = "MATCH (c:Counter) SET c.n = c.n + 1 CREATE (:Item {seq: c.n})";
                let (ok, out) = kith(&["query", &ws, q]);
                assert!(ok, "{out}");
                commits += 1;
            }
            commits
        })
    };
    let http = format!("http://ada:ada-pw@{addr}");
    let mut versions = Vec::new();
    for i in 0..3 {
        std::thread::sleep(std::time::Duration::from_millis(300));
        let out_dir = work.path().join(format!("backup-{i}"));
        let (ok, out) = kith(&["backup", &http, "--out", s(&out_dir)]);
        assert!(ok, "{out}");
        assert!(!out.contains("ada-pw"), "the password is shown: {out}");
        let meta: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(out_dir.join("backup.json")).expect("backup.json"),
        )
        .expect("json");
        assert!(!meta.to_string().contains("ada-pw"));
        versions.push(meta["version"].as_u64().expect("version"));
        let restored = work.path().join(format!("restored-{i}"));
        let (ok, out) = kith(&["restore", s(&out_dir), "--data", s(&restored)]);
        assert!(ok, "{out}");
        let (said, holds) = invariant(&restored);
        assert!(holds, "backup {i} is not consistent: {said}");
    }
    stop.store(true, Ordering::Relaxed);
    let commits = writer.join().expect("writer");
    assert!(
        commits > 3,
        "the writer committed only {commits} transactions"
    );
    assert!(
        versions.windows(2).all(|w| w[0] < w[1]),
        "versions {versions:?} did not advance"
    );

    // Only an admin may take a backup; a wrong password says so; neither leaves a
    // directory.
    let denied = work.path().join("denied");
    let (ok, out) = kith(&[
        "backup",
        &format!("http://rita:rita-pw@{addr}"),
        "--out",
        s(&denied),
    ]);
    assert!(
        !ok && out.contains("needs an admin, and rita is a reader"),
        "{out}"
    );
    let (ok, out) = kith(&[
        "backup",
        &format!("http://ada:wrong@{addr}"),
        "--out",
        s(&denied),
    ]);
    assert!(!ok && out.contains("authentication failed"), "{out}");
    assert!(!out.contains("wrong@"), "the password is shown: {out}");
    assert!(!denied.exists());

    // The data directory is the server's: an offline backup of it is refused.
    let (ok, out) = kith(&["backup", s(&data), "--out", s(&denied)]);
    assert!(!ok && out.contains("a running server holds"), "{out}");
}

#[test]
fn offline_backups_and_bad_input() {
    let work = tempfile::tempdir().expect("tempdir");
    let data = work.path().join("data");
    let (ok, out) = kith(&["generate", "shindig", "--scale", "0.1", "--out", s(&data)]);
    assert!(ok, "{out}");
    let (ok, out) = kith(&[
        "query",
        s(&data),
        "CREATE (:Counter {n: 1}), (:Item {seq: 1})",
    ]);
    assert!(ok, "{out}");
    let backup = work.path().join("backup");
    let (ok, out) = kith(&["backup", s(&data), "--out", s(&backup)]);
    assert!(ok, "{out}");
    // A restore never writes into a directory that holds anything.
    let (ok, out) = kith(&["restore", s(&backup), "--data", s(&data)]);
    assert!(
        !ok && out.contains("already exists and is not empty"),
        "{out}"
    );
    let restored = work.path().join("restored");
    let (ok, out) = kith(&["restore", s(&backup), "--data", s(&restored)]);
    assert!(ok, "{out}");
    assert!(
        invariant(&restored).1,
        "the logged write is in the offline backup"
    );

    // A damaged backup is refused and leaves no data directory.
    let graph = backup.join("graph.kith");
    let bytes = std::fs::read(&graph).expect("read");
    std::fs::write(&graph, &bytes[..bytes.len() / 2]).expect("truncate");
    let again = work.path().join("again");
    let (ok, out) = kith(&["restore", s(&backup), "--data", s(&again)]);
    assert!(!ok && out.contains("does not load"), "{out}");
    assert!(!again.exists());
    let (ok, out) = kith(&["restore", s(&data), "--data", s(&again)]);
    assert!(!ok && out.contains("is not a kith backup"), "{out}");
    let (ok, out) = kith(&["backup", "/nonexistent/dir", "--out", s(&again)]);
    assert!(
        !ok && out.contains("neither a server's http(s):// address nor a data directory"),
        "{out}"
    );
}
