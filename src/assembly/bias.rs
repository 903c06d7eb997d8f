//! Outline bias: how far the traced outlines sit outside the true cut, measured from how well
//! the puzzle's own chainlets fit their best mates.
//!
//! Segmentation never puts an outline exactly on the cut: a blurred photo edge is taken in down
//! to a few times the noise (pieces come out 1–2 px fat). The bias is the same on both sides
//! of every cut, so mating contours do not coincide: a fat knob does not fit a fat socket, the
//! fit sets the mates apart by twice the bias, and four pieces around a junction no longer
//! close. At 120 px per piece a photo's bias took a 100-piece puzzle from 100 % (its scan) to
//! 10 %.
//!
//! The inset that undoes it is found by trying: every outline is moved inward by 0, ½, 1, …
//! pixels, and the median best-mate Δ of a sample of chainlets is measured at each; the inset
//! is raised while that falls clearly. True mates dominate the best matings once the inset is
//! near right, so the curve has one clear minimum (on generated 100-piece photos Δ fell 3–7×
//! from inset 0 to the minimum, at 1–1.5 px). An earlier estimator read the offset from the
//! best matings at inset 0 instead; when the bias is large those matings are mostly false, and
//! on 4 of 12 such photos it read ½ px where 1–1.5 was needed (5–50 % neighbour accuracy; the
//! search gives 85–100 % on the same four). Only fat outlines are corrected, the case whose
//! cause is understood: on white-1000's real masks an outset looked better and cost 9 points.

use super::candidates::{mating_candidates, Candidate, FeatureStats};
use super::matings::typical_best_delta;
use super::shapes::{build_shapes, Shapes};
use crate::piece_set::PieceSet;

/// Step and largest inset tried (pixels).
const STEP: f64 = 0.5;
const MAX_INSET: f64 = 3.0;
/// A step is taken only if it cuts the median best Δ by at least this share: smaller changes
/// are within what the sample's noise makes.
const MIN_GAIN: f64 = 0.1;
/// Chainlets whose best mates are measured at each inset: a few hundred pin the median down.
const SAMPLE: usize = 400;

/// The outlines of `set` at the inset at which they best fit their mates.
pub struct Fitted {
    /// Pixels (≥ 0) every outline was moved inward.
    pub inset: f64,
    pub shapes: Shapes,
    /// The shapes' feature candidates and statistics, as matching needs them.
    pub candidates: Vec<Vec<Candidate>>,
    pub stats: FeatureStats,
}

/// The inset (pixels, ≥ 0) at which the outlines of `set` best fit their mates, with the
/// shapes and candidates built at it.
pub fn fitted_inset(set: &PieceSet, candidate_limit: usize) -> Fitted {
    let at = |inset: f64| {
        let shapes = build_shapes(set, inset);
        let shaped: Vec<usize> = (0..shapes.chainlets.len())
            .filter(|&i| !shapes.chainlets[i].straight)
            .collect();
        let every = shaped.len().div_ceil(SAMPLE).max(1);
        let sample: Vec<usize> = shaped.into_iter().step_by(every).collect();
        let (candidates, stats) = mating_candidates(&shapes, candidate_limit);
        let typical = typical_best_delta(&shapes, &candidates, &sample);
        (
            Fitted {
                inset,
                shapes,
                candidates,
                stats,
            },
            typical,
        )
    };
    let (mut best, first) = at(0.0);
    let Some(mut typical) = first else {
        return best;
    };
    while best.inset + STEP <= MAX_INSET {
        let (next, t) = at(best.inset + STEP);
        match t {
            Some(t) if t < (1.0 - MIN_GAIN) * typical => (best, typical) = (next, t),
            _ => break,
        }
    }
    best
}
