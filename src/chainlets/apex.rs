//! A corner placed where the straight lines of its two sides meet, each line fitted to the
//! outline beyond the corner's rounding.
//!
//! A die-cut corner is two straight sides joined by a small arc (the die's own rounding, or
//! wear). Lines fitted over a fixed stretch starting a fixed gap from the corner take in part
//! of the arc where the arc is longer than the gap, which tilts them inwards and puts the
//! corner inside the piece. So the arc is measured and left out: two lines tangent to an arc of
//! radius r at an interior angle α meet r·(1/sin(α/2) − 1) from the arc, so the distance `d`
//! from the lines' meeting point to the outline gives r; the arc then reaches r·(π − α)/2 of
//! outline either side of its middle. The lines are fitted again from there (plus the
//! smoothing, which spreads the arc by about two of its σ), until the start stops moving.

use super::critical::turn_deg;
use super::pixel_edge::to_edge;
use super::sides::fit_line;

/// Rounds of re-measuring the arc; the start settles in one or two.
const ROUNDS: usize = 4;
/// The smoothing's reach beyond the arc, in smoothing σ.
const SMOOTH_REACH: f64 = 2.0;

/// Where a corner's side lines meet.
#[derive(Clone, Copy, Debug)]
pub struct Meeting {
    /// On the piece's edge (see `pixel_edge`): the corner's reported position.
    pub at: [f64; 2],
    /// In the traced outline's frame (boundary pixel centres): where to find its sample.
    pub raw: [f64; 2],
    /// Turn between the two lines, degrees, clockwise positive.
    pub turn_deg: f64,
}

/// The meeting point of the lines fitted to the smoothed outline `pts` before and after sample
/// `i`, over `near..=far` samples away at first and then from past the measured arc (never
/// nearer than `near`, never farther than two thirds of `far`); `smooth` is the smoothing σ of
/// `pts`, `winding` the outline's (see `pixel_edge`). `None` if the lines are nearly parallel.
pub fn corner_meeting(
    pts: &[[f64; 2]],
    i: usize,
    near: usize,
    far: usize,
    smooth: f64,
    winding: f64,
) -> Option<Meeting> {
    let n = pts.len();
    let mut start = near;
    let mut lines = side_lines(pts, i, start, far)?;
    for _ in 0..ROUNDS {
        let (raw, u, v) = lines;
        let d = (0..=2 * far)
            .map(|k| pts[(i + n - far % n + k) % n])
            .map(|p| (p[0] - raw[0]).hypot(p[1] - raw[1]))
            .fold(f64::INFINITY, f64::min);
        let alpha = (180.0 - turn_deg(u, v).abs()).to_radians();
        let radius = d / (1.0 / (alpha / 2.0).sin() - 1.0).max(1e-6);
        let arc_half = radius * (std::f64::consts::PI - alpha) / 2.0;
        let want = ((arc_half + SMOOTH_REACH * smooth).round() as usize)
            .max(near)
            .min(far * 2 / 3);
        if want == start {
            break;
        }
        start = want;
        match side_lines(pts, i, start, far) {
            Some(l) => lines = l,
            None => break,
        }
    }
    let (raw, u, v) = lines;
    Some(Meeting {
        at: to_edge(raw, u, v, winding),
        raw,
        turn_deg: turn_deg(u, v),
    })
}

/// Where the straight lines fitted to the outline just before and just after sample `i` (from
/// `near` to `far` samples away) meet, with the lines' directions of travel. `None` if the
/// lines are nearly parallel.
fn side_lines(
    pts: &[[f64; 2]],
    i: usize,
    near: usize,
    far: usize,
) -> Option<([f64; 2], [f64; 2], [f64; 2])> {
    let n = pts.len() as isize;
    // Each arm's line, its direction pointing along the direction of travel.
    let line = |sign: isize| {
        let sample: Vec<[f64; 2]> = (near..=far)
            .map(|k| pts[(i as isize + sign * k as isize).rem_euclid(n) as usize])
            .collect();
        let weighted: Vec<([f64; 2], f64)> = sample.iter().map(|&p| (p, 1.0)).collect();
        let (c, mut d) = fit_line(&weighted);
        let (first, last) = (sample[0], sample[sample.len() - 1]);
        let travel = [
            (last[0] - first[0]) * sign as f64,
            (last[1] - first[1]) * sign as f64,
        ];
        if d[0] * travel[0] + d[1] * travel[1] < 0.0 {
            d = [-d[0], -d[1]];
        }
        (c, d)
    };
    let (p, u) = line(-1);
    let (q, v) = line(1);
    let cross = u[0] * v[1] - u[1] * v[0];
    if cross.abs() < 0.3 {
        return None;
    }
    // p + s·u = q + t·v
    let w = [q[0] - p[0], q[1] - p[1]];
    let s = (w[0] * v[1] - w[1] * v[0]) / cross;
    Some(([p[0] + s * u[0], p[1] + s * u[1]], u, v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chainlets::outline::Outline;
    use crate::chainlets::pixel_edge::winding;

    /// A 400 px square (pixels 20..420) whose top-left corner is rounded at radius 24 px
    /// (6% of the piece), rasterised by pixel centres. Lines fitted from the fixed gap take
    /// in part of the arc and put the corner inside; past the measured arc they meet at the
    /// square's vertex, on the pixel edge at (19.5, 19.5).
    #[test]
    fn a_rounded_corner_is_placed_where_its_straight_sides_meet() {
        let (lo, hi, r) = (20.0, 419.0, 24.0);
        let mask = image::GrayImage::from_fn(440, 440, |x, y| {
            let (x, y) = (f64::from(x), f64::from(y));
            let (cx, cy) = (x.max(lo + r), y.max(lo + r));
            let inside =
                (lo..=hi).contains(&x) && (lo..=hi).contains(&y) && (x - cx).hypot(y - cy) <= r;
            image::Luma([if inside { 255 } else { 0 }])
        });
        let chain = crate::vision::trace_mask(&mask).unwrap();
        let outline = Outline::new(&chain);
        let smooth = 1.5;
        let pts = outline.smoothed(smooth);
        let size = outline.size();
        // The arc's middle, nearest the corner of the square.
        let mid = (0..pts.len())
            .min_by(|&a, &b| {
                let d = |p: [f64; 2]| (p[0] - lo).hypot(p[1] - lo);
                d(pts[a]).total_cmp(&d(pts[b]))
            })
            .unwrap();
        let (near, far) = ((0.01 * size) as usize, (0.1 * size) as usize);
        let vertex = [lo - 0.5, lo - 0.5];
        let fixed = side_lines(&pts, mid, near, far).unwrap().0;
        let m = corner_meeting(&pts, mid, near, far, smooth, winding(&pts)).unwrap();
        let d = |p: [f64; 2]| (p[0] - vertex[0]).hypot(p[1] - vertex[1]);
        assert!(d(fixed) > 3.0, "the fixed gap alone: {fixed:?}");
        assert!(d(m.at) < 1.0, "{m:?}");
        assert!((m.turn_deg - 90.0).abs() < 1.0, "{m:?}");
    }
}
