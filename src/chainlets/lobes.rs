//! Knobs and holes ("lobes") of a piece outline, so that the sharp turns at their necks are
//! not taken for corners.
//!
//! On an irregular cut the corners where three pieces meet turn by only 20–60°, and the
//! shoulders where a side turns into a knob's neck turn as much: the slope test alone cannot
//! tell them apart. Shape can: a lobe is a stretch of outline that leaves through a narrow
//! neck and comes back to it, so its two ends are close while the arc between them is long.
//! Around a corner the arc is at most about twice the chord (a 60° corner; 1 / sin(angle / 2)
//! in general), around a knob or a hole it is three to five times the neck.

use super::outline::Outline;
use super::runs::circular_runs;

/// Arc over chord at and above which a stretch of outline is a lobe. Measured end to end on
/// generated irregular 20-piece scans (seeds 1–20): 3.2 with [`MAX_ARC`] 0.8 gave a mean
/// neighbour accuracy of 75.0 %, 2.8 with arcs to 1.0 66.6 % (corners near knobs were taken
/// in); on seeds 1–10 with arcs to 1.0, 2.5 gave 45.7 %, 3.5 74.8 %, 3.8 67.6 % (small knobs
/// missed).
const LOBE_RATIO: f64 = 3.2;
/// Lobe arcs considered, as fractions of the piece size (√area): a knob's outline from neck to
/// neck is about half the size; shorter arcs are corners and wiggles. A whole side, knob and
/// all, is about 1.5 times as long as its chord, far under the ratio. Longer arcs (1.2) reach
/// round short sides into their corners: 63.5 % against 75.2 % on seeds 1–10.
const MIN_ARC: f64 = 0.15;
const MAX_ARC: f64 = 0.8;
/// How far the sides of a wedge may lie off their lines, over their length and in pixels
/// (the rounding of a traced tip and the outline's noise); see [`is_wedge`].
const WEDGE_STRAIGHTNESS: f64 = 0.06;
const WEDGE_NOISE_PX: f64 = 2.0;
/// The shoulders where the side turns into the neck lie just outside the narrowest pair: the
/// mark reaches this fraction of the size beyond it.
const SHOULDER: f64 = 0.06;

/// Per outline sample, whether it lies on a lobe or its shoulders.
pub fn lobe_samples(outline: &Outline) -> Vec<bool> {
    let n = outline.len();
    let mut lobe = vec![false; n];
    let size = outline.size();
    let (k0, k1) = ((MIN_ARC * size) as usize, (MAX_ARC * size) as usize);
    if n < 16 || k0 < 4 || k1 >= n / 2 {
        return lobe;
    }
    let margin = (SHOULDER * size).round() as isize;
    // Per sample, whether a stretch marking it is round (not a wedge).
    let mut round_stretch = vec![false; n];
    for i in 0..n {
        let a = outline.points[i];
        let Some(k) = (k0..=k1).rev().find(|&k| {
            let b = outline.at(i, k as isize);
            let chord = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt();
            k as f64 >= LOBE_RATIO * chord.max(1.0)
        }) else {
            continue;
        };
        let round = !is_wedge(outline, i, k);
        for t in -margin..=(k as isize + margin) {
            let s = (i as isize + t).rem_euclid(n as isize) as usize;
            lobe[s] = true;
            round_stretch[s] |= round;
        }
    }
    unmark_spikes(&mut lobe, &round_stretch);
    lobe
}

/// Clears every run of lobe samples all of whose stretches are wedges: a spike, not a knob
/// or a hole (see [`is_wedge`]). A run is judged whole, so a knob keeps its shoulders.
fn unmark_spikes(lobe: &mut [bool], round: &[bool]) {
    let n = lobe.len();
    for (first, len) in circular_runs(lobe) {
        let run = (first..first + len).map(|t| t % n);
        if !run.clone().any(|t| round[t]) {
            run.for_each(|t| lobe[t] = false);
        }
    }
}

/// Whether the arc of `k` samples from sample `i` is a wedge: split at its farthest point
/// from its chord's middle, each side lies along a straight line from its end to that point,
/// within [`WEDGE_STRAIGHTNESS`] of its length and [`WEDGE_NOISE_PX`]. A sharp corner is such
/// a wedge; a knob's head and a hole's inside are round, far off any such line (irregular 20
/// photos seed 59: a spike of 30° between two pieces was read as a lobe, and the junction at
/// its tip lost).
fn is_wedge(outline: &Outline, i: usize, k: usize) -> bool {
    let arc: Vec<[f64; 2]> = (0..=k as isize).map(|t| outline.at(i, t)).collect();
    let (a, b) = (arc[0], arc[arc.len() - 1]);
    let m = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
    let from_m = |p: &[f64; 2]| (p[0] - m[0]).hypot(p[1] - m[1]);
    let Some((tip, _)) = arc
        .iter()
        .enumerate()
        .max_by(|(_, p), (_, q)| from_m(p).total_cmp(&from_m(q)))
    else {
        return false;
    };
    straight(&arc[..=tip]) && straight(&arc[tip..])
}

/// Whether `points` lie along the line from the first to the last (see [`is_wedge`]).
fn straight(points: &[[f64; 2]]) -> bool {
    let (p, q) = (points[0], points[points.len() - 1]);
    let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
    let len = dx.hypot(dy);
    if len < 1.0 {
        return true;
    }
    let off = |r: &[f64; 2]| ((r[0] - p[0]) * dy - (r[1] - p[1]) * dx).abs() / len;
    points.iter().map(off).fold(0.0, f64::max) <= WEDGE_STRAIGHTNESS * len + WEDGE_NOISE_PX
}

/// Per chain index (as [`Outline::chain_index`] maps samples), whether it lies on a lobe.
pub fn lobe_chain_indices(outline: &Outline, chain_len: usize) -> Vec<bool> {
    let mut on = vec![false; chain_len.max(1)];
    for (s, &l) in lobe_samples(outline).iter().enumerate() {
        if l {
            on[outline.chain_index[s] % chain_len.max(1)] = true;
        }
    }
    on
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::ChainCode;

    /// A 60 × 60 square (pixels 30..90) with a round knob of radius 9 on a neck 8 wide in the
    /// middle of its top side, traced as a chain.
    fn knobbed_square() -> ChainCode {
        let mask = image::GrayImage::from_fn(120, 120, |x, y| {
            let (x, y) = (x as i32 - 30, y as i32 - 30);
            let square = (0..60).contains(&x) && (0..60).contains(&y);
            let neck = (26..34).contains(&x) && (-6..0).contains(&y);
            let head = (x - 30).pow(2) + (y + 13).pow(2) <= 81;
            image::Luma([if square || neck || head { 255 } else { 0 }])
        });
        crate::vision::trace_mask(&mask).unwrap()
    }

    #[test]
    fn a_knob_and_its_neck_are_a_lobe_and_the_square_corners_are_not() {
        let outline = Outline::new(&knobbed_square());
        let lobe = lobe_samples(&outline);
        let near = |x: f64, y: f64| {
            let d = |p: &[f64; 2]| (p[0] - x).powi(2) + (p[1] - y).powi(2);
            (0..outline.len())
                .min_by(|&a, &b| d(&outline.points[a]).total_cmp(&d(&outline.points[b])))
                .unwrap()
        };
        assert!(lobe[near(60.0, 8.0)], "knob head");
        assert!(lobe[near(56.0, 27.0)], "neck");
        assert!(lobe[near(53.0, 30.0)], "shoulder");
        for (x, y) in [(30.0, 30.0), (89.0, 30.0), (89.0, 89.0), (30.0, 89.0)] {
            assert!(!lobe[near(x, y)], "corner ({x}, {y})");
        }
        assert!(!lobe[near(60.0, 89.0)], "the plain bottom side");
    }

    #[test]
    fn a_spike_of_30_degrees_is_a_corner_not_a_lobe() {
        // An isosceles triangle with its 30° apex at (140, 20) and its base on y = 220: around
        // the apex the arc is 1 / sin(15°) = 3.9 times the chord, over the lobe ratio, but
        // the arc never reaches beyond its chord's ends as a knob's head does.
        let half = 15f64.to_radians().tan();
        let mask = image::GrayImage::from_fn(280, 250, |x, y| {
            let (x, y) = (x as f64 - 140.0, y as f64 - 20.0);
            let inside = (0.0..=200.0).contains(&y) && x.abs() <= y * half;
            image::Luma([if inside { 255 } else { 0 }])
        });
        let outline = Outline::new(&crate::vision::trace_mask(&mask).unwrap());
        let lobe = lobe_samples(&outline);
        for (s, p) in outline.points.iter().enumerate() {
            if (p[0] - 140.0).hypot(p[1] - 20.0) < 40.0 {
                assert!(!lobe[s], "sample at {p:?}");
            }
        }
    }

    #[test]
    fn corners_of_40_degrees_and_more_are_not_lobes() {
        // A right triangle, piece-sized, with its 50° corner at (20, 20), its 90° corner at
        // (20, 220) and its 40° corner at (258, 220). A corner's arc is 1 / sin(angle / 2)
        // times its chord: 2.37 at 50°, 2.92 at 40°, both under the lobe ratio.
        let mask = image::GrayImage::from_fn(300, 250, |x, y| {
            let (x, y) = (x as f64 - 20.0, y as f64 - 20.0);
            let inside = x >= 0.0 && y <= 200.0 && x <= y * 50f64.to_radians().tan();
            image::Luma([if inside { 255 } else { 0 }])
        });
        let outline = Outline::new(&crate::vision::trace_mask(&mask).unwrap());
        let lobe = lobe_samples(&outline);
        let d = |p: &[f64; 2], x: f64, y: f64| (p[0] - x).hypot(p[1] - y);
        for (s, p) in outline.points.iter().enumerate() {
            if d(p, 20.0, 20.0) < 30.0 || d(p, 20.0, 220.0) < 30.0 || d(p, 258.0, 220.0) < 30.0 {
                assert!(!lobe[s], "sample at {p:?}");
            }
        }
    }
}
