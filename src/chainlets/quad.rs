//! The four-sided piece model. Most jigsaw pieces have four corners joined by four sides, and
//! the corners span a near-rectangle. Locally, a corner rounded by a worn die looks like the
//! lip of a cavity or the shoulder of a knob; the four corners together do not: they are the
//! four convex corners whose quadrilateral is closest to a rectangle, covers the piece, and
//! whose sides the outline runs along (straight shoulders either side of a knob or hole, or a
//! flat edge). So among the sharp convex turns, and the corners implied where a corner left no
//! sharp turn (by meeting straight runs, see `runs`, or by long arms meeting across a rounded
//! or ragged corner, see `rounded`), pick the four that best form such a quadrilateral, then
//! place each where its fitted side lines meet (see `sides`). If no four do, the piece is not
//! four-sided and the local detector's answer stands.

use super::critical::{candidates, Candidate, CriticalOptions};
use super::outline::Outline;
use super::rounded::rounded_corners;
use super::runs::run_corners;
use super::sides::{snap_corners, Corner};
use crate::piece_set::CriticalPoint;
use crate::plane::dist;

/// Weakest short-chord turn (degrees) considered as a possible corner.
const MIN_SHARP: f64 = 20.0;
/// Weakest arm-fit turn (degrees) considered.
const MIN_TURN: f64 = 30.0;
/// A turn this sharp (degrees) is a spike or a hair on the outline, not a corner: a corner
/// of a four-sided piece turns 90° ± [`MAX_SKEW_DEG`].
const MAX_TURN: f64 = 150.0;
/// Most candidates examined (every implied one, up to half of them, and the strongest sharp
/// turns), bounding the search at C(18, 4) = 3060 quads.
const MAX_CANDIDATES: usize = 18;
/// A corner implied by straight runs this close (fraction of piece size) to a sharp turn is
/// that same corner.
const SAME_CORNER: f64 = 0.03;
/// Half-width of the band around a side's chord that counts as running along it, fraction of
/// piece size.
const SUPPORT_BAND: f64 = 0.02;
/// Share of a side's chord that its outline must run along for full credit: a knob side's two
/// shoulders make up about half of it.
const FULL_SUPPORT: f64 = 0.5;
/// Interior angles of the chosen quadrilateral must lie within 90° ± this.
const MAX_SKEW_DEG: f64 = 35.0;
/// The quadrilateral must cover at least this fraction of the piece's area.
const MIN_COVER: f64 = 0.4;
/// A corner whose side lines meet farther than this (fraction of piece size) from where its
/// own local lines put it is damaged (chipped, blunted), and is placed by the side lines.
const DAMAGED: f64 = 0.004;

/// The four corners of a four-sided piece, in outline order, or `None`.
pub fn quad_corners(outline: &Outline, opts: &CriticalOptions) -> Option<Vec<CriticalPoint>> {
    let sharp: Vec<Candidate> = candidates(outline, opts, MIN_SHARP, MIN_TURN)
        .into_iter()
        .filter(|c| c.sharp_deg > 0.0 && c.point.angle_deg > 0.0 && c.point.angle_deg < MAX_TURN)
        .collect();
    let size = outline.size();
    let pts = outline.smoothed(opts.smooth_px.max(opts.smooth_fraction * size));
    let mut found = best_quad(outline, &pts, sharp.clone(), Vec::new());
    // Only where the sharp turns make no quadrilateral whose sides all run along the outline
    // is a corner missing: then the corners implied by straight runs and by long arms join in
    // (unless a sharp turn or an earlier implied corner already stands for them). A sharp turn, where there is one, places a corner better.
    if found.as_ref().is_none_or(|q| q.sides < 1.0) {
        let mut implied: Vec<Candidate> = Vec::new();
        for more in [run_corners(outline, &pts), rounded_corners(outline, &pts)] {
            for r in more {
                if sharp.iter().chain(&implied).all(|c| {
                    (c.point.x - r.point.x).hypot(c.point.y - r.point.y) > SAME_CORNER * size
                }) {
                    implied.push(r);
                }
            }
        }
        if !implied.is_empty() {
            let second = best_quad(outline, &pts, sharp, implied);
            if second.as_ref().map(|q| q.score) > found.as_ref().map(|q| q.score) {
                found = second;
            }
        }
    }
    let found = found?;
    let mut corners: Vec<Corner> = found
        .corners
        .iter()
        .map(|c| Corner {
            sample: c.sample,
            at: [c.point.x, c.point.y],
            turn_deg: c.point.angle_deg,
        })
        .collect();
    let local = corners.clone();
    snap_corners(&pts, size, &mut corners);
    Some(
        found
            .corners
            .iter()
            .zip(corners.iter().zip(&local))
            .map(|(cand, (snapped, local))| {
                // Where the side lines agree with the corner's own local lines, the corner is
                // intact and its local lines place it best; where they disagree, it is chipped
                // or blunted, and the side lines see past the damage.
                let c = if dist(&snapped.at, &local.at) > DAMAGED * size {
                    snapped
                } else {
                    local
                };
                CriticalPoint {
                    index: outline.chain_index[c.sample],
                    x: c.at[0],
                    y: c.at[1],
                    angle_deg: c.turn_deg,
                    ..cand.point.clone()
                }
            })
            .collect(),
    )
}

/// The best quadrilateral over some candidate corners.
struct Quad {
    corners: Vec<Candidate>,
    score: f64,
    /// The product of its sides' support credits: 1 where every side runs along the outline.
    sides: f64,
}

/// The four candidates that best make a four-sided piece, in outline order: from the
/// strongest sharp turns, and every implied corner (they carry no sharpness to rank them by,
/// and stand for the corners the sharp turns miss).
fn best_quad(
    outline: &Outline,
    pts: &[[f64; 2]],
    mut sharp: Vec<Candidate>,
    mut implied: Vec<Candidate>,
) -> Option<Quad> {
    let size = outline.size();
    implied.truncate(MAX_CANDIDATES / 2);
    sharp.sort_by(|a, b| b.sharp_deg.total_cmp(&a.sharp_deg));
    sharp.truncate(MAX_CANDIDATES - implied.len());
    let mut cands = sharp;
    cands.extend(implied);
    if cands.len() < 4 {
        return None;
    }
    cands.sort_by_key(|c| c.sample);
    let m = cands.len();
    let support: Vec<Vec<f64>> = (0..m)
        .map(|a| {
            (0..m)
                .map(|b| (side_support(pts, size, &cands[a], &cands[b]) / FULL_SUPPORT).min(1.0))
                .collect()
        })
        .collect();
    let mut best: Option<(f64, f64, [usize; 4])> = None;
    for a in 0..m {
        for b in a + 1..m {
            for c in b + 1..m {
                for d in c + 1..m {
                    let pick = [a, b, c, d];
                    let quad = pick.map(|k| [cands[k].point.x, cands[k].point.y]);
                    let Some(angles) = interior_angles(&quad) else {
                        continue;
                    };
                    if angles.iter().any(|t| (t - 90.0).abs() > MAX_SKEW_DEG) {
                        continue;
                    }
                    let cover = quad_area(&quad) / outline.area.max(1.0);
                    if cover < MIN_COVER {
                        continue;
                    }
                    let skew: f64 = angles.iter().map(|t| ((t - 90.0) / 25.0).powi(2)).sum();
                    let sharpness: f64 = pick
                        .iter()
                        .map(|&k| (cands[k].sharp_deg / 45.0).min(1.0))
                        .product();
                    let sides: f64 = (0..4)
                        .map(|i| support[pick[i]][pick[(i + 1) % 4]])
                        .product();
                    let score = cover.min(1.0).powi(2) * (-skew).exp() * sharpness * sides;
                    if best.is_none_or(|(s, _, _)| score > s) {
                        best = Some((score, sides, pick));
                    }
                }
            }
        }
    }
    let (score, sides, pick) = best?;
    let mut chosen: Vec<Option<Candidate>> = cands.into_iter().map(Some).collect();
    Some(Quad {
        corners: pick
            .iter()
            .map(|&k| chosen[k].take().expect("distinct picks"))
            .collect(),
        score,
        sides,
    })
}

/// How much of the side from candidate `a` to candidate `b` (in outline order) runs along
/// their chord: the length of outline within a narrow band of it, over the chord's length. A
/// true side is straight but for one knob or hole, so its shoulders give a large share; a
/// "side" that ends at a knob's tip cuts across the piece's outline and gets little.
fn side_support(pts: &[[f64; 2]], size: f64, a: &Candidate, b: &Candidate) -> f64 {
    let n = pts.len();
    let (p, q) = ([a.point.x, a.point.y], [b.point.x, b.point.y]);
    let d = [q[0] - p[0], q[1] - p[1]];
    let len = d[0].hypot(d[1]);
    if len < 1e-9 {
        return 0.0;
    }
    let u = [d[0] / len, d[1] / len];
    let band = (SUPPORT_BAND * size).max(1.5);
    let span = (b.sample + n - a.sample) % n;
    let inliers = (0..span)
        .map(|j| pts[(a.sample + j) % n])
        .filter(|s| {
            let w = [s[0] - p[0], s[1] - p[1]];
            let along = w[0] * u[0] + w[1] * u[1];
            (0.0..=len).contains(&along) && (u[0] * w[1] - u[1] * w[0]).abs() <= band
        })
        .count();
    inliers as f64 / len
}

/// Interior angles (degrees) of a quadrilateral given clockwise on screen; `None` if it is not
/// convex that way round.
fn interior_angles(q: &[[f64; 2]; 4]) -> Option<[f64; 4]> {
    let mut out = [0.0; 4];
    for i in 0..4 {
        let (p, c, n) = (q[(i + 3) % 4], q[i], q[(i + 1) % 4]);
        let a = [c[0] - p[0], c[1] - p[1]];
        let b = [n[0] - c[0], n[1] - c[1]];
        let cross = a[0] * b[1] - a[1] * b[0];
        if cross <= 0.0 {
            return None;
        }
        let turn = cross.atan2(a[0] * b[0] + a[1] * b[1]).to_degrees();
        out[i] = 180.0 - turn;
    }
    Some(out)
}

fn quad_area(q: &[[f64; 2]; 4]) -> f64 {
    let mut s = 0.0;
    for i in 0..4 {
        let (a, b) = (q[i], q[(i + 1) % 4]);
        s += a[0] * b[1] - b[0] * a[1];
    }
    s.abs() / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 400 px square whose top-left corner is blunted by a chamfer (a worn die cuts it off
    /// 16 px, 4% of the piece, down each side), the others sharp: the blunted corner is placed
    /// where its sides meet, 11 px off the flat, and the sharp ones stay on their outline.
    /// (At this depth the local lines already see past the flat; a chamfer of 6% or more is
    /// taken for two 45° turns and is not placed, a known limit.)
    #[test]
    fn a_blunted_corner_is_placed_where_its_sides_meet() {
        let (lo, hi, cut) = (20u32, 420u32, 16u32);
        let mask = image::GrayImage::from_fn(440, 440, |x, y| {
            let square = (lo..hi).contains(&x) && (lo..hi).contains(&y);
            let blunted = square && x + y >= 2 * lo + cut;
            image::Luma([if blunted { 255 } else { 0 }])
        });
        let chain = crate::vision::trace_mask(&mask).unwrap();
        let outline = Outline::new(&chain);
        let corners = quad_corners(&outline, &CriticalOptions::default()).expect("four-sided");
        // The outline runs through pixel centres (x, y = 20 and 419); the piece's edges, where
        // corners are reported, are half a pixel further out.
        let (a, b) = (f64::from(lo) - 0.5, f64::from(hi) - 0.5);
        for want in [[a, a], [b, a], [b, b], [a, b]] {
            let got = corners
                .iter()
                .map(|c| [c.x, c.y])
                .min_by(|p, q| dist(p, &want).total_cmp(&dist(q, &want)))
                .unwrap();
            assert!(dist(&got, &want) < 1.0, "{got:?} for {want:?}: {corners:?}");
        }
        assert!(corners.iter().all(|c| (c.angle_deg - 90.0).abs() < 2.0));
    }

    #[test]
    fn square_angles_and_orientation() {
        let q = [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]];
        assert_eq!(interior_angles(&q), Some([90.0; 4]));
        assert_eq!(quad_area(&q), 100.0);
        let ccw = [q[0], q[3], q[2], q[1]];
        assert_eq!(interior_angles(&ccw), None);
    }
}
