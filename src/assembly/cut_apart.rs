//! Cutting a cluster apart at a seam that holds it together alone. Growth may join two true
//! blocks of a cluster apart through one wrong seam: each block then has a place of its own in
//! the largest cluster, but the two joined fit neither (irregular 100 photos seed 86: seven
//! pieces of the bottom left corner and four of the top right, joined by one seam of Δ 77 while
//! the cluster's other seams lie at 4–37). A seam's Δ alone does not tell it: the largest
//! cluster's seams of that puzzle reach 206, a tenth of them above 82.
//!
//! So each cluster other than the largest with more pieces than the holes step takes apart
//! piece by piece (see `holes::items::MAX_MEMBERS_ALONE`) is cut, in turn, at each seam whose
//! two pieces nothing else holds together (a bridge of its graph of mated neighbours), the
//! poorest seams first, and the holes refilled. A cut is kept when the largest cluster then
//! holds more pieces, as the re-examination keeps a part taken off (see [`super::reexamine`]);
//! otherwise it is dropped, so a true cluster cut and refilled as it was changes nothing.

use super::edge_colour::SeamColours;
use super::grow::Growth;
use super::holes::{largest_cluster, FitCache};
use super::reexamine::{better, keep_passes, members, refilled_without};
use super::seam_graph::{bridge_edges, reached_without, SeamGraph};
use super::shapes::Shapes;
use rayon::prelude::*;

/// Clusters of at most this many pieces are not cut: the holes step already offers each of
/// their pieces alone (`holes::items::MAX_MEMBERS_ALONE`).
const MIN_PIECES: usize = 5;
/// Cuts tried per pass, the poorest seams first, and passes at most: a kept cut may free the
/// next.
const MAX_CUTS: usize = 6;
const MAX_PASSES: usize = 3;

/// Cuts the clusters other than the largest at their bridges while that lets the holes step
/// place more (see the module's doc). Returns how many cuts were kept.
pub(super) fn cut_clusters_apart(
    shapes: &Shapes,
    colours: &SeamColours,
    g: &mut Growth,
    fits: &FitCache,
) -> usize {
    keep_passes(colours, g, MAX_PASSES, |g| {
        let largest = largest_cluster(g)?;
        let before = members(g, largest);
        let mut cuts: Vec<Bridge> = (0..g.clusters)
            .filter(|&c| c != largest)
            .flat_map(|c| bridges(shapes, g, c))
            .collect();
        cuts.sort_by(|a, b| b.delta.total_cmp(&a.delta));
        cuts.truncate(MAX_CUTS);
        cuts.par_iter()
            .map(|cut| {
                let trial = refilled_without(shapes, colours, g, fits, [cut.side.as_slice()]);
                better(shapes, g, &trial, &before, &cut.side, false).then_some(trial)
            })
            .collect::<Vec<_>>()
            .into_iter()
            .flatten()
            .next()
    })
}

/// A seam that alone holds a cluster together.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Bridge {
    /// The pieces on its smaller side, sorted: what a cut takes off.
    pub side: Vec<usize>,
    /// The largest Δ of the seams between its two pieces.
    pub delta: f64,
}

/// The bridges of `cluster` if it has [`MIN_PIECES`] or more: pairs of mated neighbours that
/// nothing else joins, each with the pieces on its smaller side.
pub(super) fn bridges(shapes: &Shapes, g: &Growth, cluster: u32) -> Vec<Bridge> {
    let graph = SeamGraph::of_cluster(shapes, g, cluster);
    if graph.pieces.len() < MIN_PIECES {
        return Vec::new();
    }
    bridge_edges(&graph.neighbours)
        .into_iter()
        .map(|(a, b)| {
            let seen = reached_without(&graph.neighbours, a, b);
            let (reached, other): (Vec<usize>, Vec<usize>) =
                (0..graph.pieces.len()).partition(|&k| seen[k]);
            let side = if reached.len() <= other.len() {
                reached
            } else {
                other
            };
            Bridge {
                side: side.into_iter().map(|k| graph.pieces[k]).collect(),
                delta: graph.poorest_seam(graph.pieces[a], graph.pieces[b]),
            }
        })
        .collect()
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::assembly::geometry::Pose;
    use crate::assembly::grow::Placed;
    use crate::assembly::reexamine::take_off;

    /// `pieces` in cluster 1 (cluster 0 empty), mated along `seams`
    /// (piece, chainlet index, piece, chainlet index, Δ), three chainlets to a piece.
    pub(in crate::assembly) fn cluster(
        pieces: usize,
        seams: &[(usize, usize, usize, usize, f64)],
    ) -> (Shapes, Growth) {
        let shapes = Shapes::bare(pieces, 3);
        let mut g = Growth {
            placed: vec![None; pieces],
            mate_of: vec![None; 3 * pieces],
            clusters: 2,
            ..Growth::default()
        };
        for (p, placed) in g.placed.iter_mut().enumerate() {
            *placed = Some(Placed {
                pose: Pose::identity(),
                sequence: p as u32 + 1,
                cluster: 1,
                supports: 1,
                merit: 1.0,
                spans: 0,
            });
        }
        for &(a, ka, b, kb, delta) in seams {
            let (ca, cb) = (
                shapes.pieces[a].chainlets[ka],
                shapes.pieces[b].chainlets[kb],
            );
            g.mate_of[ca] = Some((cb, delta));
            g.mate_of[cb] = Some((ca, delta));
        }
        (shapes, g)
    }

    /// The bridges of cluster 1, poorest seam first, as the cuts are tried.
    fn poorest_first(shapes: &Shapes, g: &Growth) -> Vec<Bridge> {
        let mut b = bridges(shapes, g, 1);
        b.sort_by(|x, y| y.delta.total_cmp(&x.delta));
        b
    }

    #[test]
    fn a_cycle_has_no_bridge_and_a_tail_hangs_on_one() {
        // A triangle 0-1-2 and a tail 2-3-4.
        let (shapes, g) = cluster(
            5,
            &[
                (0, 0, 1, 0, 5.0),
                (1, 1, 2, 0, 5.0),
                (2, 1, 0, 1, 5.0),
                (2, 2, 3, 0, 7.0),
                (3, 1, 4, 0, 6.0),
            ],
        );
        let b = poorest_first(&shapes, &g);
        let expected = [(vec![3, 4], 7.0), (vec![4], 6.0)];
        let found: Vec<(Vec<usize>, f64)> = b.into_iter().map(|b| (b.side, b.delta)).collect();
        assert_eq!(
            found, expected,
            "only the tail's seams are bridges, each cut on its smaller side"
        );
    }

    #[test]
    fn a_chain_is_cut_on_its_smaller_side_and_the_seam_is_unmated() {
        let (shapes, mut g) = cluster(
            5,
            &[
                (0, 1, 1, 0, 3.0),
                (1, 1, 2, 0, 4.0),
                (2, 1, 3, 0, 90.0),
                (3, 1, 4, 0, 2.0),
            ],
        );
        let b = poorest_first(&shapes, &g);
        assert_eq!(b.len(), 4, "every seam of a chain is a bridge");
        assert_eq!(
            b[0].side,
            vec![3, 4],
            "the poorest seam first, its smaller side"
        );
        assert_eq!(b[0].delta, 90.0);
        take_off(&shapes, &mut g, &b[0].side);
        assert_eq!(g.placed[3].as_ref().unwrap().cluster, 2);
        assert_eq!(g.placed[2].as_ref().unwrap().cluster, 1);
        assert!(g.mate_of[shapes.pieces[2].chainlets[1]].is_none());
        assert!(
            g.mate_of[shapes.pieces[3].chainlets[1]].is_some(),
            "3–4 stays"
        );
    }

    #[test]
    fn a_cluster_of_few_pieces_is_not_cut() {
        let (shapes, g) = cluster(4, &[(0, 1, 1, 0, 3.0), (1, 1, 2, 0, 4.0)]);
        assert!(bridges(&shapes, &g, 1).is_empty());
    }
}
