//! Other poses of a placed piece, for the print to judge: those its corners admit (a
//! self-symmetry of the outline, turned or flipped), and those only its outline shows.
//!
//! Why the outline too: a straightened polygon may keep a vertex its true cut does not have
//! (a side bent by a shadow, a pale tip cut across), and then no renumbering of its corners
//! maps it onto its placed self turned over, although its outline, turned over, lies on the
//! placed outline within a few pixels (12-piece photo seed 185: a near-parallelogram of five
//! vertices placed face down, its true pose 3.6 px off). Each side of the polygon (mirrored
//! or not) is laid on each side of the placed outline about as long, the pose is refined by
//! fitting the outline's points to their nearest points on the placed outline (iterated
//! closest points), and the pose is another of the outline's when every point of either
//! outline lies within the reach of the other.

use super::{sub, Pose};
use crate::solvers::polygon::assign::fit_pose;
use crate::solvers::polygon::geometry::{
    add, closest_on_segment, dist, dist2, scale, sides, Pt, Tol,
};
use crate::solvers::polygon::records::clean_simple;
use crate::solvers::polygon::symmetry::mirror_pt;
use crate::solvers::polygon::Placement;

/// A pose is another of the outline's when it puts the corners within this many times the
/// solver's length tolerance of the placed ones. Why beyond the tolerance: the search poses
/// a piece by least squares and lets it run past its hole (`Search::reach`), so a piece it
/// placed turned over may lie a little farther than the tolerance from its own mirror image
/// (3 to 5 % farther in the photos 10:24, 12:34 and 14:34, pieces:seed). Why not as far as
/// the search lets it run (twice): there the print misled (14-piece photo seed 148: a
/// triangle in its right pose turned over, its other pose 1.49 times the tolerance away and
/// clearly better by both colour measures).
const SYMMETRY_REACH: f64 = 1.25;

/// Points are taken along each outline this far apart, pixels.
const SAMPLE_PX: f64 = 2.0;
/// Sides shorter than this are not laid on one another: too short to give a direction.
const MIN_SIDE_PX: f64 = 12.0;
/// Rounds of closest-point refinement.
const ICP_ROUNDS: usize = 8;
/// A pose not turned over from the piece's own must be turned from it by at least this many
/// degrees: nearer, it is the own pose moved within the measuring noise, and the print would
/// nudge a piece in a wrong solution towards a better looking cut (12-piece photo seed 156:
/// a piece traded into a hole turned by 2° to 4° until the wrong solution's print looked
/// better than the true one's).
const MIN_TURN_DEGREES: f64 = 20.0;

/// The placement's own pose first, then every other pose its outline admits: those of
/// [`symmetric_poses`], then those only its outline shows ([`outline_poses`]), each
/// with whether it lies beyond `tolerance_px`.
pub(super) fn other_poses(
    poly: &[Pt],
    placement: &Placement,
    tolerance_px: f64,
) -> Vec<(Pose, bool)> {
    let mut poses = symmetric_poses(poly, placement, tolerance_px);
    let known: Vec<Pose> = poses.iter().map(|p| p.0).collect();
    let reach = SYMMETRY_REACH * tolerance_px;
    let outline = outline_poses(poly, &known[0], &known[1..], reach, tolerance_px);
    poses.extend(
        outline
            .into_iter()
            .map(|(pose, worst)| (pose, worst > tolerance_px)),
    );
    poses
}

/// The placement's own pose first, then every other pose (turned, or turned over) that
/// puts `poly`'s corners onto the placed ones, renumbered, within [`SYMMETRY_REACH`] times
/// `tolerance_px`, each with whether it lies beyond `tolerance_px` itself (an outline less
/// alike, which the print must contradict by both measures). Corners, not vertices: a
/// straightened side may keep a vertex where it bends by less than the tolerance, and then
/// no renumbering of the vertices maps a near-isosceles triangle of six vertices onto its
/// mirror image (12-piece photo seed 104 and 14-piece photo seed 121: such a triangle placed
/// face down, whose print was never looked at).
pub(super) fn symmetric_poses(
    poly: &[Pt],
    placement: &Placement,
    tolerance_px: f64,
) -> Vec<(Pose, bool)> {
    let own = Pose::of(placement);
    let mut out = vec![(own, false)];
    let corners =
        clean_simple(poly, &Tol::flat_vertices(tolerance_px)).unwrap_or_else(|_| poly.to_vec());
    let n = corners.len();
    if n < 3 {
        return out;
    }
    let placed: Vec<Pt> = corners.iter().map(|&p| own.place(p)).collect();
    for mirror in [false, true] {
        let from: Vec<Pt> = corners
            .iter()
            .map(|&p| if mirror { mirror_pt(p) } else { p })
            .collect();
        for reversed in [false, true] {
            for shift in 0..n {
                if mirror == placement.mirror && !reversed && shift == 0 {
                    continue;
                }
                let to: Vec<Pt> = (0..n)
                    .map(|j| {
                        let i = if reversed { shift + n - j } else { shift + j };
                        placed[i % n]
                    })
                    .collect();
                let fit = fit_pose(&from, &to);
                let worst = from
                    .iter()
                    .zip(&to)
                    .map(|(&a, &b)| dist(fit.apply(a), b))
                    .fold(0.0, f64::max);
                if worst <= SYMMETRY_REACH * tolerance_px {
                    let pose = Pose {
                        mirror,
                        rotation: fit.theta.to_degrees(),
                        translation: fit.t,
                    };
                    out.push((pose, worst > tolerance_px));
                }
            }
        }
    }
    out
}

/// Every pose that lays `poly` onto its placed outline `own.place(poly)` with no point of
/// either outline farther than `reach_px` from the other, each with that largest distance;
/// but not `own`, those in `known`, nor any other that moves no vertex of `poly` farther than
/// `same_px` from where one of those puts it (the same pose, within the measuring).
pub(super) fn outline_poses(
    poly: &[Pt],
    own: &Pose,
    known: &[Pose],
    reach_px: f64,
    same_px: f64,
) -> Vec<(Pose, f64)> {
    let placed: Vec<Pt> = poly.iter().map(|&p| own.place(p)).collect();
    let targets = samples(&placed);
    let mut out: Vec<(Pose, f64)> = Vec::new();
    for mirror in [false, true] {
        let from: Vec<Pt> = poly
            .iter()
            .map(|&p| if mirror { mirror_pt(p) } else { p })
            .collect();
        let points = samples(&from);
        for (a0, a1) in sides(&from) {
            let la = dist(a0, a1);
            if la < MIN_SIDE_PX {
                continue;
            }
            for (b0, b1) in sides(&placed) {
                let lb = dist(b0, b1);
                if (la - lb).abs() > 2.0 * reach_px + 0.2 * la.min(lb) {
                    continue;
                }
                for reversed in [false, true] {
                    let (c0, c1) = if reversed { (b1, b0) } else { (b0, b1) };
                    let start = fit_pose(&[a0, a1], &[c0, c1]);
                    let mut pose = Pose {
                        mirror,
                        rotation: start.theta.to_degrees(),
                        translation: start.t,
                    };
                    for _ in 0..ICP_ROUNDS {
                        let moved: Vec<Pt> = points.iter().map(|&p| rigid(&pose, p)).collect();
                        let nearest: Vec<Pt> =
                            moved.iter().map(|&q| nearest_on(q, &placed)).collect();
                        let fit = fit_pose(&points, &nearest);
                        pose.rotation = fit.theta.to_degrees();
                        pose.translation = fit.t;
                    }
                    let moved: Vec<Pt> = from.iter().map(|&p| rigid(&pose, p)).collect();
                    let worst = hausdorff(&samples(&moved), &moved, &targets, &placed);
                    if worst > reach_px
                        || (mirror == own.mirror && turn(&pose, own) < MIN_TURN_DEGREES)
                    {
                        continue;
                    }
                    let seen = std::iter::once(own)
                        .chain(known)
                        .chain(out.iter().map(|(p, _)| p))
                        .any(|p| same(p, &pose, poly, same_px));
                    if !seen {
                        out.push((pose, worst));
                    }
                }
            }
        }
    }
    out
}

/// `pose` applied to a point already mirrored (the mirror is in the points).
fn rigid(pose: &Pose, p: Pt) -> Pt {
    Pose {
        mirror: false,
        ..*pose
    }
    .place(p)
}

/// The angle between two poses' turns, degrees (0 to 180).
fn turn(a: &Pose, b: &Pose) -> f64 {
    let t = (a.rotation - b.rotation).rem_euclid(360.0);
    t.min(360.0 - t)
}

/// Whether two poses put every vertex of `poly` within `same_px` of the same place.
fn same(a: &Pose, b: &Pose, poly: &[Pt], same_px: f64) -> bool {
    poly.iter()
        .all(|&v| dist(a.place(v), b.place(v)) <= same_px)
}

/// The largest distance of a sample of either outline from the other outline.
fn hausdorff(a_samples: &[Pt], a: &[Pt], b_samples: &[Pt], b: &[Pt]) -> f64 {
    let one_way = |ps: &[Pt], poly: &[Pt]| {
        ps.iter()
            .map(|&p| dist(p, nearest_on(p, poly)))
            .fold(0.0, f64::max)
    };
    one_way(a_samples, b).max(one_way(b_samples, a))
}

/// The point of the closed outline `poly` nearest to `p`.
fn nearest_on(p: Pt, poly: &[Pt]) -> Pt {
    sides(poly)
        .map(|(a, b)| closest_on_segment(p, a, b))
        .min_by(|x, y| dist2(p, *x).total_cmp(&dist2(p, *y)))
        .unwrap_or(p)
}

/// Points along the closed outline, about [`SAMPLE_PX`] apart, every vertex among them.
fn samples(poly: &[Pt]) -> Vec<Pt> {
    let mut out = Vec::new();
    for (a, b) in sides(poly) {
        let steps = (dist(a, b) / SAMPLE_PX).ceil().max(1.0) as usize;
        out.extend((0..steps).map(|i| add(a, scale(sub(b, a), i as f64 / steps as f64))));
    }
    out
}
