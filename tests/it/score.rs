//! Tests of `jigsaw score`: a truth scored against itself is perfect; deliberate damage
//! (two pieces swapped, one piece turned, an extraneous piece used) lowers exactly the
//! figures it should; the real sets' grid truths are read and scored the same way.

use crate::util::{run, sample, scratch, shared_data};
use jigsaw::assembly::Assembly;
use jigsaw::score::grid::GridTruth;
use jigsaw::score::{perfect, real, ScoreReport};
use jigsaw::synth::geometry::Affine;
use jigsaw::synth::truth::Truth;
use jigsaw::synth::{generate, Kind, Params};
use std::path::Path;

fn score_cli(assembly: &Assembly, truth: &Path, format: Option<&str>) -> ScoreReport {
    let dir = scratch();
    let a = dir.path().join("assembly.json");
    std::fs::write(&a, serde_json::to_vec(assembly).unwrap()).unwrap();
    let mut args = vec![
        "--json",
        "score",
        a.to_str().unwrap(),
        truth.to_str().unwrap(),
    ];
    if let Some(f) = format {
        args.extend(["--truth-format", f]);
    }
    let out = run(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn sample_truth(name: &str) -> (Truth, std::path::PathBuf) {
    let path = sample(&format!("synth/{name}/truth.json"));
    (
        Truth::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap(),
        path,
    )
}

/// Any frame the solver likes: turned by 0.6 rad and moved.
fn some_frame() -> Affine {
    Affine::rigid(0.6, false, [0.0, 0.0], [1234.5, -77.0])
}

/// Number of true adjacent pairs, and of pairs involving any of `ids`.
fn pairs(truth: &Truth, ids: &[u32]) -> (usize, usize) {
    let mut all = 0;
    let mut touched = 0;
    for p in &truth.pieces {
        for nb in &p.neighbours {
            if nb.id > p.id {
                all += 1;
                if ids.contains(&p.id) || ids.contains(&nb.id) {
                    touched += 1;
                }
            }
        }
    }
    (all, touched)
}

#[test]
fn a_truth_scored_against_itself_is_perfect() {
    for name in [
        "classic-12-scan",
        "classic-30-photo",
        "irregular-20-scan",
        "polygonal-10-scan",
    ] {
        let (truth, path) = sample_truth(name);
        let r = score_cli(&perfect::from_synth(&truth, some_frame()), &path, None);
        assert!(r.perfect, "{name}: {r:?}");
        assert_eq!((r.neighbour_accuracy, r.direct_accuracy), (1.0, 1.0));
        assert_eq!(r.pieces_placed, truth.pieces.len());
        // The truth's folder works as well as the file.
        let r2 = score_cli(
            &perfect::from_synth(&truth, Affine::IDENTITY),
            path.parent().unwrap(),
            Some("synth"),
        );
        assert!(r2.perfect);
    }
}

#[test]
fn two_swapped_pieces_and_one_turned_piece_lower_the_right_figures() {
    let (truth, path) = sample_truth("classic-30-photo");
    let good = perfect::from_synth(&truth, some_frame());
    let n = good.pieces.len();
    let (all, _) = pairs(&truth, &[]);

    // Swap pieces 1 and 17 (not adjacent): each lies where the other belongs.
    let mut swapped = good.clone();
    let (i, j) = (
        swapped.pieces.iter().position(|p| p.id == 1).unwrap(),
        swapped.pieces.iter().position(|p| p.id == 17).unwrap(),
    );
    let ti = Affine(swapped.pieces[i].transform);
    let tj = Affine(swapped.pieces[j].transform);
    let (ci, cj) = (swapped.pieces[i].centroid, swapped.pieces[j].centroid);
    // Move piece 1's image so its centroid lands where 17's does, and vice versa.
    swapped.pieces[i].transform = Affine::rigid(0.0, false, ci, tj.apply(cj)).0;
    swapped.pieces[j].transform = Affine::rigid(0.0, false, cj, ti.apply(ci)).0;
    let r = score_cli(&swapped, &path, None);
    let (_, touched) = pairs(&truth, &[1, 17]);
    assert_eq!(r.direct_correct, n - 2, "{r:?}");
    assert_eq!(r.neighbour_correct, all - touched, "{r:?}");
    assert!(!r.perfect && r.pieces_placed == n);

    // Turn piece 9 by 90° about its centroid.
    let mut turned = good.clone();
    let k = turned.pieces.iter().position(|p| p.id == 9).unwrap();
    let c = turned.pieces[k].centroid;
    let quarter = Affine::rigid(std::f64::consts::FRAC_PI_2, false, c, c);
    turned.pieces[k].transform = Affine(turned.pieces[k].transform).compose(&quarter).0;
    let r = score_cli(&turned, &path, None);
    let (_, touched) = pairs(&truth, &[9]);
    assert_eq!(r.direct_correct, n - 1, "{r:?}");
    assert_eq!(r.neighbour_correct, all - touched, "{r:?}");

    // A one-pixel nudge is within tolerance.
    let mut nudged = good.clone();
    nudged.pieces[3].transform[0][2] += 1.0;
    assert!(score_cli(&nudged, &path, None).perfect);

    // Leaving a piece out.
    let mut fewer = good;
    fewer.pieces.remove(0);
    let r = score_cli(&fewer, &path, None);
    assert_eq!((r.pieces_placed, r.direct_correct), (n - 1, n - 1));
    assert!(!r.perfect);
}

#[test]
fn missing_pieces_are_not_expected_and_extraneous_ones_must_not_be_used() {
    let dir = scratch();
    let mut p = Params::new(Kind::Irregular, 20, 8);
    p.px_per_piece = 48.0;
    p.missing = 2;
    p.extra = 2;
    let out = generate(&p).unwrap();
    jigsaw::synth::write(&out, dir.path(), false).unwrap();
    let truth_path = dir.path().join("truth.json");
    let good = perfect::from_synth(&out.truth, some_frame());
    let r = score_cli(&good, &truth_path, None);
    assert!(r.perfect, "{r:?}");
    assert_eq!(r.pieces_expected, 18);
    // Use an extraneous piece (anywhere): reported, and no longer perfect.
    let mut bad = good.clone();
    let extra = out.truth.pieces.iter().find(|p| p.extraneous).unwrap();
    bad.pieces.push(jigsaw::assembly::PlacedPiece {
        scale: 1.0,
        id: 99,
        image: format!("some/where/{}", extra.image.as_ref().unwrap()),
        centroid: [extra.centroid.unwrap()[0] + 2.0, extra.centroid.unwrap()[1]],
        transform: Affine::IDENTITY.0,
        sequence: 99,
        confidence: 0.5,
        cluster: 0,
        mates: Vec::new(),
    });
    let r = score_cli(&bad, &truth_path, None);
    assert_eq!(r.extraneous_used, vec![extra.id]);
    assert!(r.extraneous_apart.is_empty());
    assert!(!r.perfect && r.neighbour_accuracy == 1.0 && r.direct_accuracy == 1.0);
    // Both extraneous pieces in a cluster of their own, as the other puzzle assembles them
    // (one map into its frame): that puzzle's pieces, reported apart.
    let extras: Vec<_> = out.truth.pieces.iter().filter(|p| p.extraneous).collect();
    assert_eq!(extras.len(), 2);
    let mut apart = good.clone();
    apart.clusters = 2;
    for (k, e) in extras.iter().enumerate() {
        apart.pieces.push(jigsaw::assembly::PlacedPiece {
            scale: 1.0,
            id: 98 + k as u32,
            image: e.image.clone().unwrap(),
            centroid: e.centroid.unwrap(),
            transform: Affine(e.transform.unwrap()).inverse().0,
            sequence: 98 + k as u32,
            confidence: 0.5,
            cluster: 1,
            mates: Vec::new(),
        });
    }
    let r = score_cli(&apart, &truth_path, None);
    assert!(r.extraneous_used.is_empty(), "{r:?}");
    let mut ids: Vec<u32> = extras.iter().map(|e| e.id).collect();
    ids.sort_unstable();
    assert_eq!(r.extraneous_apart, ids);
    assert!(r.perfect, "{r:?}");
    // Put together in a way the other puzzle is not: used, and no longer perfect.
    apart.pieces.last_mut().unwrap().transform = Affine::IDENTITY.0;
    let r = score_cli(&apart, &truth_path, None);
    assert_eq!(r.extraneous_used, ids);
    assert!(r.extraneous_apart.is_empty() && !r.perfect, "{r:?}");
}

/// Perfect grid assembly on the real truths, then two pieces swapped.
fn check_grid(
    truth: &GridTruth,
    truth_path: &Path,
    format: &str,
    image_of: impl Fn(u32) -> String,
) {
    // Any frame: turned a little, or by more than a quarter turn (the truth's east then runs
    // along the solution's y axis).
    for angle in [1.9, -2.8] {
        let r = score_cli(
            &perfect::from_grid(truth, [117.0, 131.0], angle, &image_of),
            truth_path,
            Some(format),
        );
        assert!(r.perfect, "{format} at {angle} rad: {r:?}");
    }
    let good = perfect::from_grid(truth, [117.0, 131.0], 0.35, &image_of);
    let r = score_cli(&good, truth_path, Some(format));
    assert!(r.perfect, "{format}: {r:?}");
    assert_eq!(r.pieces_expected, truth.cells.len());
    // Swap the places of two pieces that are not neighbours.
    let mut swapped = good;
    let ids: Vec<u32> = truth.cells.keys().copied().collect();
    let a = ids[0];
    let b = *ids
        .iter()
        .find(|&&b| {
            let (ca, cb) = (truth.cells[&a], truth.cells[&b]);
            (ca.0 - cb.0).abs() + (ca.1 - cb.1).abs() > 1
        })
        .unwrap();
    let (i, j) = (
        swapped.pieces.iter().position(|p| p.id == a).unwrap(),
        swapped.pieces.iter().position(|p| p.id == b).unwrap(),
    );
    let place = |k: usize| Affine(swapped.pieces[k].transform).apply(swapped.pieces[k].centroid);
    let (pi, pj) = (place(i), place(j));
    swapped.pieces[i].transform = Affine::rigid(0.0, false, swapped.pieces[i].centroid, pj).0;
    swapped.pieces[j].transform = Affine::rigid(0.0, false, swapped.pieces[j].centroid, pi).0;
    let r = score_cli(&swapped, truth_path, Some(format));
    let degree = |id: u32| {
        let c = truth.cells[&id];
        [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .iter()
            .filter(|d| truth.cells.values().any(|&o| o == (c.0 + d.0, c.1 + d.1)))
            .count()
    };
    let all = r.neighbour_pairs;
    assert_eq!(
        r.neighbour_correct,
        all - degree(a) - degree(b),
        "{format}: {r:?}"
    );
    assert_eq!(r.direct_correct, truth.cells.len() - 2, "{format}: {r:?}");
}

#[test]
fn pikachu_grid_truth_scores_a_perfect_assembly_built_from_it() {
    let Some(path) = shared_data("real/roksenhorn-puzzle-bot/pikachu-100/solution_grid.txt") else {
        return;
    };
    let truth = real::pikachu_grid(&path).unwrap();
    assert_eq!(truth.cells.len(), 100);
    assert_eq!(truth.cells[&3], (0, 0));
    assert_eq!(truth.cells[&34], (9, 0));
    assert_eq!(truth.cells[&35], (9, 9));
    check_grid(&truth, &path, "pikachu-grid", |id| {
        format!("pikachu-100/0_input/{id}.jpeg")
    });
}

#[test]
fn white1000_truth_scores_a_perfect_assembly_built_from_it() {
    let Some(dir) = shared_data("real/roksenhorn-puzzle-bot/white-1000/6_solution") else {
        return;
    };
    let truth = real::white1000(&dir).unwrap();
    assert_eq!(truth.cells.len(), 1000);
    assert_eq!(truth.cells[&1], (1, 5));
    let xs = truth.cells.values().map(|c| c.0).max().unwrap();
    let ys = truth.cells.values().map(|c| c.1).max().unwrap();
    assert_eq!((xs, ys), (39, 24));
    check_grid(&truth, &dir, "white1000", |id| {
        format!("piece_masks_png/{id}.png")
    });
    // Piece 168 duplicates piece 1 and has no solution entry: placing it is "unmatched".
    let mut with_dup = perfect::from_grid(&truth, [90.0, 90.0], 0.0, |id| format!("m/{id}.png"));
    let mut dup = with_dup.pieces[0].clone();
    dup.image = "m/168.png".into();
    with_dup.pieces.push(dup);
    let r = score_cli(&with_dup, &dir, None);
    assert_eq!(r.unmatched, 1);
    assert_eq!(r.direct_correct, 1000, "{r:?}");
}

#[test]
fn unreadable_inputs_fail_with_one_message() {
    let dir = scratch();
    let (_, truth) = sample_truth("classic-12-scan");
    let missing = dir.path().join("nope.json");
    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "{\"pieces\": 3}").unwrap();
    let bad_grid = dir.path().join("grid.txt");
    std::fs::write(&bad_grid, "1^ two\n").unwrap();
    let good = dir.path().join("assembly.json");
    std::fs::write(&good, serde_json::to_vec(&Assembly::default()).unwrap()).unwrap();
    for (args, needle) in [
        (
            vec!["score", missing.to_str().unwrap(), truth.to_str().unwrap()],
            "nope.json",
        ),
        (
            vec!["score", junk.to_str().unwrap(), truth.to_str().unwrap()],
            "junk.json",
        ),
        (
            vec!["score", good.to_str().unwrap(), junk.to_str().unwrap()],
            "junk.json",
        ),
        (
            vec!["score", good.to_str().unwrap(), bad_grid.to_str().unwrap()],
            "grid.txt",
        ),
        (
            vec!["score", good.to_str().unwrap(), missing.to_str().unwrap()],
            "nope.json",
        ),
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(needle) && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }
    // An empty assembly scores zero, without failing.
    let out = run(&["score", good.to_str().unwrap(), truth.to_str().unwrap()]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("pieces placed: 0/12"));
}
