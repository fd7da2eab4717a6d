//! `kith load ldbc` and `kith replay` end to end through the real binary: the test
//! data set loads, its update streams replay through the durable write path with no
//! failure, and what they added is there after a restart (read from the data
//! directory's checkpoint and log).

use std::path::{Path, PathBuf};
use std::process::Command;

fn kith(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kith"))
        .args(args)
        .output()
        .expect("runs kith");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

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
