//! Left-out pieces that mate one another. A closed hole of two or three pieces takes none of
//! them alone: each fits only part of it, held by two sides at best, and a part fit cuts into
//! the cluster or strays off the rim by a little more than it may (irregular 100 photos seed
//! 72: pieces 94 and 98 leave a hole of 30,000 px², their best part fits 8.0–8.3 % in where
//! 8 % is allowed). But the pieces of such a hole mate one another, each chainlet's best
//! mating the other's (seed 72: 94.4 and 98.2 at 0.17 of a good seam; seed 78: 33, 99 and 90
//! by two such matings): joined by those matings they are one item of the hole's own shape,
//! fitted whole like a cluster that growth left apart, under the same tests.

use super::super::geometry::Pose;
use super::super::grow::{Growth, Placed};
use super::super::grower::SHORT_MATING;
use super::super::matings::{Mating, MatingTable};
use super::super::merge::renumber_after;
use super::super::shapes::Shapes;
use super::items::MAX_MEMBERS_ALONE;
use super::{cluster_sizes, fill_holes, has_outline, largest_cluster, FitCache};

/// Left-out pieces in a group at most: a closed hole of more is rare, and a chain of best
/// matings that long carries their small errors to its ends.
const MAX_LOOSE: usize = 4;

/// Joins the left-out pieces of `g` that mate one another (see the module's doc), and with
/// them a small cluster that growth left apart if one mates them so, and fills the holes
/// with each such group in turn; a group is kept only if the largest cluster then holds more
/// pieces. Returns how many it gained.
pub(crate) fn fill_with_loose_groups(
    shapes: &Shapes,
    table: &MatingTable,
    g: &mut Growth,
    cache: &FitCache,
) -> usize {
    if !table.colours.knows_colours() {
        return 0;
    }
    let mut gained = 0;
    // A group kept changes the clusters (and their numbers): the groups are found again, and
    // those tried are not tried again.
    let mut tried: Vec<Vec<usize>> = Vec::new();
    'found: loop {
        for group in loose_groups(shapes, table, g) {
            let mut pieces: Vec<usize> = group.iter().map(|m| m.piece).collect();
            pieces.sort_unstable();
            if tried.contains(&pieces) {
                continue;
            }
            tried.push(pieces);
            let Some(host) = largest_cluster(g) else {
                break 'found;
            };
            let before = cluster_sizes(g)[host as usize];
            let mut trial = g.clone();
            form(&mut trial, &group);
            fill_holes(shapes, &table.colours, &mut trial, cache);
            let loose: Vec<usize> = group
                .iter()
                .filter(|m| m.cluster.is_none())
                .map(|m| m.piece)
                .collect();
            take_apart(shapes, &mut trial, &loose);
            trial.loose = g
                .loose
                .iter()
                .copied()
                .filter(|&i| trial.placed[i].is_none())
                .collect();
            let after = largest_cluster(&trial).map_or(0, |c| cluster_sizes(&trial)[c as usize]);
            if after > before {
                *g = trial;
                gained += after - before;
                continue 'found;
            }
        }
        break;
    }
    gained
}

/// One piece of a group.
#[derive(Clone, Copy, Debug)]
struct Member {
    piece: usize,
    /// In the group's frame: the first piece's source pixels.
    pose: Pose,
    /// The chainlet and mating that join it to a piece before it; none for the first piece
    /// and for those of the cluster it brings.
    joint: Option<(usize, Mating)>,
    /// The cluster apart that it belongs to, if any.
    cluster: Option<u32>,
}

/// The groups of left-out pieces joined by mutual best matings, each of up to [`MAX_LOOSE`]
/// of them and, if one of them mates a piece of a small cluster apart so, that whole
/// cluster, with 2 pieces at least; the poses taken along a spanning tree of the matings.
fn loose_groups(shapes: &Shapes, table: &MatingTable, g: &Growth) -> Vec<Vec<Member>> {
    let Some(host) = largest_cluster(g) else {
        return Vec::new();
    };
    let sizes = cluster_sizes(g);
    let left = |i: usize| g.placed[i].is_none() && has_outline(shapes, i);
    // The small cluster apart piece `i` belongs to, if any (see `Items::MembersAlone`).
    let apart = |i: usize| {
        g.placed[i]
            .as_ref()
            .map(|p| p.cluster)
            .filter(|&c| c != host && sizes[c as usize] <= MAX_MEMBERS_ALONE)
    };
    let best = |a: usize| {
        table
            .all_of(a)
            .min_by(|x, y| x.delta.total_cmp(&y.delta))
            .filter(|m| m.delta <= table.good_seam())
    };
    // Along a short chainlet, nearly flat, a best mating says little (see `SHORT_MATING`):
    // irregular 100 photos seed 39's two left-out pieces mate best along 23 px of nearly
    // straight cut, and are no neighbours.
    let long = |c: usize| shapes.chainlets[c].length >= SHORT_MATING * shapes.median_size;
    // Chainlet `a`'s best mating, if it is with a piece of another that may join a group and
    // that chainlet's best is `a`, both long enough.
    let mutual = |a: usize| {
        let m = best(a)?;
        let piece = shapes.chainlets[m.b].piece;
        (long(a)
            && long(m.b)
            && piece != shapes.chainlets[a].piece
            && (left(piece) || apart(piece).is_some())
            && best(m.b).is_some_and(|back| back.b == a))
        .then_some(*m)
    };
    let mut grouped = vec![false; shapes.pieces.len()];
    let mut groups = Vec::new();
    for root in (0..shapes.pieces.len()).filter(|&i| left(i)) {
        if grouped[root] {
            continue;
        }
        grouped[root] = true;
        let mut group = vec![Member {
            piece: root,
            pose: Pose::identity(),
            joint: None,
            cluster: None,
        }];
        let mut next = 0;
        while next < group.len() {
            let Member { piece: i, pose, .. } = group[next];
            next += 1;
            for &a in &shapes.pieces[i].chainlets {
                let Some(m) = mutual(a) else { continue };
                let j = shapes.chainlets[m.b].piece;
                if grouped[j] {
                    continue;
                }
                let at = pose * m.pose;
                match apart(j) {
                    None => {
                        let loose = group.iter().filter(|m| m.cluster.is_none()).count();
                        if loose < MAX_LOOSE {
                            grouped[j] = true;
                            group.push(Member {
                                piece: j,
                                pose: at,
                                joint: Some((a, m)),
                                cluster: None,
                            });
                        }
                    }
                    // One cluster a group at most, all of it, at the pose the mating gives.
                    Some(c) if !group.iter().any(|m| m.cluster.is_some()) => {
                        let own = g.placed[j].as_ref().expect("placed").pose;
                        let to_group = at * own.inverse();
                        for (k, p) in g.placed.iter().enumerate() {
                            let Some(p) = p.as_ref().filter(|p| p.cluster == c) else {
                                continue;
                            };
                            grouped[k] = true;
                            group.push(Member {
                                piece: k,
                                pose: to_group * p.pose,
                                joint: (k == j).then_some((a, m)),
                                cluster: Some(c),
                            });
                        }
                    }
                    Some(_) => {}
                }
            }
        }
        if group.len() >= 2 {
            groups.push(group);
        }
    }
    groups
}

/// Places `group` in `g` as one cluster, its joining seams mated: the cluster apart that it
/// brings, if any, its left-out pieces moved into that cluster's frame; else a cluster of
/// its own.
fn form(g: &mut Growth, group: &[Member]) {
    let brought = group.iter().find_map(|m| m.cluster.map(|c| (c, m)));
    let (cluster, to_cluster) = match brought {
        Some((c, m)) => {
            let own = g.placed[m.piece].as_ref().expect("placed").pose;
            (c, own * m.pose.inverse())
        }
        None => {
            g.clusters += 1;
            (g.clusters - 1, Pose::identity())
        }
    };
    let mut sequence = g.placed.iter().flatten().map(|p| p.sequence).max();
    for m in group.iter().filter(|m| m.cluster.is_none()) {
        let next = sequence.map_or(1, |s| s + 1);
        sequence = Some(next);
        g.placed[m.piece] = Some(Placed {
            pose: to_cluster * m.pose,
            sequence: next,
            cluster,
            supports: 1,
            merit: 1.0,
            spans: 0,
        });
        g.loose.retain(|&l| l != m.piece);
    }
    for (a, m) in group.iter().filter_map(|m| m.joint) {
        g.mate_of[a] = Some((m.b, m.delta));
        g.mate_of[m.b] = Some((a, m.delta));
    }
}

/// Takes apart every cluster other than the largest that holds only pieces of `grouped`: a
/// group, or what is left of one, that fitted nowhere goes back to being left out, its seams
/// unmated.
fn take_apart(shapes: &Shapes, g: &mut Growth, grouped: &[usize]) {
    let only_grouped = |g: &Growth, c: u32| {
        let mut members = (0..g.placed.len())
            .filter(|&i| g.placed[i].as_ref().is_some_and(|p| p.cluster == c))
            .peekable();
        members.peek().is_some() && members.all(|i| grouped.contains(&i))
    };
    while let Some(c) =
        (0..g.clusters).find(|&c| Some(c) != largest_cluster(g) && only_grouped(g, c))
    {
        for i in 0..g.placed.len() {
            if g.placed[i].as_ref().is_some_and(|p| p.cluster == c) {
                g.unplace(shapes, i);
            }
        }
        renumber_after(g, c);
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::geometry::P2;
    use super::*;
    use nalgebra::Vector2;

    /// A mating of chainlet `b` at Δ `delta`, implying a shift by `dx`.
    fn mating(b: usize, delta: f64, dx: f64) -> Mating {
        Mating {
            b,
            delta,
            pose: Pose::new(Vector2::new(dx, 0.0), 0.0),
        }
    }

    /// Six pieces of four chainlets (piece `p`'s chainlet `k` is `4p + k`); pieces 0, 1 and
    /// 5 placed, the largest cluster, and 2, 3 and 4 left out. Good seams are Δ 4 or less.
    fn six_pieces(matings: &[(usize, Mating)]) -> (Shapes, MatingTable, Growth) {
        let mut shapes = Shapes::bare(6, 4);
        // Outlines enough to be fitted (see `has_outline`).
        for piece in &mut shapes.pieces {
            piece.outline = (0..8).map(|k| P2::new(k as f64, 0.0)).collect();
        }
        let mut per_chainlet = vec![Vec::new(); 24];
        for &(a, m) in matings {
            per_chainlet[a].push(m);
        }
        let table = MatingTable::bare(per_chainlet, 16.0, 1.0);
        let mut g = Growth {
            placed: vec![None; 6],
            mate_of: vec![None; 24],
            clusters: 1,
            ..Growth::default()
        };
        for i in [0, 1, 5] {
            g.placed[i] = Some(Placed {
                pose: Pose::identity(),
                sequence: i as u32 + 1,
                cluster: 0,
                supports: 1,
                merit: 1.0,
                spans: 0,
            });
        }
        (shapes, table, g)
    }

    /// Pieces 2, 3, 4 chained by mutual best matings (2.1–3.1 and 3.2–4.1) are one group, the
    /// poses composed along the chain; a mating that is not both chainlets' best, or not a
    /// good seam, joins nothing.
    #[test]
    fn left_out_pieces_whose_best_matings_are_mutual_form_one_group() {
        let (shapes, table, g) = six_pieces(&[
            (8, mating(12, 1.0, 100.0)),
            (12, mating(8, 1.0, -100.0)),
            (13, mating(16, 2.0, 50.0)),
            (16, mating(13, 2.0, -50.0)),
            // 2.2's best is 4.2, but 4.2's best is a placed piece's chainlet.
            (9, mating(17, 1.0, 0.0)),
            (17, mating(0, 0.5, 0.0)),
            (17, mating(9, 1.0, 0.0)),
        ]);
        let groups = loose_groups(&shapes, &table, &g);
        assert_eq!(groups.len(), 1);
        let pieces: Vec<usize> = groups[0].iter().map(|m| m.piece).collect();
        assert_eq!(pieces, vec![2, 3, 4]);
        let x = |k: usize| groups[0][k].pose.translation.vector.x;
        assert_eq!((x(0), x(1), x(2)), (0.0, 100.0, 150.0));
        // The same chain over a good seam's Δ: nothing.
        let (shapes, table, g) =
            six_pieces(&[(8, mating(12, 5.0, 100.0)), (12, mating(8, 5.0, -100.0))]);
        assert!(loose_groups(&shapes, &table, &g).is_empty());
    }

    /// A group formed is a cluster of its own with its seam mated; taken apart, the growth is
    /// as it was.
    #[test]
    fn a_group_that_fits_nowhere_is_taken_apart_again() {
        let (shapes, table, g) =
            six_pieces(&[(8, mating(12, 1.0, 100.0)), (12, mating(8, 1.0, -100.0))]);
        let groups = loose_groups(&shapes, &table, &g);
        let mut trial = g.clone();
        form(&mut trial, &groups[0]);
        assert_eq!(trial.clusters, 2);
        assert_eq!(trial.placed[3].as_ref().map(|p| p.cluster), Some(1));
        assert_eq!(trial.mate_of[8].map(|m| m.0), Some(12));
        assert_eq!(trial.mate_of[12].map(|m| m.0), Some(8));
        take_apart(&shapes, &mut trial, &[2, 3]);
        assert_eq!(trial.clusters, 1);
        assert!(trial.placed[2].is_none() && trial.placed[3].is_none());
        assert!(trial.placed[0].is_some() && trial.placed[1].is_some());
        assert!(trial.mate_of.iter().all(Option::is_none));
    }

    /// A left-out piece whose best mating, mutual, is with a piece of a small cluster apart
    /// brings that whole cluster into its group, at the pose the mating gives; formed, the
    /// piece joins that cluster in its frame.
    #[test]
    fn a_small_cluster_apart_joins_the_group_of_a_piece_it_mates() {
        let (shapes, table, mut g) =
            six_pieces(&[(8, mating(12, 1.0, 100.0)), (12, mating(8, 1.0, -100.0))]);
        // Pieces 3 and 4 a cluster apart, turned and elsewhere.
        let apart = Pose::new(Vector2::new(500.0, 0.0), 1.0);
        for (i, dx) in [(3, 0.0), (4, 100.0)] {
            g.placed[i] = Some(Placed {
                pose: apart * Pose::new(Vector2::new(dx, 0.0), 0.0),
                cluster: 1,
                ..g.placed[0].clone().unwrap()
            });
        }
        g.clusters = 2;
        let groups = loose_groups(&shapes, &table, &g);
        assert_eq!(groups.len(), 1);
        let pieces: Vec<usize> = groups[0].iter().map(|m| m.piece).collect();
        assert_eq!(pieces, vec![2, 3, 4]);
        let x = |k: usize| groups[0][k].pose.translation.vector.x;
        assert!((x(1) - 100.0).abs() < 1e-9 && (x(2) - 200.0).abs() < 1e-9);
        form(&mut g, &groups[0]);
        assert_eq!(g.clusters, 2);
        let p = g.placed[2].as_ref().unwrap();
        assert_eq!(p.cluster, 1);
        // Piece 2 lies 100 px before piece 3 in the cluster's frame.
        let want = apart * Pose::new(Vector2::new(-100.0, 0.0), 0.0);
        assert!((p.pose.translation.vector - want.translation.vector).norm() < 1e-9);
        assert!((p.pose.rotation.angle() - 1.0).abs() < 1e-9);
    }
}
