//! What the end-to-end tests of the `kith` binary share.

use std::process::Command;

/// Runs the real binary; whether it succeeded, and stdout then stderr as text.
pub fn kith(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kith"))
        .args(args)
        .output()
        .expect("runs kith");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}
