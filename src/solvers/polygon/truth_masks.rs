//! Synthetic dissections as the photo path sees them without segmentation: every piece's
//! truth outline rasterised at pixel centres and traced by the real tracer (for the
//! diagnoses in `replay_tests` and `chirality_tests`).

use crate::piece_set::PieceSet;
use crate::vision::DescribeOptions;

/// The pieces traced from their truth outlines rasterised at pixel centres, with the
/// polygon path's corner model (every local discontinuity, no four-sided model).
pub(super) fn traced_truth(truth: &crate::synth::truth::Truth) -> PieceSet {
    let mut opts = DescribeOptions::default();
    opts.critical.four_sided = false;
    crate::synth::truth_masks::traced_truth(truth, &opts).expect("truth outlines trace")
}
