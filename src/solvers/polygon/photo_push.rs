//! A faint side pushed out onto the cut beyond it.
//!
//! Why: where a piece's print fades to white at a side, on white paper, the mask ends where
//! the print does, and the straightened side is a chord across the face a few pixels inside
//! the cut (7-piece photo seed 73: a pale band 4–8 px deep along a 15 px side, the piece then
//! posed 2.5° off). The side itself shows hardly any edge (the fade), while the cut beyond it
//! shows as a line of weak but steady edges (its rim, or the step to the shadow). So a faint
//! side is moved onto the straight line of edges found outwards of it, its neighbours
//! extended or shortened to meet the new line; the edit is then judged like a completed
//! corner (the new side must carry a cut, the rest of the outline keep its support).

use super::edits::line_cross;
use super::{
    dist, edge_peaks, line_fit, normal, side_samples, sides, sub, unit, Pt, Reach, Support,
    CORNER_SKIP,
};
use crate::solvers::polygon::geometry::{add, scale};

/// How far beyond a faint side the cut is looked for, pixels: a pale band deeper than this
/// is a corner lost, which the corner completion handles.
const PUSH_REACH_PX: f64 = 10.0;
/// Edges nearer than this to the side are the side's own (the fade, its support, the rim's
/// bias of a pixel or so), pixels.
const MIN_PUSH_PX: f64 = 2.5;
/// The edges found must lie on a line within this RMS distance, pixels: a cut is straight,
/// the blur of a fading print is not.
const PUSH_SCATTER: f64 = 0.35;
/// A vertex the push moves may move at most this many times [`PUSH_REACH_PX`]: beyond, the
/// neighbour it slides along meets the new line at a glancing angle, and a small error in
/// the line moves the corner far.
const MAX_MOVE: f64 = 1.5;
/// The edges must be found at this fraction of the side's samples, and lie on the line: the
/// blur at the two corners leaves a few samples without a clean peak or with a stray one.
const PUSH_SUPPORT: f64 = 0.7;
/// A side needs this many samples (1 px apart, corners skipped) to be pushed.
const MIN_SAMPLES: usize = 6;

/// A polygon with one side pushed out, and the segments that must carry a cut: the new side
/// and its neighbours' changed ends.
pub(super) struct SidePush {
    pub next: Vec<Pt>,
    pub segments: Vec<(Pt, Pt)>,
}

impl Support<'_> {
    /// Every faint side of `poly` pushed out onto a straight line of edges beyond it.
    pub(super) fn side_pushes(&self, poly: &[Pt]) -> Vec<SidePush> {
        let n = poly.len();
        let mut out = Vec::new();
        if n < 3 {
            return out;
        }
        for (k, (a, b)) in sides(poly).enumerate() {
            let samples: Vec<(Pt, Pt)> = side_samples(a, b, CORNER_SKIP).collect();
            if samples.len() < MIN_SAMPLES || !self.faint(&samples) {
                continue;
            }
            let nrm = normal(unit(sub(b, a)), self.orientation);
            let reach = Reach {
                inward: 0.0,
                outward: PUSH_REACH_PX,
                past_shadow_ramps: false,
            };
            let found: Vec<(f64, f64)> = samples
                .iter()
                .filter_map(|&(p, _)| {
                    edge_peaks(p, nrm, self.img, reach)
                        .into_iter()
                        .filter(|e| e.offset >= MIN_PUSH_PX && e.strength >= self.weak_strength)
                        .max_by(|x, y| x.strength.total_cmp(&y.strength))
                        .map(|e| (dist(a, p), e.offset))
                })
                .collect();
            if (found.len() as f64) < PUSH_SUPPORT * samples.len() as f64 {
                continue;
            }
            // The blur at the corners leaves a stray peak or two: dropped when off the line
            // the others make.
            let (first, _) = line_fit(&found);
            let kept: Vec<(f64, f64)> = found
                .iter()
                .copied()
                .filter(|&(x, y)| (y - first(x)).abs() <= 2.0 * PUSH_SCATTER)
                .collect();
            let (line, scatter) = line_fit(&kept);
            if (kept.len() as f64) < PUSH_SUPPORT * samples.len() as f64 || scatter > PUSH_SCATTER {
                continue;
            }
            let len = dist(a, b);
            let (a1, b1) = (add(a, scale(nrm, line(0.0))), add(b, scale(nrm, line(len))));
            let (prev, next) = (poly[(k + n - 1) % n], poly[(k + 2) % n]);
            let (Some(new_a), Some(new_b)) = (
                line_cross((prev, a), (a1, b1)),
                line_cross((b, next), (a1, b1)),
            ) else {
                continue;
            };
            if dist(new_a, a).max(dist(new_b, b)) > MAX_MOVE * PUSH_REACH_PX {
                continue;
            }
            let mut moved = poly.to_vec();
            moved[k] = new_a;
            moved[(k + 1) % n] = new_b;
            out.push(SidePush {
                next: moved,
                segments: vec![(a, new_a), (new_a, new_b), (new_b, b)],
            });
        }
        out
    }
}
