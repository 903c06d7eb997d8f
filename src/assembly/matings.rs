//! The mating table: for every chainlet, the chainlets of other pieces that pass feature
//! similarity, contour comparison and the overlap test, best Δ first, each with the relative
//! pose it implies. Assembly only reads this table.

use super::candidates::{Candidate, FeatureStats};
use super::compare::{compare_coarse, compare_refined, overlaps, per_point};
use super::edge_colour::SeamColours;
use super::geometry::Pose;
use super::shapes::Shapes;
use rayon::prelude::*;

/// How many of the coarse matches (every feature-similar candidate, compared by one rigid
/// fit) are refined by closest-point iterations, best colour-weighted Δ first.
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
/// A seam (a pair of mated chainlets) is good when its Δ is within this many times the
/// puzzle's typical Δ of best matings.
const GOOD_SEAM_FACTOR: f64 = 4.0;

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
    /// Colour across seams, which weighs every Δ measured for the table and the closures.
    pub colours: SeamColours,
    /// How many contour comparisons were made (coarse + refined).
    pub comparisons: usize,
    /// Per straight chainlet, its matings with straight chainlets (see [`super::straight`]);
    /// all empty unless the puzzle has interior straight sides.
    pub straight: Vec<Vec<Mating>>,
    /// Whether it has: then two straight chainlets lying along each other are a seam.
    pub straight_seams: bool,
}

impl MatingTable {
    /// The largest Δ of a good seam (`GOOD_SEAM_FACTOR` times the typical Δ): what growth
    /// asks of a piece that joins on one mating, and what error correction counts seams by.
    pub fn good_seam(&self) -> f64 {
        GOOD_SEAM_FACTOR * self.delta_typical
    }

    /// Chainlet `a`'s shaped matings, then its straight ones.
    pub fn all_of(&self, a: usize) -> impl Iterator<Item = &Mating> {
        self.per_chainlet[a]
            .iter()
            .chain(self.straight.get(a).into_iter().flatten())
    }
}

#[cfg(test)]
impl MatingTable {
    /// A table of the given matings with no feature statistics, colours or straight seams:
    /// for tests of what assembly does with matings.
    pub fn bare(per_chainlet: Vec<Vec<Mating>>, delta_threshold: f64, delta_typical: f64) -> Self {
        MatingTable {
            per_chainlet,
            delta_threshold,
            delta_typical,
            stats: FeatureStats {
                names: [""; 7],
                precision: [1.0; 7],
                thresholds: [1.0; 7],
                weights: [1.0; 7],
            },
            colours: Default::default(),
            comparisons: 0,
            straight: Vec::new(),
            straight_seams: false,
        }
    }
}

/// Compares every chainlet with its feature-similar candidates (from
/// [`super::candidates::mating_candidates`]), in parallel.
pub fn mating_table(
    shapes: &Shapes,
    candidates: &[Vec<Candidate>],
    stats: FeatureStats,
    mut colours: SeamColours,
) -> MatingTable {
    let coarse: Vec<Vec<(usize, f64)>> = (0..shapes.chainlets.len())
        .into_par_iter()
        .map(|a| coarse_of(shapes, candidates, a))
        .collect();
    // Where the pictures are known, Δ is weighed by how well the colours continue across the
    // seam (see `edge_colour`), before anything ranks matings by it; the unit is the colour
    // difference of each chainlet's best coarse match.
    colours.calibrate(
        coarse
            .iter()
            .enumerate()
            .filter_map(|(a, l)| l.first().map(|m| (a, m.0))),
    );
    let mut per_chainlet: Vec<Vec<Mating>> = (0..shapes.chainlets.len())
        .into_par_iter()
        .map(|a| refined_of(shapes, a, &coarse[a], &colours))
        .collect();
    let comparisons = coarse
        .iter()
        .map(|c| c.len() + c.len().min(REFINE_LIMIT))
        .sum();
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
    let straight = super::straight::straight_matings(shapes, delta_threshold, &colours);
    MatingTable {
        straight_seams: straight.is_some(),
        straight: straight.unwrap_or_else(|| vec![Vec::new(); shapes.chainlets.len()]),
        per_chainlet,
        delta_threshold,
        delta_typical: typical.max(0.05) * super::shapes::SAMPLES as f64,
        stats,
        colours,
        comparisons,
    }
}

/// Chainlet `a`'s feature candidates compared coarsely, best shape Δ first.
fn coarse_of(shapes: &Shapes, candidates: &[Vec<Candidate>], a: usize) -> Vec<(usize, f64)> {
    let ca = &shapes.chainlets[a];
    let mut coarse: Vec<(usize, f64)> = candidates[a]
        .iter()
        .map(|c| {
            (
                c.chainlet,
                compare_coarse(ca, &shapes.chainlets[c.chainlet]).delta,
            )
        })
        .collect();
    coarse.sort_by(|x, y| x.1.total_cmp(&y.1));
    coarse
}

/// The acceptable matings of chainlet `a` (before the Δ threshold), best first: the coarse
/// matches with the best colour-weighted Δ refined and checked for overlap.
pub(super) fn refined_of(
    shapes: &Shapes,
    a: usize,
    coarse: &[(usize, f64)],
    colours: &SeamColours,
) -> Vec<Mating> {
    let tol = OVERLAP_FRACTION * shapes.median_size;
    let ca = &shapes.chainlets[a];
    let mut weighed: Vec<(usize, f64)> = coarse
        .iter()
        .map(|&(b, d)| (b, d * colours.factor(a, b)))
        .collect();
    weighed.sort_by(|x, y| x.1.total_cmp(&y.1));
    weighed.truncate(REFINE_LIMIT);
    let mut out: Vec<Mating> = weighed
        .iter()
        .filter_map(|&(b, _)| {
            let cb = &shapes.chainlets[b];
            let cmp = compare_refined(ca, cb);
            let (pa, pb) = (&shapes.pieces[ca.piece], &shapes.pieces[cb.piece]);
            (!overlaps(pa, pb, &cmp.pose, tol)).then(|| Mating {
                b,
                delta: cmp.delta * colours.factor_at((a, ca), (b, cb), &cmp.pose),
                pose: cmp.pose,
            })
        })
        .collect();
    out.sort_by(|x, y| x.delta.total_cmp(&y.delta));
    out
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
            refined_of(
                shapes,
                a,
                &coarse_of(shapes, candidates, a),
                &SeamColours::default(),
            )
            .first()
            .map(|m| per_point(m.delta))
        })
        .collect();
    best.sort_by(f64::total_cmp);
    best.get(best.len() / 2).copied()
}
