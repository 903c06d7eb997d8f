//! Slope discontinuities on a chain, robust to the pixel noise of real photos.
//!
//! A slope discontinuity is a point where the tangent coming in differs from the tangent going
//! out. Each one-sided tangent is estimated by a least-squares quadratic fitted to an arm of the
//! outline that ends a small gap short of the point: the quadratic follows a smoothly curving
//! arm (a knob head, a neck, a shoulder), so on a smooth curve both one-sided tangents agree;
//! the gap skips the slight rounding of die-cut corners. The test runs at two arm lengths and
//! keeps the weaker answer, so a point must look like a corner at both scales (pixel noise
//! fools the short arms, gentle curvature fools the long ones, rarely both). Non-maximum
//! suppression leaves one point per corner.

use super::outline::Outline;
use crate::piece_set::{CriticalKind, CriticalPoint};

/// Detection settings, as fractions of the piece size (√area) so one setting serves a 70 px
/// scan and a 3000 px photo.
#[derive(Clone, Debug)]
pub struct CriticalOptions {
    /// Arm lengths of the one-sided tangent fits.
    pub arms: [f64; 2],
    /// Gap between the point and the start of each arm (skips corner rounding).
    pub gap: f64,
    /// Smallest turn, in degrees, that counts as a discontinuity.
    pub min_turn_deg: f64,
    /// Pre-smoothing of the resampled outline, in pixels (quantisation noise).
    pub smooth_px: f64,
}

impl Default for CriticalOptions {
    fn default() -> Self {
        CriticalOptions {
            arms: [0.06, 0.12],
            gap: 0.015,
            min_turn_deg: 45.0,
            smooth_px: 1.0,
        }
    }
}

/// One-sided fit weights: dot them with arm samples to get the fitted value and slope at the
/// point itself (offset 0), from samples at offsets `gap..=len` on one side.
struct ArmFit {
    offsets: Vec<isize>,
    value: Vec<f64>,
    slope: Vec<f64>,
}

impl ArmFit {
    /// Least squares for `x(t) = a + b·t + c·t²` over `t ∈ sign·[gap, len]`, solved once in
    /// closed form so that `a` and `b` are fixed linear combinations of the samples.
    fn new(gap: usize, len: usize, sign: isize) -> ArmFit {
        let offsets: Vec<isize> = (gap..=len.max(gap + 2))
            .map(|t| sign * t as isize)
            .collect();
        let mut m = [[0.0f64; 3]; 3];
        for &t in &offsets {
            let t = t as f64;
            let row = [1.0, t, t * t];
            for r in 0..3 {
                for c in 0..3 {
                    m[r][c] += row[r] * row[c];
                }
            }
        }
        let inv = invert3(m);
        let weights = |k: usize| -> Vec<f64> {
            offsets
                .iter()
                .map(|&t| {
                    let t = t as f64;
                    inv[k][0] + inv[k][1] * t + inv[k][2] * t * t
                })
                .collect()
        };
        ArmFit {
            value: weights(0),
            slope: weights(1),
            offsets,
        }
    }

    /// Fitted position and unit tangent (direction of travel) at sample `i`.
    fn at(&self, pts: &[[f64; 2]], i: usize) -> ([f64; 2], [f64; 2]) {
        let n = pts.len() as isize;
        let (mut v, mut d) = ([0.0; 2], [0.0; 2]);
        for ((&t, &wv), &wd) in self.offsets.iter().zip(&self.value).zip(&self.slope) {
            let p = pts[(i as isize + t).rem_euclid(n) as usize];
            for k in 0..2 {
                v[k] += wv * p[k];
                d[k] += wd * p[k];
            }
        }
        let norm = (d[0] * d[0] + d[1] * d[1]).sqrt().max(1e-12);
        (v, [d[0] / norm, d[1] / norm])
    }
}

fn invert3(m: [[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    let mut inv = [[0.0; 3]; 3];
    for (r, row) in inv.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            let (r1, r2) = ((c + 1) % 3, (c + 2) % 3);
            let (c1, c2) = ((r + 1) % 3, (r + 2) % 3);
            *cell = (m[r1][c1] * m[r2][c2] - m[r1][c2] * m[r2][c1]) / det;
        }
    }
    inv
}

/// Signed turn from direction `a` to direction `b`, degrees, clockwise on screen positive.
pub fn turn_deg(a: [f64; 2], b: [f64; 2]) -> f64 {
    let cross = a[0] * b[1] - a[1] * b[0];
    let dot = a[0] * b[0] + a[1] * b[1];
    cross.atan2(dot).to_degrees()
}

/// The turn at every sample, per arm scale, with the fitted virtual corner at the long scale.
struct TurnProfile {
    /// The weaker (same-sign) turn over both scales; 0 where the scales disagree in sign.
    turn: Vec<f64>,
    /// The turn at the long scale (reported as the point's angle).
    long_turn: Vec<f64>,
    /// Where the two long arms, extrapolated, meet the point: the corner before rounding.
    apex: Vec<[f64; 2]>,
}

fn turn_profile(pts: &[[f64; 2]], size: f64, opts: &CriticalOptions) -> TurnProfile {
    let n = pts.len();
    let gap = ((opts.gap * size).round() as usize).max(1);
    let arms = opts
        .arms
        .map(|a| ((a * size).round() as usize).max(gap + 3).min(n / 4).max(3));
    let fits = arms.map(|len| (ArmFit::new(gap, len, -1), ArmFit::new(gap, len, 1)));
    let mut turn = vec![0.0; n];
    let mut long_turn = vec![0.0; n];
    let mut apex = vec![[0.0; 2]; n];
    for i in 0..n {
        let mut weakest = f64::INFINITY;
        let mut sign = 0.0;
        for (k, (before, after)) in fits.iter().enumerate() {
            let (pa, ta) = before.at(pts, i);
            let (pb, tb) = after.at(pts, i);
            let t = turn_deg(ta, tb);
            if k == fits.len() - 1 {
                long_turn[i] = t;
                apex[i] = [(pa[0] + pb[0]) / 2.0, (pa[1] + pb[1]) / 2.0];
            }
            if sign == 0.0 {
                sign = t.signum();
            } else if t.signum() != sign {
                weakest = 0.0;
            }
            weakest = weakest.min(t.abs());
        }
        turn[i] = sign * weakest;
    }
    TurnProfile {
        turn,
        long_turn,
        apex,
    }
}

/// Slope discontinuities of a closed outline, in chain order.
pub fn discontinuities(outline: &Outline, opts: &CriticalOptions) -> Vec<CriticalPoint> {
    let n = outline.len();
    if n < 16 {
        return Vec::new();
    }
    let size = outline.size();
    let pts = outline.smoothed(opts.smooth_px);
    let profile = turn_profile(&pts, size, opts);
    let window = ((opts.arms[1] * size).round() as usize).clamp(2, n / 2);
    let gap = ((opts.gap * size).round() as usize).max(1);
    let strength = |i: usize| profile.turn[i].abs();
    let mut out = Vec::new();
    for i in 0..n {
        let s = strength(i);
        if s < opts.min_turn_deg {
            continue;
        }
        // Strict maximum against earlier samples, at least as strong as later ones: a flat
        // plateau yields exactly its first sample.
        let is_peak = (1..=window).all(|k| {
            let before = strength((i + n - k) % n);
            let after = strength((i + k) % n);
            s > before && s >= after
        });
        if !is_peak {
            continue;
        }
        let best = refine(outline, &profile.apex[i], i, 2 * gap);
        out.push(CriticalPoint {
            index: outline.chain_index[best],
            x: outline.points[best][0],
            y: outline.points[best][1],
            angle_deg: profile.long_turn[i],
            kind: CriticalKind::Discontinuity,
        });
    }
    out.sort_by_key(|c| c.index);
    out.dedup_by_key(|c| c.index);
    out
}

/// The outline sample within `reach` of `i` nearest the virtual corner: on a rounded corner the
/// turn is flat over the rounding, and the apex pins the corner itself.
fn refine(outline: &Outline, apex: &[f64; 2], i: usize, reach: usize) -> usize {
    let n = outline.len();
    let r = reach as isize;
    (-r..=r)
        .map(|k| (i as isize + k).rem_euclid(n as isize) as usize)
        .min_by(|&a, &b| {
            let da = dist2(&outline.points[a], apex);
            let db = dist2(&outline.points[b], apex);
            da.total_cmp(&db)
        })
        .unwrap_or(i)
}

fn dist2(a: &[f64; 2], b: &[f64; 2]) -> f64 {
    (a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::ChainCode;

    #[test]
    fn turn_sign_is_clockwise_positive() {
        assert!((turn_deg([1.0, 0.0], [0.0, 1.0]) - 90.0).abs() < 1e-9);
        assert!((turn_deg([1.0, 0.0], [0.0, -1.0]) + 90.0).abs() < 1e-9);
    }

    #[test]
    fn square_has_four_right_angle_corners() {
        let side = 80;
        let digits: String = ["0", "6", "4", "2"]
            .iter()
            .map(|d| d.repeat(side))
            .collect();
        let chain = ChainCode::from_digits([10, 10], &digits).unwrap();
        let cps = discontinuities(&Outline::new(&chain), &CriticalOptions::default());
        assert_eq!(cps.len(), 4, "{cps:?}");
        for (cp, want) in cps.iter().zip([0, side, 2 * side, 3 * side]) {
            let d = (cp.index as i64 - want as i64).rem_euclid(4 * side as i64);
            assert!(d <= 2 || d >= 4 * side as i64 - 2, "{cp:?} vs {want}");
            assert!((cp.angle_deg - 90.0).abs() < 10.0, "{cp:?}");
        }
    }
}
