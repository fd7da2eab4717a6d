//! The LDBC CSV loader (`kith load ldbc`): one of the data set's files replaced by the
//! input, the others small and valid.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::input::choose;

/// The official LDBC SNB test data (`../shared/data`, beside the repository).
pub fn test_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/ldbc-snb-interactive-test/vanilla")
}

/// Lines of each file the fixed data set keeps (with its header).
const LINES_KEPT: usize = 6;

/// A data set of every file's first lines, made once per process: each file's
/// relative path and kept text, and the directory.
struct Fixture {
    dir: tempfile::TempDir,
    files: Vec<(PathBuf, String)>,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a scratch directory");
        let mut files = Vec::new();
        for sub in ["static", "dynamic"] {
            std::fs::create_dir_all(dir.path().join(sub)).expect("a scratch directory");
            let mut names: Vec<PathBuf> = std::fs::read_dir(test_data().join(sub))
                .expect("the LDBC test data beside the repository (../shared/data)")
                .map(|e| e.expect("a directory entry").path())
                .collect();
            names.sort();
            for path in names {
                let text = std::fs::read_to_string(&path).expect("the test data reads");
                let kept: String = text
                    .lines()
                    .take(LINES_KEPT)
                    .map(|l| format!("{l}\n"))
                    .collect();
                let rel = Path::new(sub).join(path.file_name().expect("a file name"));
                std::fs::write(dir.path().join(&rel), &kept).expect("a scratch file");
                files.push((rel, kept));
            }
        }
        Fixture { dir, files }
    })
}

/// The relative path of every file the target may replace, in the order the first
/// input byte picks them.
pub fn files() -> Vec<PathBuf> {
    fixture().files.iter().map(|(p, _)| p.clone()).collect()
}

/// Loads the data set with one file replaced: a graph or an error naming a file; the
/// file is put back after.
pub fn ldbc_csv(data: &[u8]) {
    let fixture = fixture();
    let Some((i, content)) = choose(data, fixture.files.len()) else {
        return;
    };
    let (rel, kept) = &fixture.files[i];
    let path = fixture.dir.path().join(rel);
    std::fs::write(&path, content).expect("a scratch file");
    let loaded = kith_ldbc::load(fixture.dir.path());
    std::fs::write(&path, kept).expect("a scratch file");
    match loaded {
        Ok((graph, stats)) => {
            assert_eq!(graph.nodes.len(), stats.nodes);
            // What loads also becomes a snapshot, or is refused with a reason.
            let _ = kith_storage::Snapshot::from_raw(graph);
        }
        Err(e) => assert!(!e.reason.is_empty(), "an error without a reason"),
    }
}
