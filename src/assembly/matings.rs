//! The mating table: for every chainlet, the chainlets of other pieces that pass feature
//! similarity, contour comparison and the overlap test, best Δ first, each with the relative
//! pose it implies. Assembly only reads this table.

use super::candidates::{Candidate, FeatureStats};
use super::compare::{compare_coarse, compare_refined, overlaps, per_point};
use super::geometry::Pose;
use super::shapes::Shapes;
use rayon::prelude::*;

/// How many feature-similar candidates are compared coarsely, and how many of those refined.
const COARSE_LIMIT: usize = 40;
const REFINE_LIMIT: usize = 6;
/// Δ threshold T as a multiple of the typical best-mate Δ: a mate may be this many times
/// worse (in squared distance) than the puzzle's median best mate before it is rejected.
const DELTA_FACTOR: f64 = 16.0;
/// … or this many times the 90th percentile of best-mate Δ, whichever is larger: on clean
/// data the median is tiny and a few chainlets with slightly shifted corners still must pass.
const TAIL_FACTOR: f64 = 3.0;
/// No threshold below an RMS distance of this many pixels: quantisation alone gives that.
const MIN_RMS_PX: f64 = 1.5;
/// Overlap tolerance as a fraction of the median piece size: outlines of true mates cross
/// by a pixel or two where the cut is noisy; overlapping pieces go much deeper.
const OVERLAP_FRACTION: f64 = 0.04;

/// One possible mating of chainlet `a` with chainlet `b` of another piece.
#[derive(Clone, Copy, Debug)]
pub struct Mating {
    pub b: usize,
    /// Σ of squared distances after alignment (pixels²), the mating's quality.
    pub delta: f64,
    /// Maps `b`'s piece (source pixels) into `a`'s piece frame (source pixels).
    pub pose: Pose,
}

pub struct MatingTable {
    /// Per chainlet, acceptable matings, smallest Δ first.
    pub per_chainlet: Vec<Vec<Mating>>,
    /// The Δ threshold T derived from this puzzle.
    pub delta_threshold: f64,
    /// The median Δ of each chainlet's best mating: the unit in which matings are ranked.
    pub delta_typical: f64,
    pub stats: FeatureStats,
    /// How many contour comparisons were made (coarse + refined).
    pub comparisons: usize,
}

/// Compares every chainlet with its feature-similar candidates (from
/// [`super::candidates::mating_candidates`]), in parallel.
pub fn mating_table(
    shapes: &Shapes,
    candidates: &[Vec<Candidate>],
    stats: FeatureStats,
) -> MatingTable {
    let results: Vec<(Vec<Mating>, usize)> = (0..shapes.chainlets.len())
        .into_par_iter()
        .map(|a| matings_of(shapes, candidates, a))
        .collect();
    let comparisons = results.iter().map(|r| r.1).sum();
    let mut per_chainlet: Vec<Vec<Mating>> = results.into_iter().map(|r| r.0).collect();
    let mut best: Vec<f64> = per_chainlet
        .iter()
        .filter_map(|m| m.first().map(|m| per_point(m.delta)))
        .collect();
    best.sort_by(f64::total_cmp);
    let at = |q: f64| {
        best.get(((best.len().max(1) - 1) as f64 * q) as usize)
            .copied()
    };
    let typical = at(0.5).unwrap_or(1.0);
    let tail = at(0.9).unwrap_or(1.0);
    let delta_threshold = (DELTA_FACTOR * typical)
        .max(TAIL_FACTOR * tail)
        .max(MIN_RMS_PX * MIN_RMS_PX)
        * super::shapes::SAMPLES as f64;
    for list in &mut per_chainlet {
        list.retain(|m| m.delta <= delta_threshold);
    }
    MatingTable {
        per_chainlet,
        delta_threshold,
        delta_typical: typical.max(0.05) * super::shapes::SAMPLES as f64,
        stats,
        comparisons,
    }
}

/// The acceptable matings of chainlet `a` (before the Δ threshold), best first, and how many
/// comparisons they took.
fn matings_of(shapes: &Shapes, candidates: &[Vec<Candidate>], a: usize) -> (Vec<Mating>, usize) {
    let tol = OVERLAP_FRACTION * shapes.median_size;
    let ca = &shapes.chainlets[a];
    let mut coarse: Vec<(usize, f64)> = candidates[a]
        .iter()
        .take(COARSE_LIMIT)
        .map(|c| {
            (
                c.chainlet,
                compare_coarse(ca, &shapes.chainlets[c.chainlet]).delta,
            )
        })
        .collect();
    coarse.sort_by(|x, y| x.1.total_cmp(&y.1));
    coarse.truncate(REFINE_LIMIT);
    let mut out: Vec<Mating> = coarse
        .iter()
        .filter_map(|&(b, _)| {
            let cb = &shapes.chainlets[b];
            let cmp = compare_refined(ca, cb);
            let (pa, pb) = (&shapes.pieces[ca.piece], &shapes.pieces[cb.piece]);
            (!overlaps(pa, pb, &cmp.pose, tol)).then_some(Mating {
                b,
                delta: cmp.delta,
                pose: cmp.pose,
            })
        })
        .collect();
    out.sort_by(|x, y| x.delta.total_cmp(&y.delta));
    (out, candidates[a].len() + coarse.len())
}

/// The median best-mating Δ per sample point over the chainlets `sample`: how well the
/// puzzle's outlines fit their best mates, cheaply (see [`super::bias`]).
pub fn typical_best_delta(
    shapes: &Shapes,
    candidates: &[Vec<Candidate>],
    sample: &[usize],
) -> Option<f64> {
    let mut best: Vec<f64> = sample
        .par_iter()
        .filter_map(|&a| {
            matings_of(shapes, candidates, a)
                .0
                .first()
                .map(|m| per_point(m.delta))
        })
        .collect();
    best.sort_by(f64::total_cmp);
    best.get(best.len() / 2).copied()
}
