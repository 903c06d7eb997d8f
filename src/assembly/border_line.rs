//! The puzzle's border as evidence of a pose. Two border sides lying along one another say
//! nothing about fit (a straight side fits anywhere along another), but a piece whose border
//! side *continues* a placed neighbour's border side, end to start and in the same direction,
//! sits on the border line where that neighbour put it. Where one seam of a border piece is
//! damaged (white print on white paper cut short), that continuation stands in for it.

use super::geometry::{Pose, P2};
use super::shapes::Shapes;

/// Largest angle between two border sides that continue one another, radians (about 8°):
/// a side straight enough to be a border side bows by under 6 % of its chord.
const MAX_TURN: f64 = 0.14;

/// How many straight chainlets of `piece` at `pose` continue a straight chainlet of a member
/// in `near` (member, its pose): one ends within `tol` of where the other starts, heading the
/// same way.
pub fn continued(
    shapes: &Shapes,
    near: &[(usize, Pose)],
    piece: usize,
    pose: &Pose,
    tol: f64,
) -> usize {
    let ends = |c: usize, at: &Pose| -> (P2, P2) {
        let ch = &shapes.chainlets[c];
        (at * ch.points[0], at * ch.points[ch.points.len() - 1])
    };
    let heading = |(s, e): (P2, P2)| (e - s).y.atan2((e - s).x);
    let same_way = |x: (P2, P2), y: (P2, P2)| {
        let d = (heading(x) - heading(y)).rem_euclid(std::f64::consts::TAU);
        d.min(std::f64::consts::TAU - d) <= MAX_TURN
    };
    shapes.pieces[piece]
        .chainlets
        .iter()
        .filter(|&&b| shapes.chainlets[b].straight)
        .filter(|&&b| {
            let ours = ends(b, pose);
            near.iter().any(|(m, q)| {
                shapes.pieces[*m].chainlets.iter().any(|&a| {
                    if !shapes.chainlets[a].straight {
                        return false;
                    }
                    let theirs = ends(a, q);
                    let meet =
                        (ours.1 - theirs.0).norm() <= tol || (theirs.1 - ours.0).norm() <= tol;
                    meet && same_way(ours, theirs)
                })
            })
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assembly::shapes::{ChainletShape, PieceShape};

    /// Two pieces whose one straight chainlet runs along y = 0 from x0 to x1 (and a curved one).
    fn two_pieces(second: [(f64, f64); 2]) -> Shapes {
        let chainlet = |piece: usize, k: usize, from: (f64, f64), to: (f64, f64), straight| {
            let mut c = ChainletShape::bare(piece, k, 100.0, straight);
            c.points = vec![P2::new(from.0, from.1), P2::new(to.0, to.1)];
            c
        };
        Shapes {
            pieces: vec![
                PieceShape::bare(1, "a".into(), vec![0, 1]),
                PieceShape::bare(2, "b".into(), vec![2, 3]),
            ],
            chainlets: vec![
                chainlet(0, 0, (0.0, 0.0), (100.0, 0.0), true),
                chainlet(0, 1, (100.0, 0.0), (100.0, 100.0), false),
                chainlet(1, 0, second[0], second[1], true),
                chainlet(1, 1, second[1], (150.0, 100.0), false),
            ],
            median_size: 100.0,
            ..Shapes::default()
        }
    }

    #[test]
    fn a_border_side_continuing_a_neighbours_counts() {
        let s = two_pieces([(102.0, 1.0), (200.0, 1.0)]);
        let near = [(0, Pose::identity())];
        assert_eq!(continued(&s, &near, 1, &Pose::identity(), 7.0), 1);
        // Too far from the neighbour's end, or turned by 90°: no continuation.
        assert_eq!(
            continued(&s, &near, 1, &Pose::translation(20.0, 0.0), 7.0),
            0
        );
        let turned = two_pieces([(102.0, 1.0), (102.0, 99.0)]);
        assert_eq!(continued(&turned, &near, 1, &Pose::identity(), 7.0), 0);
        // Running back the other way along the line (a border side mated to a border side).
        let back = two_pieces([(200.0, 1.0), (102.0, 1.0)]);
        assert_eq!(continued(&back, &near, 1, &Pose::identity(), 7.0), 0);
    }
}
