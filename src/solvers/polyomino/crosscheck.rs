//! An independent brute force for small random puzzles, checked against the engine: the
//! labelled count (every piece distinct) must be the engine's raw count times the
//! permutations of identical pieces, and the distinct count must match a canonical-form
//! census under the usable symmetries.

use super::piece::{CellMatrix, Freedom, Shape, Transform};
use super::{solve, Options, Problem, Region};
use std::collections::HashSet;

type Tiling = Vec<(usize, Vec<(i32, i32)>)>;

/// A tiny deterministic generator (tests only).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Cuts a `rows × cols` rectangle, less the square `hole` if any (an inner one, so the rest
/// stays connected), into `k` connected pieces by growing random seeds.
fn random_cut(
    rng: &mut Lcg,
    rows: usize,
    cols: usize,
    k: usize,
    hole: Option<usize>,
) -> Vec<CellMatrix> {
    let mut owner = vec![usize::MAX; rows * cols];
    if let Some(h) = hole {
        owner[h] = usize::MAX - 1;
    }
    let mut seeds = Vec::new();
    while seeds.len() < k {
        let i = rng.below(rows * cols);
        if owner[i] == usize::MAX {
            owner[i] = seeds.len();
            seeds.push(i);
        }
    }
    while owner.contains(&usize::MAX) {
        let i = rng.below(rows * cols);
        if owner[i] != usize::MAX {
            continue;
        }
        let (r, c) = (i / cols, i % cols);
        let mut nbrs = Vec::new();
        if r > 0 {
            nbrs.push(i - cols);
        }
        if r + 1 < rows {
            nbrs.push(i + cols);
        }
        if c > 0 {
            nbrs.push(i - 1);
        }
        if c + 1 < cols {
            nbrs.push(i + 1);
        }
        let owned: Vec<usize> = nbrs.into_iter().filter(|&j| owner[j] < k).collect();
        if !owned.is_empty() {
            owner[i] = owner[owned[rng.below(owned.len())]];
        }
    }
    (0..k)
        .map(|p| {
            let coords: Vec<(i32, i32)> = (0..rows * cols)
                .filter(|&i| owner[i] == p)
                .map(|i| ((i / cols) as i32, (i % cols) as i32))
                .collect();
            Shape::from_coords(&coords).to_matrix()
        })
        .collect()
}

fn brute(problem: &Problem) -> (u64, u64) {
    let region = &problem.region;
    let shapes: Vec<Vec<Shape>> = problem
        .pieces
        .iter()
        .map(|p| Shape::from_coords(&p.coords()).orientations(problem.freedom))
        .collect();
    let mut class: Vec<usize> = Vec::new();
    for (i, s) in shapes.iter().enumerate() {
        let mut mine = s.clone();
        mine.sort();
        let same = (0..i).find(|&j| {
            let mut theirs = shapes[j].clone();
            theirs.sort();
            theirs == mine
        });
        class.push(same.map_or(i, |j| class[j]));
    }
    let mut free: Vec<bool> = region.grid.cells.clone();
    let mut tilings: Vec<Tiling> = Vec::new();
    let mut current: Tiling = Vec::new();
    place(
        0,
        &shapes,
        &class,
        region,
        &mut free,
        &mut current,
        &mut tilings,
    );
    let group: Vec<Transform> = region
        .symmetries()
        .into_iter()
        .filter(|&g| {
            shapes
                .iter()
                .all(|os| os.iter().all(|o| os.contains(&o.transformed(g))))
        })
        .collect();
    let (rows, cols) = (region.rows() as i32, region.cols() as i32);
    let canon: HashSet<Tiling> = tilings
        .iter()
        .map(|t| {
            group
                .iter()
                .map(|&g| {
                    let mut moved: Tiling = t
                        .iter()
                        .map(|(k, cells)| {
                            let mut c: Vec<_> =
                                cells.iter().map(|&p| g.apply(p, rows, cols)).collect();
                            c.sort();
                            (*k, c)
                        })
                        .collect();
                    moved.sort();
                    moved
                })
                .min()
                .unwrap()
        })
        .collect();
    (tilings.len() as u64, canon.len() as u64)
}

fn place(
    i: usize,
    shapes: &[Vec<Shape>],
    class: &[usize],
    region: &Region,
    free: &mut [bool],
    current: &mut Tiling,
    out: &mut Vec<Tiling>,
) {
    if i == shapes.len() {
        let mut t = current.clone();
        t.sort();
        out.push(t);
        return;
    }
    let cols = region.cols();
    for s in &shapes[i] {
        for r0 in 0..=(region.rows() as i32 - s.rows()) {
            for c0 in 0..=(cols as i32 - s.cols()) {
                let cells: Vec<(i32, i32)> = s.0.iter().map(|&(r, c)| (r + r0, c + c0)).collect();
                if !cells
                    .iter()
                    .all(|&(r, c)| free[r as usize * cols + c as usize])
                {
                    continue;
                }
                for &(r, c) in &cells {
                    free[r as usize * cols + c as usize] = false;
                }
                current.push((class[i], cells.clone()));
                place(i + 1, shapes, class, region, free, current, out);
                current.pop();
                for &(r, c) in &cells {
                    free[r as usize * cols + c as usize] = true;
                }
            }
        }
    }
}

fn factorial_product(problem: &Problem) -> u64 {
    let kinds = super::placements::kinds_of(&problem.pieces, problem.freedom);
    kinds
        .iter()
        .map(|k| (1..=k.instances.len() as u64).product::<u64>())
        .product()
}

/// Checks the engine's raw and distinct counts (with and without symmetry breaking) against
/// the brute force.
fn assert_agrees(problem: &Problem, case: usize) {
    let (labelled, distinct) = brute(problem);
    let options = Options {
        all: true,
        keep: 0,
        raw: false,
        max_nodes: None,
        parallel: false,
    };
    let fast = solve(problem, &options).unwrap();
    let raw = Options {
        raw: true,
        ..options
    };
    let raw_only = solve(problem, &raw).unwrap();
    let perms = factorial_product(problem);
    assert_eq!(fast.raw * perms, labelled, "case {case}: {problem:?}");
    assert_eq!(fast.distinct, distinct, "case {case}: {problem:?}");
    assert_eq!(
        (raw_only.raw, raw_only.distinct),
        (fast.raw, fast.distinct),
        "case {case}"
    );
}

/// Pieces of three or more squares switch on every cut the engine makes (one-square pockets
/// in the search, pockets smaller than a piece in the table), and half the regions have a
/// hole; the pieces are a cut of the region, so each puzzle has at least one tiling.
#[test]
fn engine_matches_brute_force_with_pocket_cuts_and_holes() {
    let mut rng = Lcg(11);
    let (mut case, mut checked) = (0, 0);
    while checked < 40 {
        case += 1;
        let (rows, cols) = (3 + rng.below(2), 4 + rng.below(2));
        let hole =
            (case % 2 == 0).then(|| (1 + rng.below(rows - 2)) * cols + 1 + rng.below(cols - 2));
        let k = 3 + rng.below(2);
        let mut pieces = random_cut(&mut rng, rows, cols, k, hole);
        if pieces.iter().any(|p| p.count() < 3) {
            continue;
        }
        let freedom = Freedom {
            rotate: case % 3 != 0,
            flip: case % 4 != 0,
        };
        if freedom.rotate {
            for p in &mut pieces {
                let t = Transform::ALL[rng.below(if freedom.flip { 8 } else { 4 })];
                *p = Shape::from_coords(&p.coords()).transformed(t).to_matrix();
            }
        }
        let mut region = Region::rectangle(rows, cols);
        if let Some(h) = hole {
            region.grid.cells[h] = false;
        }
        let problem = Problem {
            pieces,
            region,
            freedom,
        };
        assert!(brute(&problem).0 > 0, "a cut always reassembles");
        assert_agrees(&problem, case);
        checked += 1;
    }
}

#[test]
fn engine_matches_brute_force_on_random_cuts() {
    let mut rng = Lcg(7);
    let freedoms = [
        Freedom::default(),
        Freedom {
            rotate: true,
            flip: false,
        },
        Freedom {
            rotate: false,
            flip: true,
        },
        Freedom {
            rotate: true,
            flip: true,
        },
    ];
    for case in 0..60 {
        let (rows, cols) = (2 + rng.below(3), 2 + rng.below(3));
        let k = 2 + rng.below(3.min(rows * cols - 2));
        let mut pieces = random_cut(&mut rng, rows, cols, k, None);
        let freedom = freedoms[case % 4];
        if freedom.rotate {
            for p in &mut pieces {
                let t = Transform::ALL[rng.below(if freedom.flip { 8 } else { 4 })];
                *p = Shape::from_coords(&p.coords()).transformed(t).to_matrix();
            }
        }
        let mut region = Region::rectangle(rows, cols);
        if case % 3 == 0 {
            // Also a ragged region: the same cut pieces cannot fill it, so grow it by one
            // square and add a monomino.
            region = Region::rectangle(rows, cols + 1);
            for r in 1..rows {
                region.grid.cells[r * (cols + 1) + cols] = false;
            }
            pieces.push(CellMatrix {
                rows: 1,
                cols: 1,
                cells: vec![true],
            });
        }
        let problem = Problem {
            pieces,
            region,
            freedom,
        };
        let (labelled, _) = brute(&problem);
        assert_agrees(&problem, case);
        assert!(labelled > 0 || case % 3 == 0, "a cut always reassembles");
    }
}
