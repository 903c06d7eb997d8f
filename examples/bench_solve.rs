//! `scripts/bench-solve`: assembly timings and accuracy on generated classic puzzles and on
//! white-1000. Prints one table row per puzzle.

use jigsaw::assembly::assemble;
use jigsaw::synth::{generate, write, Kind, Params};
use jigsaw::vision::{collect_inputs, trace_images, PipelineOptions};
use std::path::PathBuf;
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![100, 500, 1000]
    } else {
        sizes
    };
    println!(
        "{:<24} {:>6} {:>8} {:>9} {:>10} {:>9} {:>8} {:>7} {:>9} {:>8}",
        "puzzle",
        "pieces",
        "front_s",
        "cands_s",
        "compare_s",
        "grow_s",
        "total_s",
        "placed",
        "neighbour",
        "clusters"
    );
    let tmp = tempfile::tempdir()?;
    for &n in &sizes {
        let mut p = Params::new(Kind::Classic, n, 11);
        p.px_per_piece = 120.0;
        let out = generate(&p)?;
        let dir = tmp.path().join(format!("classic-{n}"));
        write(&out, &dir, false)?;
        let files: Vec<PathBuf> = out.images.iter().map(|i| dir.join(&i.name)).collect();
        row(&format!("classic-{n} scan"), &files, |a| {
            jigsaw::score::synthetic::score(a, &out.truth)
                .map(|s| s.neighbour_accuracy)
                .unwrap_or(0.0)
        });
    }
    let white = PathBuf::from("../shared/data/real/roksenhorn-puzzle-bot/white-1000");
    if white.is_dir() {
        let (files, _) = collect_inputs(&[white.join("piece_masks_png")]);
        let truth = jigsaw::score::real::white1000(&white.join("6_solution"))?;
        row("white-1000 masks", &files, |a| {
            jigsaw::score::grid::score(a, &truth).neighbour_accuracy
        });
    }
    Ok(())
}

fn row(name: &str, files: &[PathBuf], accuracy: impl Fn(&jigsaw::assembly::Assembly) -> f64) {
    let t0 = Instant::now();
    let run = trace_images(files, &PipelineOptions::default(), &|_| {});
    let front = t0.elapsed().as_secs_f64();
    let report = assemble(&run.set);
    let t = &report.timings;
    let a = &report.assembly;
    println!(
        "{:<24} {:>6} {:>8.2} {:>9.3} {:>10.3} {:>9.3} {:>8.2} {:>7} {:>8.1}% {:>8}",
        name,
        run.set.pieces.len(),
        front,
        t.candidates_s,
        t.comparison_s,
        t.assembly_s,
        t0.elapsed().as_secs_f64(),
        a.pieces.len(),
        100.0 * accuracy(a),
        a.clusters
    );
}
