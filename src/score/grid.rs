//! Scoring against a grid truth (a cell per piece, as in the real sets' solutions).
//!
//! Solution pieces are identified by their image's file stem (pikachu photo `17.jpeg` and
//! white-1000 mask `17.png` are piece 17). A piece's place is its centroid carried into the
//! solution frame by its transform. The grid is fitted from those places alone: the axis
//! direction is the dominant direction (modulo 90°) of the vectors to each place's four
//! nearest neighbours, and the pitch along each axis is the median length of the neighbour
//! vectors within 20° of it. The truth grid can sit in the solution frame turned by any
//! multiple of 90° (never mirrored); the turn that makes the most true pairs right is used.
//!
//! A true pair (cells one step apart) is right when their places are one pitch apart in the
//! direction that step maps to, within 0.3 of the smaller pitch. A piece is right when its
//! place, expressed in grid steps and moved by the best common offset, rounds to its cell
//! (within 0.3 of a step on each axis). Piece rotations are not judged: pikachu's arrows
//! depend on that solver's own side numbering, and a grid piece in the right cell with the
//! right neighbours cannot be turned anyway.

use super::{file_stem, ScoreReport};
use crate::assembly::Assembly;
use crate::synth::geometry::{Affine, Pt};
use std::collections::BTreeMap;

/// A grid truth: piece id → (column, row).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GridTruth {
    /// `pikachu-grid` or `white1000`.
    pub format: String,
    pub cells: BTreeMap<u32, (i64, i64)>,
}

/// The fitted grid of a solution: axis angle (radians) and pitch along each fitted axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FittedGrid {
    pub angle: f64,
    pub pitch: [f64; 2],
}

pub fn score(assembly: &Assembly, truth: &GridTruth) -> ScoreReport {
    // Places of pieces the truth knows, by id.
    let mut places: BTreeMap<u32, Pt> = BTreeMap::new();
    let mut unmatched = 0;
    for p in &assembly.pieces {
        let id = file_stem(&p.image)
            .parse::<u32>()
            .ok()
            .filter(|id| truth.cells.contains_key(id));
        match id {
            Some(id) if !places.contains_key(&id) => {
                places.insert(id, Affine(p.transform).apply(p.centroid));
            }
            _ => unmatched += 1,
        }
    }
    let pts: Vec<Pt> = places.values().copied().collect();
    let fitted = fit_grid(&pts);
    let pairs: Vec<(u32, u32, (i64, i64))> = truth_pairs(truth);
    let (mut best_pairs, mut best_turn) = (0, 0);
    if let Some(g) = fitted {
        for turn in 0..4 {
            let right = pairs
                .iter()
                .filter(|&&(a, b, step)| pair_right(&places, a, b, step, turn, &g))
                .count();
            if right > best_pairs {
                (best_pairs, best_turn) = (right, turn);
            }
        }
    }
    let direct = fitted.map_or(0, |g| direct_right(&places, truth, best_turn, &g));
    let tol = fitted.map_or(0.0, |g| 0.3 * g.pitch[0].min(g.pitch[1]));
    ScoreReport {
        truth_format: truth.format.clone(),
        pieces_expected: truth.cells.len(),
        pieces_placed: places.len(),
        neighbour_pairs: pairs.len(),
        neighbour_correct: best_pairs,
        neighbour_accuracy: 0.0,
        direct_correct: direct,
        direct_accuracy: 0.0,
        perfect: false,
        extraneous_used: Vec::new(),
        extraneous_apart: Vec::new(),
        unmatched,
        tolerance_px: tol,
    }
    .finish()
}

/// Pairs of pieces in cells one step apart (east or south), with that step.
fn truth_pairs(truth: &GridTruth) -> Vec<(u32, u32, (i64, i64))> {
    let by_cell: BTreeMap<(i64, i64), u32> = truth.cells.iter().map(|(&id, &c)| (c, id)).collect();
    let mut out = Vec::new();
    for (&(c, r), &a) in &by_cell {
        for step in [(1, 0), (0, 1)] {
            if let Some(&b) = by_cell.get(&(c + step.0, r + step.1)) {
                out.push((a, b, step));
            }
        }
    }
    out
}

/// A truth step turned by `turn` quarter turns (clockwise on screen), as a vector in the
/// fitted frame scaled by the pitch along the axis it lands on.
fn expected_offset(step: (i64, i64), turn: usize, g: &FittedGrid) -> Pt {
    let (mut x, mut y) = (step.0 as f64, step.1 as f64);
    for _ in 0..turn {
        (x, y) = (-y, x);
    }
    [x * g.pitch[0], y * g.pitch[1]]
}

fn to_fitted(p: Pt, g: &FittedGrid) -> Pt {
    let (s, c) = g.angle.sin_cos();
    [c * p[0] + s * p[1], -s * p[0] + c * p[1]]
}

fn pair_right(
    places: &BTreeMap<u32, Pt>,
    a: u32,
    b: u32,
    step: (i64, i64),
    turn: usize,
    g: &FittedGrid,
) -> bool {
    let (Some(pa), Some(pb)) = (places.get(&a), places.get(&b)) else {
        return false;
    };
    let (fa, fb) = (to_fitted(*pa, g), to_fitted(*pb, g));
    let d = [fb[0] - fa[0], fb[1] - fa[1]];
    let e = expected_offset(step, turn, g);
    (d[0] - e[0]).hypot(d[1] - e[1]) <= 0.3 * g.pitch[0].min(g.pitch[1])
}

/// Pieces whose place, in truth-grid steps, lands on their cell after the best common offset.
fn direct_right(
    places: &BTreeMap<u32, Pt>,
    truth: &GridTruth,
    turn: usize,
    g: &FittedGrid,
) -> usize {
    // Place in truth-grid coordinates: undo the pitch, then the turn.
    let steps: Vec<(u32, Pt)> = places
        .iter()
        .map(|(&id, p)| {
            let f = to_fitted(*p, g);
            let (mut x, mut y) = (f[0] / g.pitch[0], f[1] / g.pitch[1]);
            for _ in 0..turn {
                (x, y) = (y, -x);
            }
            (id, [x, y])
        })
        .collect();
    let mut best = 0;
    let mut tried = std::collections::BTreeSet::new();
    for (id, s) in &steps {
        let cell = truth.cells[id];
        // The common offset this piece implies (the grid's origin and the solution's differ
        // by any real amount); offsets within a twentieth of a step are tried once.
        let offset = [cell.0 as f64 - s[0], cell.1 as f64 - s[1]];
        let key = (
            (offset[0] * 20.0).round() as i64,
            (offset[1] * 20.0).round() as i64,
        );
        if !tried.insert(key) {
            continue;
        }
        let right = steps
            .iter()
            .filter(|(id, s)| {
                let cell = truth.cells[id];
                (s[0] + offset[0] - cell.0 as f64).abs() <= 0.3
                    && (s[1] + offset[1] - cell.1 as f64).abs() <= 0.3
            })
            .count();
        best = best.max(right);
    }
    best
}

/// Fits grid axes and pitches to piece places (None with fewer than two places).
pub fn fit_grid(points: &[Pt]) -> Option<FittedGrid> {
    if points.len() < 2 {
        return None;
    }
    let mut vectors: Vec<Pt> = Vec::new();
    for (i, p) in points.iter().enumerate() {
        let mut near: Vec<(f64, usize)> = points
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(j, q)| ((q[0] - p[0]).hypot(q[1] - p[1]), j))
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for &(_, j) in near.iter().take(4) {
            vectors.push([points[j][0] - p[0], points[j][1] - p[1]]);
        }
    }
    // Dominant direction modulo 90°: average of the quadrupled angles, weighted by length.
    let (mut c4, mut s4) = (0.0, 0.0);
    for v in &vectors {
        let a = v[1].atan2(v[0]);
        c4 += (4.0 * a).cos();
        s4 += (4.0 * a).sin();
    }
    let angle = s4.atan2(c4) / 4.0;
    let g0 = FittedGrid {
        angle,
        pitch: [1.0, 1.0],
    };
    let mut along: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    for v in &vectors {
        let f = to_fitted(*v, &g0);
        let a = f[1].atan2(f[0]).abs();
        let len = f[0].hypot(f[1]);
        if a < 20f64.to_radians() || a > 160f64.to_radians() {
            along[0].push(len);
        } else if (a - std::f64::consts::FRAC_PI_2).abs() < 20f64.to_radians() {
            along[1].push(len);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        (!v.is_empty()).then(|| v[v.len() / 2])
    };
    let (px, py) = (median(&mut along[0]), median(&mut along[1]));
    let pitch = match (px, py) {
        (Some(x), Some(y)) => [x, y],
        (Some(x), None) => [x, x],
        (None, Some(y)) => [y, y],
        (None, None) => return None,
    };
    Some(FittedGrid { angle, pitch })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_a_turned_rectangular_grid() {
        let (s, c) = 0.4f64.sin_cos();
        let pts: Vec<Pt> = (0..6)
            .flat_map(|r| (0..8).map(move |k| (k as f64 * 50.0, r as f64 * 70.0)))
            .map(|(x, y)| [c * x - s * y + 11.0, s * x + c * y - 5.0])
            .collect();
        let g = fit_grid(&pts).unwrap();
        assert!((g.angle - 0.4).abs() < 1e-6, "{g:?}");
        assert!(
            (g.pitch[0] - 50.0).abs() < 1e-6 && (g.pitch[1] - 70.0).abs() < 1e-6,
            "{g:?}"
        );
    }
}
