//! Pieces and parts held by no seam to the rest of their cluster, carried along when it
//! settles.
//!
//! The holes step places a piece by its shape alone and records no mate for it (nor does a
//! piece held only by seams across a missed corner have one), so the relaxation of
//! [`super::settle`] has nothing to move it by. When the relaxation moves its neighbours, it
//! stays where it was put: on irregular 100 scans seed 43 the three neighbours of a border
//! piece fitted into its notch moved 22–30 px as a crack closed elsewhere, and the piece was
//! left 28 px and 4° off them. So where such a piece touches its neighbours is measured
//! before the relaxation, and after it the piece is fitted rigidly to those same points of
//! its neighbours where they now lie. A small cluster the holes step fitted whole has seams,
//! but among its own pieces only: it is carried as one.

use super::geometry::{bounds, fit_rigid, Pose, P2};
use super::grow::Growth;
use super::seam_graph::SeamGraph;
use super::shapes::Shapes;

/// A point of a piece's outline touches a neighbour when it lies within this fraction of the
/// median piece size of the neighbour's outline: the holes step's fits leave seams of up to
/// about twice its tolerance (0.04 of a piece) open.
const CONTACT: f64 = 0.05;
/// Neighbours are looked for among the pieces whose centroids lie within this many median
/// piece sizes (an irregular cut's pieces reach 1.8 times the median area).
pub(super) const NEIGHBOURHOOD: f64 = 2.5;
/// Every this many points of the piece's own outline are tried for contact.
pub(super) const STRIDE: usize = 2;
/// A piece touching its neighbours along fewer points than this is left where it is.
pub(super) const MIN_CONTACTS: usize = 12;

/// Where a part held by no seam to the rest of its cluster touches its neighbours: its
/// pieces with their poses as measured, points of their outlines (cluster frame, as
/// measured), each with the neighbour and the neighbour's nearest point (in that one's
/// frame), and the part's motion fitted to those points as they lay when measured.
pub(super) struct Held {
    pieces: Vec<(usize, Pose)>,
    here: Vec<P2>,
    there: Vec<(usize, P2)>,
    fitted: Pose,
}

impl Held {
    /// Whether piece `m` is one of its pieces.
    pub(super) fn holds(&self, m: usize) -> bool {
        self.pieces.iter().any(|&(n, _)| n == m)
    }

    /// The neighbours' contact points where they lie now.
    fn placed(&self, g: &Growth) -> Option<Vec<P2>> {
        self.there
            .iter()
            .map(|(n, y)| g.placed[*n].as_ref().map(|p| p.pose * y))
            .collect()
    }
}

/// The contacts of every part of a cluster held by no seam to the rest of it (its seam graph's
/// parts but the largest, see [`SeamGraph::loose_parts`]), at the poses the pieces have now. A part
/// of one piece is a piece the holes step placed; of more, a small cluster it fitted into a
/// notch whole, whose pieces hold one another only (irregular 100 photos seed 43: a corner
/// pair fitted home was left 28 px off its neighbours as they moved).
pub(super) fn contacts(shapes: &Shapes, g: &Growth) -> Vec<Held> {
    let mut held = Vec::new();
    for cluster in 0..g.clusters {
        for part in SeamGraph::of_cluster(shapes, g, cluster).loose_parts() {
            let (mut here, mut there, mut touched) = (Vec::new(), Vec::new(), Vec::new());
            let mut pieces = Vec::new();
            for &m in &part {
                let Some(at) = g.placed[m].as_ref().map(|p| p.pose) else {
                    continue;
                };
                pieces.push((m, at));
                for (q, contact) in touching(shapes, g, m, STRIDE, NEIGHBOURHOOD) {
                    let Some((n, y)) = contact.filter(|(n, _)| part.binary_search(n).is_err())
                    else {
                        continue;
                    };
                    let Some(pose) = g.placed[n].as_ref().map(|q| q.pose) else {
                        continue;
                    };
                    here.push(at * q);
                    there.push((n, pose.inverse() * y));
                    touched.push(y);
                }
            }
            if here.len() >= MIN_CONTACTS {
                let fitted = fit_rigid(&here, &touched).0;
                held.push(Held {
                    pieces,
                    here,
                    there,
                    fitted,
                });
            }
        }
    }
    held
}

/// The blocks among `loose` (parts of several pieces held by no seam to the rest, measured
/// before the settling found `seams`) that `seams` join to the rest once at most, and that
/// `held` does not carry already: they are carried too. A block the holes step fitted whole
/// lies where its outline fits the rim all round; one seam at one end of it lets the
/// relaxation turn it about that seam (held-out irregular 100 photos seed 21 with three
/// missing and three extraneous pieces: a corner block of three fitted home within 3 px,
/// joined by one seam of its last piece, turned 12–29 px off). Two seams or more hold it
/// as well as its fit did, and more closely (irregular 100 photos seed 13 with missing and
/// extraneous pieces: a pair joined by four seams, carried instead, lay a pixel off and
/// its neighbour's place no longer took its piece).
pub(super) fn blocks_held_by_one_seam(
    shapes: &Shapes,
    loose: Vec<Held>,
    seams: &[(usize, usize, f64)],
    held: &[Held],
) -> Vec<Held> {
    let piece = |c: usize| shapes.chainlets[c].piece;
    let carried = |m: usize| held.iter().any(|h| h.holds(m));
    loose
        .into_iter()
        .filter(|h| h.pieces.len() > 1)
        .filter(|h| {
            let joins = seams
                .iter()
                .filter(|&&(a, b, _)| h.holds(piece(a)) != h.holds(piece(b)))
                .count();
            joins <= 1 && !h.pieces.iter().any(|&(m, _)| carried(m))
        })
        .collect()
}

/// Every `stride`-th point of piece `m`'s outline (in its own frame), each with the nearest
/// point of a neighbour's outline (the neighbour, and the point in the cluster frame) where
/// that lies within [`CONTACT`] of it: the neighbours are the pieces of its cluster whose
/// centroids lie within `neighbourhood` median piece sizes of its own. Empty if `m` is not
/// placed.
pub(super) fn touching(
    shapes: &Shapes,
    g: &Growth,
    m: usize,
    stride: usize,
    neighbourhood: f64,
) -> Vec<(P2, Option<(usize, P2)>)> {
    let Some(p) = &g.placed[m] else {
        return Vec::new();
    };
    let reach = CONTACT * shapes.median_size;
    let near = neighbourhood * shapes.median_size;
    let centre = p.pose * shapes.pieces[m].centroid;
    // Each neighbour's outline with its bounds grown by the contact distance: a point outside
    // them touches none of it (most points touch one neighbour or none, and the settling
    // asks this of every piece held by one seam at every round).
    let neighbours: Vec<(usize, Vec<P2>, [f64; 4])> = g
        .placed
        .iter()
        .enumerate()
        .filter(|&(n, _)| n != m)
        .filter_map(|(n, q)| {
            let q = q.as_ref().filter(|q| q.cluster == p.cluster)?;
            let c = q.pose * shapes.pieces[n].centroid;
            if (c - centre).norm() >= near {
                return None;
            }
            let outline: Vec<P2> = shapes.pieces[n]
                .outline
                .iter()
                .map(|y| q.pose * y)
                .collect();
            let [x0, y0, x1, y1] = bounds(&outline);
            Some((n, outline, [x0 - reach, y0 - reach, x1 + reach, y1 + reach]))
        })
        .collect();
    shapes.pieces[m]
        .outline
        .iter()
        .step_by(stride)
        .map(|q| {
            let x = p.pose * q;
            let nearest = neighbours
                .iter()
                .filter(|(_, _, [x0, y0, x1, y1])| {
                    (*x0..=*x1).contains(&x.x) && (*y0..=*y1).contains(&x.y)
                })
                .flat_map(|(n, o, _)| o.iter().map(move |y| (*n, y)))
                .map(|(n, y)| ((y - x).norm(), n, *y))
                .min_by(|a, b| a.0.total_cmp(&b.0));
            (*q, nearest.filter(|c| c.0 <= reach).map(|(_, n, y)| (n, y)))
        })
        .collect()
}

/// Moves each held part as its contacts moved: by the rigid motion from its points fitted to
/// them as measured to the one fitted to them now (so that a part whose neighbours stayed
/// does not move at all), from the poses its pieces had when measured (the relaxation may
/// have refitted the pieces of a part to one another).
pub(super) fn carry(g: &mut Growth, held: &[Held]) {
    for h in held {
        let Some(to) = h.placed(g) else { continue };
        let motion = fit_rigid(&h.here, &to).0 * h.fitted.inverse();
        for &(m, at) in &h.pieces {
            if let Some(p) = g.placed[m].as_mut() {
                p.pose = motion * at;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assembly::grow::Placed;
    use nalgebra::{Isometry2, Vector2};

    /// `n` 40 px cells in a row, cut at x = 0, 40, …, each with `each` chainlets.
    fn cells(n: usize, each: usize) -> Shapes {
        let mut shapes = Shapes::bare(n, each);
        shapes.median_size = 40.0;
        for (k, piece) in shapes.pieces.iter_mut().enumerate() {
            piece.set_square(40.0 * k as f64, 0.0, 40.0);
        }
        shapes
    }

    /// Three cells in a row, each with one chainlet, placed as cut (the middle one
    /// `shifted`); the outer two mate each other, so the middle one is held by no seam.
    fn row(shifted: Pose) -> (Shapes, Growth) {
        let g = Growth {
            placed: vec![
                Some(Placed::as_cut(0, Pose::identity())),
                Some(Placed::as_cut(1, shifted)),
                Some(Placed::as_cut(2, Pose::identity())),
            ],
            mate_of: vec![Some((2, 1.0)), None, Some((0, 1.0))],
            clusters: 1,
            ..Growth::default()
        };
        (cells(3, 1), g)
    }

    /// Five cells in a row placed as cut, each with two chainlets (left, right side): the
    /// first three mated along the row, the last two to each other only.
    fn row_with_a_pair() -> (Shapes, Growth) {
        let mut mate_of = vec![None; 10];
        for k in [0, 1, 3] {
            mate_of[2 * k + 1] = Some((2 * k + 2, 1.0));
            mate_of[2 * k + 2] = Some((2 * k + 1, 1.0));
        }
        let g = Growth {
            placed: (0..5)
                .map(|k| Some(Placed::as_cut(k, Pose::identity())))
                .collect(),
            mate_of,
            clusters: 1,
            ..Growth::default()
        };
        (cells(5, 2), g)
    }

    #[test]
    fn a_piece_held_by_no_seam_moves_as_its_neighbours_do() {
        let (shapes, mut g) = row(Pose::identity());
        let held = contacts(&shapes, &g);
        assert_eq!(held.len(), 1, "only the middle piece has no seam");
        assert_eq!(held[0].pieces.len(), 1);
        assert_eq!(held[0].pieces[0].0, 1);
        let motion = Isometry2::new(Vector2::new(7.0, -4.0), 0.05);
        for k in [0, 2] {
            g.placed[k].as_mut().unwrap().pose = motion;
        }
        carry(&mut g, &held);
        let pose = g.placed[1].as_ref().unwrap().pose;
        let q = P2::new(60.0, 20.0);
        assert!(((pose * q) - (motion * q)).norm() < 1e-6, "{pose:?}");
    }

    #[test]
    fn a_piece_whose_neighbours_stay_stays_where_it_was_put() {
        // Set 1.5 px off its neighbours' seams: the contacts pull unevenly, but as long as
        // nothing moves the piece is not refitted to them.
        let put = Isometry2::new(Vector2::new(1.5, 0.5), 0.01);
        let (shapes, mut g) = row(put);
        let held = contacts(&shapes, &g);
        assert_eq!(held.len(), 1);
        carry(&mut g, &held);
        let pose = g.placed[1].as_ref().unwrap().pose;
        let q = P2::new(60.0, 20.0);
        assert!(((pose * q) - (put * q)).norm() < 1e-6, "{pose:?}");
    }

    /// A pair held by its own seam only moves with its neighbours too, as one (irregular 100
    /// photos seed 43: a corner pair fitted home whole was left behind by the relaxation).
    #[test]
    fn a_part_held_by_no_seam_to_the_rest_moves_as_its_neighbours_do() {
        let (shapes, mut g) = row_with_a_pair();
        let held = contacts(&shapes, &g);
        assert_eq!(
            held.len(),
            1,
            "only the pair is held by no seam to the rest"
        );
        let pair: Vec<usize> = held[0].pieces.iter().map(|&(m, _)| m).collect();
        assert_eq!(pair, [3, 4]);
        let motion = Isometry2::new(Vector2::new(7.0, -4.0), 0.05);
        for k in 0..3 {
            g.placed[k].as_mut().unwrap().pose = motion;
        }
        // The relaxation refits the pair's pieces to one another: each is set from where it
        // was measured.
        g.placed[4].as_mut().unwrap().pose = Isometry2::translation(1.0, 0.0);
        carry(&mut g, &held);
        for k in [3, 4] {
            let pose = g.placed[k].as_ref().unwrap().pose;
            let q = P2::new(40.0 * k as f64 + 20.0, 20.0);
            assert!(((pose * q) - (motion * q)).norm() < 1e-6, "{k}: {pose:?}");
        }
    }

    /// A pair held by its own seam only is carried though the settling joins it to the rest
    /// by one seam (chainlet 5, piece 2's right side, to chainlet 6, piece 3's left): one
    /// seam at one end lets the relaxation turn it. Joined by two, it is relaxed by its seams.
    #[test]
    fn a_block_joined_to_the_rest_by_one_seam_is_still_carried() {
        let (shapes, g) = row_with_a_pair();
        let loose = || contacts(&shapes, &g);
        let one = blocks_held_by_one_seam(&shapes, loose(), &[(5, 6, 10.0)], &[]);
        assert_eq!(one.len(), 1);
        let pair: Vec<usize> = one[0].pieces.iter().map(|&(m, _)| m).collect();
        assert_eq!(pair, [3, 4]);
        // A seam within the pair does not join it to the rest.
        let inside = blocks_held_by_one_seam(&shapes, loose(), &[(5, 6, 10.0), (7, 8, 3.0)], &[]);
        assert_eq!(inside.len(), 1);
        let two = blocks_held_by_one_seam(&shapes, loose(), &[(5, 6, 10.0), (9, 0, 12.0)], &[]);
        assert!(two.is_empty());
        // Nor is a part carried twice.
        let carried_already = loose();
        assert!(blocks_held_by_one_seam(&shapes, loose(), &[], &carried_already).is_empty());
    }
}
