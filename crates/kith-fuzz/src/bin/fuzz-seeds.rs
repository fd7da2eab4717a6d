//! Writes seed inputs for every fuzz target into `fuzz/corpus/<target>/`: valid
//! messages, files and texts for the fuzzer to start from (`scripts/fuzz seeds`).

use std::path::{Path, PathBuf};

use kith_fuzz::seeds;

fn main() -> std::io::Result<()> {
    let root: PathBuf = std::env::args().nth(1).map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus"),
        PathBuf::from,
    );
    for (target, inputs) in seeds::all() {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir)?;
        for (i, input) in inputs.iter().enumerate() {
            std::fs::write(dir.join(format!("seed-{i:03}")), input)?;
        }
        println!("{target}: {} seeds", inputs.len());
    }
    Ok(())
}
