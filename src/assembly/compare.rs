//! Contour comparison (Freeman & Garder): invert the candidate chainlet, rotate it into
//! alignment with the given one, and sum the squared distances between corresponding points.
//! The rotation step is done in closed form (least-squares rigid fit on arc-length
//! correspondences, which contains the paper's distance-vector alignment as its first
//! approximation), then refined by a few closest-point iterations so that critical points
//! found a pixel or two apart on the two pieces do not spoil the comparison.

use super::geometry::{distance_to_boundary, fit_rigid, Pose, P2};
use super::shapes::{ChainletShape, PieceShape, SAMPLES};
use crate::plane::contains;

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
    let b_dense_rev: Vec<P2> = b.dense.iter().rev().copied().collect();
    for _ in 0..3 {
        let moved: Vec<P2> = b_dense_rev.iter().map(|p| cmp.pose * p).collect();
        let targets: Vec<P2> = inverted
            .iter()
            .enumerate()
            .map(|(i, p)| nearest_near(&a.dense, &(cmp.pose * p), i))
            .collect();
        let sources: Vec<P2> = a
            .samples
            .iter()
            .enumerate()
            .map(|(i, p)| nearest_near(&moved, p, i))
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
    cmp.delta = delta_at(a, b, &cmp.pose, 1.0 / 8.0);
    cmp
}

/// Δ of `b` (inverted) against `a` with `b`'s piece held at `pose` in `a`'s piece frame,
/// measured to the nearest point both ways (a onto b and b onto a, averaged), each point
/// looked for within `slide` (a fraction of the chainlet's length) of where it falls by arc
/// length: unlike fixed correspondences, it does not charge for critical points found a pixel
/// or two along the outline from where the mate's were, while a small `slide` still charges a
/// contour that only lies near its mate by sliding along it.
pub fn delta_at(a: &ChainletShape, b: &ChainletShape, pose: &Pose, slide: f64) -> f64 {
    let window = |n: usize| ((n as f64 * slide).round() as usize).max(1);
    let moved: Vec<P2> = b.dense.iter().rev().map(|p| pose * p).collect();
    let a_to_b: f64 = a
        .samples
        .iter()
        .enumerate()
        .map(|(i, p)| (nearest_within(&moved, p, i, window(moved.len())) - p).norm_squared())
        .sum();
    let b_to_a: f64 = b
        .samples
        .iter()
        .rev()
        .enumerate()
        .map(|(i, p)| {
            let q = pose * p;
            (nearest_within(&a.dense, &q, i, window(a.dense.len())) - q).norm_squared()
        })
        .sum();
    (a_to_b + b_to_a) / 2.0
}

/// Whether piece `b`, moved by `pose` into piece `a`'s frame, overlaps `a` by more than `tol`
/// pixels anywhere: a mate whose placed shape would overlap the other piece is rejected.
///
/// Two pieces of like shape laid one on the other have their outlines nearly coinciding, so
/// no outline point lies deep inside the other piece; the body test catches that case: either
/// piece's centroid, where it lies deep inside its own piece, must not lie deep inside the
/// other.
pub fn overlaps(a: &PieceShape, b: &PieceShape, pose: &Pose, tol: f64) -> bool {
    if body_inside(a, b, pose, tol) || body_inside(b, a, &pose.inverse(), tol) {
        return true;
    }
    let mut deep = b
        .polygon
        .iter()
        .filter(|p| deep_inside(a, &(pose * *p), tol));
    deep.nth(1).is_some()
}

/// Whether `b`'s centroid, moved by `pose` into `a`'s frame, lies deeper than `tol` inside
/// `a`, counting only a centroid that lies that deep inside `b` itself (an irregular piece's
/// centroid may fall outside it or near its edge).
fn body_inside(a: &PieceShape, b: &PieceShape, pose: &Pose, tol: f64) -> bool {
    if b.centroid_depth <= tol {
        return false;
    }
    deep_inside(a, &(pose * b.centroid), tol)
}

/// Whether `p` (in `a`'s frame) lies inside `a` more than `tol` from its outline; the bounds
/// rule most points out before the point-in-polygon test.
fn deep_inside(a: &PieceShape, p: &P2, tol: f64) -> bool {
    let [x0, y0, x1, y1] = a.bounds;
    if p.x < x0 + tol || p.x > x1 - tol || p.y < y0 + tol || p.y > y1 - tol {
        return false;
    }
    contains(&a.polygon, *p) && distance_to_boundary(&a.polygon, p) > tol
}

/// Closest point to `p` on `line`, searched near where sample `i` of [`SAMPLES`] falls by
/// arc length: mates correspond monotonically, so a window of a few percent of the chainlet
/// on either side is enough and keeps refinement linear instead of quadratic.
pub(super) fn nearest_near(line: &[P2], p: &P2, i: usize) -> P2 {
    nearest_within(line, p, i, (line.len() / 8).max(4))
}

/// Closest point to `p` on `line` within `window` points either side of where sample `i`
/// falls by arc length.
fn nearest_within(line: &[P2], p: &P2, i: usize, window: usize) -> P2 {
    let n = line.len();
    let centre = i * (n - 1) / (SAMPLES - 1);
    let lo = centre.saturating_sub(window);
    let hi = (centre + window + 1).min(n);
    nearest_on_polyline(&line[lo..hi], p)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A square piece of side `side` with its top-left corner at the origin, its outline a
    /// point every pixel.
    fn square(side: f64) -> PieceShape {
        let n = side as usize;
        let mut outline = Vec::new();
        for i in 0..n {
            outline.push(P2::new(i as f64, 0.0));
        }
        for i in 0..n {
            outline.push(P2::new(side, i as f64));
        }
        for i in 0..n {
            outline.push(P2::new(side - i as f64, side));
        }
        for i in 0..n {
            outline.push(P2::new(0.0, side - i as f64));
        }
        PieceShape {
            id: 1,
            image: String::new(),
            polygon: outline.clone(),
            outline,
            bounds: [0.0, 0.0, side, side],
            centroid: P2::new(side / 2.0, side / 2.0),
            centroid_depth: side / 2.0,
            size: side,
            chainlets: Vec::new(),
            scale: 1.0,
        }
    }

    #[test]
    fn a_piece_laid_on_a_look_alike_overlaps() {
        let (a, b) = (square(100.0), square(100.0));
        assert!(overlaps(&a, &b, &Pose::identity(), 8.0));
        assert!(overlaps(&a, &b, &Pose::translation(3.0, -2.0), 8.0));
    }

    #[test]
    fn neighbours_overlap_only_when_pushed_in_deeper_than_the_tolerance() {
        let (a, b) = (square(100.0), square(100.0));
        assert!(!overlaps(&a, &b, &Pose::translation(100.0, 0.0), 8.0));
        assert!(!overlaps(&a, &b, &Pose::translation(95.0, 0.0), 8.0));
        assert!(overlaps(&a, &b, &Pose::translation(80.0, 0.0), 8.0));
    }
}
