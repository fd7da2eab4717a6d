//! Reading the official test data set's CSV files, for the tests that compute their
//! own oracle from them.

use std::path::{Path, PathBuf};

pub fn vanilla() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/ldbc-snb-interactive-test/vanilla")
}

/// The `|`-separated rows of a data file (`dynamic/person`, `static/place`, ...),
/// header skipped.
pub fn rows(stem: &str) -> Vec<Vec<String>> {
    let path = vanilla().join(format!("{stem}_0_0.csv"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .skip(1)
        .map(|l| l.split('|').map(str::to_owned).collect())
        .collect()
}

pub fn int(text: &str) -> i64 {
    text.parse()
        .unwrap_or_else(|e| panic!("{text:?} is not an integer: {e}"))
}
