//! Every fuzz target over its committed corpus (`fuzz/corpus/<target>/`) and the
//! inputs of bugs found before (`fuzz/regressions/<target>/`), then a short run of
//! byte mutations of those inputs: on the stable toolchain, in the gate. The long,
//! coverage-guided runs are `scripts/fuzz` (libFuzzer through cargo fuzz).

use std::path::{Path, PathBuf};

use kith_fuzz::TARGETS;

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

fn inputs(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<(PathBuf, Vec<u8>)> = entries
        .map(|e| e.expect("a corpus entry").path())
        .map(|p| {
            let bytes = std::fs::read(&p).expect("a corpus input");
            (p, bytes)
        })
        .collect();
    out.sort();
    out
}

/// Mutations per target after the replay (`KITH_FUZZ_MUTATIONS` overrides).
fn mutations() -> usize {
    std::env::var("KITH_FUZZ_MUTATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000)
}

#[test]
fn every_target_has_a_corpus_and_a_driver() {
    for t in TARGETS {
        let corpus = inputs(&fuzz_dir().join("corpus").join(t.name));
        assert!(!corpus.is_empty(), "fuzz/corpus/{} is empty", t.name);
        let driver = fuzz_dir()
            .join("fuzz_targets")
            .join(format!("{}.rs", t.name));
        assert!(
            driver.exists(),
            "{} has no cargo fuzz driver",
            driver.display()
        );
    }
}

#[test]
fn every_corpus_and_regression_input_runs_clean() {
    for t in TARGETS {
        for kind in ["corpus", "regressions"] {
            for (path, bytes) in inputs(&fuzz_dir().join(kind).join(t.name)) {
                let outcome = std::panic::catch_unwind(|| (t.run)(&bytes));
                assert!(outcome.is_ok(), "{}: {} fails", t.name, path.display());
            }
        }
    }
}

#[test]
fn mutated_corpus_inputs_run_clean() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for t in TARGETS {
        let corpus: Vec<Vec<u8>> = inputs(&fuzz_dir().join("corpus").join(t.name))
            .into_iter()
            .map(|(_, b)| b)
            .collect();
        for _ in 0..mutations() {
            let mut input = corpus[rng.below(corpus.len())].clone();
            let other = &corpus[rng.below(corpus.len())];
            rng.mutate(&mut input, other);
            let outcome = std::panic::catch_unwind(|| (t.run)(&input));
            assert!(
                outcome.is_ok(),
                "{}: a mutated input fails: {}",
                t.name,
                hex(&input)
            );
        }
    }
}

/// xorshift64*: a fixed, reproducible stream.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// One to four edits: flip a bit, set a byte to an edge value, insert or delete
    /// a run, or splice in a piece of another input.
    fn mutate(&mut self, input: &mut Vec<u8>, other: &[u8]) {
        for _ in 0..1 + self.below(4) {
            let at = self.below(input.len() + 1);
            match self.below(5) {
                0 if at < input.len() => input[at] ^= 1 << self.below(8),
                1 if at < input.len() => input[at] = [0, 0x7F, 0x80, 0xFF][self.below(4)],
                2 => {
                    let n = 1 + self.below(8);
                    let byte = self.next() as u8;
                    input.splice(at..at, std::iter::repeat_n(byte, n));
                }
                3 if at < input.len() => {
                    let end = (at + 1 + self.below(16)).min(input.len());
                    input.drain(at..end);
                }
                _ if !other.is_empty() => {
                    let from = self.below(other.len());
                    let end = (from + 1 + self.below(32)).min(other.len());
                    input.splice(at..at, other[from..end].iter().copied());
                }
                _ => {}
            }
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
