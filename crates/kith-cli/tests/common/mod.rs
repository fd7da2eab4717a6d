//! What the end-to-end tests of the `kith` binary share.

use std::process::Command;

/// Runs the real binary; whether it succeeded, and stdout then stderr as text.
#[allow(dead_code)]
pub fn kith(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kith"))
        .args(args)
        .output()
        .expect("runs kith");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// A loopback port nobody listens on now.
#[allow(dead_code)]
pub fn free_port() -> std::net::SocketAddr {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
}

/// Whether something listens on `addr`. A connection to itself does not count: with
/// nothing listening yet, a loopback connect whose ephemeral source port happens to be
/// `addr`'s own (the port was just free) "succeeds" by TCP simultaneous open, and a
/// test that took that for the server went on to find it refusing (seen under load).
#[allow(dead_code)]
pub fn listening(addr: std::net::SocketAddr) -> bool {
    std::net::TcpStream::connect(addr).is_ok_and(|s| s.local_addr().ok() != s.peer_addr().ok())
}

/// Waits (up to a minute) until something listens on `addr`.
#[allow(dead_code)]
pub fn wait_listening(addr: std::net::SocketAddr, what: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !listening(addr) {
        assert!(
            std::time::Instant::now() < deadline,
            "{what} did not start listening on {addr}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The first number after `"key":` in the server's `GET /health` answer.
#[allow(dead_code)]
pub fn health_number(addr: std::net::SocketAddr, key: &str) -> Option<u64> {
    kith_bench::process::health_number(addr, None, key)
}
