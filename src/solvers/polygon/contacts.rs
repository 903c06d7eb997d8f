//! How well placed pieces fit the outlines around them, measured on the outlines' sides.
//!
//! In a dissection every corner of a piece lies on the outline of a neighbour or of the
//! target, but often on a side rather than at a corner (a T-junction). Measuring a piece's fit
//! by the distance of its corners to the nearest *corners* around it misses those contacts,
//! so two placings that differ by a few tenths of a pixel (the two chiralities of a nearly
//! symmetric piece) or by a few pixels at a T-junction score alike. Here the fit is the
//! distance of corners to the nearest *side*, both ways: the piece's corners onto the sides
//! around it, and the surrounding corners that touch the piece onto its sides.

use super::assign::{fit_pose, Pose};
use super::geometry::{add, dist, dot, scale, sub, Pt};

/// The point of segment `a`–`b` nearest to `p`, and its parameter along the segment (0..1).
fn nearest_on_segment(p: Pt, a: Pt, b: Pt) -> (Pt, f64) {
    let d = sub(b, a);
    let l2 = dot(d, d);
    if l2 == 0.0 {
        return (a, 0.0);
    }
    let t = (dot(sub(p, a), d) / l2).clamp(0.0, 1.0);
    (add(a, scale(d, t)), t)
}

/// The point on the outlines `polys` nearest to `p`.
pub fn nearest_on_outlines(p: Pt, polys: &[&[Pt]]) -> Option<Pt> {
    let mut best: Option<(f64, Pt)> = None;
    for poly in polys {
        let n = poly.len();
        for i in 0..n {
            let (q, _) = nearest_on_segment(p, poly[i], poly[(i + 1) % n]);
            let d = dist(p, q);
            if best.is_none_or(|b| d < b.0) {
                best = Some((d, q));
            }
        }
    }
    best.map(|b| b.1)
}

/// The corners of `around` within `reach` of the outline `poly`: the neighbours' corners that
/// touch it. Chosen once per placing (against the search's polygon), so that every variant
/// tried there is scored on the same contacts.
pub fn touching(poly: &[Pt], around: &[&[Pt]], reach: f64) -> Vec<Pt> {
    around
        .iter()
        .flat_map(|p| p.iter().copied())
        .filter(|&w| nearest_on_outlines(w, &[poly]).is_some_and(|q| dist(q, w) <= reach))
        .collect()
}

/// The sum of squared distances (each capped at `cap`) of the corners of `piece` from the
/// outlines `around`, and of the corners `touch` from the outline of `piece`.
pub fn misfit(piece: &[Pt], around: &[&[Pt]], touch: &[Pt], cap: f64) -> f64 {
    let d2 = |p: Pt, q: Option<Pt>| q.map_or(cap, |q| dist(p, q).min(cap)).powi(2);
    let own: f64 = piece
        .iter()
        .map(|&v| d2(v, nearest_on_outlines(v, around)))
        .sum();
    let theirs: f64 = touch
        .iter()
        .map(|&w| d2(w, nearest_on_outlines(w, &[piece])))
        .sum();
    own + theirs
}

/// How well a whole solution fits together: the squared distances (each capped at `cap`) of
/// every placed piece's corners from the outlines of the other pieces and of the target, and
/// how many corners were measured. In a correct dissection every corner lies on some other
/// outline, so the sum is measurement noise; a piece in a wrong place or turned the wrong
/// way adds its misfit at several corners.
pub fn solution_misfit(placed: &[Vec<Pt>], target: &[Vec<Pt>], cap: f64) -> (f64, usize) {
    let mut sum = 0.0;
    let mut count = 0;
    for (i, poly) in placed.iter().enumerate() {
        let around: Vec<&[Pt]> = placed
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != i)
            .map(|(_, p)| p.as_slice())
            .chain(target.iter().map(Vec::as_slice))
            .collect();
        sum += misfit(poly, &around, &[], cap);
        count += poly.len();
    }
    (sum, count)
}

/// `pose` improved by iterated closest points: each corner of the piece (`local`, in its own
/// frame) pulled onto the nearest point of the outlines `around` within `reach`, each corner
/// of `touch` onto the nearest point of the piece's outline, the rigid motion refitted to
/// these pairs. Rounds stop early when fewer than two pairs remain.
pub fn pose_on_outlines(
    local: &[Pt],
    mut pose: Pose,
    around: &[&[Pt]],
    touch: &[Pt],
    reach: f64,
    rounds: usize,
) -> Pose {
    let m = local.len();
    for _ in 0..rounds {
        let (mut from, mut to) = (Vec::new(), Vec::new());
        let placed: Vec<Pt> = local.iter().map(|&q| pose.apply(q)).collect();
        for (k, &v) in placed.iter().enumerate() {
            if let Some(w) = nearest_on_outlines(v, around).filter(|w| dist(v, *w) <= reach) {
                from.push(local[k]);
                to.push(w);
            }
        }
        for &w in touch {
            let mut best: Option<(f64, Pt)> = None;
            for i in 0..m {
                let (q, t) = nearest_on_segment(w, placed[i], placed[(i + 1) % m]);
                let d = dist(q, w);
                if d <= reach && best.is_none_or(|b| d < b.0) {
                    let (a, b) = (local[i], local[(i + 1) % m]);
                    best = Some((d, add(a, scale(sub(b, a), t))));
                }
            }
            if let Some((_, q)) = best {
                from.push(q);
                to.push(w);
            }
        }
        if from.len() < 2 {
            break;
        }
        pose = fit_pose(&from, &to);
    }
    pose
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_corner_on_a_neighbours_side_is_a_contact() {
        // A unit square whose corner (1, 1) lies on the side of a long neighbour above it,
        // far from that neighbour's corners.
        let sq = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        let above: [Pt; 4] = [[-5.0, 1.0], [5.0, 1.0], [5.0, 2.0], [-5.0, 2.0]];
        let fit = misfit(&sq, &[&above], &[], 1.0);
        // Two corners on the side, two a unit away (capped at 1).
        assert!((fit - 2.0).abs() < 1e-12, "{fit}");
        let lifted: Vec<Pt> = sq.iter().map(|q| [q[0], q[1] - 0.1]).collect();
        assert!(misfit(&lifted, &[&above], &[], 1.0) > fit);
    }

    #[test]
    fn closest_points_slide_a_piece_onto_the_sides_around_it() {
        // A unit square in an L-shaped corner (sides x = 0 and y = 0), placed 0.2 off and
        // turned by 2°: the closest points bring it back.
        let corner: [Pt; 6] = [
            [0.0, 0.0],
            [0.0, 3.0],
            [-1.0, 3.0],
            [-1.0, -1.0],
            [3.0, -1.0],
            [3.0, 0.0],
        ];
        let sq = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        let off = Pose {
            theta: 2f64.to_radians(),
            t: [0.2, 0.15],
        };
        let got = pose_on_outlines(&sq, off, &[&corner], &[], 0.5, 20);
        let moved: Vec<Pt> = sq.iter().map(|&q| got.apply(q)).collect();
        assert!(dist(moved[0], [0.0, 0.0]) < 0.02, "{moved:?}");
        assert!(
            moved[1][1].abs() < 0.02 && moved[3][0].abs() < 0.02,
            "{moved:?}"
        );
    }
}
