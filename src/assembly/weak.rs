//! Clusters that rest on weak evidence. A cluster in which no junction was ever closed holds
//! together by single matings only, and a single knob-and-hole mating between two pieces of
//! different puzzles (or an extraneous piece and a real one) can look as good as a poor true
//! one. Freeman & Garder start assembly only from a well-determined piece for the same
//! reason. Such a cluster is kept only if every mating in it is as good as the matings the
//! puzzle's junction closures confirmed; otherwise its pieces are left unplaced and listed.
//! The same test peels weak leaves (pieces hanging on one such mating) off every cluster.

use super::grow::Growth;
use super::holes::cluster_sizes;
use super::shapes::Shapes;

/// The quantile of junction-confirmed Δ that a mating of an unconfirmed cluster must reach.
const CONFIRMED_QUANTILE: f64 = 0.9;
/// The quantile a pair's one mating must reach: one seam is all the evidence a pair apart
/// has. Extraneous pieces come from one other puzzle, and two of them that mate along a poor
/// seam are no pair: classic 100 photos at 120 px with `--missing 3 --extra 3`, seeds 10 and
/// 18, paired two of theirs at Δ 73 and 78 (confirmed median 27, 0.9 quantile about 80),
/// where extraneous pairs that were neighbours in their puzzle mate at Δ 4–24.
const PAIR_QUANTILE: f64 = 0.5;

/// Dissolves the unconfirmed clusters whose matings are worse than the confirmed ones, and
/// renumbers the remaining clusters and the placing sequence. Returns the pieces set loose.
pub fn dissolve_weak_clusters(shapes: &Shapes, g: &mut Growth) -> Vec<usize> {
    let clusters = g.clusters as usize;
    let mut confirmed = vec![false; clusters];
    for j in &g.junctions {
        confirmed[j.cluster as usize] = true;
    }
    let cluster_of = |g: &Growth, c: usize| {
        g.placed[shapes.chainlets[c].piece]
            .as_ref()
            .map(|p| p.cluster as usize)
    };
    // Seams of two straight chainlets (irregular cuts, see `straight`) fit closely whichever
    // straight sides they join: they would set the bar below what a shaped seam reaches.
    let mut good: Vec<f64> = (0..shapes.chainlets.len())
        .filter(|&c| cluster_of(g, c).is_some_and(|k| confirmed[k]))
        .filter_map(|c| g.mate_of[c])
        .filter(|&(o, _)| !shapes.chainlets[o].straight)
        .map(|(_, d)| d)
        .collect();
    if good.is_empty() {
        return Vec::new();
    }
    good.sort_by(f64::total_cmp);
    let quantile = |q: f64| good[((good.len() - 1) as f64 * q).round() as usize];
    let (limit, pair_limit) = (quantile(CONFIRMED_QUANTILE), quantile(PAIR_QUANTILE));
    let pairs: Vec<bool> = cluster_sizes(g).iter().map(|&n| n == 2).collect();
    let mut weak = vec![false; clusters];
    for c in 0..shapes.chainlets.len() {
        if let (Some(k), Some((_, d))) = (cluster_of(g, c), g.mate_of[c]) {
            let limit = if pairs[k] { pair_limit } else { limit };
            if !confirmed[k] && d > limit {
                weak[k] = true;
            }
        }
    }
    let mut loose = prune_weak_leaves(shapes, g, limit);
    // A cluster left with one piece (or none) is no cluster.
    let size = cluster_sizes(g);
    for k in 0..clusters {
        weak[k] |= size[k] < 2;
    }
    let mut renumber = vec![None; clusters];
    let mut next = 0;
    for k in 0..clusters {
        if !weak[k] {
            renumber[k] = Some(next);
            next += 1;
        }
    }
    for piece in 0..g.placed.len() {
        let Some(k) = g.placed[piece].as_ref().map(|p| p.cluster as usize) else {
            continue;
        };
        match renumber[k] {
            Some(n) => g.placed[piece].as_mut().expect("placed").cluster = n,
            None => {
                g.placed[piece] = None;
                loose.push(piece);
                for &c in &shapes.pieces[piece].chainlets {
                    g.mate_of[c] = None;
                }
            }
        }
    }
    g.junctions
        .retain_mut(|j| match renumber[j.cluster as usize] {
            Some(n) => {
                j.cluster = n;
                true
            }
            None => false,
        });
    g.clusters = next;
    let mut order: Vec<usize> = (0..g.placed.len())
        .filter(|&i| g.placed[i].is_some())
        .collect();
    order.sort_by_key(|&i| g.placed[i].as_ref().map(|p| p.sequence));
    for (k, &i) in order.iter().enumerate() {
        g.placed[i].as_mut().expect("placed").sequence = k as u32 + 1;
    }
    loose
}

/// Pieces hanging on one mating only (a leaf of the cluster) whose Δ is worse than `limit`, peeled
/// off repeatedly: a tail of pieces grown along single weak matings after the cluster's true growth
/// stopped. A piece that also closed a seam across a missed corner when it joined (`Placed::spans`,
/// see `spanning`) is not a leaf; that count is taken when it joins and not revised if the piece
/// across the seam is peeled later. A true piece of a grid or an irregular tessellation ends with
/// two or more mates once its neighbours are placed; a lone edge piece beside a hole keeps its
/// place if its one mating is as good as the confirmed ones.
fn prune_weak_leaves(shapes: &Shapes, g: &mut Growth, limit: f64) -> Vec<usize> {
    let mut loose = Vec::new();
    loop {
        let leaves: Vec<usize> = (0..g.placed.len())
            .filter(|&p| g.placed[p].is_some())
            .filter(|&p| {
                let mates: Vec<f64> = shapes.pieces[p]
                    .chainlets
                    .iter()
                    .filter_map(|&c| g.mate_of[c].map(|m| m.1))
                    .collect();
                // A piece that also closed a seam across a missed corner is held on two
                // sides, though only one is a recorded mate.
                let spans = g.placed[p].as_ref().map_or(0, |q| q.spans);
                mates.len() == 1 && mates[0] > limit && spans == 0
            })
            .collect();
        if leaves.is_empty() {
            return loose;
        }
        for p in leaves {
            g.unplace(shapes, p);
            loose.push(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assembly::geometry::{Pose, P2};
    use crate::assembly::grow::{ClosedJunction, Placed};

    /// Chainlet `k` of piece `p` is chainlet `3p + k`.
    fn shapes(pieces: usize) -> Shapes {
        Shapes::bare(pieces, 3)
    }

    fn place(g: &mut Growth, piece: usize, cluster: u32) {
        let sequence = g.placed.iter().flatten().count() as u32 + 1;
        g.placed[piece] = Some(Placed {
            pose: Pose::identity(),
            sequence,
            cluster,
            supports: 1,
            merit: 1.0,
            spans: 0,
        });
    }

    fn mate(g: &mut Growth, a: usize, b: usize, delta: f64) {
        g.mate_of[a] = Some((b, delta));
        g.mate_of[b] = Some((a, delta));
    }

    /// Cluster 0: a ring of pieces 0–9 (piece `p` mated to the next at Δ `delta(p)`) that
    /// closed a junction, and piece 10 hanging on one poor mating (Δ 40) to piece 0.
    fn ring_with_a_leaf(g: &mut Growth, delta: impl Fn(usize) -> f64) {
        for p in 0..=10 {
            place(g, p, 0);
        }
        for p in 0..10 {
            mate(g, 3 * p + 1, 3 * ((p + 1) % 10), delta(p));
        }
        mate(g, 3 * 10, 2, 40.0);
        g.junctions.push(ClosedJunction {
            cluster: 0,
            position: P2::origin(),
            merit: 0.5,
        });
    }

    #[test]
    fn weak_clusters_and_leaves_are_set_loose_and_clusters_renumbered() {
        let s = shapes(20);
        let mut g = Growth {
            placed: vec![None; 20],
            mate_of: vec![None; 60],
            clusters: 5,
            ..Growth::default()
        };
        // Cluster 0: a ring of ten pieces that closed a junction, and piece 10 hanging on one
        // poor mating (Δ 40 against 10-12).
        ring_with_a_leaf(&mut g, |p| 10.0 + (p % 3) as f64);
        // Cluster 1: two pieces on one weak mating and no junction; cluster 2: two pieces on
        // one mating as good as the confirmed ones.
        place(&mut g, 11, 1);
        place(&mut g, 12, 1);
        mate(&mut g, 3 * 11, 3 * 12, 50.0);
        place(&mut g, 13, 2);
        place(&mut g, 14, 2);
        mate(&mut g, 3 * 13, 3 * 14, 9.0);
        // Cluster 3: a pair on one mating within the confirmed 0.9 quantile (12) but worse
        // than their median (11): one seam is all a pair has, so it must reach the median.
        // Cluster 4: three pieces on two such matings stay.
        place(&mut g, 15, 3);
        place(&mut g, 16, 3);
        mate(&mut g, 3 * 15, 3 * 16, 12.0);
        for p in 17..20 {
            place(&mut g, p, 4);
        }
        mate(&mut g, 3 * 17 + 1, 3 * 18, 12.0);
        mate(&mut g, 3 * 18 + 1, 3 * 19, 12.0);

        let mut loose = dissolve_weak_clusters(&s, &mut g);
        loose.sort_unstable();
        assert_eq!(loose, vec![10, 11, 12, 15, 16]);
        assert_eq!(g.clusters, 3);
        let cluster = |p: usize| g.placed[p].as_ref().map(|q| q.cluster);
        assert_eq!(
            [
                cluster(0),
                cluster(13),
                cluster(18),
                cluster(11),
                cluster(10),
                cluster(15)
            ],
            [Some(0), Some(1), Some(2), None, None, None]
        );
        let mut sequences: Vec<u32> = g.placed.iter().flatten().map(|p| p.sequence).collect();
        sequences.sort_unstable();
        assert_eq!(sequences, (1..=15).collect::<Vec<u32>>());
        assert!(g.mate_of[30].is_none() && g.mate_of[2].is_none() && g.mate_of[33].is_none());
    }

    /// A piece on one poor mating that also closed a seam across a missed corner when it
    /// joined is held on two sides: it stays (irregular 100 scans seed 1: 98.3 → 100 %).
    #[test]
    fn a_leaf_that_closed_a_seam_across_a_missed_corner_stays() {
        let s = shapes(11);
        let mut g = Growth {
            placed: vec![None; 11],
            mate_of: vec![None; 33],
            clusters: 1,
            ..Growth::default()
        };
        ring_with_a_leaf(&mut g, |_| 10.0);
        g.placed[10].as_mut().expect("placed").spans = 1;
        assert!(dissolve_weak_clusters(&s, &mut g).is_empty());
        g.placed[10].as_mut().expect("placed").spans = 0;
        assert_eq!(dissolve_weak_clusters(&s, &mut g), vec![10]);
    }
}
