//! Re-examination of single matings once the holes are filled (Freeman & Garder, "Monitoring
//! of assembly": an earlier decision is revisited when what follows does not fit). Growth
//! places a piece on one mating when nothing tells against it; late in the growth, with few
//! pieces left, a border piece may hang on one knob outside the puzzle's edge, or a pair of
//! corner pieces may fill an inner hole through one seam, and the pieces that belong there
//! are then left out (irregular 100 photos seeds 11 and 15).
//!
//! Every part of the largest cluster held to the rest by one neighbour only (or by poor seams only)
//! is therefore taken off in turn, and the holes step run again without it: each part beside an
//! empty region (which something left out might fill once the part is gone), while something is
//! left out, and each part lying mostly outside the hull of the rest and reaching past the
//! rectangle that hull spans (see [`outside_the_rest`]), even when nothing is: a corner piece of
//! irregular 100 photos seed 15 hung outside the top right corner on one knob, its own corner
//! empty, with every piece placed. The change is kept when the cluster ends up with more pieces,
//! or, for a part that stuck out of the puzzle, with as many and the part placed elsewhere: a piece
//! outside the puzzle's edge is wrong wherever else it fits; or, for a single piece, with as many
//! and the piece moved to a place where its neighbours hold it all round, as they did not where it
//! was: a hole closed all round is stronger evidence than one mating. Otherwise the trial is
//! dropped, so a true part taken off and put back where it was changes nothing.
//! When no part can be moved alone, the parts that each joined the same cluster apart when
//! taken off alone are taken off together (see [`gathered_parts`]): pieces of a row grown
//! apart, placed where the row belongs, each block its way. Failing that, the parts sticking
//! out are taken off at once, each with the piece it hangs on (see [`swapped_parts`]): two
//! pairs that swapped places each block the other's way back.

use super::carried;
use super::edge_colour::SeamColours;
use super::geometry::{convex_depth, convex_hull, min_area_rectangle, P2};
use super::grow::{Growth, Placed};
use super::holes::{
    anything_left_out, beside_empty_regions, fill_holes, largest_cluster, FitCache,
};
use super::matings::MatingTable;
use super::outer_frame::reaches_past;
use super::seam_graph::{small_side, SeamGraph};
use super::shapes::Shapes;
use rayon::prelude::*;

/// Parts of at most this many pieces are taken off: a misplaced border piece, or a few corner
/// pieces that grew together in the wrong hole. A larger part held by one seam carries
/// evidence of its own.
pub(super) const MAX_PART: usize = 4;
/// Parts tried per pass, the latest placed first (wrong placements come late, when the true
/// places of the last pieces are few and a wrong one is all that is left), and passes at most:
/// each kept change may free the next.
const MAX_TRIALS: usize = 16;
const MAX_PASSES: usize = 4;
/// See [`outside_the_rest`].
const OUTSIDE_SHARE: f64 = 0.5;
/// A part put back within this fraction of the median piece size of where it was has not
/// moved.
const SAME_PLACE: f64 = 0.5;
/// A piece is held all round where at least this share of its outline touches its
/// neighbours (see [`moved_to_be_held_all_round`], [`held_share`]).
const HELD_ALL_ROUND: f64 = 0.9;
const HELD_STRIDE: usize = 4;
const HELD_NEIGHBOURHOOD: f64 = 2.0;

/// Takes off, in turn, the small parts of the largest cluster held by one neighbour, refills
/// the holes without each, and keeps every change that places more (see the module's doc).
/// Returns how many changes were kept.
pub(super) fn reexamine_single_holds(
    shapes: &Shapes,
    table: &MatingTable,
    g: &mut Growth,
    fits: &FitCache,
) -> usize {
    let (colours, good_seam) = (&table.colours, table.good_seam());
    keep_passes(colours, g, MAX_PASSES, |g| {
        let cluster = largest_cluster(g)?;
        // With nothing left out, a part taken off could only come back, or, if it stuck out
        // of the puzzle, go to an empty place of its own shape (irregular 100 photos seed 15).
        let left_out = anything_left_out(shapes, g, cluster);
        let before = members(g, cluster);
        // Only a part beside an empty region, or one sticking out of the puzzle, can give way
        // to something that fits better: the place any other part leaves has its own shape.
        let held = singly_held_parts(shapes, g, cluster, good_seam);
        let beside = if left_out {
            let parts: Vec<Vec<usize>> = held.iter().map(|h| h.part.clone()).collect();
            beside_empty_regions(shapes, g, cluster, &parts)
        } else {
            vec![false; held.len()]
        };
        let parts: Vec<(Held, bool)> = held
            .into_iter()
            .zip(beside)
            .map(|(h, beside)| {
                let outside = outside_the_rest(shapes, g, cluster, &h.part);
                (h, beside, outside)
            })
            // A piece the holes step placed (held by its fit) is tried only if it sticks out: it
            // already fitted its region, and an empty region beside it is no news. A part held
            // by poor seams only is tried beside an empty region too, though a true part's
            // seams can all be poor: growth closed a junction on two poor seams (Δ 188 and
            // 208) with a piece in the place of one then left out, and the five pieces beside
            // that place grew apart and fitted nowhere (held-out irregular 100 photos seed 17
            // with three missing and three extraneous pieces, 85.5 %; 96.7 % with the piece
            // taken off and the holes refilled). The trial is kept only if it places more.
            .filter(|(h, beside, outside)| (*beside && h.by != HeldBy::Fit) || *outside)
            .map(|(h, _, outside)| (h, outside))
            .take(MAX_TRIALS)
            .collect();
        if parts.is_empty() {
            return None;
        }
        let (trials, landed): (Vec<Option<Growth>>, Vec<Option<u32>>) = parts
            .par_iter()
            .map(|(held, outside)| {
                let trial = refilled_without(shapes, colours, g, fits, [held.part.as_slice()]);
                let landed = landed_apart(g, &trial, cluster, &held.part);
                let kept = better(shapes, g, &trial, &before, &held.part, *outside);
                (kept.then_some(trial), landed)
            })
            .unzip();
        // The first change that places more is kept, and every part tried again: the change
        // may have moved what lies around them (the hull, a neighbour). That costs little,
        // most fits are remembered (see `FitCache`).
        trials
            .into_iter()
            .flatten()
            .next()
            .or_else(|| gathered_parts(shapes, colours, g, fits, &parts, &landed, &before))
            .or_else(|| swapped_parts(shapes, colours, g, fits, &parts, &before))
    })
}

/// Up to `passes` passes of `pass`, each keeping the trial it returns (every step here
/// replaces the growth by the first trial that places more and looks again: a kept change
/// may free the next), until a pass returns none; how many were kept. Without colour the
/// holes step places nothing, so no trial could place more and none is run.
pub(super) fn keep_passes(
    colours: &SeamColours,
    g: &mut Growth,
    passes: usize,
    mut pass: impl FnMut(&Growth) -> Option<Growth>,
) -> usize {
    if !colours.knows_colours() {
        return 0;
    }
    let mut kept = 0;
    for _ in 0..passes {
        let Some(trial) = pass(g) else {
            break;
        };
        *g = trial;
        kept += 1;
    }
    kept
}

/// `g` with each of `parts` taken off (see [`take_off`]) and the holes refilled: the trial
/// each step here judges with [`better`].
pub(super) fn refilled_without<'a>(
    shapes: &Shapes,
    colours: &SeamColours,
    g: &Growth,
    fits: &FitCache,
    parts: impl IntoIterator<Item = &'a [usize]>,
) -> Growth {
    let mut trial = g.clone();
    for part in parts {
        take_off(shapes, &mut trial, part);
    }
    fill_holes(shapes, colours, &mut trial, fits);
    trial
}

/// The cluster other than `largest` (one `g` already had) that all of `part` joined in
/// `trial` once taken off and the holes refilled, if any.
fn landed_apart(g: &Growth, trial: &Growth, largest: u32, part: &[usize]) -> Option<u32> {
    let cluster_in = |g: &Growth, i: usize| g.placed[i].as_ref().map(|p| p.cluster);
    let c = cluster_in(trial, *part.first()?)?;
    let existed = (0..g.placed.len()).any(|i| cluster_in(g, i) == Some(c));
    (c != largest && existed && part.iter().all(|&i| cluster_in(trial, i) == Some(c))).then_some(c)
}

/// The joint trial for parts that each, taken off alone, joined the same cluster apart
/// (`landed`, per part): all taken off at once, and the holes refilled. Three pieces of a
/// row can be placed off in the largest cluster where that row, grown apart, belongs
/// (irregular 100 photos seed 67: an L of ten pieces along the bottom left). Taken off alone,
/// each fits its place in the row, but the row, with the others still in its way, fits
/// nowhere, and the largest cluster has one piece fewer; taken off together, the row takes
/// them all and then fits its place. Kept only if the largest cluster then holds more.
fn gathered_parts(
    shapes: &Shapes,
    colours: &SeamColours,
    g: &Growth,
    fits: &FitCache,
    parts: &[(Held, bool)],
    landed: &[Option<u32>],
    before: &[usize],
) -> Option<Growth> {
    let mut clusters: Vec<u32> = landed.iter().flatten().copied().collect();
    clusters.sort_unstable();
    clusters.dedup();
    clusters.into_iter().find_map(|c| {
        let gathered: Vec<&Held> = parts
            .iter()
            .zip(landed)
            .filter(|(_, l)| **l == Some(c))
            .map(|((held, _), _)| held)
            .collect();
        // A part within another (a piece and the pair it ends) goes with it.
        let within = |a: &Held, b: &Held| a != b && a.part.iter().all(|i| b.part.contains(i));
        let gathered: Vec<&Held> = gathered
            .iter()
            .copied()
            .filter(|a| !gathered.iter().any(|b| within(a, b)))
            .collect();
        if gathered.len() < 2 {
            return None;
        }
        let parts = gathered.iter().map(|h| h.part.as_slice());
        let trial = refilled_without(shapes, colours, g, fits, parts);
        let all: Vec<usize> = gathered.iter().flat_map(|h| h.part.clone()).collect();
        better(shapes, g, &trial, before, &all, false).then_some(trial)
    })
}

/// The joint trial when no part sticking out could be moved alone: every such part is taken
/// off together with the piece it hangs on, each as a cluster of its own, and the holes
/// refilled. Two pairs of border pieces can swap places, each seated by one piece in the
/// other's notch with its partner hanging outside the frame (classic 100 photos seed 55):
/// taken off alone, a part comes back to the partner that holds it by a true seam, and the
/// place it belongs to is taken by the other pair. Kept under the rule for a part that stuck
/// out (see [`better`]): as many pieces placed, every piece taken off placed elsewhere.
fn swapped_parts(
    shapes: &Shapes,
    colours: &SeamColours,
    g: &Growth,
    fits: &FitCache,
    parts: &[(Held, bool)],
    before: &[usize],
) -> Option<Growth> {
    let groups = joint_groups(parts);
    if groups.is_empty() {
        return None;
    }
    let trial = refilled_without(shapes, colours, g, fits, groups.iter().map(Vec::as_slice));
    let all: Vec<usize> = groups.concat();
    better(shapes, g, &trial, before, &all, true).then_some(trial)
}

/// The groups [`swapped_parts`] takes off: each part sticking out with the piece it hangs
/// on, at most [`MAX_PART`] pieces; groups sharing a piece are one (a part hanging on another
/// part's holder).
fn joint_groups(parts: &[(Held, bool)]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (held, _) in parts.iter().filter(|(_, outside)| *outside) {
        let mut group = held.part.clone();
        group.extend(held.holder());
        if group.len() > MAX_PART {
            continue;
        }
        group.sort_unstable();
        match groups
            .iter_mut()
            .find(|o| group.iter().any(|i| o.contains(i)))
        {
            Some(other) => {
                other.extend(group);
                other.sort_unstable();
                other.dedup();
            }
            None => groups.push(group),
        }
    }
    groups
}

/// Whether most of `part`'s outline lies outside the convex hull of the rest of `cluster`, and
/// some piece of it reaches past the least rectangle of that hull (see
/// `outer_frame::reaches_past`): a piece hanging on one knob outside the puzzle's edge. A true
/// corner piece has half its area inside the hull of its neighbours, unless its neighbour
/// along an edge is missing: then the chord from its other neighbour to the next piece along
/// that edge cuts off most of it, but it lies in the corner of the rectangle (classic 100
/// photos seed 37 with three pieces missing: the corner and the neighbour it hung on, both
/// right, were taken off together and fitted into two missing pieces' holes, 98.8 %). The
/// rest is the pieces held by seams: one the holes step fitted beside a hanging piece,
/// hanging itself, would make it look inside (irregular 100 photos seed 24).
fn outside_the_rest(shapes: &Shapes, g: &Growth, cluster: u32, part: &[usize]) -> bool {
    let placed_outline = |i: usize| -> Vec<P2> {
        g.placed[i].as_ref().map_or_else(Vec::new, |p| {
            shapes.pieces[i]
                .outline
                .iter()
                .map(|q| p.pose * q)
                .collect()
        })
    };
    let mated = |i: usize| {
        shapes.pieces[i]
            .chainlets
            .iter()
            .any(|&c| g.mate_of[c].is_some())
    };
    let rest: Vec<P2> = (0..shapes.pieces.len())
        .filter(|i| !part.contains(i))
        .filter(|&i| g.placed[i].as_ref().is_some_and(|p| p.cluster == cluster))
        .filter(|&i| mated(i))
        .flat_map(|i| placed_outline(i).into_iter().step_by(4))
        .collect();
    let hull = convex_hull(&rest);
    if hull.len() < 3 {
        return false;
    }
    let outline: Vec<P2> = part.iter().flat_map(|&i| placed_outline(i)).collect();
    let outside = outline
        .iter()
        .filter(|p| convex_depth(&hull, p) < 0.0)
        .count();
    outside as f64 > OUTSIDE_SHARE * outline.len() as f64
        && min_area_rectangle(&hull).is_none_or(|frame| {
            part.iter().any(|&i| {
                g.placed[i]
                    .as_ref()
                    .is_some_and(|p| reaches_past(shapes, &frame, i, &p.pose))
            })
        })
}

/// The pieces of `cluster`.
pub(super) fn members(g: &Growth, cluster: u32) -> Vec<usize> {
    (0..g.placed.len())
        .filter(|&i| g.placed[i].as_ref().is_some_and(|p| p.cluster == cluster))
        .collect()
}

/// Whether `trial` (after `part` was taken off and the holes refilled) is better than `g`: its
/// largest cluster has more pieces than `before`, or, for a part that stuck `outside` the
/// puzzle, as many with every piece of `part` in it at another place or left out (others
/// took its place in the count: irregular 100 photos seed 39, a piece hanging off the left
/// edge whose corner piece then fitted its notch). A part inside it is
/// not moved for another place alone: a fit to part of a notch, held by two sides, is no
/// stronger than the mating that held it (irregular 100 photos seed 21: a true piece moved
/// 212 px so); but a single piece is, to a place where its neighbours hold it all round and
/// did not where it was (see [`moved_to_be_held_all_round`]).
pub(super) fn better(
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
    part.iter()
        .all(|&i| match (&g.placed[i], &trial.placed[i]) {
            (Some(old), Some(new)) => moved_elsewhere(shapes, old, new, i, cluster),
            (Some(_), None) => true,
            _ => false,
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
fn moved_to_be_held_all_round(
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
fn held_share(shapes: &Shapes, g: &Growth, i: usize) -> f64 {
    let points = carried::touching(shapes, g, i, HELD_STRIDE, HELD_NEIGHBOURHOOD);
    let held = points
        .iter()
        .filter(|(_, contact)| contact.is_some())
        .count();
    held as f64 / points.len().max(1) as f64
}

/// Takes `part` off its cluster with the seams that held it there. A single piece is left out;
/// a part of several stays a cluster of its own, so that the holes step fits it as one.
pub(super) fn take_off(shapes: &Shapes, g: &mut Growth, part: &[usize]) {
    let new_cluster = g.clusters;
    if part.len() > 1 {
        g.clusters += 1;
    }
    for &i in part {
        for &c in &shapes.pieces[i].chainlets {
            if let Some((o, _)) = g.mate_of[c] {
                if !part.contains(&shapes.chainlets[o].piece) {
                    g.mate_of[c] = None;
                    g.mate_of[o] = None;
                }
            }
        }
        if part.len() > 1 {
            if let Some(p) = g.placed[i].as_mut() {
                p.cluster = new_cluster;
            }
        } else {
            g.placed[i] = None;
        }
    }
}

/// A part of a cluster held to the rest through one neighbour only.
#[derive(Clone, Debug, PartialEq)]
struct Held {
    /// Its pieces, sorted.
    part: Vec<usize>,
    by: HeldBy,
}

/// What holds a part to the rest of its cluster.
#[derive(Clone, Copy, Debug, PartialEq)]
enum HeldBy {
    /// The one neighbour it hangs on.
    Neighbour(usize),
    /// Poor seams only (see [`SeamGraph::poorly_held_parts`]), no one holder.
    PoorSeams,
    /// Its fit alone: a piece the holes step placed, with no recorded mate.
    Fit,
}

impl Held {
    /// The neighbour it hangs on, if one holds it.
    fn holder(&self) -> Option<usize> {
        match self.by {
            HeldBy::Neighbour(v) => Some(v),
            HeldBy::PoorSeams | HeldBy::Fit => None,
        }
    }
}

/// The parts of `cluster` of at most [`MAX_PART`] pieces joined to the rest through one
/// neighbour only (a bridge of its graph of mated neighbours), the latest placed first.
/// Pieces the holes step placed have no recorded mate: each is a part of its own, held by its
/// fit alone. A part held by poor seams only is one too, with no one holder (see
/// [`SeamGraph::poorly_held_parts`]).
fn singly_held_parts(shapes: &Shapes, g: &Growth, cluster: u32, good_seam: f64) -> Vec<Held> {
    let graph = SeamGraph::of_cluster(shapes, g, cluster);
    let mut parts: Vec<Held> = Vec::new();
    for (u, nu) in graph.neighbours.iter().enumerate() {
        for &v in nu {
            if let Some(side) = small_side(&graph.neighbours, u, v, MAX_PART) {
                let part: Vec<usize> = side.into_iter().map(|k| graph.pieces[k]).collect();
                if !parts.iter().any(|h| h.part == part) {
                    parts.push(Held {
                        part,
                        by: HeldBy::Neighbour(graph.pieces[v]),
                    });
                }
            }
        }
    }
    // Pieces the holes step placed have no recorded mate: each is a part of its own.
    for (k, n) in graph.neighbours.iter().enumerate() {
        if n.is_empty() {
            parts.push(Held {
                part: vec![graph.pieces[k]],
                by: HeldBy::Fit,
            });
        }
    }
    for part in graph.poorly_held_parts(good_seam, MAX_PART) {
        if !parts.iter().any(|h| h.part == part) {
            parts.push(Held {
                part,
                by: HeldBy::PoorSeams,
            });
        }
    }
    let latest = |h: &Held| {
        h.part
            .iter()
            .filter_map(|&i| g.placed[i].as_ref().map(|p| p.sequence))
            .min()
            .unwrap_or(0)
    };
    parts.sort_by_key(|h| std::cmp::Reverse(latest(h)));
    parts
}

#[cfg(test)]
#[path = "reexamine_tests.rs"]
mod tests;
