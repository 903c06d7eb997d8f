//! Tests of `jigsaw polygon`: known answers (the 13 convex tangrams of Wang & Hsiung, the
//! Stomachion's 536), every solution checked by an independent cover test, bad input, and the
//! JSON contract.

use crate::util::{run, sample, scratch};
use jigsaw::solvers::polygon::{self, parse_puzzle, Options, Puzzle, Solution};
use std::collections::BTreeSet;

#[path = "polygon_shapes.rs"]
mod shapes;

type Pt = [f64; 2];

pub(crate) fn load(rel: &str) -> Puzzle {
    let text = std::fs::read_to_string(sample(rel)).expect("sample exists");
    parse_puzzle(&text).expect("sample parses")
}

fn inside(poly: &[Pt], p: Pt) -> bool {
    let mut c = false;
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        if (a[1] > p[1]) != (b[1] > p[1])
            && p[0] < a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0])
        {
            c = !c;
        }
    }
    c
}

/// Independent of the solver's geometry: on a fine irrational grid, every sample point of the
/// target lies in exactly one placed piece and no piece point lies outside the target; each
/// piece is used at most once and keeps its shape (same side lengths as the input).
pub(crate) fn assert_tiles(puzzle: &Puzzle, sol: &Solution) {
    let used: BTreeSet<usize> = sol.placements.iter().map(|p| p.piece).collect();
    assert_eq!(used.len(), sol.placements.len(), "a piece used twice");
    for pl in &sol.placements {
        let inp = &puzzle.pieces[pl.piece];
        for i in 0..inp.len() {
            let l = |v: &[Pt]| {
                let (a, b) = (v[i], v[(i + 1) % v.len()]);
                (a[0] - b[0]).hypot(a[1] - b[1])
            };
            assert!(
                (l(inp) - l(&pl.vertices)).abs() < 1e-6,
                "piece {} deformed",
                pl.piece
            );
        }
    }
    let all: Vec<Pt> = puzzle.target.iter().flatten().copied().collect();
    let lo = [0, 1].map(|k| all.iter().map(|p| p[k]).fold(f64::INFINITY, f64::min));
    let hi = [0, 1].map(|k| all.iter().map(|p| p[k]).fold(f64::NEG_INFINITY, f64::max));
    let steps = 97;
    for i in 0..steps {
        for k in 0..steps {
            let p = [
                lo[0] + (hi[0] - lo[0]) * (i as f64 + 0.377) / steps as f64,
                lo[1] + (hi[1] - lo[1]) * (k as f64 + 0.613) / steps as f64,
            ];
            let in_target = puzzle.target.iter().any(|t| inside(t, p));
            let covers = sol
                .placements
                .iter()
                .filter(|pl| inside(&pl.vertices, p))
                .count();
            assert_eq!(covers, usize::from(in_target), "point {p:?}");
        }
    }
}

pub(crate) const CONVEX_TANGRAMS: [&str; 13] = [
    "tangram-triangle.txt",
    "tangram-square.txt",
    "tangram-rectangle.txt",
    "tangram-parallelogram.txt",
    "tangram-trapezoid-right-a.txt",
    "tangram-trapezoid-right-b.txt",
    "tangram-trapezoid-isosceles.txt",
    "tangram-pentagon-a.txt",
    "tangram-pentagon-b.txt",
    "tangram-hexagon-a.txt",
    "tangram-hexagon-b.txt",
    "tangram-hexagon-c.txt",
    "tangram-hexagon-d.txt",
];

#[test]
fn the_thirteen_convex_tangrams_are_solved() {
    for name in CONVEX_TANGRAMS {
        let puzzle = load(&format!("polygon/{name}"));
        let r = polygon::solve(&puzzle, &Options::default()).expect(name);
        assert_eq!(r.solutions.len(), 1, "{name} has no solution");
        assert_tiles(&puzzle, &r.solutions[0]);
    }
}

#[test]
fn the_upright_square_in_root_two_coordinates_is_solved() {
    let puzzle = load("polygon/tangram-square-upright.txt");
    let r = polygon::solve(&puzzle, &Options::default()).unwrap();
    assert_tiles(&puzzle, &r.solutions[0]);
}

#[test]
fn the_one_by_thirty_two_rectangle_has_no_solution_quickly() {
    let out = run(&[
        "polygon",
        sample("polygon/tangram-rectangle-1x32.txt")
            .to_str()
            .unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("no solution"));
    let r = polygon::solve(
        &load("polygon/tangram-rectangle-1x32.txt"),
        &Options::default(),
    )
    .unwrap();
    assert_eq!(r.arrangements, 0);
    assert!(r.nodes < 100, "{} nodes", r.nodes);
}

#[test]
fn the_classic_stomachion_arrangement_tiles_the_square() {
    let puzzle = load("polygon/stomachion.txt");
    let area: f64 = puzzle
        .pieces
        .iter()
        .map(|p| polygon::target_area(std::slice::from_ref(p)))
        .sum();
    assert_eq!(area, 144.0);
    let as_given = Solution {
        placements: puzzle
            .pieces
            .iter()
            .enumerate()
            .map(|(i, p)| polygon::Placement {
                piece: i,
                mirror: false,
                vertices: p.clone(),
                rotation: 0.0,
                translation: [0.0, 0.0],
            })
            .collect(),
    };
    assert_tiles(&puzzle, &as_given);
}

/// The published count: 536 distinct up to the square's 8 symmetries and swapping the two
/// pairs of identical pieces; 17,152 = 536 × 8 × 4 counting both. The same holds for the
/// square turned by 17° with every piece moved and turned over at random (JSON sample):
/// no contact is lost to rounding.
#[test]
fn stomachion_has_536_distinct_solutions() {
    for name in ["polygon/stomachion.txt", "polygon/stomachion-rotated.json"] {
        let puzzle = load(name);
        let options = Options {
            all: true,
            max_print: 3,
            ..Options::default()
        };
        let r = polygon::solve(&puzzle, &options).unwrap();
        assert_eq!(r.target_symmetries, 8, "{name}");
        assert_eq!(r.identical_pieces, vec![vec![2, 9], vec![3, 10]], "{name}");
        assert_eq!(
            (r.distinct, r.arrangements, r.raw),
            (536, 4288, 17152),
            "{name}"
        );
        assert_eq!(r.solutions.len(), 3);
        for s in &r.solutions {
            assert_tiles(&puzzle, s);
        }
    }
}

#[test]
fn json_contract_in_and_out_and_files_are_written() {
    let dir = scratch();
    let input = dir.path().join("square.json");
    let puzzle = load("polygon/tangram-square.txt");
    let json = serde_json::json!({"pieces": puzzle.pieces, "target": puzzle.target, "flip": true});
    std::fs::write(&input, json.to_string()).unwrap();
    let out_dir = dir.path().join("out");
    let out = run(&[
        "polygon",
        input.to_str().unwrap(),
        "--all",
        "--max-print",
        "2",
        "--json",
        "-o",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let distinct = v["distinct"].as_u64().unwrap();
    assert!(distinct >= 1 && v["raw"].as_u64().unwrap() >= distinct);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    let sols = v["solutions"].as_array().unwrap();
    assert_eq!(sols.len(), distinct.min(2) as usize);
    let pl = &sols[0]["placements"][0];
    assert!(pl["piece"].is_u64() && pl["mirror"].is_boolean() && pl["vertices"].is_array());
    for f in [
        "solution-001.svg",
        "solution-001.png",
        "solution-001.json",
        "report.json",
    ] {
        assert!(out_dir.join(f).is_file(), "{f} missing");
    }
    let svg = std::fs::read_to_string(out_dir.join("solution-001.svg")).unwrap();
    assert_eq!(svg.matches("<polygon").count(), 1 + 7);
    let png = image::open(out_dir.join("solution-001.png")).unwrap();
    assert!(png.width() > 100);
}

fn run_text(puzzle: &str, extra: &[&str]) -> (Option<i32>, String) {
    let dir = scratch();
    let f = dir.path().join("p.txt");
    std::fs::write(&f, puzzle).unwrap();
    let mut args = vec!["polygon", f.to_str().unwrap()];
    args.extend_from_slice(extra);
    let out = run(&args);
    let text =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    (out.status.code(), text)
}

#[test]
fn bad_input_gives_one_clear_error() {
    let cases = [
        ("target: 0 0, 2 0, 2 2, 0 2\n", "no pieces"),
        ("piece: 0 0, 1 0, 0 1\n", "no target"),
        (
            "target: 0 0, 2 0, 2 2, 0 2\npiece: 0 0, 2 2, 2 0, 0 1\n",
            "not simple",
        ),
        (
            "target: 0 0, 2 0, 2 2, 0 2\npiece: 0 0, 1 0, 1 1, 0 1\n",
            "area checksum",
        ),
        (
            "target: 0 0, 1 0, 1 1, 0 1\npiece: 0 0, 1 0, 1 1, 0 1\npiece: 0 0, 1 0, 1 1\n",
            "--allow-leftover",
        ),
        ("target: 0 0, 2 0, 2\n", "line 1"),
        ("{\"pieces\": 3}", "invalid JSON"),
        (
            "target: 0 0, 4 0, 4 4, 0 4\ntarget: 1 1, 2 1, 2 2, 1 2\npiece: 0 0, 1 0, 1 1, 0 1\n",
            "overlap",
        ),
    ];
    for (text, want) in cases {
        let (code, msg) = run_text(text, &[]);
        assert_eq!(code, Some(2), "{text:?}: {msg}");
        assert!(msg.contains(want), "{text:?}: {msg}");
        assert!(msg.contains("p.txt"), "names the file: {msg}");
        assert!(!msg.contains("panicked"), "{msg}");
    }
    let (code, msg) = run_text(
        "target: 0 0, 1 0, 1 1, 0 1\npiece: 0 0, 1 0, 0 1\npiece: 0 0, 1 0, 0 1\n",
        &["--tolerance", "0"],
    );
    assert_eq!(code, Some(2), "{msg}");
}

#[test]
fn orientation_is_fixed_silently_and_leftover_pieces_may_be_allowed() {
    // Clockwise piece, counter-clockwise target: both accepted.
    let (code, msg) = run_text(
        "target: 0 0, 0 2, 2 2, 2 0\npiece: 0 0, 0 2, 2 2, 2 0\n",
        &[],
    );
    assert_eq!(code, Some(0), "{msg}");
    let extra = "target: 0 0, 1 0, 1 1, 0 1\npiece: 0 0, 1 0, 1 1, 0 1\npiece: 0 0, 1 0, 1 1\n";
    let (code, msg) = run_text(extra, &["--allow-leftover"]);
    assert_eq!(code, Some(0), "{msg}");
}

#[test]
fn a_target_of_two_polygons_and_no_flipping() {
    // Two separate unit squares filled by two identical squares.
    let p = Puzzle {
        pieces: vec![
            vec![[0., 0.], [1., 0.], [1., 1.], [0., 1.]],
            vec![[0., 0.], [1., 0.], [1., 1.], [0., 1.]],
        ],
        target: vec![
            vec![[0., 0.], [1., 0.], [1., 1.], [0., 1.]],
            vec![[2., 0.], [3., 0.], [3., 1.], [2., 1.]],
        ],
        flip: false,
        names: vec![],
    };
    let r = polygon::solve(
        &p,
        &Options {
            all: true,
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(r.arrangements, 1);
    assert_eq!(r.raw, 2);
    assert_eq!(r.distinct, 1);
    // Target polygons may touch at a vertex.
    let mut touching = p.clone();
    touching.target[1] = vec![[1., 1.], [2., 1.], [2., 2.], [1., 2.]];
    assert_eq!(
        polygon::solve(&touching, &Options::default())
            .unwrap()
            .arrangements,
        1
    );
    // A chiral piece without flipping fits its own shape but not its mirror image.
    let par = vec![[0., 0.], [2., 0.], [3., 1.], [1., 1.]];
    let mirrored: Vec<Pt> = par.iter().map(|p| [-p[0], p[1]]).collect();
    let mut chiral = Puzzle {
        pieces: vec![par.clone()],
        target: vec![par],
        flip: false,
        names: vec![],
    };
    assert_eq!(
        polygon::solve(&chiral, &Options::default())
            .unwrap()
            .arrangements,
        1
    );
    chiral.target = vec![mirrored];
    assert_eq!(
        polygon::solve(&chiral, &Options::default())
            .unwrap()
            .arrangements,
        0
    );
    chiral.flip = true;
    assert_eq!(
        polygon::solve(&chiral, &Options::default())
            .unwrap()
            .arrangements,
        1
    );
}

#[test]
fn many_identical_pieces_saturate_the_raw_count_instead_of_overflowing() {
    let unit = vec![[0., 0.], [1., 0.], [1., 1.], [0., 1.]];
    let p = Puzzle {
        pieces: vec![unit; 25],
        target: vec![vec![[0., 0.], [5., 0.], [5., 5.], [0., 5.]]],
        flip: true,
        names: vec![],
    };
    let all = Options {
        all: true,
        ..Options::default()
    };
    let r = polygon::solve(&p, &all).unwrap();
    assert_eq!((r.arrangements, r.distinct, r.raw), (1, 1, u64::MAX));
    assert_eq!(r.identical_pieces.len(), 1);
}
