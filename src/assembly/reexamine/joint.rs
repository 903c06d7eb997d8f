//! Trials of several parts at once, when no part moved alone places more: the parts that
//! each landed in the same cluster apart, taken off together, and the parts sticking out,
//! each taken off with the piece it hangs on.

use super::super::edge_colour::SeamColours;
use super::super::grow::Growth;
use super::super::holes::FitCache;
use super::super::shapes::Shapes;
use super::parts::Held;
use super::{better, refilled_without, MAX_PART};

/// The cluster other than `largest` (one `g` already had) that all of `part` joined in
/// `trial` once taken off and the holes refilled, if any.
pub(super) fn landed_apart(
    g: &Growth,
    trial: &Growth,
    largest: u32,
    part: &[usize],
) -> Option<u32> {
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
pub(super) fn gathered_parts(
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
pub(super) fn swapped_parts(
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
pub(super) fn joint_groups(parts: &[(Held, bool)]) -> Vec<Vec<usize>> {
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
