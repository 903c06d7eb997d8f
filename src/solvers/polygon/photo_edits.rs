//! Candidate edits of a straightened piece polygon, before the photograph judges them (see
//! `photo_support`): a side or two dropped and their neighbours extended to meet, or a notch
//! filled along the chord of its neighbours. Plane geometry only: which edit is kept is the
//! image's decision.

use super::{normal, unit, SUPPORT_OFFSET};
use crate::solvers::polygon::geometry::{add, dist, dot, orientation, scale, signed_area, sub, Pt};

/// One or two sides dropped from vertex `k` on, the sides before and after extended to meet.
pub(super) struct SideDrop {
    /// Which drop it is: only the support diagnosis (`photo_support_tests`) prints them.
    #[cfg_attr(not(test), allow(dead_code))]
    pub k: usize,
    #[cfg_attr(not(test), allow(dead_code))]
    pub drop: usize,
    /// The side ending at vertex `k`, and the one starting after the dropped ones.
    pub before: (Pt, Pt),
    pub after: (Pt, Pt),
    /// Where their lines meet: the new vertex.
    pub corner: Pt,
    pub next: Vec<Pt>,
}

/// Every [`SideDrop`] of `poly` that leaves at least a triangle and whose extended sides meet.
pub(super) fn side_drops(poly: &[Pt]) -> Vec<SideDrop> {
    let m = poly.len();
    let mut out = Vec::new();
    for k in 0..m {
        for drop in 1..=2usize {
            if m - drop < 3 {
                continue;
            }
            let before = (poly[(k + m - 1) % m], poly[k]);
            let after = (poly[(k + drop) % m], poly[(k + drop + 1) % m]);
            let Some(corner) = line_cross(before, after) else {
                continue;
            };
            let next = replace(poly, k, drop + 1, &[corner]);
            out.push(SideDrop {
                k,
                drop,
                before,
                after,
                corner,
                next,
            });
        }
    }
    out
}

/// A notch of the outline filled: consecutive vertices removed, their neighbours joined by
/// a straight side (`chord`) that passes outside the removed vertices. Why: where a piece's
/// face is white along a side on white paper, the mask and the snap follow the print's edge
/// into the face and the side comes out with a notch (14-piece photo seed 51: a top side
/// 12 px deep into the face over 20 px, 9 vertices for 4), which no side drop can undo: the
/// sides either side of the notch are one line, whose extensions never meet. Filled only
/// where the chord carries a straight run of edges (the cut's rim), as a completed corner.
pub(super) struct NotchFill {
    pub chord: (Pt, Pt),
    pub next: Vec<Pt>,
}

/// Most vertices a notch fill removes.
const NOTCH_VERTICES: usize = 5;
/// A notch is filled only this deep or deeper: a shallower dent is as likely the cut's own
/// (filling 14:52's 1 px dent left its 14 pieces' placing errors to add up to 4 px, and the
/// search found no solution).
const NOTCH_DEPTH_PX: f64 = 3.0;

/// Every [`NotchFill`] of `poly` removing 2 to [`NOTCH_VERTICES`] vertices that makes it
/// larger, whose chord passes at least [`NOTCH_DEPTH_PX`] outside the deepest of them and
/// no more than [`SUPPORT_OFFSET`] inside any.
pub(super) fn notch_fills(poly: &[Pt]) -> Vec<NotchFill> {
    let m = poly.len();
    let area = signed_area(poly);
    let orientation = orientation(poly);
    let mut out = Vec::new();
    for k in 0..m {
        for j in 2..=NOTCH_VERTICES {
            if m < j + 3 {
                continue;
            }
            let (a, b) = (poly[(k + m - 1) % m], poly[(k + j) % m]);
            let len = dist(a, b);
            if len < 1.0 {
                continue;
            }
            let d = unit(sub(b, a));
            let n = normal(d, orientation);
            // Depth of each removed vertex inside the chord (outward normal n).
            let depths: Vec<f64> = (0..j).map(|i| -dot(sub(poly[(k + i) % m], a), n)).collect();
            if depths.iter().any(|&x| x < -SUPPORT_OFFSET)
                || depths.iter().fold(0.0, |x: f64, &y| x.max(y)) < NOTCH_DEPTH_PX
            {
                continue;
            }
            let next = replace(poly, k, j, &[]);
            if signed_area(&next).abs() <= area.abs() {
                continue;
            }
            out.push(NotchFill {
                chord: (a, b),
                next,
            });
        }
    }
    out
}

/// One end of a chord slid outwards along the line of the side beyond that end, the chord
/// re-drawn from the slid vertex: where a pale corner is lost on light paper and the mask
/// crosses the face from a real corner of the piece, the straightened polygon has one side
/// too few there, and neither of the chord's neighbours meets the other at the lost corner
/// (12-piece photo seed 149: a 131° corner 8 px outside a 40 px chord from the piece's next
/// corner; no side drop can restore a vertex). The two segments the slide adds must carry a
/// cut, as a completed corner's.
pub(super) struct CornerSlide {
    pub next: Vec<Pt>,
    /// The extension of the side the vertex slid along, and the re-drawn chord; `corner_slides`
    /// lists each length twice, the start slid (even places), then the end (odd).
    pub segments: [(Pt, Pt); 2],
}

/// How far a chord's end is slid, at least and at most, pixels (1 px steps). At least: the
/// extension must be long enough to show a cut beyond the blur of the corner it leaves
/// (`CORNER_SKIP` clear at either end, 4 samples at 6 px); slides of a pixel or two, each
/// passing as "too short to tell", crept a real corner along its side a pixel at a time.
const SLIDE_PX: std::ops::RangeInclusive<usize> = 6..=24;

/// Every [`CornerSlide`] of side `k` of `poly` (from vertex `k` to `k + 1`), both ends.
pub(super) fn corner_slides(poly: &[Pt], k: usize) -> Vec<CornerSlide> {
    let m = poly.len();
    let (a, b, c, d) = (
        poly[(k + m - 1) % m],
        poly[k],
        poly[(k + 1) % m],
        poly[(k + 2) % m],
    );
    let mut out = Vec::new();
    if dist(a, b) < 1.0 || dist(c, d) < 1.0 {
        return out;
    }
    let (along_ab, along_dc) = (unit(sub(b, a)), unit(sub(c, d)));
    for t in SLIDE_PX {
        let t = t as f64;
        // The chord's start slid along the side before it: a → b' → c.
        let b1 = add(b, scale(along_ab, t));
        let mut next = poly.to_vec();
        next[k] = b1;
        out.push(CornerSlide {
            next,
            segments: [(b, b1), (b1, c)],
        });
        // Its end slid along the side after it: b → c' → d.
        let c1 = add(c, scale(along_dc, t));
        let mut next = poly.to_vec();
        next[(k + 1) % m] = c1;
        out.push(CornerSlide {
            next,
            segments: [(c1, c), (b, c1)],
        });
    }
    out
}

/// `poly` with the `count` vertices from index `k` on (cyclically) replaced by `with`.
fn replace(poly: &[Pt], k: usize, count: usize, with: &[Pt]) -> Vec<Pt> {
    let m = poly.len();
    let mut out: Vec<Pt> = with.to_vec();
    out.extend((count..m).map(|j| poly[(k + j) % m]));
    out
}

/// Where the lines through two segments cross; `None` within about 1° of parallel.
pub(super) fn line_cross(l0: (Pt, Pt), l1: (Pt, Pt)) -> Option<Pt> {
    let (p, d) = (l0.0, unit(sub(l0.1, l0.0)));
    let (q, e) = (l1.0, unit(sub(l1.1, l1.0)));
    let den = d[0] * e[1] - d[1] * e[0];
    if den.abs() < 0.02 {
        return None;
    }
    let t = ((q[0] - p[0]) * e[1] - (q[1] - p[1]) * e[0]) / den;
    Some(add(p, scale(d, t)))
}
