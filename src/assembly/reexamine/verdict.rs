//! Whether a trial is kept: the largest cluster holds more pieces, or as many with the part
//! moved where it is better held.

use super::super::carried;
use super::super::compare::overlaps;
use super::super::grow::{Growth, Placed};
use super::super::holes::largest_cluster;
use super::super::shapes::Shapes;
use super::members;

/// A part put back within this fraction of the median piece size of where it was has not
/// moved.
const SAME_PLACE: f64 = 0.5;
/// A piece is held all round where at least this share of its outline touches its
/// neighbours (see [`moved_to_be_held_all_round`], [`held_share`]).
const HELD_ALL_ROUND: f64 = 0.9;
const HELD_STRIDE: usize = 4;
const HELD_NEIGHBOURHOOD: f64 = 2.0;
/// A piece newly in the cluster took a left-out part's place where it overlaps where the part
/// lay by more than this fraction of the median piece size (see [`took_the_place`]).
const TAKEN_PLACE: f64 = 0.08;

/// Whether `trial` (after `part` was taken off and the holes refilled) is better than `g`: its
/// largest cluster has more pieces than `before`, or, for a part that stuck `outside` the
/// puzzle, as many with every piece of `part` in it at another place or left out, and a
/// part left out only where a piece new to the cluster took its place (see
/// [`took_the_place`]; irregular 100 photos seed 39 once took this path, a piece hanging off
/// the left edge whose corner piece then fitted its notch; it no longer does, and whether
/// that corner piece overlapped the hanging one was not measured). A part inside it is
/// not moved for another place alone: a fit to part of a notch, held by two sides, is no
/// stronger than the mating that held it (irregular 100 photos seed 21: a true piece moved
/// 212 px so); but a single piece is, to a place where its neighbours hold it all round and
/// did not where it was (see [`moved_to_be_held_all_round`]).
pub(in crate::assembly) fn better(
    shapes: &Shapes,
    g: &Growth,
    trial: &Growth,
    before: &[usize],
    part: &[usize],
    outside: bool,
) -> bool {
    let Some(cluster) = largest_cluster(trial) else {
        return false;
    };
    let after = members(trial, cluster).len();
    if after != before.len() {
        return after > before.len();
    }
    if !outside {
        return part.len() == 1 && moved_to_be_held_all_round(shapes, g, trial, part[0], cluster);
    }
    let placed_elsewhere_or_out = part
        .iter()
        .all(|&i| match (&g.placed[i], &trial.placed[i]) {
            (Some(old), Some(new)) => moved_elsewhere(shapes, old, new, i, cluster),
            (Some(_), None) => true,
            _ => false,
        });
    let left_out = part.iter().any(|&i| trial.placed[i].is_none());
    placed_elsewhere_or_out
        && (!left_out || took_the_place(shapes, g, trial, cluster, before, part))
}

/// Whether a piece new to `cluster` of `trial` (not among `before`) lies where a
/// piece of `part` lay in `g`, overlapping it: the part blocked that piece's place. A piece
/// the holes step fits elsewhere once the part is off owes its place to the hull of the rest,
/// which the part no longer stretches, not to the part's place; it is no sign the part was
/// wrong. Irregular 20 photos at 160 px seed 21 with three missing and three extraneous
/// pieces: a true border piece beside two missing ones, held by a seam of Δ 21 but sticking
/// out of the hull of the rest, was taken off, and an extraneous piece fitted a missing
/// piece's notch 1.5 pieces away (3.9 px, colour 1.17) in its stead; on 382 generated sets
/// that was the only part left out for a newcomer so.
fn took_the_place(
    shapes: &Shapes,
    g: &Growth,
    trial: &Growth,
    cluster: u32,
    before: &[usize],
    part: &[usize],
) -> bool {
    let tol = TAKEN_PLACE * shapes.median_size;
    members(trial, cluster)
        .into_iter()
        .filter(|i| !before.contains(i))
        .any(|n| {
            let at = trial.placed[n].as_ref().expect("member").pose;
            part.iter().any(|&i| {
                g.placed[i].as_ref().is_some_and(|old| {
                    overlaps(
                        &shapes.pieces[i],
                        &shapes.pieces[n],
                        &(old.pose.inverse() * at),
                        tol,
                    )
                })
            })
        })
}

/// Whether piece `i`, placed at `old` before a trial and at `new` after it, lies in `cluster`
/// at least [`SAME_PLACE`] of the median piece size from where it was.
fn moved_elsewhere(shapes: &Shapes, old: &Placed, new: &Placed, i: usize, cluster: u32) -> bool {
    let c = shapes.pieces[i].centroid;
    new.cluster == cluster
        && ((old.pose * c) - (new.pose * c)).norm() >= SAME_PLACE * shapes.median_size
}

/// Whether piece `i`, in `trial`, lies in `cluster` at another place than in `g`, held there
/// all round by its neighbours (see [`held_share`]) where it was not: a piece growth placed
/// on one mating in a missing piece's place, which the holes step fits into its own hole,
/// closed all round, once taken off (held-out irregular 100 photos seed 18 with three missing
/// and three extraneous pieces: truth 72, 600 px off in the place of truth 97 beside a
/// missing piece's hole, fits its own hole at 0.43 of the tolerance). Not a fit to part of a
/// region: that is held by two sides only, no stronger than the mating (see [`better`]).
pub(super) fn moved_to_be_held_all_round(
    shapes: &Shapes,
    g: &Growth,
    trial: &Growth,
    i: usize,
    cluster: u32,
) -> bool {
    let (Some(old), Some(new)) = (&g.placed[i], &trial.placed[i]) else {
        return false;
    };
    moved_elsewhere(shapes, old, new, i, cluster)
        && held_share(shapes, trial, i) >= HELD_ALL_ROUND
        && held_share(shapes, g, i) < HELD_ALL_ROUND
}

/// The share of piece `i`'s outline, placed as in `g`, that touches another piece of its
/// cluster (see [`carried::touching`], every [`HELD_STRIDE`]-th point, neighbours within
/// [`HELD_NEIGHBOURHOOD`] median piece sizes).
pub(super) fn held_share(shapes: &Shapes, g: &Growth, i: usize) -> f64 {
    let points = carried::touching(shapes, g, i, HELD_STRIDE, HELD_NEIGHBOURHOOD);
    let held = points
        .iter()
        .filter(|(_, contact)| contact.is_some())
        .count();
    held as f64 / points.len().max(1) as f64
}
