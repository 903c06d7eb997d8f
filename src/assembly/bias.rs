//! Outline bias: how far the traced outlines sit outside (or inside) the true cut, measured
//! from the puzzle's own best matings.
//!
//! Segmentation never puts an outline exactly on the cut: a blurred photo edge is taken in down
//! to a few times the noise (pieces come out 1–2 px fat), a thin cardboard rim or a hard
//! threshold can make them thin. The bias is the same on both sides of every cut, so mating
//! contours do not coincide: a fat knob does not fit a fat socket, the fit sets the mates apart
//! by twice the bias, and four pieces around a junction no longer close. At 120 px per piece a
//! photo's bias took a 100-piece puzzle from 100 % (its scan) to 10 %.
//!
//! The best matings still pair true mates, so the normal offset that best fits them measures
//! the bias; [`super::assemble`] insets every outline by it and matches again. Insetting by the
//! whole fitted offset rather than half of it (each of the two pieces is biased) is what the
//! measurements favour: on a 100-piece photo-style puzzle at 120 px, offset 1.0 px, inset 0.5
//! gave 26 % and inset 1.0 gave 96 % neighbour accuracy (the erosion the offset stands in for
//! is about a pixel, while the Δ minimum it is read from is shallow and biased low by the
//! closest-point matching, which absorbs part of any offset along the knob's walls).

use super::compare::compare_refined;
use super::geometry::{inset_points, signed_area};
use super::matings::MatingTable;
use super::shapes::{ChainletShape, Shapes};
use rayon::prelude::*;

/// Share of chainlets (by best Δ) whose matings measure the bias: the most certain ones.
const BEST_SHARE: f64 = 0.25;
/// Fewest matings the estimate needs.
const MIN_MATINGS: usize = 8;
/// Most matings the estimate uses: a few hundred pin the median down to a fraction of a pixel.
const MAX_MATINGS: usize = 300;

/// Normal offsets (pixels) tried per mating: twice the bias, from thin to fat.
const OFFSETS: [f64; 13] = [
    -3.0, -2.5, -2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0,
];

/// Twice the outline bias (pixels; positive when the pieces come out fat, negative when
/// thin), from the puzzle's most certain matings; `None` with too few matings to tell.
///
/// For each of them, the candidate chainlet is moved inward along its normal by each of
/// [`OFFSETS`] and compared again; the offset giving the smallest Δ is that mating's estimate,
/// and the median over the matings is the puzzle's. (The overlap of the contours after the
/// ordinary fit does not show the bias: the fit slides the mate off by the bias along the
/// edge's normal, which hides it on the flat parts, and it remains only along the knob's walls
/// as a worse Δ and as mates set apart by twice the bias, which breaks junction closure.)
pub fn fitted_offset(shapes: &Shapes, table: &MatingTable) -> Option<f64> {
    let mut best: Vec<(f64, usize)> = table
        .per_chainlet
        .iter()
        .enumerate()
        .filter_map(|(a, m)| m.first().map(|m| (m.delta, a)))
        .collect();
    if best.len() < MIN_MATINGS {
        return None;
    }
    best.sort_by(|x, y| x.0.total_cmp(&y.0));
    let keep = ((best.len() as f64 * BEST_SHARE) as usize).clamp(MIN_MATINGS, MAX_MATINGS);
    best.truncate(keep);
    let mut estimates: Vec<f64> = best
        .par_iter()
        .map(|&(_, a)| {
            let (ca, cb) = (
                &shapes.chainlets[a],
                &shapes.chainlets[table.per_chainlet[a][0].b],
            );
            let sign = signed_area(&shapes.pieces[cb.piece].outline).signum();
            OFFSETS
                .iter()
                .map(|&e| (e, compare_refined(ca, &inset_chainlet(cb, sign, e)).delta))
                .min_by(|x, y| x.1.total_cmp(&y.1))
                .map(|(e, _)| e)
                .unwrap_or(0.0)
        })
        .collect();
    estimates.sort_by(f64::total_cmp);
    let median = estimates[estimates.len() / 2];
    // At the end of the tried range the fit has no minimum: no measurement.
    (median.abs() < OFFSETS[OFFSETS.len() - 1]).then_some(median)
}

/// A copy of chainlet `c` moved `by` pixels inward along its normal (`sign`: its outline's
/// orientation).
fn inset_chainlet(c: &ChainletShape, sign: f64, by: f64) -> ChainletShape {
    ChainletShape {
        points: inset_points(&c.points, false, sign, by),
        dense: inset_points(&c.dense, false, sign, by),
        samples: inset_points(&c.samples, false, sign, by),
        ..c.clone()
    }
}
