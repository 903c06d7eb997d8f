//! Shared test helpers: run the real binary, find the shared real-data folder.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `jigsaw` binary built for these tests.
pub fn jigsaw() -> Command {
    Command::new(env!("CARGO_BIN_EXE_jigsaw"))
}

/// Runs `jigsaw ARGS…` and returns its output.
pub fn run(args: &[&str]) -> Output {
    jigsaw()
        .args(args)
        .output()
        .expect("the jigsaw binary runs")
}

/// The project's bundled samples.
pub fn sample(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join(rel)
}

/// A path in `../shared/data` (beside the checkout). Returns `None` when it is absent on a
/// developer machine, so the caller can skip; under `CI=true` an absent data set is a failure,
/// never a silent skip.
pub fn shared_data(rel: &str) -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    let p = root.join(rel);
    if p.exists() {
        return Some(p);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!(
            "shared data {} is missing, and CI=true requires it",
            p.display()
        );
    }
    eprintln!("skipping: shared data {} is not present", p.display());
    None
}

/// A fresh scratch folder, removed when dropped.
pub fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temp dir")
}

/// The images in `dir` traced once per test run with the default options, shared by every
/// test that checks that set (pikachu-100's 100 photos take half a minute to trace on two
/// cores, and three tests read them).
pub fn traced(dir: &Path) -> &'static jigsaw::piece_set::PieceSet {
    use std::sync::{Mutex, OnceLock};
    type Cell = OnceLock<jigsaw::piece_set::PieceSet>;
    static SETS: Mutex<Vec<(PathBuf, &'static Cell)>> = Mutex::new(Vec::new());
    let cell: &'static Cell = {
        let mut sets = SETS.lock().unwrap_or_else(|e| e.into_inner());
        match sets.iter().find(|(p, _)| p == dir) {
            Some((_, cell)) => cell,
            None => {
                let cell = Box::leak(Box::new(OnceLock::new()));
                sets.push((dir.to_path_buf(), cell));
                cell
            }
        }
    };
    cell.get_or_init(|| {
        let (files, errors) = jigsaw::vision::collect_inputs(&[dir.to_path_buf()]);
        assert!(errors.is_empty(), "{errors:?}");
        let opts = jigsaw::vision::PipelineOptions::default();
        let run = jigsaw::vision::trace_images(&files, &opts, &|_| {});
        assert!(run.failures.is_empty(), "{:?}", run.failures);
        run.set
    })
}
