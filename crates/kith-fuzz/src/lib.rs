//! Fuzz targets: one per decoder that takes bytes from outside, and differential
//! targets where an oracle exists (`docs/reliability.md`).
//!
//! Each target is a plain function over bytes that must never panic, hang or allocate
//! without bound, whatever it is given; where a decoded value can be written back,
//! it also checks that the round trip gives the same value. The functions live here,
//! in the workspace, so that:
//!
//! - `fuzz/` (cargo fuzz, libFuzzer) drives them coverage-guided for long runs
//!   (`scripts/fuzz`);
//! - `tests/corpus.rs` replays every committed corpus input on the stable toolchain
//!   in the gate, so a fixed bug stays fixed.

mod input;
pub mod seeds;
pub mod targets;

/// A fuzz target: its name (the `fuzz/fuzz_targets/<name>.rs` and
/// `fuzz/corpus/<name>/` it has) and the function that runs one input.
pub struct Target {
    /// Its name.
    pub name: &'static str,
    /// Runs one input; panics on a bug.
    pub run: fn(&[u8]),
}

/// Every target.
pub const TARGETS: &[Target] = &[
    Target {
        name: "frame_header",
        run: targets::frame::frame_header,
    },
    Target {
        name: "ws_frames",
        run: targets::ws::ws_frames,
    },
    Target {
        name: "json",
        run: targets::codec::json,
    },
    Target {
        name: "bson",
        run: targets::codec::bson,
    },
    Target {
        name: "msgpack",
        run: targets::codec::msgpack,
    },
    Target {
        name: "decompress",
        run: targets::compress::decompress,
    },
    Target {
        name: "write_ops",
        run: targets::ops::write_ops,
    },
    Target {
        name: "packstream",
        run: targets::bolt::packstream,
    },
    Target {
        name: "bolt_messages",
        run: targets::bolt::bolt_messages,
    },
    Target {
        name: "cypher_parse",
        run: targets::cypher::cypher_parse,
    },
    Target {
        name: "cypher_plan",
        run: targets::cypher::cypher_plan,
    },
    Target {
        name: "cypher_diff",
        run: targets::cypher_diff::cypher_diff,
    },
    Target {
        name: "temporal",
        run: targets::temporal::temporal,
    },
    Target {
        name: "ldbc_csv",
        run: targets::ldbc::ldbc_csv,
    },
    Target {
        name: "wal_record",
        run: targets::wal::wal_record,
    },
    Target {
        name: "graph_file",
        run: targets::graph_file::graph_file,
    },
    Target {
        name: "storage_model",
        run: targets::storage_model::storage_model,
    },
];

/// The target named `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}
