//! The photo path of the polygon solver (`jigsaw solve --solver polygon`).
//!
//! Library tests: synthetic polygonal puzzles (scan and photo style, 7 to 14 pieces, some
//! pieces face down) are cut into pieces along the rendered pieces' own coverage (the
//! generator's truth outlines in image pixels, rasterised and traced by the real tracer), so
//! the pixel quantisation and corner noise are real while colour segmentation, which is the
//! front end's business and tested there, is left out. The pieces are straightened, solved into
//! the truth's assembled outline and scored against `truth.json`. CLI tests: bad targets.

use crate::util::{run, scratch};
use jigsaw::piece_set::PieceSet;
use jigsaw::score::synthetic::score;
use jigsaw::solvers::polygon::photo::{photo_assembly, photo_options, photo_pieces, photo_puzzle};
use jigsaw::solvers::polygon::{solve, target_area};
use jigsaw::synth::{generate, Kind, Params, Style};
use jigsaw::vision::DescribeOptions;

mod rendered;

/// Generates a puzzle and traces its pieces from their rasterised truth outlines.
fn traced(pieces: usize, seed: u64, style: Style) -> (jigsaw::synth::truth::Truth, PieceSet) {
    let mut p = Params::new(Kind::Polygonal, pieces, seed);
    p.style = style;
    let truth = generate(&p).expect("generates").truth;
    let mut opts = DescribeOptions::default();
    opts.critical.four_sided = false;
    let set = jigsaw::synth::truth_masks::traced_truth(&truth, &opts).expect("traces");
    (truth, set)
}

/// Solves one traced puzzle and scores it; `Err` says what went wrong.
fn attempt(pieces: usize, seed: u64, style: Style) -> Result<(), String> {
    let (truth, set) = traced(pieces, seed, style);
    let flipped = truth.pieces.iter().filter(|p| p.flipped).count();
    let photo = photo_pieces(&set).map_err(|e| e.to_string())?;
    let target = vec![truth.assembled.outline.clone()];
    let puzzle = photo_puzzle(&photo, target);
    let options = photo_options(&photo, &puzzle);
    let report =
        solve(&puzzle, &options).map_err(|e| format!("{e} (noise {:.2} px)", photo.noise_px))?;
    let solution = report.solutions.first().ok_or_else(|| {
        format!(
            "no solution (tolerance {:.4}, {} nodes)",
            options.tolerance, report.nodes
        )
    })?;
    // Every piece used once, and the placed pieces cover the target's area.
    let mut used: Vec<usize> = solution.placements.iter().map(|p| p.piece).collect();
    used.sort_unstable();
    if used != (0..pieces).collect::<Vec<_>>() {
        return Err(format!("pieces used: {used:?}"));
    }
    let placed: f64 = solution
        .placements
        .iter()
        .map(|p| target_area(std::slice::from_ref(&p.vertices)))
        .sum();
    let want = target_area(&puzzle.target);
    if (placed - want).abs() / want >= 0.03 {
        return Err(format!("placed area {placed} vs target {want}"));
    }
    let assembly = photo_assembly(&set, &photo, solution);
    let negative = assembly
        .pieces
        .iter()
        .filter(|p| {
            p.transform[0][0] * p.transform[1][1] - p.transform[0][1] * p.transform[1][0] < 0.0
        })
        .count();
    let mirrored = solution.placements.iter().filter(|p| p.mirror).count();
    if negative != mirrored {
        return Err(format!("{negative} reflections for {mirrored} mirrored"));
    }
    // Pieces lying face down in the photo are turned over in the solution, and only they.
    if mirrored != flipped {
        return Err(format!("{mirrored} turned over, {flipped} face down"));
    }
    let s = score(&assembly, &truth).map_err(|e| e.to_string())?;
    if !s.perfect {
        return Err(format!("score not perfect: {s:?}"));
    }
    Ok(())
}

/// Every listed seed must solve perfectly.
fn check(pieces: usize, seeds: &[u64], style: Style) {
    let failed: Vec<String> = seeds
        .iter()
        .filter_map(|&seed| {
            attempt(pieces, seed, style)
                .err()
                .map(|e| format!("{pieces} pieces seed {seed}: {e}"))
        })
        .collect();
    assert!(failed.is_empty(), "{failed:#?}");
}

// Several seeds per size, among them the ones that used to fail: 7:2, 12:2 and 14:2 (a 5°
// target corner whose piece lost it to cleaning), 10:6 and 14:6 (a 3° corner missing from a
// straightened piece), 12:3 and 14:3 (a near-symmetric piece placed in the wrong chirality),
// 14:2 and 14:10 (errors adding up along a chain of placings), 14:5 (a triangle with base
// angles 49.9° and 50.1°, whose two chiralities differ by 0.3 px: told apart by its corners'
// distances to the sides around it, not to the corners) and 14:7 (a quadrilateral that fits
// its hole turned over, 3.7 px off, once SIDE CHECK judges corners by their shortest side: the
// solutions are ranked by fit).

#[test]
fn seven_pieces_solve_into_their_outline() {
    check(7, &[1, 2, 3, 4], Style::Scan);
}

/// 7 pieces seed 5: a piece placed in a corner with an 11 px side, touching its neighbour
/// along only 20 px of its 110 px side, is posed 1.8° off by the noise on those short levers;
/// the triangle later laid along that long side crosses its far corner by 3 px and was
/// refused. The search re-poses the placed pieces the triangle touches jointly with it.
#[test]
fn seven_pieces_seed_5_needs_placed_pieces_reposed() {
    check(7, &[5], Style::Scan);
}

#[test]
fn ten_pieces_solve_into_their_outline() {
    check(10, &[1, 2, 5, 6], Style::Photo);
}

#[test]
fn twelve_pieces_photo_solve_into_their_outline() {
    check(12, &[2, 3, 6, 8], Style::Photo);
}

#[test]
fn fourteen_pieces_scan_solve_into_their_outline() {
    check(14, &[2, 3, 5, 6, 7, 10], Style::Scan);
}

/// The seeds a survey runs: `SURVEY_SEEDS` of them (else `default`), starting at `SURVEY_FIRST`
/// (else 1), so that seeds beyond the ones a change was developed on can be checked on their own.
fn survey_seeds(default: u64) -> std::ops::RangeInclusive<u64> {
    let env = |name: &str| std::env::var(name).ok().and_then(|s| s.parse::<u64>().ok());
    let count = env("SURVEY_SEEDS").unwrap_or(default);
    let first = env("SURVEY_FIRST").unwrap_or(1);
    first..=first + count.saturating_sub(1)
}

/// The success rate over seeds 1..=10 (see `survey_seeds`) for 7, 10, 12 and 14 pieces,
/// printed as a table (`scripts/bench-polygon-photo`). Not a pass/fail test: the fixed seeds above are.
#[test]
#[ignore = "survey: run with --ignored --nocapture"]
fn survey_success_rate() {
    let seeds = survey_seeds(10);
    println!("pieces  solved  failures");
    for n in [7, 10, 12, 14] {
        let mut failures = Vec::new();
        for seed in seeds.clone() {
            if let Err(e) = attempt(n, seed, Style::Scan) {
                failures.push(format!("seed {seed}: {e}"));
            }
        }
        let total = seeds.clone().count();
        let solved = total - failures.len();
        println!("{n:>6}  {solved:>3}/{total:<3}  {}", failures.join("; "));
    }
}

/// Runs `jigsaw solve --solver polygon` on a generated 7-piece scan with the target file
/// `name` holding `contents`.
fn solve_with_target(name: &str, contents: &[u8]) -> std::process::Output {
    let dir = scratch();
    let target = dir.path().join(name);
    std::fs::write(&target, contents).unwrap();
    let out = generate(&Params::new(Kind::Polygonal, 7, 1)).expect("generates");
    jigsaw::synth::write(&out, dir.path(), false).expect("writes");
    let img = dir.path().join(&out.images[0].name);
    run(&[
        "solve",
        "--solver",
        "polygon",
        img.to_str().unwrap(),
        "--target",
        target.to_str().unwrap(),
    ])
}

#[test]
fn target_neither_polygon_nor_image_is_an_error() {
    let r = solve_with_target("target.dat", &[0u8, 159, 146, 150, 1, 2, 3]);
    assert_eq!(r.status.code(), Some(2), "{r:?}");
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(
        stderr.contains("target.dat") && stderr.contains("neither a polygon file"),
        "{stderr}"
    );
}

#[test]
fn target_of_the_wrong_size_is_an_area_error() {
    let r = solve_with_target("target.txt", b"target: 0 0, 10 0, 10 10, 0 10\n");
    assert_eq!(r.status.code(), Some(2), "{r:?}");
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(stderr.contains("area checksum"), "{stderr}");
}
