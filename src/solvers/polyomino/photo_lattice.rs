//! The unit square of a photo: the period at which the straight sides of all pieces fall on
//! one lattice, from the side samples of each piece's upright frame ([`PieceFrame`]).

use super::photo::{PieceFrame, SideSample, MIN_UNIT_PX};
use std::f64::consts::PI;

/// The weighted sum of `e^{2πi·at/u}` and the total weight.
pub(super) fn phase_sum(samples: &[SideSample], u: f64) -> ((f64, f64), f64) {
    let k = 2.0 * PI / u;
    let (mut c, mut s, mut t) = (0.0, 0.0, 0.0);
    for p in samples {
        let (sn, cs) = (k * p.at).sin_cos();
        c += p.weight * cs;
        s += p.weight * sn;
        t += p.weight;
    }
    ((c, s), t)
}

/// How well the sides of all pieces agree with period `u`, 0-1, and the side shift (pixels,
/// positive when the pieces look grown) that agrees best: the segmentation threshold moves
/// every side of every piece by about the same fraction of a pixel, outwards or inwards, so
/// one shift is fitted for the whole picture. Without it a grown piece looks like a slightly
/// larger unit (0.4 px too large with 11-pixel squares).
fn lattice_fit(frames: &[PieceFrame], u: f64) -> (f64, f64) {
    let sums: Vec<([(f64, f64); 4], f64)> = frames.iter().map(|f| f.phasors(u)).collect();
    let total: f64 = sums.iter().map(|s| s.1).sum();
    if total <= 0.0 {
        return (0.0, 0.0);
    }
    let mut best = (0.0, 0.0);
    for step in -SHIFT_STEPS..=SHIFT_STEPS {
        let shift = step as f64 * MAX_SHIFT_PX / SHIFT_STEPS as f64;
        let (sin, cos) = (2.0 * PI * shift / u).sin_cos();
        let mut agree = 0.0;
        for (groups, _) in &sums {
            for pair in groups.chunks(2) {
                // Rising sides lie at `edge - shift`, falling ones at `edge + shift`.
                let (r, f) = (pair[0], pair[1]);
                let c = r.0 * cos - r.1 * sin + f.0 * cos + f.1 * sin;
                let s = r.0 * sin + r.1 * cos - f.0 * sin + f.1 * cos;
                agree += c.hypot(s);
            }
        }
        if agree / total > best.0 {
            best = (agree / total, shift);
        }
    }
    best
}

/// Largest side shift fitted, pixels, and the steps each way.
const MAX_SHIFT_PX: f64 = 1.5;
const SHIFT_STEPS: i32 = 15;

/// The unit square side and its fit: the largest period at which the sides of every piece
/// agree in phase nearly as well as at the best period. Any fraction `u/k` of the true unit
/// fits as well as `u` (every side is on its lattice too), and multiples fit worse, hence
/// the largest good period.
pub(super) fn fit_unit(frames: &[PieceFrame]) -> (f64, f64, f64) {
    let fit = |u: f64| lattice_fit(frames, u).0;
    // Every piece is at least one unit across in its upright frame.
    let largest = frames
        .iter()
        .map(|f| {
            let across = |a: usize| extent(f.sides[a].iter().chain(&f.sides[a + 1]));
            across(0).min(across(2))
        })
        .fold(0.0, f64::max)
        .max(MIN_UNIT_PX * 1.5);
    let step = 1.003;
    let mut grid = Vec::new();
    let mut u = MIN_UNIT_PX;
    while u <= largest * 1.05 {
        grid.push((u, fit(u)));
        u *= step;
    }
    let best = grid.iter().map(|g| g.1).fold(0.0, f64::max);
    // The last run of periods that fit nearly as well as the best, and its best point.
    let Some(end) = grid.iter().rposition(|g| g.1 >= 0.9 * best && best > 0.0) else {
        return (MIN_UNIT_PX, 0.0, 0.0);
    };
    let start = grid[..end]
        .iter()
        .rposition(|g| g.1 < 0.9 * best)
        .map_or(0, |i| i + 1);
    let coarse = grid[start..=end]
        .iter()
        .fold(grid[end], |a, &b| if b.1 > a.1 { b } else { a })
        .0;
    // Refine around the coarse peak.
    let (mut u_best, mut f_best) = (coarse, fit(coarse));
    for k in -40..=40 {
        let u = coarse * (1.0 + k as f64 * 0.0002);
        let f = fit(u);
        if f > f_best {
            (u_best, f_best) = (u, f);
        }
    }
    let (u, shift) = refine_by_lines(frames, u_best).unwrap_or((u_best, 0.0));
    (u, lattice_fit(frames, u).0, shift)
}

/// Least-squares unit and side shift from the sides as lines: every side of a piece lies at
/// `φ + k·u ∓ shift` (left and top sides `-`, right and bottom `+`). The phase fit alone
/// cannot tell a slightly larger unit from pieces grown by a fraction of a pixel on small
/// pieces, whose left sides are mostly at small `k` and right sides at large `k`; sides of
/// one polarity several units apart can. `None` when the lines do not pin both down.
fn refine_by_lines(frames: &[PieceFrame], coarse: f64) -> Option<(f64, f64)> {
    let (mut u, mut shift) = (coarse, 0.0);
    for _ in 0..3 {
        let (mut kk, mut ks, mut ss, mut kp, mut sp) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for frame in frames {
            for axis in [0, 2] {
                let lines: Vec<(f64, f64, f64)> = side_lines(&frame.sides[axis])
                    .into_iter()
                    .map(|(at, w)| (at, -1.0, w))
                    .chain(
                        side_lines(&frame.sides[axis + 1])
                            .into_iter()
                            .map(|(at, w)| (at, 1.0, w)),
                    )
                    .collect();
                let Some(&(p0, s0, _)) = lines.first() else {
                    continue;
                };
                let ks_of =
                    |&(p, s, _): &(f64, f64, f64)| (((p - p0) - (s - s0) * shift) / u).round();
                let wsum: f64 = lines.iter().map(|l| l.2).sum();
                let mean = |f: &dyn Fn(&(f64, f64, f64)) -> f64| {
                    lines.iter().map(|l| l.2 * f(l)).sum::<f64>() / wsum
                };
                let (mp, mk, ms) = (mean(&|l| l.0), mean(&ks_of), mean(&|l| l.1));
                for l in &lines {
                    let (p, k, s) = (l.0 - mp, ks_of(l) - mk, l.1 - ms);
                    kk += l.2 * k * k;
                    ks += l.2 * k * s;
                    ss += l.2 * s * s;
                    kp += l.2 * k * p;
                    sp += l.2 * s * p;
                }
            }
        }
        let det = kk * ss - ks * ks;
        if det <= 1e-6 * kk * ss.max(1e-12) || kk <= 0.0 {
            return None;
        }
        u = (kp * ss - sp * ks) / det;
        shift = (sp * kk - kp * ks) / det;
    }
    let plausible = (u - coarse).abs() < 0.1 * coarse && shift.abs() <= MAX_SHIFT_PX;
    plausible.then_some((u, shift))
}

/// The sides in one group as lines: samples sorted by position and split at gaps, each line
/// its weighted mean position and its weight.
fn side_lines(samples: &[SideSample]) -> Vec<(f64, f64)> {
    let mut sorted = samples.to_vec();
    sorted.sort_by(|a, b| a.at.total_cmp(&b.at));
    let mut lines: Vec<(f64, f64)> = Vec::new();
    let mut last = f64::NEG_INFINITY;
    for s in sorted {
        if s.at - last > LINE_GAP_PX || lines.is_empty() {
            lines.push((0.0, 0.0));
        }
        let line = lines.last_mut().expect("a line was pushed");
        line.0 += s.weight * s.at;
        line.1 += s.weight;
        last = s.at;
    }
    lines
        .into_iter()
        .filter(|l| l.1 > 0.0)
        .map(|(sum, w)| (sum / w, w))
        .collect()
}

/// Side samples further apart than this across the side belong to different lines.
const LINE_GAP_PX: f64 = 1.5;

fn extent<'a>(samples: impl Iterator<Item = &'a SideSample> + Clone) -> f64 {
    let lo = samples.clone().map(|s| s.at).fold(f64::INFINITY, f64::min);
    let hi = samples.map(|s| s.at).fold(f64::NEG_INFINITY, f64::max);
    if hi > lo {
        hi - lo
    } else {
        0.0
    }
}
