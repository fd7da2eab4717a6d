//! The engine's stages point one way: parse -> bind -> plan -> execute, with the
//! front door (`engine.rs`, `stored.rs`) above them all. A stage that reaches up
//! (the binder planning, the executor running a `Prepared`) ties the stages into a
//! circle that the next optimiser would have to untie first; this test names the
//! file and the import that does.

use std::fs;
use std::path::Path;

/// Each stage's folder (or file) and the modules above it it must not name.
const RULES: &[(&str, &[&str])] = &[
    (
        "ast",
        &[
            "lexer",
            "parser",
            "binder",
            "planner",
            "executor",
            "procedures",
            "engine",
            "stored",
        ],
    ),
    (
        "parser",
        &[
            "binder",
            "planner",
            "executor",
            "procedures",
            "engine",
            "stored",
        ],
    ),
    (
        "catalog.rs",
        &[
            "binder",
            "planner",
            "executor",
            "procedures",
            "engine",
            "stored",
        ],
    ),
    (
        "binder",
        &["planner", "executor", "procedures", "engine", "stored"],
    ),
    ("planner", &["executor", "procedures", "engine", "stored"]),
    // Notifications are noted by the parser: below it, above only the syntax tree.
    (
        "notices",
        &[
            "parser",
            "binder",
            "planner",
            "executor",
            "procedures",
            "engine",
            "stored",
        ],
    ),
    ("procedures.rs", &["executor", "engine", "stored"]),
    ("executor", &["engine", "stored"]),
];

fn sources(path: &Path, out: &mut Vec<std::path::PathBuf>) {
    if path.is_file() {
        out.push(path.to_owned());
        return;
    }
    for entry in fs::read_dir(path).expect("a source folder") {
        sources(&entry.expect("an entry").path(), out);
    }
}

#[test]
fn no_stage_imports_a_stage_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for (stage, above) in RULES {
        let mut files = Vec::new();
        sources(&src.join(stage), &mut files);
        assert!(!files.is_empty(), "no sources for {stage}");
        for file in files {
            let text = fs::read_to_string(&file).expect("a source file");
            for (n, line) in text.lines().enumerate() {
                for up in *above {
                    if line.contains(&format!("crate::{up}::"))
                        || line.contains(&format!("crate::{up};"))
                    {
                        found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                    }
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "imports that run back up:\n{}",
        found.join("\n")
    );
}
