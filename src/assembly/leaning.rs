//! Pieces held by one seam to their cluster, kept against the neighbours they lie beside
//! when it settles.
//!
//! One seam holds a piece along one side only: the relaxation of [`super::settle`] may turn
//! it about that seam or slide it along it, as far as the seam's own small misfit pulls,
//! while nothing holds it to the pieces it lies beside without a recorded seam (a border
//! piece beside a missing one, a piece placed last between others). On held-out irregular
//! 100 photos seed 30 (three missing, three extraneous pieces) a border piece held by one
//! seam below lay 8 px off the two above it; seed 32, a piece 10 px off its neighbours;
//! irregular 100 photos seed 43, 99.1 %. So in the final settling each such piece is also
//! paired with the neighbours it touches: every point of its outline within the contact
//! distance of a neighbour's outline with its nearest point there, found again every round
//! as the pieces move, weighted well below a seam. True neighbours touch along their whole
//! common side, so the pairs pull it to touch them, not to keep the crack it was placed
//! with (pairs kept as first measured held that border piece 12 px off, where it had been
//! put). All three sets then solve completely; nothing else in 301 generated sets changed.

use super::carried::{self, Held, MIN_CONTACTS, NEIGHBOURHOOD, STRIDE};
use super::grow::Growth;
use super::pose_graph::PairSet;
use super::shapes::Shapes;

/// The weight of each contact pair, against at most 1 for each of a seam's 96 pairs: the
/// contacts of a piece along a side (some 100 pairs) count about a tenth of a seam, enough
/// to take up the freedom one seam leaves, not to pull a piece off it.
const CONTACT_WEIGHT: f64 = 0.1;

/// The placed pieces with exactly one seam to a piece of their cluster, but for those in a
/// part that `held` carries.
pub(super) fn pieces_held_by_one_seam(shapes: &Shapes, g: &Growth, held: &[Held]) -> Vec<usize> {
    let cluster_of = |m: usize| g.placed[m].as_ref().map(|p| p.cluster);
    (0..g.placed.len())
        .filter(|&m| {
            let Some(cluster) = cluster_of(m) else {
                return false;
            };
            let seams = shapes.pieces[m]
                .chainlets
                .iter()
                .filter_map(|&a| g.mate_of[a])
                .filter(|&(b, _)| cluster_of(shapes.chainlets[b].piece) == Some(cluster))
                .count();
            seams == 1 && !held.iter().any(|h| h.holds(m))
        })
        .collect()
}

/// Piece `m`'s contacts with its neighbours where they lie now, one pair set per neighbour
/// (points of `m`'s outline in its frame, the nearest points of the neighbour's in that
/// one's), looked for as [`carried`] looks for a loose part's; none if it touches them
/// along fewer than [`MIN_CONTACTS`] points (it is left to its seam).
pub(super) fn contact_pairs(shapes: &Shapes, g: &Growth, m: usize) -> Vec<PairSet> {
    let mut sets: Vec<PairSet> = Vec::new();
    for (q, contact) in carried::touching(shapes, g, m, STRIDE, NEIGHBOURHOOD) {
        let Some((n, y)) = contact else { continue };
        let Some(there) = g.placed[n].as_ref().map(|p| p.pose.inverse() * y) else {
            continue;
        };
        match sets.iter_mut().find(|s| s.to == n) {
            Some(set) => set.pairs.push((q, there)),
            None => sets.push(PairSet {
                from: m,
                to: n,
                pairs: vec![(q, there)],
                weight: CONTACT_WEIGHT,
            }),
        }
    }
    if sets.iter().map(|s| s.pairs.len()).sum::<usize>() < MIN_CONTACTS {
        sets.clear();
    }
    sets
}

/// [`contact_pairs`] of each of `pieces`.
pub(super) fn contacts_of(shapes: &Shapes, g: &Growth, pieces: &[usize]) -> Vec<PairSet> {
    pieces
        .iter()
        .flat_map(|&m| contact_pairs(shapes, g, m))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assembly::geometry::Pose;
    use crate::assembly::grow::Placed;

    /// Four 40 px cells, A (0, 0), B (1, 0), D (0, 1), C (1, 1), pieces 0–3 in that order,
    /// each with four chainlets (top, right, bottom, left: piece `p`'s side `k` is chainlet
    /// `4p + k`), all placed as cut but B at `b_pose`, with the seams A–B, A–D and D–C: B and
    /// C are held by one seam each, and B lies beside C without one.
    fn square(b_pose: Pose) -> (Shapes, Growth) {
        let mut shapes = Shapes::bare(4, 4);
        shapes.median_size = 40.0;
        for (piece, (cx, cy)) in shapes
            .pieces
            .iter_mut()
            .zip([(0, 0), (1, 0), (0, 1), (1, 1)])
        {
            piece.set_square(40.0 * cx as f64, 40.0 * cy as f64, 40.0);
        }
        let mut mate_of = vec![None; 16];
        // A's right and B's left; A's bottom and D's top; D's right and C's left.
        for (a, b) in [(1, 7), (2, 8), (9, 15)] {
            mate_of[a] = Some((b, 1.0));
            mate_of[b] = Some((a, 1.0));
        }
        let g = Growth {
            placed: vec![
                Some(Placed::as_cut(0, Pose::identity())),
                Some(Placed::as_cut(1, b_pose)),
                Some(Placed::as_cut(2, Pose::identity())),
                Some(Placed::as_cut(3, Pose::identity())),
            ],
            mate_of,
            clusters: 1,
            ..Growth::default()
        };
        (shapes, g)
    }

    #[test]
    fn the_pieces_held_by_one_seam_are_those_not_carried() {
        let (shapes, g) = square(Pose::identity());
        assert_eq!(pieces_held_by_one_seam(&shapes, &g, &[]), [1, 3]);
        let mut lone = g.clone();
        lone.placed[1] = None;
        // B gone, A keeps its seam with D only; C and A are held by one seam each.
        assert_eq!(pieces_held_by_one_seam(&shapes, &lone, &[]), [0, 3]);
    }

    /// B slid 1.5 px off C along its seam with A: its contacts pair its bottom side with C's
    /// top where they lie now, 1.5 px apart; slid beyond the contact distance (2 px here), C
    /// is not among them.
    #[test]
    fn a_piece_is_paired_with_the_neighbours_it_touches_where_they_lie() {
        let slid = Pose::translation(0.0, -1.5);
        let (shapes, g) = square(slid);
        let sets = contact_pairs(&shapes, &g, 1);
        let with_c = sets.iter().find(|s| s.to == 3).expect("B touches C");
        assert!(sets.iter().any(|s| s.to == 0), "B touches A along its seam");
        assert!(with_c.pairs.len() >= 15, "{}", with_c.pairs.len());
        for (q, y) in &with_c.pairs {
            let gap = (slid * q - y).norm();
            assert!((gap - 1.5).abs() < 1e-9, "{q} {y} {gap}");
            assert!((q.y - 40.0).abs() < 1e-9, "on B's bottom side: {q}");
        }
        let (shapes, g) = square(Pose::translation(0.0, -3.0));
        assert!(contact_pairs(&shapes, &g, 1).iter().all(|s| s.to != 3));
    }
}
