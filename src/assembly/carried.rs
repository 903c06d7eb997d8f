//! Pieces held by no seam, carried along when their cluster settles.
//!
//! The holes step places a piece by its shape alone and records no mate for it (nor does a
//! piece held only by seams across a missed corner have one), so the relaxation of
//! [`super::settle`] has nothing to move it by. When the relaxation moves its neighbours, it
//! stays where it was put: on irregular 100 scans seed 43 the three neighbours of a border
//! piece fitted into its notch moved 22–30 px as a crack closed elsewhere, and the piece was
//! left 28 px and 4° off them. So where such a piece touches its neighbours is measured
//! before the relaxation, and after it the piece is fitted rigidly to those same points of
//! its neighbours where they now lie.

use super::geometry::{fit_rigid, Pose, P2};
use super::grow::Growth;
use super::shapes::Shapes;

/// A point of a piece's outline touches a neighbour when it lies within this fraction of the
/// median piece size of the neighbour's outline: the holes step's fits leave seams of up to
/// about twice its tolerance (0.04 of a piece) open.
const CONTACT: f64 = 0.05;
/// Neighbours are looked for among the pieces whose centroids lie within this many median
/// piece sizes (an irregular cut's pieces reach 1.8 times the median area).
const NEIGHBOURHOOD: f64 = 2.5;
/// Every this many points of the piece's own outline are tried for contact.
const STRIDE: usize = 2;
/// A piece touching its neighbours along fewer points than this is left where it is.
const MIN_CONTACTS: usize = 12;

/// Where a piece held by no seam touches its neighbours: points of its outline (in its own
/// frame), each with the neighbour and the neighbour's nearest point (in that one's frame),
/// and the piece's pose fitted to those points as they lay when measured.
pub(super) struct Held {
    piece: usize,
    here: Vec<P2>,
    there: Vec<(usize, P2)>,
    fitted: Pose,
}

impl Held {
    /// The neighbours' contact points where they lie now.
    fn placed(&self, g: &Growth) -> Option<Vec<P2>> {
        self.there
            .iter()
            .map(|(n, y)| g.placed[*n].as_ref().map(|p| p.pose * y))
            .collect()
    }
}

/// The contacts of every placed piece held by no seam to a piece of its cluster, at the poses
/// the pieces have now.
pub(super) fn contacts(shapes: &Shapes, g: &Growth) -> Vec<Held> {
    let mut held = Vec::new();
    for m in 0..g.placed.len() {
        if g.placed[m].is_none() || has_seam(shapes, g, m) {
            continue;
        }
        let (mut here, mut there, mut touched) = (Vec::new(), Vec::new(), Vec::new());
        for (q, contact) in touching(shapes, g, m, STRIDE, NEIGHBOURHOOD) {
            let Some((n, y)) = contact else { continue };
            let Some(pose) = g.placed[n].as_ref().map(|q| q.pose) else {
                continue;
            };
            here.push(q);
            there.push((n, pose.inverse() * y));
            touched.push(y);
        }
        if here.len() >= MIN_CONTACTS {
            let fitted = fit_rigid(&here, &touched).0;
            held.push(Held {
                piece: m,
                here,
                there,
                fitted,
            });
        }
    }
    held
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
    let neighbours: Vec<(usize, Vec<P2>)> = g
        .placed
        .iter()
        .enumerate()
        .filter(|&(n, _)| n != m)
        .filter_map(|(n, q)| {
            let q = q.as_ref().filter(|q| q.cluster == p.cluster)?;
            let c = q.pose * shapes.pieces[n].centroid;
            let outline = shapes.pieces[n].outline.iter().map(|y| q.pose * y);
            ((c - centre).norm() < near).then(|| (n, outline.collect()))
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
                .flat_map(|(n, o)| o.iter().map(move |y| (*n, y)))
                .map(|(n, y)| ((y - x).norm(), n, *y))
                .min_by(|a, b| a.0.total_cmp(&b.0));
            (*q, nearest.filter(|c| c.0 <= reach).map(|(_, n, y)| (n, y)))
        })
        .collect()
}

/// Moves each held piece as its contacts moved: by the rigid motion from its pose fitted to
/// them as measured to the one fitted to them now (so that a piece whose neighbours stayed
/// does not move at all).
pub(super) fn carry(g: &mut Growth, held: &[Held]) {
    for h in held {
        let Some(to) = h.placed(g) else { continue };
        let motion = fit_rigid(&h.here, &to).0 * h.fitted.inverse();
        if let Some(p) = g.placed[h.piece].as_mut() {
            p.pose = motion * p.pose;
        }
    }
}

/// Whether a chainlet of piece `m` has a mate placed in `m`'s cluster.
fn has_seam(shapes: &Shapes, g: &Growth, m: usize) -> bool {
    let cluster = g.placed[m].as_ref().map(|p| p.cluster);
    shapes.pieces[m].chainlets.iter().any(|&a| {
        g.mate_of[a].is_some_and(|(b, _)| {
            g.placed[shapes.chainlets[b].piece]
                .as_ref()
                .map(|p| p.cluster)
                == cluster
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assembly::grow::Placed;
    use nalgebra::{Isometry2, Vector2};

    /// Three 40 px cells in a row, each with one chainlet, placed as cut (the middle one
    /// `shifted`); the outer two mate each other, so the middle one is held by no seam.
    fn row(shifted: Pose) -> (Shapes, Growth) {
        let mut shapes = Shapes::bare(3, 1);
        shapes.median_size = 40.0;
        for (k, piece) in shapes.pieces.iter_mut().enumerate() {
            let x0 = 40.0 * k as f64;
            let corners = [(0.0, 0.0), (40.0, 0.0), (40.0, 40.0), (0.0, 40.0)];
            piece.outline = (0..4)
                .flat_map(|c| {
                    let (a, b) = (corners[c], corners[(c + 1) % 4]);
                    (0..40).map(move |t| {
                        let t = t as f64 / 40.0;
                        P2::new(x0 + a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
                    })
                })
                .collect();
            piece.centroid = P2::new(x0 + 20.0, 20.0);
        }
        let placed = |k: usize, pose: Pose| Placed {
            pose,
            sequence: k as u32 + 1,
            cluster: 0,
            supports: 2,
            merit: 0.5,
            spans: 0,
        };
        let g = Growth {
            placed: vec![
                Some(placed(0, Pose::identity())),
                Some(placed(1, shifted)),
                Some(placed(2, Pose::identity())),
            ],
            mate_of: vec![Some((2, 1.0)), None, Some((0, 1.0))],
            clusters: 1,
            ..Growth::default()
        };
        (shapes, g)
    }

    #[test]
    fn a_piece_held_by_no_seam_moves_as_its_neighbours_do() {
        let (shapes, mut g) = row(Pose::identity());
        let held = contacts(&shapes, &g);
        assert_eq!(held.len(), 1, "only the middle piece has no seam");
        assert_eq!(held[0].piece, 1);
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
}
