//! Corners implied by straight runs of the outline.
//!
//! A corner can leave no sharp turn on the outline at all: the die or handling blunts it, a
//! flap of card is torn off, or a knob starts right beside it and its neck blends into the
//! turn. The two sides still run straight into it, so the corner is where their lines meet.
//! Runs of the outline that are straight at a scale well above the pixel noise are found,
//! and each pair of consecutive runs that turns like a convex corner proposes the meeting point
//! of their lines as a candidate for the four-sided model, which weighs it against the rest.

use super::critical::{turn_deg, Candidate};
use super::outline::Outline;
use super::pixel_edge::{to_edge, winding};
use super::sides::fit_line;
use crate::piece_set::{CriticalKind, CriticalPoint};
use crate::plane::dist;

/// Half-width of the window whose straightness is tested, fraction of piece size.
const WINDOW: f64 = 0.04;
/// Most RMS distance from the window's line for it to count as straight, fraction of size.
const MAX_RMS: f64 = 0.002;
/// Shortest straight run that stands for a side, fraction of piece size.
const MIN_RUN: f64 = 0.1;
/// Longest stretch of outline between two runs that can still be one corner, fraction of size.
const MAX_GAP: f64 = 0.25;
/// Turns (degrees, clockwise) between two runs that can be a corner of a four-sided piece.
const TURN: (f64, f64) = (50.0, 130.0);
/// The meeting point must lie this close to the outline between the runs, fraction of size.
const MAX_OFF: f64 = 0.05;
/// The sharpness credited to such a corner, degrees (the four-sided model's full credit).
pub const RUN_SHARPNESS: f64 = 20.0;

/// A straight run: first and last sample it covers, its centroid and direction of travel.
struct Run {
    first: usize,
    last: usize,
    c: [f64; 2],
    d: [f64; 2],
}

/// The maximal runs of `true` in the closed sequence `flags`, as (first index, length), walked
/// from a `false` so that none wraps; none when every flag is `true`.
pub(super) fn circular_runs(flags: &[bool]) -> Vec<(usize, usize)> {
    let n = flags.len();
    let Some(start) = (0..n).find(|&i| !flags[i]) else {
        return Vec::new();
    };
    let mut runs = Vec::new();
    let mut k = 0;
    while k < n {
        let i = (start + k) % n;
        if !flags[i] {
            k += 1;
            continue;
        }
        let len = (k..n).take_while(|&j| flags[(start + j) % n]).count();
        runs.push((i, len));
        k += len;
    }
    runs
}

/// Candidates where consecutive straight runs of the smoothed outline `pts` meet at a convex
/// corner, in outline order.
pub fn run_corners(outline: &Outline, pts: &[[f64; 2]]) -> Vec<Candidate> {
    let n = pts.len();
    let size = outline.size();
    let winding = winding(pts);
    let w = ((WINDOW * size).round() as usize).max(6);
    if n < 8 * w {
        return Vec::new();
    }
    let at = |k: isize| pts[k.rem_euclid(n as isize) as usize];
    let straight: Vec<bool> = (0..n)
        .map(|i| {
            let window: Vec<([f64; 2], f64)> = (-(w as isize)..=w as isize)
                .map(|k| (at(i as isize + k), 1.0))
                .collect();
            let (c, d) = fit_line(&window);
            let ss: f64 = window
                .iter()
                .map(|(p, _)| (d[0] * (p[1] - c[1]) - d[1] * (p[0] - c[0])).powi(2))
                .sum();
            (ss / window.len() as f64).sqrt() <= (MAX_RMS * size).max(0.5)
        })
        .collect();
    // Maximal runs of straight window centres.
    let mut runs = Vec::new();
    for (i, len) in circular_runs(&straight) {
        // The run covers its windows: from w before its first centre to w after its last.
        let span = len - 1 + 2 * w;
        if span as f64 >= MIN_RUN * size {
            let first = (i + n - w) % n;
            let sample: Vec<([f64; 2], f64)> =
                (0..=span).map(|j| (pts[(first + j) % n], 1.0)).collect();
            let (c, mut d) = fit_line(&sample);
            let (a, b) = (sample[0].0, sample[span].0);
            if d[0] * (b[0] - a[0]) + d[1] * (b[1] - a[1]) < 0.0 {
                d = [-d[0], -d[1]];
            }
            runs.push(Run {
                first,
                last: (first + span) % n,
                c,
                d,
            });
        }
    }
    let m = runs.len();
    let mut out = Vec::new();
    for r in 0..m {
        if m < 2 {
            break;
        }
        let (u, v) = (&runs[r], &runs[(r + 1) % m]);
        // Arc from the end of one run to the start of the next; negative where they overlap.
        let mut gap = (v.first as isize - u.last as isize).rem_euclid(n as isize);
        if gap > n as isize / 2 {
            gap -= n as isize;
        }
        let turn = turn_deg(u.d, v.d);
        if gap as f64 > MAX_GAP * size || turn < TURN.0 || turn > TURN.1 {
            continue;
        }
        let cross = u.d[0] * v.d[1] - u.d[1] * v.d[0];
        let wv = [v.c[0] - u.c[0], v.c[1] - u.c[1]];
        let s = (wv[0] * v.d[1] - wv[1] * v.d[0]) / cross;
        let x = [u.c[0] + s * u.d[0], u.c[1] + s * u.d[1]];
        // The nearest outline sample from a little inside each run to a little inside the next.
        let from = u.last as isize - w as isize;
        let Some(best) = (0..=(gap + 2 * w as isize).max(0))
            .map(|j| (from + j).rem_euclid(n as isize) as usize)
            .min_by(|&a, &b| dist(&pts[a], &x).total_cmp(&dist(&pts[b], &x)))
        else {
            continue;
        };
        if dist(&pts[best], &x) > MAX_OFF * size {
            continue;
        }
        let edge = to_edge(x, u.d, v.d, winding);
        out.push(Candidate {
            point: CriticalPoint {
                index: outline.chain_index[best],
                x: edge[0],
                y: edge[1],
                angle_deg: turn,
                kind: CriticalKind::Discontinuity,
            },
            sample: best,
            sharp_deg: RUN_SHARPNESS,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_of_a_closed_sequence_do_not_wrap() {
        let f = |s: &str| s.chars().map(|c| c == '#').collect::<Vec<bool>>();
        // The run over the end continues at the start: one run of 3 from index 6.
        assert_eq!(circular_runs(&f("#..##.##")), vec![(3, 2), (6, 3)]);
        assert_eq!(circular_runs(&f("....")), vec![]);
        assert_eq!(circular_runs(&f("####")), vec![]);
    }

    /// A square whose top-left corner is rounded off with a 40 px radius: no sharp turn marks
    /// it, but its two sides run straight into it, so a candidate lies where they meet.
    #[test]
    fn a_rounded_corner_is_implied_by_its_sides() {
        let (lo, hi, r) = (30.0, 630.0, 40.0);
        let mask = image::GrayImage::from_fn(660, 660, |x, y| {
            let (x, y) = (f64::from(x), f64::from(y));
            let square = (lo..=hi).contains(&x) && (lo..=hi).contains(&y);
            let cut = x < lo + r && y < lo + r && (x - lo - r).hypot(y - lo - r) > r;
            image::Luma([if square && !cut { 255 } else { 0 }])
        });
        let chain = crate::vision::trace_mask(&mask).unwrap();
        let outline = Outline::new(&chain);
        let pts = outline.smoothed(1.5);
        let found = run_corners(&outline, &pts);
        assert!(
            found
                .iter()
                .any(|c| (c.point.x - lo).hypot(c.point.y - lo) < 2.0
                    && (c.point.angle_deg - 90.0).abs() < 3.0),
            "{:?}",
            found
                .iter()
                .map(|c| (c.point.x, c.point.y))
                .collect::<Vec<_>>()
        );
        // The sharp corners are implied too; every candidate is one of the four corners.
        assert_eq!(found.len(), 4);
    }
}
