//! `kith serve` as a separate process on loopback, for the suites that measure
//! servers as a user runs them (replication, ingest) and for end-to-end tests.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `kith serve`, killed (SIGKILL) when dropped.
pub struct ServeProcess {
    child: Child,
    /// Where it listens for HTTP and WebSocket.
    pub addr: SocketAddr,
}

impl ServeProcess {
    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills it now (SIGKILL) and reaps it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ServeProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A loopback address nobody listens on now.
pub fn free_port() -> Result<SocketAddr, String> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| format!("finding a free port: {e}"))
}

/// Starts `kith` (the binary) serving `data` on `addr` without Bolt or users, with
/// `extra` flags, its log appended to `log`; returns once it listens (at most two
/// minutes: a large data directory takes a while to load).
pub fn serve(
    kith: &Path,
    data: &Path,
    addr: SocketAddr,
    extra: &[String],
    log: &Path,
) -> Result<ServeProcess, String> {
    let mut command = Command::new(kith);
    command
        .args(["serve", "--data"])
        .arg(data)
        .args(loopback(addr))
        .args(extra);
    spawn_listening(command, addr, log)
}

/// Starts `kith route` over the shards at these WebSocket URLs on `addr`; returns
/// once it listens.
pub fn route(
    kith: &Path,
    person: Person<'_>,
    forums: &[String],
    addr: SocketAddr,
    extra: &[String],
    log: &Path,
) -> Result<ServeProcess, String> {
    let mut command = Command::new(kith);
    command.arg("route");
    match person {
        Person::Url(url) => command.args(["--person", &url]),
        Person::Data(dir) => command.arg("--data").arg(dir),
    };
    command
        .args(["--forums", &forums.join(",")])
        .args(loopback(addr))
        .args(extra);
    spawn_listening(command, addr, log)
}

/// Where a router finds the person shard.
pub enum Person<'a> {
    /// A shard server's WebSocket URL.
    Url(String),
    /// Its data directory: the router holds it.
    Data(&'a Path),
}

/// Listen on `addr` without Bolt or users.
fn loopback(addr: SocketAddr) -> [String; 6] {
    [
        "--listen",
        &addr.to_string(),
        "--bolt-listen",
        "off",
        "--auth",
        "none",
    ]
    .map(str::to_owned)
}

/// Spawns `command` with its log appended to `log` and waits (at most two minutes:
/// a large data directory takes a while to load) until `addr` listens.
fn spawn_listening(
    mut command: Command,
    addr: SocketAddr,
    log: &Path,
) -> Result<ServeProcess, String> {
    let log_file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .map_err(|e| format!("{}: {e}", log.display()))?;
    let child = command
        .stdout(Stdio::null())
        .stderr(log_file)
        .spawn()
        .map_err(|e| format!("starting {command:?}: {e}"))?;
    let process = ServeProcess { child, addr };
    let deadline = Instant::now() + Duration::from_secs(120);
    while !listening(addr) {
        if Instant::now() > deadline {
            return Err(format!("{command:?} did not start; see {}", log.display()));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(process)
}

/// Waits (up to a minute) until the primary at `addr` serves its checkpoint: it has
/// reached Kafka, and a replica can start from it.
pub fn wait_for_checkpoint(addr: SocketAddr) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let ok = Command::new("curl")
            .args([
                "-sf",
                "-o",
                "/dev/null",
                &format!("http://{addr}/v1/checkpoint"),
            ])
            .status()
            .map_err(|e| format!("curl: {e}"))?
            .success();
        if ok {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err("the primary did not serve a checkpoint within 60 s".into());
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The body of `GET path` from the server at `addr` (`None` when it does not answer
/// with a success within 5 s). Blocking.
pub(crate) fn http_get(addr: SocketAddr, path: &str) -> Option<String> {
    let out = Command::new("curl")
        .args(["-sf", "--max-time", "5", &format!("http://{addr}{path}")])
        .output()
        .ok()?;
    out.status.success().then_some(())?;
    String::from_utf8(out.stdout).ok()
}

/// The first number after `"key":` in the `GET /health` answer of the server at
/// `addr`, searched from the section named `within` (e.g. `"ingest"`) when given.
pub fn health_number(addr: SocketAddr, within: Option<&str>, key: &str) -> Option<u64> {
    let text = http_get(addr, "/health")?;
    let from = match within {
        Some(section) => text.find(&format!("\"{section}\""))?,
        None => 0,
    };
    let text = &text[from..];
    let tag = format!("\"{key}\":");
    let at = text.find(&tag)? + tag.len();
    text[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .ok()
}

/// Whether something listens on `addr`. A connection to itself does not count: with
/// nothing listening yet, a loopback connect whose ephemeral source port happens to be
/// `addr`'s own "succeeds" by TCP simultaneous open.
pub(crate) fn listening(addr: std::net::SocketAddr) -> bool {
    TcpStream::connect(addr).is_ok_and(|s| s.local_addr().ok() != s.peer_addr().ok())
}
