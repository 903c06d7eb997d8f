//! Seams across a missed corner. Where three pieces of an irregular cut meet, one of them
//! may turn there by only 10–20°: the corner detector misses it (more often on photographs,
//! whose blur rounds every corner), and that piece's two sides at the junction are one
//! chainlet. Its neighbours' chainlets then end half way along it, no chainlet pair "lies
//! along" the other end to end, and the closure test saw no seam there, so a piece that
//! closes a junction in truth looked held by one mating (or by a straight mating alone, which
//! growth never takes). Freeman & Garder's Type II–VI matings are this case seen from the
//! mating table; here it is seen at a proposed pose: a chainlet of one side whose two ends
//! meet chainlet ends of the other side (different chainlets, so not a plain pair) and whose
//! whole length lies along the other side's open outline is a seam. It counts towards the
//! junction closure but is not recorded as a mate: its points have no arc-length partner on
//! one chainlet, so it must not steer the joint fit or the relaxation.
//!
//! Only in puzzles with interior straight sides (an irregular cut, see `straight`): the
//! four-sided model finds every corner of a classic piece, and those sets stay as they were.

use super::closure::Closed;
use super::geometry::{Pose, P2};
use super::grow::Growth;
use super::shapes::Shapes;

/// One side of a proposed seam: open chainlets with their ends and dense points in the
/// cluster frame.
struct Side {
    chainlets: Vec<(usize, P2, P2)>,
    dense: Vec<(usize, P2)>,
}

impl Side {
    fn new(shapes: &Shapes, chainlets: impl Iterator<Item = (usize, Pose)>) -> Side {
        let mut side = Side {
            chainlets: Vec::new(),
            dense: Vec::new(),
        };
        for (c, pose) in chainlets {
            let ch = &shapes.chainlets[c];
            let ends = (pose * ch.points[0], pose * ch.points[ch.points.len() - 1]);
            side.chainlets.push((c, ends.0, ends.1));
            side.dense.extend(ch.dense.iter().map(|p| (c, pose * p)));
        }
        side
    }

    /// The chainlet ending (`at_end`) or starting at `p`, within `tol`.
    fn end_at(&self, p: &P2, at_end: bool, tol: f64) -> Option<usize> {
        self.chainlets
            .iter()
            .filter(|(_, s, e)| (if at_end { e } else { s } - p).norm() <= tol)
            .min_by(|x, y| {
                let d = |c: &(usize, P2, P2)| (if at_end { c.2 } else { c.1 } - p).norm();
                d(x).total_cmp(&d(y))
            })
            .map(|c| c.0)
    }

    /// The nearest dense point's chainlet and squared distance.
    fn nearest(&self, p: &P2) -> (usize, f64) {
        self.dense
            .iter()
            .map(|(c, q)| (*c, (q - p).norm_squared()))
            .min_by(|x, y| x.1.total_cmp(&y.1))
            .unwrap_or((usize::MAX, f64::INFINITY))
    }
}

/// Seams `(cluster chainlet, piece chainlet, Δ)` across a missed corner with `piece` at
/// `pose`, besides the plain pairs `exact`; `near` are the members within reach. Δ is the sum
/// of squared distances from the spanning chainlet's samples to the other side's outline, on
/// the scale of the closure test's Δ, and must be within `limit`.
pub fn spanning_seams(
    shapes: &Shapes,
    g: &Growth,
    near: &[(usize, Pose)],
    piece: usize,
    pose: &Pose,
    exact: &Closed,
    (tol_end, limit): (f64, f64),
) -> Closed {
    let paired = |c: usize| exact.iter().any(|&(a, b, _)| a == c || b == c);
    let cluster = Side::new(
        shapes,
        near.iter().flat_map(|(m, q)| {
            shapes.pieces[*m]
                .chainlets
                .iter()
                .filter(|&&a| g.is_open(a))
                .map(move |&a| (a, *q))
        }),
    );
    let ours = Side::new(
        shapes,
        shapes.pieces[piece]
            .chainlets
            .iter()
            .filter(|&&b| g.is_open(b))
            .map(|&b| (b, *pose)),
    );
    let mut seams = Closed::new();
    // Mates run opposite ways: a chainlet's start meets the other side's end, and its end the
    // other side's start.
    for (this, other, cluster_side) in [(&cluster, &ours, true), (&ours, &cluster, false)] {
        for &(c, s, e) in &this.chainlets {
            if paired(c) {
                continue;
            }
            let (Some(x), Some(y)) = (
                other.end_at(&s, true, tol_end),
                other.end_at(&e, false, tol_end),
            ) else {
                continue;
            };
            if x == y {
                continue;
            }
            let ch = &shapes.chainlets[c];
            let from = if cluster_side {
                g.placed[ch.piece].as_ref().expect("member").pose
            } else {
                *pose
            };
            let mut delta = 0.0;
            for p in &ch.samples {
                delta += other.nearest(&(from * p)).1;
                if delta > limit {
                    break;
                }
            }
            if delta > limit {
                continue;
            }
            let mid = other.nearest(&(from * ch.samples[ch.samples.len() / 2])).0;
            seams.push(if cluster_side {
                (c, mid, delta)
            } else {
                (mid, c, delta)
            });
        }
    }
    seams
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assembly::geometry::resample;
    use crate::assembly::grow::Placed;
    use crate::assembly::shapes::{ChainletShape, PieceShape, DENSE_SAMPLES, SAMPLES};

    fn chainlet(piece: usize, k: usize, points: Vec<P2>) -> ChainletShape {
        ChainletShape {
            dense: resample(&points, DENSE_SAMPLES),
            samples: resample(&points, SAMPLES),
            points,
            ..ChainletShape::bare(piece, k, 100.0, false)
        }
    }

    fn line(from: [f64; 2], to: [f64; 2], bow: f64) -> Vec<P2> {
        (0..=100)
            .map(|i| {
                let t = f64::from(i) / 100.0;
                let bulge = bow * (t * std::f64::consts::PI).sin();
                P2::new(
                    from[0] + t * (to[0] - from[0]),
                    from[1] + t * (to[1] - from[1]) + bulge,
                )
            })
            .collect()
    }

    /// Members 0 and 1 placed side by side, their open chainlets 0 (from x = 0 to 50) and 1
    /// (50 to 100) meeting at a junction on y = 0; piece 2's single chainlet 2 runs back from
    /// x = 100 to 0, bowed by `bow`: its corner at the junction was missed.
    fn setup(bow: f64) -> (Shapes, Growth) {
        let mut s = Shapes {
            median_size: 100.0,
            ..Shapes::default()
        };
        for (p, c) in [(0, 0), (1, 1), (2, 2)] {
            s.pieces
                .push(PieceShape::bare(p as u32 + 1, String::new(), vec![c]));
        }
        s.chainlets
            .push(chainlet(0, 0, line([0.0, 0.0], [50.0, 0.0], 0.0)));
        s.chainlets
            .push(chainlet(1, 0, line([50.0, 0.0], [100.0, 0.0], 0.0)));
        s.chainlets
            .push(chainlet(2, 0, line([100.0, 0.0], [0.0, 0.0], bow)));
        let placed = |sequence| Placed {
            pose: Pose::identity(),
            sequence,
            cluster: 0,
            supports: 1,
            merit: 1.0,
            spans: 0,
        };
        let g = Growth {
            placed: vec![Some(placed(1)), Some(placed(2)), None],
            mate_of: vec![None; 3],
            ..Growth::default()
        };
        (s, g)
    }

    #[test]
    fn a_chainlet_across_a_missed_corner_is_a_seam() {
        let (s, g) = setup(0.0);
        let near = [(0, Pose::identity()), (1, Pose::identity())];
        let seams = spanning_seams(
            &s,
            &g,
            &near,
            2,
            &Pose::identity(),
            &Vec::new(),
            (5.0, 50.0),
        );
        assert_eq!(seams.len(), 1, "{seams:?}");
        assert_eq!(seams[0].1, 2);
        assert!(seams[0].2 < 1.0, "{seams:?}");
    }

    #[test]
    fn one_that_bows_away_or_is_already_paired_is_not() {
        let (s, g) = setup(4.0);
        let near = [(0, Pose::identity()), (1, Pose::identity())];
        let at = Pose::identity();
        assert!(spanning_seams(&s, &g, &near, 2, &at, &Vec::new(), (5.0, 50.0)).is_empty());
        let (s, g) = setup(0.0);
        let paired = vec![(0, 2, 1.0)];
        assert!(spanning_seams(&s, &g, &near, 2, &at, &paired, (5.0, 50.0)).is_empty());
        // Its ends far from any chainlet end of the cluster: no seam either.
        assert!(spanning_seams(&s, &g, &near[..1], 2, &at, &Vec::new(), (5.0, 50.0)).is_empty());
    }
}
