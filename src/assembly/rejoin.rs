//! Blocks joined by one seam, rejoined where several seams agree. Growth places a piece on a
//! single mating when nothing tells against it, and the pieces that mate it then grow on
//! from there into a block of their own: a true block, at a wrong place, held to the rest
//! of the cluster by that one seam. Where the block's true place lies beside the rest, its
//! open sides mate the rest's there along several seams at once, which one seam cannot
//! outweigh (irregular 20 photos seed 12 with three missing and three extraneous pieces: a
//! block of eight pieces hung on a missing piece's side by one mating of Δ 5.6, where five
//! seams join it to the rest in the truth).
//!
//! So each seam that alone holds a block of the largest cluster (a bridge of its graph of
//! mated neighbours, see `cut_apart`) is cut, the block made a cluster of its own, and the
//! clusters merged again as growth merges clusters (see `merge`): only by several agreeing
//! matings, every seam along the new boundary closing. The change is kept when the cluster
//! then has more good seams among its pieces than before and its hull has not grown (see
//! [`best_rejoined`]); a true block cut off finds no other place where several seams close,
//! and merges back where it was or not at all, which changes nothing.

use super::cut_apart::bridges;
use super::geometry::{convex_hull, signed_area, P2};
use super::grow::{Growth, ENDPOINT_FRACTION};
use super::holes::largest_cluster;
use super::matings::MatingTable;
use super::merge::merge_clusters;
use super::reexamine::{members, take_off, MAX_PART};
use super::restarts::{seam_quality, Quality};
use super::shapes::Shapes;
use rayon::prelude::*;

/// Blocks of fewer pieces are not cut off: parts of up to [`MAX_PART`] pieces held by one
/// neighbour are re-examined with the holes (see `reexamine`), and on their own here they moved
/// true parts of two or three pieces, held by one poor seam beside empty places, to wrong
/// places where two seams closed (irregular 100 photos seed 23 and scans seed 21: 100 → 99.1
/// and 98.7 %). The blocks moved right measured 8 and 28 pieces.
const MIN_BLOCK: usize = MAX_PART + 1;
/// Good seams the rejoined cluster must gain at least.
const MIN_GAIN: usize = 1;
/// The rejoined cluster's convex hull may be at most this much larger: a block hung at a
/// wrong place sticks out of the puzzle, and moved to its true place it leaves the cluster
/// more compact.
const MAX_HULL_GROWTH: f64 = 1.02;
/// Rejoins tried at most: each kept one may free the next.
const MAX_PASSES: usize = 4;

/// A cluster's pieces and how they hold together: the seams among them (see [`Quality`]) and
/// the area of their convex hull.
#[derive(Clone, Debug)]
struct Held {
    seams: Quality,
    hull: f64,
}

/// Cuts off, in turn, each block of the largest cluster held by one seam, and keeps the
/// rejoined trial that holds best (see [`best_rejoined`] and the module's doc). Returns how
/// many blocks moved.
pub(super) fn rejoin_bridged_blocks(shapes: &Shapes, table: &MatingTable, g: &mut Growth) -> usize {
    let limit = table.good_seam();
    let tol_end = ENDPOINT_FRACTION * shapes.median_size;
    let mut moved = 0;
    for _ in 0..MAX_PASSES {
        let Some(cluster) = largest_cluster(g) else {
            break;
        };
        let pieces = members(g, cluster);
        let before = held(shapes, g, &pieces, limit);
        let mut cuts = bridges(shapes, g, cluster);
        cuts.retain(|b| b.side.len() >= MIN_BLOCK);
        let trials: Vec<(Held, Growth)> = cuts
            .par_iter()
            .filter_map(|cut| {
                let mut trial = g.clone();
                // A block of several pieces stays a cluster of its own, unmated from the rest.
                take_off(shapes, &mut trial, &cut.side);
                merge_clusters(shapes, table, &mut trial, tol_end);
                // Merged back with the rest, not onto another cluster.
                let cluster = trial.placed[pieces[0]].as_ref()?.cluster;
                let whole = pieces.iter().all(|&i| {
                    trial.placed[i]
                        .as_ref()
                        .is_some_and(|p| p.cluster == cluster)
                });
                whole.then(|| (held(shapes, &trial, &pieces, limit), trial))
            })
            .collect();
        match best_rejoined(&before, trials) {
            Some(trial) => {
                *g = trial;
                moved += 1;
            }
            None => break,
        }
    }
    moved
}

/// Of the `trials`, each a cluster rejoined with how it holds, the one that holds best: the
/// most good seams, more than `before` by [`MIN_GAIN`] at least, its hull at most
/// [`MAX_HULL_GROWTH`] times as large; between as many good seams, the smaller hull (a
/// block at its true place leaves nothing sticking out; irregular 20 photos seed 12 with
/// three missing and three extraneous pieces: the wrongly hung block moved to its place, or
/// the rest moved onto it leaving the piece that held it hanging outside the puzzle, gain
/// one good seam each, the hulls 0.90 and 0.96 of before's), then the better fitting seams.
fn best_rejoined<T>(before: &Held, trials: Vec<(Held, T)>) -> Option<T> {
    trials
        .into_iter()
        .filter(|(h, _)| {
            h.seams.good >= before.seams.good + MIN_GAIN && h.hull <= MAX_HULL_GROWTH * before.hull
        })
        .max_by(|(a, _), (b, _)| {
            a.seams
                .good
                .cmp(&b.seams.good)
                .then(b.hull.total_cmp(&a.hull))
                .then(a.seams.fit.total_cmp(&b.seams.fit))
        })
        .map(|(_, t)| t)
}

/// How `pieces`, placed in `g`, hold together: the seams among them with Δ within `limit`
/// counted good, and their hull.
fn held(shapes: &Shapes, g: &Growth, pieces: &[usize], limit: f64) -> Held {
    let mut among = vec![false; shapes.pieces.len()];
    for &i in pieces {
        among[i] = true;
    }
    let piece = |c: usize| shapes.chainlets[c].piece;
    let deltas = pieces
        .iter()
        .flat_map(|&i| &shapes.pieces[i].chainlets)
        .filter_map(|&c| g.mate_of[c].filter(|&(o, _)| among[piece(o)]).map(|m| m.1));
    Held {
        seams: seam_quality(deltas, limit),
        hull: hull_area(shapes, g, pieces),
    }
}

/// The area of the convex hull of `pieces` as placed.
fn hull_area(shapes: &Shapes, g: &Growth, pieces: &[usize]) -> f64 {
    let points: Vec<P2> = pieces
        .iter()
        .filter_map(|&i| g.placed[i].as_ref().map(|p| (i, p.pose)))
        .flat_map(|(i, pose)| shapes.pieces[i].outline.iter().map(move |q| pose * q))
        .collect();
    signed_area(&convex_hull(&points)).abs()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assembly::cut_apart::tests::cluster;

    /// Four bare pieces of three chainlets in cluster 1, a chain 0–1–2–3 of seams (chainlet 1
    /// of each to chainlet 0 of the next) of Δ 5, 30 and 5.
    fn chain() -> (Shapes, Growth) {
        cluster(
            4,
            &[(0, 1, 1, 0, 5.0), (1, 1, 2, 0, 30.0), (2, 1, 3, 0, 5.0)],
        )
    }

    #[test]
    fn a_block_cut_off_is_a_cluster_of_its_own_with_its_bridge_unmated() {
        let (shapes, mut g) = chain();
        take_off(&shapes, &mut g, &[2, 3]);
        assert_eq!(g.clusters, 3);
        let cluster = |i: usize| g.placed[i].as_ref().map(|p| p.cluster);
        assert_eq!(
            (0..4).map(cluster).collect::<Vec<_>>(),
            [Some(1), Some(1), Some(2), Some(2)]
        );
        assert_eq!(g.mate_of[4], None, "the bridge, piece 1's side");
        assert_eq!(g.mate_of[6], None, "the bridge, piece 2's side");
        assert_eq!(g.mate_of[1], Some((3, 5.0)), "the rest's seam");
        assert_eq!(g.mate_of[7], Some((9, 5.0)), "the block's seam");
    }

    #[test]
    fn seams_are_counted_among_the_pieces_asked_for_only() {
        let (shapes, g) = chain();
        let all = held(&shapes, &g, &[0, 1, 2, 3], 20.0);
        assert_eq!(all.seams.good, 2, "Δ 30 is past the limit");
        assert_eq!(all.seams.fit, 15.0 + 15.0 - 10.0);
        let two = held(&shapes, &g, &[0, 1], 20.0);
        assert_eq!((two.seams.good, two.seams.fit), (1, 15.0));
    }

    #[test]
    fn the_rejoined_trial_with_the_most_good_seams_then_the_smaller_hull_is_kept() {
        let held = |good: usize, fit: f64, hull: f64| Held {
            seams: Quality { good, fit },
            hull,
        };
        // Irregular 20 photos seed 12 with three missing and three extraneous pieces.
        let before = held(21, 1291.6, 598_584.0);
        let block_moved = held(22, 1351.9, 538_807.0);
        let rest_moved = held(22, 1370.1, 577_281.0);
        let kept = best_rejoined(
            &before,
            vec![(rest_moved.clone(), "rest"), (block_moved, "block")],
        );
        assert_eq!(kept, Some("block"), "as many seams, the smaller hull");
        let more = held(23, 1300.0, 590_000.0);
        let kept = best_rejoined(&before, vec![(rest_moved.clone(), "rest"), (more, "more")]);
        assert_eq!(kept, Some("more"), "a good seam more");
        let none_gained = held(21, 1400.0, 500_000.0);
        assert_eq!(best_rejoined(&before, vec![(none_gained, "same")]), None);
        let spread = held(25, 1500.0, 1.03 * 598_584.0);
        assert_eq!(
            best_rejoined(&before, vec![(spread, "spread")]),
            None,
            "the hull grew"
        );
        assert_eq!(best_rejoined::<&str>(&before, Vec::new()), None);
    }
}
