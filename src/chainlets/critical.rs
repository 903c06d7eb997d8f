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

use super::apex::corner_meeting;
use super::outline::Outline;
use super::pixel_edge::winding;
use crate::piece_set::{CriticalKind, CriticalPoint};

/// Detection settings, as fractions of the piece size (√area) so one setting serves a 70 px
/// scan and a 3000 px photo.
#[derive(Clone, Debug)]
pub struct CriticalOptions {
    /// Arm lengths of the one-sided tangent fits, short scale then long.
    pub arms: [f64; 2],
    /// Gap between the point and the start of each arm (skips corner rounding), per scale.
    pub gaps: [f64; 2],
    /// Smallest turn, in degrees, that counts as a discontinuity.
    pub min_turn_deg: f64,
    /// Half-width of the sharpness test: the turn between chords this long on either side of
    /// the point. A die-cut corner turns most of its angle within it; the lip of a cavity or
    /// the shoulder of a knob turns as much, but only over a longer arc.
    pub sharp_chord: f64,
    /// Smallest turn over [`Self::sharp_chord`] chords, degrees.
    pub min_sharp_turn_deg: f64,
    /// Pre-smoothing of the resampled outline, in pixels (quantisation noise).
    pub smooth_px: f64,
    /// Pre-smoothing as a fraction of piece size, when larger: a mask upscaled from a coarse
    /// scan carries staircase noise in proportion to its size.
    pub smooth_fraction: f64,
    /// Use the four-sided piece model (see `quad`) where a piece fits it.
    pub four_sided: bool,
    /// Drop discontinuities on knobs, holes and their necks (see `lobes`), so the turn floors
    /// can be low enough for the shallow corners of an irregular cut.
    pub skip_lobes: bool,
    /// Keep convex discontinuities only (a clockwise turn): where three or more pieces of an
    /// irregular cut meet, each piece's angle is a share of 360°, so a junction is a convex
    /// corner of every piece that turns there (see [`Self::irregular`]).
    pub convex_only: bool,
}

impl Default for CriticalOptions {
    fn default() -> Self {
        CriticalOptions {
            arms: [0.03, 0.08],
            gaps: [0.01, 0.01],
            min_turn_deg: 45.0,
            sharp_chord: 0.013,
            min_sharp_turn_deg: 40.0,
            smooth_px: 1.5,
            smooth_fraction: 0.002,
            four_sided: true,
            skip_lobes: false,
            convex_only: false,
        }
    }
}

impl CriticalOptions {
    /// Pieces of an irregular cut (no four-sided model): where three pieces meet the outline
    /// turns by only 20–60°, under the default's 45° and 40° floors, which are set for die-cut
    /// corners and polygon vertices. At such low floors the shoulders of every knob's neck pass
    /// too, so discontinuities on knobs, holes and necks are dropped (see `lobes`). Measured end
    /// to end on generated irregular 20-piece scans (seeds 1–10, 160 px), mean neighbour
    /// accuracy with lobes dropped (ratio 2.8): 64.2 % at 22° / 17°, 63.9 % at 20° / 15°,
    /// 60.5 % at 18° / 12°, 57.3 % at 25° / 20°, 36.4 % at 15° / 10°; without dropping lobes
    /// 54.7 % at 30° / 25° (knob necks pass below that). With the lobe test as it is now: 75.2 %.
    /// Reflex turns are dropped ([`Self::convex_only`]): none of 1643 found true junctions was
    /// one, 65 of 150 false points on photos were (numbers in docs/trace.md).
    ///
    /// The sharpness chord is five times the default's: the default's 3 px chord at 160 px per
    /// piece reads a shallow junction through the pixel noise and the blur of a photo, which
    /// round a 20–30° corner over more than that, so the sharp test had to be paired with a
    /// high arm-turn floor to keep the noise out. A chord of 0.07 of the size sees the whole
    /// corner and averages the noise, which lets the arm-turn floor go down to 14°. Junction
    /// corners missed / false against the truth, irregular 20 photos seeds 1–10: 74 / 76 with
    /// the default's chord at 22° → 24 / 58; scans 64 / 53 → 33 / 46; irregular 100 photos
    /// seeds 1–4: 136 / 209 → 45 / 69 (end-to-end numbers in docs/trace.md).
    pub fn irregular() -> Self {
        CriticalOptions {
            sharp_chord: 0.07,
            min_turn_deg: 14.0,
            min_sharp_turn_deg: 17.0,
            four_sided: false,
            skip_lobes: true,
            convex_only: true,
            ..CriticalOptions::default()
        }
    }
}

/// Floors, in pixels, under the size-relative lengths: on a small piece (a 70 px scan) a
/// fraction of its size would be shorter than the smoothing and the staircase of the pixels.
const MIN_CHORD_PX: usize = 3;
const MIN_GAP_PX: usize = 2;
const MIN_ARM_PX: usize = 8;

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
    let fits = [0, 1].map(|k| {
        let gap = ((opts.gaps[k] * size).round() as usize).max(MIN_GAP_PX);
        let len = ((opts.arms[k] * size).round() as usize)
            .max(MIN_ARM_PX << k)
            .max(gap + 3)
            .min(n / 4)
            .max(3);
        (ArmFit::new(gap, len, -1), ArmFit::new(gap, len, 1))
    });
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
///
/// Candidates are the peaks of the turn between short chords (sharp turns); each must also
/// turn at least [`CriticalOptions::min_turn_deg`] at both arm scales, so a short wiggle or a
/// tight but smooth bend is not taken for a corner.
pub fn discontinuities(outline: &Outline, opts: &CriticalOptions) -> Vec<CriticalPoint> {
    let mut out: Vec<CriticalPoint> =
        candidates(outline, opts, opts.min_sharp_turn_deg, opts.min_turn_deg)
            .into_iter()
            .map(|c| c.point)
            .collect();
    out.sort_by_key(|c| c.index);
    out.dedup_by_key(|c| c.index);
    out
}

#[derive(Clone)]
/// A possible corner: the point, its outline sample, and its sharp (short-chord) turn in
/// degrees.
pub struct Candidate {
    pub point: CriticalPoint,
    pub sample: usize,
    pub sharp_deg: f64,
}

/// Peaks of the short-chord turn of at least `min_sharp` degrees whose arm-fit turn reaches
/// `min_turn` degrees, in outline order.
pub fn candidates(
    outline: &Outline,
    opts: &CriticalOptions,
    min_sharp: f64,
    min_turn: f64,
) -> Vec<Candidate> {
    let n = outline.len();
    if n < 16 {
        return Vec::new();
    }
    let size = outline.size();
    let pts = outline.smoothed(opts.smooth_px.max(opts.smooth_fraction * size));
    let winding = winding(&pts);
    let profile = turn_profile(&pts, size, opts);
    let chord = ((opts.sharp_chord * size).round() as usize).clamp(MIN_CHORD_PX, n / 8);
    let sharp: Vec<f64> = (0..n).map(|i| sharp_turn(&pts, i, chord, 0)).collect();
    let window = 2 * chord;
    let strength = |i: usize| sharp[i].abs();
    let mut out = Vec::new();
    for i in 0..n {
        let s = strength(i);
        if s < min_sharp {
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
        // The arm fits see past the corner rounding only from a gap away: take the strongest
        // same-sign turn within the chord.
        let sign = sharp[i].signum();
        let c = chord as isize;
        let Some(j) = (-c..=c)
            .map(|k| (i as isize + k).rem_euclid(n as isize) as usize)
            .max_by(|&a, &b| (profile.turn[a] * sign).total_cmp(&(profile.turn[b] * sign)))
        else {
            continue;
        };
        if profile.turn[j] * sign < min_turn {
            continue;
        }
        let near = ((opts.gaps[1] * size).round() as usize).max(MIN_GAP_PX);
        let far = ((SIDE_FIT * size).round() as usize).clamp(near + 3, n / 4);
        let (apex, raw, angle) = corner_meeting(&pts, i, near, far, winding)
            .filter(|m| {
                dist2(&m.raw, &pts[i]).sqrt() <= MAX_APEX_OFFSET * size
                    && m.turn_deg.signum() == sign
            })
            .map_or(
                (profile.apex[j], profile.apex[j], profile.long_turn[j]),
                |m| (m.at, m.raw, m.turn_deg),
            );
        let best = refine(outline, &raw, i, 2 * chord);
        out.push(Candidate {
            point: CriticalPoint {
                index: outline.chain_index[best],
                x: apex[0],
                y: apex[1],
                angle_deg: angle,
                kind: CriticalKind::Discontinuity,
            },
            sample: best,
            sharp_deg: sharp[i],
        });
    }
    out
}

/// The strongest turn between chords of `chord` samples, at samples within `reach` of `i`
/// (signed, clockwise positive).
fn sharp_turn(pts: &[[f64; 2]], i: usize, chord: usize, reach: usize) -> f64 {
    let n = pts.len();
    let at = |k: isize| pts[(i as isize + k).rem_euclid(n as isize) as usize];
    let c = chord as isize;
    let r = reach as isize;
    (-r..=r)
        .map(|k| {
            let (a, b, d) = (at(k - c), at(k), at(k + c));
            turn_deg([b[0] - a[0], b[1] - a[1]], [d[0] - b[0], d[1] - b[1]])
        })
        .max_by(|x, y| x.abs().total_cmp(&y.abs()))
        .unwrap_or(0.0)
}

/// Length of outline, as a fraction of piece size, over which each side is fitted with a
/// straight line to place a corner.
const SIDE_FIT: f64 = 0.1;
/// A side-line corner farther than this (fraction of piece size) from the outline is not
/// trusted (sides too curved or nearly parallel).
const MAX_APEX_OFFSET: f64 = 0.05;

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
