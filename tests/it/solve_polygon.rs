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
// 14:2 and 14:10 (errors adding up along a chain of placings).

#[test]
fn seven_pieces_solve_into_their_outline() {
    check(7, &[1, 2, 3, 4], Style::Scan);
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
    check(14, &[2, 3, 6, 10], Style::Scan);
}

/// How many seeds a survey runs: `SURVEY_SEEDS`, else `default`.
fn survey_seeds(default: u64) -> u64 {
    std::env::var("SURVEY_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The success rate over seeds 1..=10 for 7, 10, 12 and 14 pieces, printed as a table
/// (`scripts/bench-polygon-photo`). Not a pass/fail test: the fixed seeds above are.
#[test]
#[ignore = "survey: run with --ignored --nocapture"]
fn survey_success_rate() {
    let seeds = survey_seeds(10);
    println!("pieces  solved  failures");
    for n in [7, 10, 12, 14] {
        let mut failures = Vec::new();
        for seed in 1..=seeds {
            if let Err(e) = attempt(n, seed, Style::Scan) {
                failures.push(format!("seed {seed}: {e}"));
            }
        }
        let solved = seeds as usize - failures.len();
        println!("{n:>6}  {solved:>3}/{seeds:<3}  {}", failures.join("; "));
    }
}

/// End to end through the CLI on rendered images: `jigsaw synth --kind polygonal` images, the
/// truth outline as a polygon-file target, `jigsaw solve --solver polygon`, and the written
/// `assembly.json` scored against the truth.
fn end_to_end(pieces: usize, seed: u64, style: Style) -> Result<(), String> {
    let dir = scratch();
    let mut p = Params::new(Kind::Polygonal, pieces, seed);
    p.style = style;
    let out = generate(&p).expect("generates");
    jigsaw::synth::write(&out, dir.path(), false).expect("writes");
    let target = dir.path().join("target.txt");
    let coords: Vec<String> = out
        .truth
        .assembled
        .outline
        .iter()
        .map(|q| format!("{} {}", q[0], q[1]))
        .collect();
    std::fs::write(&target, format!("target: {}\n", coords.join(", "))).unwrap();
    let result = dir.path().join("out");
    let r = run(&[
        "solve",
        "--solver",
        "polygon",
        dir.path().join("images").to_str().unwrap(),
        "--target",
        target.to_str().unwrap(),
        "-o",
        result.to_str().unwrap(),
        "--json",
    ]);
    if r.status.code() != Some(0) {
        let stderr = String::from_utf8_lossy(&r.stderr);
        return Err(format!(
            "exit {:?}: {}",
            r.status.code(),
            stderr.lines().last().unwrap_or("")
        ));
    }
    let text = std::fs::read_to_string(result.join("assembly.json")).unwrap();
    let assembly = serde_json::from_str(&text).expect("assembly.json parses");
    let s = score(&assembly, &out.truth).expect("scores");
    if !s.perfect {
        return Err(format!(
            "not perfect: {} placed, {}/{} direct",
            s.pieces_placed, s.direct_correct, s.pieces_expected
        ));
    }
    if !result.join("solution.png").is_file() {
        return Err("no solution.png".into());
    }
    Ok(())
}

/// The cases `(pieces, seed)` of `style` that do not solve end to end, with why.
fn failures(style: Style, cases: &[(usize, u64)]) -> Vec<String> {
    cases
        .iter()
        .filter_map(|&(n, seed)| {
            end_to_end(n, seed, style)
                .err()
                .map(|e| format!("{n} pieces seed {seed}: {e}"))
        })
        .collect()
}

/// Rendered scans through the CLI: several seeds of every size.
#[test]
fn rendered_scans_solve_end_to_end() {
    let cases = [
        (7, 2),
        (7, 4),
        (10, 3),
        (10, 5),
        (12, 2),
        (12, 4),
        (14, 2),
        (14, 3),
    ];
    let failed = failures(Style::Scan, &cases);
    assert!(failed.is_empty(), "{failed:#?}");
}

/// Rendered photos through the CLI (blurred JPEGs with drop shadows, whose masks come out
/// about 2 px fat and wandering, so the sides are snapped to the images' colour edges): seeds
/// of every size, among them the dark-background ones whose mask noise (0.33–0.35 px) is
/// closest to a scan's, and 10:6, 12:8 and 12:9, which failed before the straightening merged
/// rounded corner tips and SIDE CHECK allowed for the least-squares pose.
#[test]
fn rendered_photos_solve_end_to_end() {
    let cases = [
        (7, 2),
        (7, 4),
        (10, 2),
        (10, 6),
        (12, 5),
        (12, 8),
        (12, 9),
        (14, 2),
        (14, 3),
    ];
    let failed = failures(Style::Photo, &cases);
    assert!(failed.is_empty(), "{failed:#?}");
}

/// The end-to-end success rate over seeds 1..=SURVEY_SEEDS (default 5) for 7, 10, 12 and 14
/// pieces, style `SURVEY_STYLE` (`scan` or `photo`), printed as a table
/// (`scripts/bench-polygon-photo --rendered`).
#[test]
#[ignore = "survey: run with --ignored --nocapture"]
fn survey_rendered() {
    let seeds = survey_seeds(5);
    let style = match std::env::var("SURVEY_STYLE").as_deref() {
        Ok("photo") => Style::Photo,
        _ => Style::Scan,
    };
    println!("pieces  solved  failures ({style:?})");
    for n in [7, 10, 12, 14] {
        let mut failures = Vec::new();
        for seed in 1..=seeds {
            if let Err(e) = end_to_end(n, seed, style) {
                failures.push(format!("seed {seed}: {e}"));
            }
        }
        let solved = seeds as usize - failures.len();
        println!("{n:>6}  {solved:>3}/{seeds:<3}  {}", failures.join("; "));
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

/// 7 pieces seed 5, rendered scan: one piece's long side carries a straight-through vertex
/// (the end of a neighbour's cut, 0.1° off straight) next to a short side; the straightening
/// split it in two runs whose lines crossed 40 px away, and the polygon came out non-simple.
/// 12 pieces seed 1, rendered photo (pale pieces on light paper): a triangle's outline, bent by
/// the shadow, straightened into a self-crossing pentagon until spurious breaks were removed
/// while the polygon crossed itself. Every traced piece must straighten into a simple polygon.
#[test]
fn rendered_pieces_straighten_into_simple_polygons() {
    use jigsaw::solvers::polygon::geometry::Tol;
    use jigsaw::solvers::polygon::photo::photo_pieces_on_images;
    use jigsaw::solvers::polygon::records::clean_simple;
    let load = |p: &str| image::open(p).ok().map(|i| i.to_rgb8());
    let tol = Tol::new(1.0, 1e-6);
    for (n, seed, style) in [(7, 5, Style::Scan), (12, 1, Style::Photo)] {
        let (_dir, set) = rendered_set(n, seed, style);
        let photo = photo_pieces_on_images(&set, load).expect("straightens");
        for (k, poly) in photo.polygons.iter().enumerate() {
            assert!(
                clean_simple(poly, &tol).is_ok(),
                "{n}:{seed} piece {k}: {poly:?}"
            );
        }
    }
}

/// Traced pieces (local corners) of a rendered polygonal puzzle of `pieces` in `style`.
fn rendered_set(pieces: usize, seed: u64, style: Style) -> (tempfile::TempDir, PieceSet) {
    let dir = scratch();
    let mut p = Params::new(Kind::Polygonal, pieces, seed);
    p.style = style;
    let out = generate(&p).expect("generates");
    jigsaw::synth::write(&out, dir.path(), false).expect("writes");
    let mut opts = jigsaw::vision::PipelineOptions::default();
    opts.describe.critical.four_sided = false;
    let (files, _) = jigsaw::vision::collect_inputs(&[dir.path().join("images")]);
    let run = jigsaw::vision::trace_images(&files, &opts, &|_| {});
    assert_eq!(run.set.pieces.len(), pieces, "{style:?}");
    (dir, run.set)
}

/// Scans' masks have sharp edges (fit noise of a digitised line): their outline fits are kept.
/// Photos' masks wander (fit noise above `BLURRED_MASK_NOISE_PX`): their sides are found on the
/// colour edges, which straightens them into as many corners as the cut has (not the 9–13
/// the wandering masks gave) and takes away the masks' 2 px of fat, while the solver's
/// tolerance is still scaled by the masks' noise.
#[test]
fn only_blurred_masks_are_snapped_to_the_image() {
    use jigsaw::solvers::polygon::photo::{photo_pieces_on_images, BLURRED_MASK_NOISE_PX};
    let load = |p: &str| image::open(p).ok().map(|i| i.to_rgb8());
    let (_keep, scan) = rendered_set(10, 2, Style::Scan);
    let plain = photo_pieces(&scan).expect("straightens");
    assert!(
        plain.noise_px <= BLURRED_MASK_NOISE_PX,
        "{}",
        plain.noise_px
    );
    assert_eq!(
        photo_pieces_on_images(&scan, load).expect("straightens"),
        plain
    );

    let (_keep, photo) = rendered_set(10, 2, Style::Photo);
    let plain = photo_pieces(&photo).expect("straightens");
    assert!(plain.noise_px > BLURRED_MASK_NOISE_PX, "{}", plain.noise_px);
    let snapped = photo_pieces_on_images(&photo, load).expect("straightens");
    assert_eq!(snapped.noise_px, plain.noise_px);
    let corners = |p: &jigsaw::solvers::polygon::photo::PhotoPieces| {
        p.polygons.iter().map(Vec::len).sum::<usize>()
    };
    assert!(
        corners(&snapped) < corners(&plain),
        "{} corners",
        corners(&snapped)
    );
    // Truth: 4–6 corners a piece; the masks are about 11 % too large, the snapped pieces
    // within a few percent (a shared offset the area calibration removes).
    assert!(
        snapped.polygons.iter().all(|p| p.len() <= 7),
        "{:?}",
        snapped.polygons
    );
    assert!(
        snapped.area < 0.95 * plain.area,
        "{} vs {}",
        snapped.area,
        plain.area
    );
}
