//! False corners, the converse of a Type II mating. On photographs of irregular cuts the
//! blur, the drop shadow and print the colour of the paper bend the outline by a pixel or two
//! over a short stretch, and the low corner floors of the junction-corner model take the bend
//! for a corner: one side of a seam is then two or three chainlets, its mate one, and no
//! chainlet pair runs between the same junctions (irregular 20 photos, seed 1: 21 false
//! corners, 13 of its 22 unmatched seams split so). Where a run of consecutive chainlets of
//! one piece, none of them mated, matches joined end to end a chainlet of another piece that
//! is not mated either, of the same length, well and unambiguously, the critical points
//! between them are false: they are removed and the joined chainlet mates in full.

use super::super::compare::{compare_refined, overlaps};
use super::super::geometry::P2;
use super::super::matings::Mating;
use super::super::shapes::{ChainletShape, Shapes};
use super::{Cut, ACCEPT_FACTOR, AMBIGUITY, MATED_FACTOR, OVERLAP_FRACTION};
use rayon::prelude::*;

/// Runs of up to this many chainlets are joined: a false corner or two on one seam.
const MAX_RUN: usize = 3;
/// A joined run and its mate differ in length by at most this fraction: both run between the
/// same two junctions.
const LENGTH_TOLERANCE: f64 = 0.12;

/// The critical points between the chainlets of each run that matches a chainlet of another
/// piece joined (see the module doc), as cuts to remove; `matings` are the mating table's
/// shaped matings (best first), `typical` its typical Δ. Runs are taken best Δ first; a
/// chainlet serves in one run only. A chainlet counts as mated if it and its best mate are
/// each other's best, within [`MATED_FACTOR`] typical Δ: on photographs a poor chainlet's
/// best mate is often as close as that but not mutual. Straight chainlets have no shaped
/// matings and always count as unmated: a straight mate fits many straight sides, and
/// counting mutual straight matings too was measured worse (irregular 20 photos seeds 1 and
/// 17: 64.9 → 56.8 % and 60.5 → 47.4 %; irregular 100 photos seeds 1–4: −0.2 points mean).
pub fn false_corners(shapes: &Shapes, matings: &[Vec<Mating>], typical: f64) -> Vec<Cut> {
    let good = MATED_FACTOR * typical;
    let best = |a: usize| matings[a].first().filter(|m| m.delta <= good);
    let mated: Vec<bool> = (0..shapes.chainlets.len())
        .map(|a| best(a).is_some_and(|m| best(m.b).is_some_and(|r| r.b == a)))
        .collect();
    let runs: Vec<Vec<usize>> = shapes
        .pieces
        .iter()
        .flat_map(|p| runs_of(shapes, &p.chainlets, &mated))
        .collect();
    let accept = ACCEPT_FACTOR * typical;
    let tol = OVERLAP_FRACTION * shapes.median_size;
    let mut found: Vec<(f64, &Vec<usize>, usize)> = runs
        .par_iter()
        .filter_map(|run| best_mate(shapes, &mated, run, accept, tol).map(|(d, b)| (d, run, b)))
        .collect();
    found.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut used = vec![false; shapes.chainlets.len()];
    let mut cuts = Vec::new();
    for (_, run, b) in found {
        if used[b] || run.iter().any(|&c| used[c]) {
            continue;
        }
        used[b] = true;
        for &c in run {
            used[c] = true;
        }
        cuts.extend(run[1..].iter().map(|&c| Cut {
            piece: shapes.chainlets[c].piece,
            index: shapes.chainlets[c].start,
        }));
    }
    cuts
}

/// Runs of 2..=[`MAX_RUN`] consecutive unmated chainlets of one piece (in outline order,
/// wrapping, each ending where the next starts).
fn runs_of(shapes: &Shapes, chainlets: &[usize], mated: &[bool]) -> Vec<Vec<usize>> {
    let k = chainlets.len();
    let mut runs = Vec::new();
    for i in 0..k {
        for len in 2..=MAX_RUN.min(k.saturating_sub(1)) {
            let run: Vec<usize> = (0..len).map(|j| chainlets[(i + j) % k]).collect();
            let joined = run.windows(2).all(|w| {
                let (a, b) = (&shapes.chainlets[w[0]], &shapes.chainlets[w[1]]);
                a.end == b.start
            });
            if !joined || run.iter().any(|&c| mated[c]) {
                break;
            }
            runs.push(run);
        }
    }
    runs
}

/// The run's chainlets as one chainlet.
fn joined(shapes: &Shapes, run: &[usize]) -> ChainletShape {
    let first = &shapes.chainlets[run[0]];
    let last = &shapes.chainlets[run[run.len() - 1]];
    let mut points: Vec<P2> = first.points.clone();
    for &c in &run[1..] {
        points.extend(shapes.chainlets[c].points.iter().skip(1));
    }
    // Features are not compared here (contours are): the run's are not computed.
    ChainletShape::from_points(
        first.piece,
        first.label.clone(),
        (first.start, last.end),
        points,
        Default::default(),
    )
}

/// The unmated chainlet of another piece that the joined `run` matches, within `accept` and
/// at least [`AMBIGUITY`] times better than the next, with its Δ.
fn best_mate(
    shapes: &Shapes,
    mated: &[bool],
    run: &[usize],
    accept: f64,
    tol: f64,
) -> Option<(f64, usize)> {
    let a = joined(shapes, run);
    let piece = &shapes.pieces[a.piece];
    let mut found: Vec<(f64, usize)> = shapes
        .chainlets
        .iter()
        .enumerate()
        .filter(|(b, cb)| {
            cb.piece != a.piece
                && !mated[*b]
                && (cb.length - a.length).abs() <= LENGTH_TOLERANCE * a.length
        })
        .filter_map(|(b, cb)| {
            let cmp = compare_refined(&a, cb);
            let fits = cmp.delta <= AMBIGUITY * accept
                && !overlaps(piece, &shapes.pieces[cb.piece], &cmp.pose, tol);
            fits.then_some((cmp.delta, b))
        })
        .collect();
    found.sort_by(|x, y| x.0.total_cmp(&y.0));
    let best = *found.first()?;
    let clear = found
        .get(1)
        .is_none_or(|next| next.0 >= AMBIGUITY * best.0.max(1e-9));
    (best.0 <= accept && clear).then_some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assembly::geometry::Pose;
    use crate::assembly::shapes::PieceShape;

    fn chainlet(piece: usize, k: usize, start: usize, points: Vec<P2>) -> ChainletShape {
        let end = start + points.len() - 1;
        let label = format!("{}.{}", piece + 1, k + 1);
        ChainletShape::from_points(piece, label, (start, end), points, Default::default())
    }

    /// A side of 120 px with a bump of height `h` at `at` (fraction along).
    fn side(h: f64, at: f64) -> Vec<P2> {
        (0..=120)
            .map(|i| {
                let x = f64::from(i);
                let t = (x / 120.0 - at) / 0.15;
                P2::new(x, h * (-t * t).exp())
            })
            .collect()
    }

    /// Piece 0's side is two chainlets (a false corner at x = 50); piece 1 has the same side
    /// as one chainlet (reversed and moved, as a mate runs); piece 2 a side of the same
    /// length with its bump elsewhere.
    fn shapes() -> Shapes {
        let mut s = Shapes {
            median_size: 100.0,
            ..Shapes::default()
        };
        let whole = side(12.0, 0.4);
        let moved = Pose::new(nalgebra::Vector2::new(300.0, 40.0), 0.7);
        let mate: Vec<P2> = whole.iter().rev().map(|p| moved * p).collect();
        s.chainlets.push(chainlet(0, 0, 0, whole[..=50].to_vec()));
        s.chainlets.push(chainlet(0, 1, 50, whole[50..].to_vec()));
        s.chainlets.push(chainlet(1, 0, 0, mate));
        s.chainlets.push(chainlet(2, 0, 0, side(12.0, 0.75)));
        // Piece 0's outline closes with a third chainlet, back to where the first starts (its
        // end wraps to index 0): a run never takes the whole piece.
        let back: Vec<P2> = (0..=60)
            .map(|i| P2::new(120.0 - 2.0 * f64::from(i), -60.0))
            .collect();
        s.chainlets.push(ChainletShape {
            end: 0,
            ..chainlet(0, 2, 120, back)
        });
        s.pieces
            .push(PieceShape::bare(1, String::new(), vec![0, 1, 4]));
        s.pieces.push(PieceShape::bare(2, String::new(), vec![2]));
        s.pieces.push(PieceShape::bare(3, String::new(), vec![3]));
        s
    }

    /// The cut that removes the false corner of piece 0's side.
    fn inner_corner() -> Vec<Cut> {
        vec![Cut {
            piece: 0,
            index: 50,
        }]
    }

    /// Matings of the five chainlets of [`shapes`]: each `(a, b)` makes `b` the best mate
    /// of `a`, within the good Δ of a typical Δ of 10.
    fn best_mates(pairs: &[(usize, usize)]) -> Vec<Vec<Mating>> {
        let mut matings = vec![Vec::new(); 5];
        for &(a, b) in pairs {
            matings[a].push(Mating {
                b,
                delta: 5.0,
                pose: Pose::identity(),
            });
        }
        matings
    }

    #[test]
    fn a_run_that_matches_another_chainlet_joined_loses_its_inner_corner() {
        let s = shapes();
        let cuts = false_corners(&s, &vec![Vec::new(); 5], 10.0);
        assert_eq!(cuts, inner_corner());
    }

    #[test]
    fn mutually_mated_chainlets_are_not_joined() {
        let s = shapes();
        assert!(false_corners(&s, &best_mates(&[(0, 3), (3, 0)]), 10.0).is_empty());
    }

    /// Chainlet 0's best mate (3, within the good Δ) prefers another: it is not mated.
    #[test]
    fn a_chainlet_whose_best_mate_prefers_another_is_joined() {
        let s = shapes();
        let cuts = false_corners(&s, &best_mates(&[(0, 3), (3, 1)]), 10.0);
        assert_eq!(cuts, inner_corner());
    }

    /// Two pieces with the same side: the run fits both alike, and nothing is removed.
    #[test]
    fn a_run_that_fits_two_chainlets_alike_is_left_alone() {
        let mut s = shapes();
        let twin = ChainletShape {
            piece: 3,
            ..s.chainlets[2].clone()
        };
        s.chainlets.push(twin);
        s.pieces.push(PieceShape::bare(4, String::new(), vec![5]));
        assert!(false_corners(&s, &vec![Vec::new(); 6], 10.0).is_empty());
    }
}
