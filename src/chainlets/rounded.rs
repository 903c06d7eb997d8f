//! Corners where two long, roughly straight arms of the outline meet across a rounded or
//! ragged stretch.
//!
//! Some puzzles are cut with strongly rounded corners (a kids' puzzle's corner can be an arc of
//! radius 5% of the piece), and a phone photo's segmentation leaves a ragged outline whose
//! pixel-scale jags are sharper than any of those arcs. Then neither a sharp turn (see
//! `critical`) nor two runs straight at the pixel scale (see `runs`) marks the corner. The
//! sides still carry it: lines fitted to the outline over long arms that start beyond the
//! rounding are the two sides, straight up to the jags, and meet at the corner. So at each
//! sample the turn between such arm lines is measured; where both arms are straight to within
//! the jags and the turn is a convex corner's, the stretch is a corner, placed where the lines
//! meet.

use super::critical::{turn_deg, Candidate};
use super::outline::Outline;
use super::pixel_edge::{to_edge, winding};
use crate::piece_set::{CriticalKind, CriticalPoint};
use crate::plane::{contains, dist};

/// Arc from the point to the start of each arm, fraction of piece size: beyond the rounding.
const GAP: f64 = 0.05;
/// Arc from the point to the end of each arm, fraction of piece size.
const ARM: f64 = 0.15;
/// An arm is straight if its RMS distance from its line is at most this many times the
/// outline's raggedness (see [`raggedness`]): within the jags of the segmentation, so a
/// knob's gently bending head or neck on a clean outline is not taken for a side.
const RAGGED: f64 = 2.5;
/// Half-length of the stretches whose straightness measures raggedness, fraction of size.
const SHORT: f64 = 0.02;
/// Floor under the arm RMS limit, pixels (the staircase of a clean mask).
const MIN_RMS: f64 = 0.5;
/// Ceiling on the arm RMS limit, fraction of piece size: never as bent as a knob.
const MAX_RMS: f64 = 0.008;
/// Turns (degrees, clockwise) between the arms that can be a corner of a four-sided piece.
const TURN: (f64, f64) = (55.0, 125.0);
/// The lines' meeting point must lie this close to the outline, fraction of piece size (a
/// quarter-circle of radius r leaves it 0.41 r off the arc).
const MAX_OFF: f64 = 0.04;
/// How far (pixels) inside the outline the meeting point of a sharp corner's lines may fall:
/// the smoothing pulls the outline in a little.
const INSIDE_TOLERANCE: f64 = 2.0;
/// The sharpness credited to such a corner, degrees.
pub const ROUNDED_SHARPNESS: f64 = 45.0;

/// Running sums over the closed outline, so a line can be fitted to any arm in constant time.
struct Sums {
    /// Prefix sums of 1, x, y, x², xy, y² over samples taken twice round (for wrapping).
    acc: Vec<[f64; 6]>,
    n: usize,
}

impl Sums {
    fn new(pts: &[[f64; 2]]) -> Sums {
        let n = pts.len();
        let mut acc = vec![[0.0; 6]; 2 * n + 1];
        for k in 0..2 * n {
            let [x, y] = pts[k % n];
            let add = [1.0, x, y, x * x, x * y, y * y];
            for j in 0..6 {
                acc[k + 1][j] = acc[k][j] + add[j];
            }
        }
        Sums { acc, n }
    }

    /// Total least-squares line through samples `from..from+len` (wrapping): centroid, unit
    /// direction (either way) and RMS distance of the samples from it.
    fn line(&self, from: usize, len: usize) -> ([f64; 2], [f64; 2], f64) {
        let from = from % self.n;
        let (a, b) = (self.acc[from], self.acc[from + len]);
        let s: Vec<f64> = (0..6).map(|j| b[j] - a[j]).collect();
        let m = s[0].max(1.0);
        let c = [s[1] / m, s[2] / m];
        let sxx = s[3] / m - c[0] * c[0];
        let sxy = s[4] / m - c[0] * c[1];
        let syy = s[5] / m - c[1] * c[1];
        let theta = 0.5 * (2.0 * sxy).atan2(sxx - syy);
        // The smaller eigenvalue of the covariance: the mean squared distance from the line.
        let half = ((sxx - syy).powi(2) / 4.0 + sxy * sxy).sqrt();
        let across = ((sxx + syy) / 2.0 - half).max(0.0);
        (c, [theta.cos(), theta.sin()], across.sqrt())
    }
}

/// How ragged the outline is: the median RMS distance of short stretches (a fraction
/// [`SHORT`] of piece size either side of a sample) from their own lines. Most of an outline
/// is sides, nearly straight at that scale, so this is the segmentation's jaggedness.
fn raggedness(sums: &Sums, size: f64) -> f64 {
    let h = ((SHORT * size).round() as usize).max(6);
    let n = sums.n;
    let mut rms: Vec<f64> = (0..n).map(|i| sums.line(i + n - h, 2 * h + 1).2).collect();
    let mid = n / 2;
    *rms.select_nth_unstable_by(mid, f64::total_cmp).1
}

/// One sample's arm lines: the turn between them and where they meet.
struct Arms {
    turn: f64,
    rms: f64,
    apex: [f64; 2],
    /// The lines' directions of travel.
    dirs: [[f64; 2]; 2],
}

/// Candidates where long straight arms of the smoothed outline `pts` meet at a convex corner,
/// in outline order.
pub fn rounded_corners(outline: &Outline, pts: &[[f64; 2]]) -> Vec<Candidate> {
    let n = pts.len();
    let size = outline.size();
    let gap = ((GAP * size).round() as usize).max(4);
    let arm = ((ARM * size).round() as usize).max(gap + 8);
    if n < 4 * arm {
        return Vec::new();
    }
    let winding = winding(pts);
    let sums = Sums::new(pts);
    let max_rms = (RAGGED * raggedness(&sums, size))
        .min(MAX_RMS * size)
        .max(MIN_RMS);
    let arms: Vec<Option<Arms>> = (0..n)
        .map(|i| {
            let len = arm - gap + 1;
            let (p, mut u, ru) = sums.line(i + n - arm, len);
            let (q, mut v, rv) = sums.line(i + gap, len);
            // Orient each line along the direction of travel.
            let (a0, a1) = (pts[(i + n - arm) % n], pts[(i + n - gap) % n]);
            if u[0] * (a1[0] - a0[0]) + u[1] * (a1[1] - a0[1]) < 0.0 {
                u = [-u[0], -u[1]];
            }
            let (b0, b1) = (pts[(i + gap) % n], pts[(i + arm) % n]);
            if v[0] * (b1[0] - b0[0]) + v[1] * (b1[1] - b0[1]) < 0.0 {
                v = [-v[0], -v[1]];
            }
            let turn = turn_deg(u, v);
            let rms = ru.max(rv);
            if rms > max_rms || turn < TURN.0 || turn > TURN.1 {
                return None;
            }
            let cross = u[0] * v[1] - u[1] * v[0];
            let w = [q[0] - p[0], q[1] - p[1]];
            let s = (w[0] * v[1] - w[1] * v[0]) / cross;
            Some(Arms {
                turn,
                rms,
                apex: [p[0] + s * u[0], p[1] + s * u[1]],
                dirs: [u, v],
            })
        })
        .collect();
    let Some(start) = (0..n).find(|&i| arms[i].is_none()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut k = 0;
    while k < n {
        let i = (start + k) % n;
        if arms[i].is_none() {
            k += 1;
            continue;
        }
        // A stretch of samples whose arms meet as a corner: its straightest arms place it.
        let mut len = 0;
        while k + len < n && arms[(start + k + len) % n].is_some() {
            len += 1;
        }
        let best = (0..len)
            .map(|j| (i + j) % n)
            .min_by(|&a, &b| {
                let rms = |s: usize| arms[s].as_ref().map_or(f64::INFINITY, |a| a.rms);
                rms(a).total_cmp(&rms(b))
            })
            .and_then(|s| arms[s].as_ref());
        k += len;
        let Some(best) = best else { continue };
        // The outline sample nearest the meeting point, over the stretch and the gaps.
        let from = i + n - gap;
        let Some(near) = (0..len + 2 * gap)
            .map(|j| (from + j) % n)
            .min_by(|&a, &b| dist(&pts[a], &best.apex).total_cmp(&dist(&pts[b], &best.apex)))
        else {
            continue;
        };
        // A convex corner's sides meet outside the piece (or on its outline, if it is
        // sharp); lines that meet inside it are a knob's neck and head, not two sides.
        if dist(&pts[near], &best.apex) > MAX_OFF * size
            || (contains(pts, best.apex) && dist(&pts[near], &best.apex) > INSIDE_TOLERANCE)
        {
            continue;
        }
        let at = to_edge(best.apex, best.dirs[0], best.dirs[1], winding);
        out.push(Candidate {
            point: CriticalPoint {
                index: outline.chain_index[near],
                x: at[0],
                y: at[1],
                angle_deg: best.turn,
                kind: CriticalKind::Discontinuity,
            },
            sample: near,
            sharp_deg: ROUNDED_SHARPNESS,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 600 px square with every corner rounded off by a 40 px radius and a ragged outline
    /// (±2 px jags every few pixels): each corner is found where the sides meet.
    #[test]
    fn ragged_rounded_corners_are_found_where_the_sides_meet() {
        let (lo, hi, r) = (40.0, 640.0, 40.0);
        let mask = image::GrayImage::from_fn(680, 680, |x, y| {
            let jag = f64::from((x * 7 + y * 13) % 5) - 2.0;
            let (x, y) = (f64::from(x) + jag, f64::from(y) - jag);
            let (cx, cy) = (x.clamp(lo + r, hi - r), y.clamp(lo + r, hi - r));
            let inside = (x - cx).hypot(y - cy) <= r;
            image::Luma([if inside { 255 } else { 0 }])
        });
        let chain = crate::vision::trace_mask(&mask).unwrap();
        let outline = Outline::new(&chain);
        let pts = outline.smoothed(1.5);
        let found = rounded_corners(&outline, &pts);
        let at: Vec<(f64, f64)> = found.iter().map(|c| (c.point.x, c.point.y)).collect();
        assert_eq!(found.len(), 4, "{at:?}");
        for (x, y) in [(lo, lo), (hi, lo), (hi, hi), (lo, hi)] {
            assert!(
                at.iter().any(|c| (c.0 - x).hypot(c.1 - y) < 4.0),
                "no corner near ({x}, {y}): {at:?}"
            );
        }
        assert!(found.iter().all(|c| (c.point.angle_deg - 90.0).abs() < 3.0));
    }

    /// On a small piece (a coarse scan) the size-relative straightness ceiling falls below the
    /// pixel floor; the floor wins and nothing panics.
    #[test]
    fn a_small_piece_is_handled() {
        let mask = image::GrayImage::from_fn(60, 60, |x, y| {
            image::Luma([if (10..50).contains(&x) && (10..50).contains(&y) {
                255
            } else {
                0
            }])
        });
        let chain = crate::vision::trace_mask(&mask).unwrap();
        let outline = Outline::new(&chain);
        let found = rounded_corners(&outline, &outline.smoothed(1.5));
        assert!(found.len() <= 4);
    }
}
