//! The four-sided piece model. Most jigsaw pieces have four corners joined by four sides, and
//! the corners span a near-rectangle. Locally, a corner rounded by a worn die looks like the
//! lip of a cavity or the shoulder of a knob; the four corners together do not: they are the
//! four sharp convex turns whose quadrilateral is closest to a rectangle and covers the piece.
//! So among the sharp convex turns, pick the four that best form such a quadrilateral; if no
//! four do, the piece is not four-sided and the local detector's answer stands.

use super::critical::{candidates, CriticalOptions};
use super::outline::Outline;
use crate::piece_set::CriticalPoint;

/// Weakest short-chord turn (degrees) considered as a possible corner.
const MIN_SHARP: f64 = 20.0;
/// Weakest arm-fit turn (degrees) considered.
const MIN_TURN: f64 = 30.0;
/// Most candidates examined (the strongest), bounding the search at C(14, 4) = 1001 quads.
const MAX_CANDIDATES: usize = 14;
/// Interior angles of the chosen quadrilateral must lie within 90° ± this.
const MAX_SKEW_DEG: f64 = 35.0;
/// The quadrilateral must cover at least this fraction of the piece's area.
const MIN_COVER: f64 = 0.4;

/// The four corners of a four-sided piece, in outline order, or `None`.
pub fn quad_corners(outline: &Outline, opts: &CriticalOptions) -> Option<Vec<CriticalPoint>> {
    let mut cands: Vec<_> = candidates(outline, opts, MIN_SHARP, MIN_TURN)
        .into_iter()
        .filter(|c| c.sharp_deg > 0.0 && c.point.angle_deg > 0.0)
        .collect();
    if cands.len() < 4 {
        return None;
    }
    cands.sort_by(|a, b| b.sharp_deg.total_cmp(&a.sharp_deg));
    cands.truncate(MAX_CANDIDATES);
    cands.sort_by_key(|c| c.point.index);
    let m = cands.len();
    let mut best: Option<(f64, [usize; 4])> = None;
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
                    let score = cover.min(1.0).powi(2) * (-skew).exp() * sharpness;
                    if best.is_none_or(|(s, _)| score > s) {
                        best = Some((score, pick));
                    }
                }
            }
        }
    }
    let (_, pick) = best?;
    Some(pick.iter().map(|&k| cands[k].point.clone()).collect())
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

    #[test]
    fn square_angles_and_orientation() {
        let q = [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]];
        assert_eq!(interior_angles(&q), Some([90.0; 4]));
        assert_eq!(quad_area(&q), 100.0);
        let ccw = [q[0], q[3], q[2], q[1]];
        assert_eq!(interior_angles(&ccw), None);
    }
}
