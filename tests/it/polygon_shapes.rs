//! Tangram shapes beyond the samples: Wang & Hsiung's count recomputed over every convex
//! lattice shape, and pieces with measurement noise.

use super::{assert_tiles, load, CONVEX_TANGRAMS};
use jigsaw::solvers::polygon::{self, Options, Puzzle};
use std::collections::BTreeSet;

/// Wang & Hsiung's theorem, recomputed: of all convex polygons made of 16 basic triangles on
/// the tangram lattice (a rectangle with its corners cut at 45°), exactly 13 can be formed.
#[test]
fn exactly_thirteen_convex_lattice_shapes_are_tangrams() {
    let pieces = load("polygon/tangram-square.txt").pieces;
    let mut seen = BTreeSet::new();
    let (mut shapes, mut solved) = (0, 0);
    for a in 1..=16i64 {
        for b in 1..=a {
            for c in 0..9i64.pow(4) {
                let cut = [c % 9, c / 9 % 9, c / 81 % 9, c / 729];
                if cut[0] + cut[1] > a || cut[2] + cut[3] > a {
                    continue;
                }
                if cut[1] + cut[2] > b || cut[3] + cut[0] > b {
                    continue;
                }
                if 2 * a * b - cut.iter().map(|x| x * x).sum::<i64>() != 16 {
                    continue;
                }
                let raw = [
                    (cut[0], 0),
                    (a - cut[1], 0),
                    (a, cut[1]),
                    (a, b - cut[2]),
                    (a - cut[2], b),
                    (cut[3], b),
                    (0, b - cut[3]),
                    (0, cut[0]),
                ];
                let mut v: Vec<(i64, i64)> = Vec::new();
                for p in raw {
                    if v.last() != Some(&p) && v.first() != Some(&p) {
                        v.push(p);
                    }
                }
                // One representative per shape up to the symmetries of the square grid.
                let key = (0..8)
                    .map(|g| {
                        let mut t: Vec<(i64, i64)> = v
                            .iter()
                            .map(|&(x, y)| {
                                let (x, y) = if g & 4 != 0 { (y, x) } else { (x, y) };
                                (
                                    if g & 1 != 0 { -x } else { x },
                                    if g & 2 != 0 { -y } else { y },
                                )
                            })
                            .collect();
                        let m = (
                            t.iter().map(|p| p.0).min().unwrap(),
                            t.iter().map(|p| p.1).min().unwrap(),
                        );
                        t.iter_mut().for_each(|p| *p = (p.0 - m.0, p.1 - m.1));
                        t.sort();
                        t
                    })
                    .min()
                    .unwrap();
                if !seen.insert(key) {
                    continue;
                }
                shapes += 1;
                let puzzle = Puzzle {
                    pieces: pieces.clone(),
                    target: vec![v
                        .iter()
                        .map(|&(x, y)| [2.0 * x as f64, 2.0 * y as f64])
                        .collect()],
                    flip: true,
                    names: vec![],
                };
                let r = polygon::solve(&puzzle, &Options::default()).unwrap();
                if let Some(s) = r.solutions.first() {
                    assert_tiles(&puzzle, s);
                    solved += 1;
                }
            }
        }
    }
    assert_eq!((shapes, solved), (20, 13));
}

/// Pieces measured from photos are noisy: with vertices moved by up to 0.2 % of the puzzle's
/// size and a tolerance of 1 %, the convex tangrams still solve.
#[test]
fn noisy_pieces_solve_with_a_matching_tolerance() {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut noise = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 2001) as f64 / 1000.0 - 1.0
    };
    for name in CONVEX_TANGRAMS {
        let mut puzzle = load(&format!("polygon/{name}"));
        let amp = 0.002 * polygon::puzzle_scale(&puzzle);
        for p in puzzle.pieces.iter_mut() {
            for v in p.iter_mut() {
                v[0] += amp * noise();
                v[1] += amp * noise();
            }
        }
        let options = Options {
            tolerance: 0.01,
            area_tolerance: 0.02,
            ..Options::default()
        };
        let r = polygon::solve(&puzzle, &options).expect(name);
        assert_eq!(r.solutions.len(), 1, "{name}: no solution with noise");
    }
}

/// Any convex polygon cut into a fan of triangles, the triangles moved and turned over at
/// random, is reassembled: arbitrary float coordinates, not just lattice ones.
mod fans {
    use super::*;
    use proptest::prelude::*;

    fn fan_puzzle(angles: &[f64], motions: &[(f64, f64, f64, bool)]) -> Puzzle {
        let mut a = angles.to_vec();
        a.sort_by(f64::total_cmp);
        let ring: Vec<[f64; 2]> = a
            .iter()
            .map(|t| [10.0 * t.cos() + 3.0, 7.0 * t.sin() - 1.0])
            .collect();
        let pieces = (1..ring.len() - 1)
            .map(|i| {
                let (r, dx, dy, flip) = motions[i % motions.len()];
                let (s, c) = r.sin_cos();
                [ring[0], ring[i], ring[i + 1]]
                    .iter()
                    .map(|p| {
                        let x = if flip { -p[0] } else { p[0] };
                        [c * x - s * p[1] + dx, s * x + c * p[1] + dy]
                    })
                    .collect()
            })
            .collect();
        Puzzle {
            pieces,
            target: vec![ring],
            flip: true,
            names: vec![],
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn a_fan_of_triangles_reassembles(
            angles in proptest::collection::btree_set(0u32..360, 4..8),
            motions in proptest::collection::vec((0.0f64..std::f64::consts::TAU, -50.0f64..50.0, -50.0f64..50.0, any::<bool>()), 1..4),
        ) {
            // Spread vertices at least 3 degrees apart (sharper slivers are not puzzles).
            let mut deg: Vec<u32> = angles.into_iter().collect();
            deg.dedup_by(|a, b| *a - *b < 3);
            prop_assume!(deg.len() >= 4 && 360 - deg[deg.len() - 1] + deg[0] >= 3);
            let rad: Vec<f64> = deg.iter().map(|&d| (d as f64).to_radians()).collect();
            let puzzle = fan_puzzle(&rad, &motions);
            let r = polygon::solve(&puzzle, &Options::default()).unwrap();
            prop_assert_eq!(r.solutions.len(), 1);
            assert_tiles(&puzzle, &r.solutions[0]);
        }
    }
}
