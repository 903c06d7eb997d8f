//! The sides of the four-sided model, and corners placed where they meet.
//!
//! A die-cut corner is the meeting point of two sides, but its own pixels are the least
//! reliable part of an outline: the die rounds it, handling chips it, a knob may start right
//! beside it. The sides are better witnesses: each runs straight from its corner up to its
//! knob or hole (or on to the next corner on a flat side), and a knob side's two shoulders lie
//! on one line. So once the four corners are roughly known, a line is fitted to each side's
//! straight parts, weighted towards the corner it is placing (pieces are a little warped, so
//! the near shoulder says most about the corner), and each corner moves to where its two side
//! lines meet.

use super::critical::turn_deg;
use super::pixel_edge::{to_edge, winding};
use crate::plane::dist;

/// Gap, as a fraction of piece size, left out at each end of a side (the corner rounding).
const GAP: f64 = 0.03;
/// First and final inlier bands around a side line, fractions of piece size: wide enough to
/// take a side from a rough corner, then narrow so a knob's neck barely leans on the line.
const BANDS: [f64; 2] = [0.025, 0.008];
/// Spread (standard deviation) of the weights along a side from the corner placed, fraction
/// of piece size: about the length of a shoulder's straight stretch.
const REACH: f64 = 0.05;
/// Rounds of fitting: the second fits sides between the corners the first placed.
const ROUNDS: usize = 2;
/// Fewest inlier samples (fraction of piece size) for a side line to count.
const MIN_SUPPORT: f64 = 0.06;
/// A corner moves at most this far (fraction of piece size); farther means the lines are wrong.
const MAX_MOVE: f64 = 0.05;
/// Side lines must cross at least this sharply (sine of the angle between them).
const MIN_CROSS: f64 = 0.5;

/// A corner of the model: its outline sample and its position.
#[derive(Clone, Copy, Debug)]
pub struct Corner {
    pub sample: usize,
    pub at: [f64; 2],
    /// Turn between the side lines meeting there, degrees, clockwise positive.
    pub turn_deg: f64,
}

/// A line through `c` with unit direction `d`.
#[derive(Clone, Copy, Debug)]
struct Line {
    c: [f64; 2],
    d: [f64; 2],
}

/// Moves each of the corners (in outline order) of the smoothed outline `pts` to the meeting
/// point of its two fitted side lines (on the piece's edge, see `pixel_edge`), twice, so the second round fits sides between better
/// corners. A corner whose lines cannot be fitted, or meet far away, stays where it was.
pub fn snap_corners(pts: &[[f64; 2]], size: f64, corners: &mut [Corner]) {
    let m = corners.len();
    if m < 3 {
        return;
    }
    let start: Vec<[f64; 2]> = corners.iter().map(|c| c.at).collect();
    let winding = winding(pts);
    for _ in 0..ROUNDS {
        let lines: Vec<[Option<Line>; 2]> = (0..m)
            .map(|k| {
                let (a, b) = (&corners[k], &corners[(k + 1) % m]);
                [false, true].map(|at_end| side_line(pts, size, a, b, at_end))
            })
            .collect();
        for k in 0..m {
            let (Some(u), Some(v)) = (lines[(k + m - 1) % m][1], lines[k][0]) else {
                continue;
            };
            let Some(raw) = intersect(&u, &v) else {
                continue;
            };
            let c = &mut corners[k];
            if dist(&raw, &start[k]) > MAX_MOVE * size {
                continue;
            }
            c.sample = nearest_sample(pts, &raw, c.sample, (2.0 * MAX_MOVE * size) as usize);
            c.at = to_edge(raw, u.d, v.d, winding);
            c.turn_deg = turn_deg(u.d, v.d);
        }
    }
}

/// The line of the side from corner `a` to corner `b` (direction of travel), fitted to the
/// samples near the line `a`–`b`, weighted towards `b` if `at_end` else towards `a`.
fn side_line(pts: &[[f64; 2]], size: f64, a: &Corner, b: &Corner, at_end: bool) -> Option<Line> {
    let n = pts.len();
    let span = (b.sample + n - a.sample) % n;
    let gap = ((GAP * size).round() as usize).max(2);
    if span <= 2 * gap + 4 {
        return None;
    }
    let chord = [b.at[0] - a.at[0], b.at[1] - a.at[1]];
    let len = (chord[0] * chord[0] + chord[1] * chord[1]).sqrt();
    if len < 1e-9 {
        return None;
    }
    let mut line = Line {
        c: a.at,
        d: [chord[0] / len, chord[1] / len],
    };
    let sigma = REACH * size;
    // The whole side first (so a rough corner cannot tilt the line much), then near the corner.
    for (band, local) in [(BANDS[0], false), (BANDS[0], true), (BANDS[1], true)] {
        let band = (band * size).max(1.5);
        let mut sample = Vec::new();
        for j in gap..=span - gap {
            let p = pts[(a.sample + j) % n];
            if offset(&line, &p).abs() <= band {
                let from = if at_end { span - j } else { j } as f64;
                let w = if local {
                    (-0.5 * (from / sigma).powi(2)).exp()
                } else {
                    1.0
                };
                sample.push((p, w));
            }
        }
        if (sample.len() as f64) < MIN_SUPPORT * size {
            return None;
        }
        let (c, mut d) = fit_line(&sample);
        if d[0] * line.d[0] + d[1] * line.d[1] < 0.0 {
            d = [-d[0], -d[1]];
        }
        line = Line { c, d };
    }
    Some(line)
}

/// Signed distance of `p` from the line.
fn offset(l: &Line, p: &[f64; 2]) -> f64 {
    let w = [p[0] - l.c[0], p[1] - l.c[1]];
    l.d[0] * w[1] - l.d[1] * w[0]
}

fn intersect(u: &Line, v: &Line) -> Option<[f64; 2]> {
    let cross = u.d[0] * v.d[1] - u.d[1] * v.d[0];
    if cross.abs() < MIN_CROSS {
        return None;
    }
    // u.c + s·u.d = v.c + t·v.d
    let w = [v.c[0] - u.c[0], v.c[1] - u.c[1]];
    let s = (w[0] * v.d[1] - w[1] * v.d[0]) / cross;
    Some([u.c[0] + s * u.d[0], u.c[1] + s * u.d[1]])
}

/// Weighted total least-squares line: weighted centroid and unit direction.
pub fn fit_line(pts: &[([f64; 2], f64)]) -> ([f64; 2], [f64; 2]) {
    let total: f64 = pts.iter().map(|p| p.1).sum::<f64>().max(1e-300);
    let c = pts.iter().fold([0.0, 0.0], |a, (p, w)| {
        [a[0] + w * p[0] / total, a[1] + w * p[1] / total]
    });
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    for (p, w) in pts {
        let (dx, dy) = (p[0] - c[0], p[1] - c[1]);
        sxx += w * dx * dx;
        sxy += w * dx * dy;
        syy += w * dy * dy;
    }
    let theta = 0.5 * (2.0 * sxy).atan2(sxx - syy);
    (c, [theta.cos(), theta.sin()])
}

/// The sample within `reach` of `i` nearest `at`.
fn nearest_sample(pts: &[[f64; 2]], at: &[f64; 2], i: usize, reach: usize) -> usize {
    let n = pts.len() as isize;
    let r = reach.min(pts.len() / 2) as isize;
    (-r..=r)
        .map(|k| (i as isize + k).rem_euclid(n) as usize)
        .min_by(|&a, &b| dist(&pts[a], at).total_cmp(&dist(&pts[b], at)))
        .unwrap_or(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A square of side 200 whose corner at the origin is chipped off by a 12 px diagonal cut:
    /// the snapped corner goes back to where the sides meet. (The points are boundary pixel
    /// centres, so the piece's edges, and its corners, lie half a pixel further out.)
    #[test]
    fn a_chipped_corner_snaps_to_the_meeting_of_its_sides() {
        let mut pts = Vec::new();
        for x in 12..200 {
            pts.push([x as f64, 0.0]);
        }
        for y in 0..200 {
            pts.push([200.0, y as f64]);
        }
        for x in (0..200).rev() {
            pts.push([x as f64, 200.0]);
        }
        for y in (12..200).rev() {
            pts.push([0.0, y as f64]);
        }
        for k in 0..12 {
            pts.push([k as f64, 12.0 - k as f64]);
        }
        let n = pts.len();
        let near = |p: [f64; 2]| {
            (0..n)
                .min_by(|&a, &b| dist(&pts[a], &p).total_cmp(&dist(&pts[b], &p)))
                .unwrap()
        };
        let rough = [[6.0, 6.0], [200.0, 0.0], [200.0, 200.0], [0.0, 200.0]];
        let mut corners: Vec<Corner> = rough
            .iter()
            .map(|&p| Corner {
                sample: near(p),
                at: p,
                turn_deg: 90.0,
            })
            .collect();
        corners.rotate_left(1);
        snap_corners(&pts, 200.0, &mut corners);
        let snapped = corners[3];
        assert!(dist(&snapped.at, &[-0.5, -0.5]) < 0.5, "{snapped:?}");
        assert_eq!(
            snapped.sample,
            near([0.0, 0.0]),
            "its sample is the nearest the lines' meeting point"
        );
        assert!((snapped.turn_deg - 90.0).abs() < 2.0, "{snapped:?}");
        assert!(
            dist(&corners[0].at, &[200.5, -0.5]) < 0.5,
            "{:?}",
            corners[0]
        );
    }
}
