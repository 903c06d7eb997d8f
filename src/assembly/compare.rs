//! Contour comparison (Freeman & Garder): invert the candidate chainlet, rotate it into
//! alignment with the given one, and sum the squared distances between corresponding points.
//! The rotation step is done in closed form (least-squares rigid fit on arc-length
//! correspondences, which contains the paper's distance-vector alignment as its first
//! approximation), then refined by a few closest-point iterations so that critical points
//! found a pixel or two apart on the two pieces do not spoil the comparison.

use super::geometry::{distance_to_boundary, fit_rigid, inside_polygon, Pose, P2};
use super::shapes::{ChainletShape, PieceShape, SAMPLES};

/// The outcome of comparing chainlet `a` with candidate `b` (of another piece).
#[derive(Clone, Copy, Debug)]
pub struct Comparison {
    /// Δ: sum over the [`SAMPLES`] points of the squared distance between the chainlets after
    /// alignment, pixels².
    pub delta: f64,
    /// Maps the candidate's piece (source-image pixels) onto the given chainlet's piece.
    pub pose: Pose,
}

/// Coarse comparison: arc-length correspondence and one rigid fit.
pub fn compare_coarse(a: &ChainletShape, b: &ChainletShape) -> Comparison {
    let inverted: Vec<P2> = b.samples.iter().rev().copied().collect();
    let (pose, delta) = fit_rigid(&inverted, &a.samples);
    Comparison { delta, pose }
}

/// Refined comparison: closest-point iterations from the coarse pose, Δ measured both ways
/// (a onto b and b onto a, averaged) so that a short chainlet cannot hide inside a long one.
pub fn compare_refined(a: &ChainletShape, b: &ChainletShape) -> Comparison {
    let mut cmp = compare_coarse(a, b);
    let inverted: Vec<P2> = b.samples.iter().rev().copied().collect();
    for _ in 0..3 {
        let moved: Vec<P2> = b.dense.iter().map(|p| cmp.pose * p).collect();
        let targets: Vec<P2> = inverted
            .iter()
            .map(|p| nearest_on_polyline(&a.dense, &(cmp.pose * p)))
            .collect();
        let sources: Vec<P2> = a
            .samples
            .iter()
            .map(|p| nearest_on_polyline(&moved, p))
            .collect();
        // Pairs in the form (b point in b's frame, its target in a's frame).
        let inv_pose = cmp.pose.inverse();
        let from: Vec<P2> = inverted
            .iter()
            .copied()
            .chain(sources.iter().map(|p| inv_pose * p))
            .collect();
        let to: Vec<P2> = targets
            .iter()
            .copied()
            .chain(a.samples.iter().copied())
            .collect();
        let (pose, _) = fit_rigid(&from, &to);
        cmp.pose = pose;
    }
    let moved: Vec<P2> = b.dense.iter().map(|p| cmp.pose * p).collect();
    let a_to_b: f64 = a
        .samples
        .iter()
        .map(|p| (nearest_on_polyline(&moved, p) - p).norm_squared())
        .sum();
    let b_to_a: f64 = inverted
        .iter()
        .map(|p| {
            let q = cmp.pose * p;
            (nearest_on_polyline(&a.dense, &q) - q).norm_squared()
        })
        .sum();
    cmp.delta = (a_to_b + b_to_a) / 2.0;
    cmp
}

/// Whether piece `b`, moved by `pose` into piece `a`'s frame, overlaps `a` by more than `tol`
/// pixels anywhere: a mate whose placed shape would overlap the other piece is rejected.
pub fn overlaps(a: &PieceShape, b: &PieceShape, pose: &Pose, tol: f64) -> bool {
    let deep = b
        .polygon
        .iter()
        .map(|p| pose * p)
        .filter(|p| inside_polygon(&a.polygon, p) && distance_to_boundary(&a.polygon, p) > tol)
        .count();
    deep > 1
}

fn nearest_on_polyline(line: &[P2], p: &P2) -> P2 {
    let mut best = line[0];
    let mut best_d = f64::INFINITY;
    for w in line.windows(2) {
        let ab = w[1] - w[0];
        let len2 = ab.norm_squared();
        let t = if len2 > 0.0 {
            ((p - w[0]).dot(&ab) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let q = w[0] + ab * t;
        let d = (q - p).norm_squared();
        if d < best_d {
            best_d = d;
            best = q;
        }
    }
    best
}

/// Mean squared distance per sample point: Δ normalised so thresholds do not depend on
/// [`SAMPLES`].
pub fn per_point(delta: f64) -> f64 {
    delta / SAMPLES as f64
}
