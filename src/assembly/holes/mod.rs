//! The last piece of a hole: once growth is over, a piece left out though every one of its
//! neighbours is placed sits in a hole of the cluster that has its exact shape. Its chainlet
//! matings failed (a missed corner, a side the front end damaged), but the hole does not
//! depend on them: the whole outline is fitted to the hole's rim (iterative closest points
//! from rotations all round) and the piece is placed where it fits the rim closely, no other
//! left-out piece fits as well, and the picture runs on across its seams (a look-alike from
//! another puzzle fits a missing piece's hole as closely).
//!
//! A border piece leaves a notch open on the puzzle's edge instead. The cluster's convex hull
//! closes it, and the piece's outline is fitted to the notch's rim where both lie well inside
//! the hull: its sides along the puzzle's edge face no rim. It must not cut into the cluster.
//! A run of border pieces left out side by side leaves one notch a few pieces wide; it is
//! filled from its ends (see [`partial`]). A small cluster growth left apart fills a hole or
//! notch of its shape the same way, moved as one (see `items.rs`); where it fits none, its
//! pieces are tried one by one. Rounds repeat while they place pieces: a filled notch may
//! close the hole beside it, an end piece shortens its run.

mod accept;
mod cache;
mod colour;
mod fit;
mod hull_depth;
mod items;
mod knobs;
mod loose_groups;
mod partial;
mod place;
mod raster;
mod region_fits;
mod regions;
mod rim;

use super::border_line;
use super::edge_colour::SeamColours;
use super::geometry::{Pose, P2};
use super::grow::{Growth, ENDPOINT_FRACTION};
use super::shapes::Shapes;
use accept::{
    bar, enough_seams, look_alike_rivals, max_colour, one_seam, one_seam_runs_on,
    tight_beside_an_excused_knob, AMBIGUITY,
};
use cache::region_key;
pub(crate) use cache::FitCache;
use colour::{seam_colour, Seams};
use items::{has_outline, items, small_cluster, Item, Items};
pub(crate) use loose_groups::fill_with_loose_groups;
use place::place_fits;
use raster::{cluster_frame, Frame, SEAM_CLOSE_PX};
use rayon::prelude::*;
use region_fits::{notch_limits, region_fits, Fit, NOTCH_AREA};
use regions::{empty_regions, Hole};

/// Two fits whose placed centroids lie closer than this fraction of the median piece size
/// claim the same place.
const SAME_PLACE: f64 = 0.5;
/// A region's fits are remembered while the cluster's pixels within this fraction of the
/// median piece size of it are unchanged (see [`cache`]): a fit's outline lies on the region
/// or beside its rim.
const REGION_MARGIN: f64 = 0.5;
/// An item may reach this fraction of the median piece size beyond the least rectangle holding
/// the cluster: a border piece of an irregular edge bowing out past the rest of it. Measured
/// on the 128 sets of the sweep and 35 fresh ones: accepted true fits reach 0.17 at most
/// (irregular 20 photos seeds 42 and 13: 0.17, 0.12; 0.1 lost both), the wrong ones of
/// irregular 100 photos seed 21 0.39–0.68.
const BEYOND_BOUNDS: f64 = 0.3;
/// … and this far where a border side of it continues a placed piece's (see [`sticks_out`]).
const BEYOND_ON_BORDER: f64 = 0.5;
/// Pieces whose centroids lie within this many median piece sizes of a fit's are its
/// neighbours for the border test.
const NEAR_BORDER: f64 = 2.0;
/// A cluster other than the largest has its holes and notches filled too from this many
/// pieces: a block of 3 × 3 closes a hole; smaller clusters are items to fit, not hosts.
const MIN_HOST: usize = 9;
/// Rounds of filling at most: a piece placed in one round closes the hole or notch beside it
/// for the next, or shortens the run of a region filled from its ends.
const MAX_ROUNDS: usize = 12;

/// Places left-out pieces into the holes and notches of the clusters that they fit: the
/// largest cluster's first, then those of every other cluster of [`MIN_HOST`] pieces or
/// more, largest first (two puzzles mixed: the second one's holes and notches are as real).
/// Returns how many were placed.
pub(super) fn fill_holes(
    shapes: &Shapes,
    colours: &SeamColours,
    g: &mut Growth,
    cache: &FitCache,
) -> usize {
    hosts(g)
        .into_iter()
        .map(|host| fill_holes_of(shapes, colours, g, host, cache))
        .sum()
}

/// The clusters whose holes are filled, largest first: the largest (of 3 pieces or more, see
/// [`largest_cluster`]) and every other one of [`MIN_HOST`] pieces or more.
fn hosts(g: &Growth) -> Vec<u32> {
    let Some(largest) = largest_cluster(g) else {
        return Vec::new();
    };
    let sizes = cluster_sizes(g);
    let mut count: Vec<(usize, u32)> = (0..g.clusters)
        .map(|c| (sizes[c as usize], c))
        .filter(|&(n, c)| c == largest || n >= MIN_HOST)
        .collect();
    count.sort_by_key(|&(n, c)| (std::cmp::Reverse(n), c != largest, c));
    count.into_iter().map(|(_, c)| c).collect()
}

/// Fills the holes and notches of cluster `host`.
fn fill_holes_of(
    shapes: &Shapes,
    colours: &SeamColours,
    g: &mut Growth,
    host: u32,
    cache: &FitCache,
) -> usize {
    let mut placed = 0;
    // After a round that placed nothing, the small clusters' pieces are tried one by one (see
    // [`Items::MembersAlone`]), after that the notches of missing corner pieces are offered
    // whole (see [`Round::EmptyCorners`]), and last looser fits to part of a region are taken
    // (see [`Round::LooserParts`]); after a round that placed something, whole clusters again.
    let mut round = Round::Clusters;
    for _ in 0..MAX_ROUNDS {
        match (fill_round(shapes, colours, g, host, round, cache), round) {
            (0, Round::Clusters) => round = Round::MembersAlone,
            (0, Round::MembersAlone) => round = Round::EmptyCorners,
            (0, Round::EmptyCorners) => round = Round::LooserParts,
            (0, Round::LooserParts) => break,
            (n, _) => {
                placed += n;
                round = Round::Clusters;
            }
        }
    }
    placed
}

/// What a round offers, in the order they are tried while rounds place nothing.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Round {
    Clusters,
    MembersAlone,
    /// Clusters again, with the hull taking in the corners of the least rectangle where a
    /// corner piece is missing (see `raster::with_empty_corners`): the hull's chord cuts a
    /// corner notch in half. Only when nothing else is placed: the hull also sets what lies
    /// deep in every notch near the corner, and a run of border pieces along that side, filled
    /// from its ends with the corner taken in, came out 3 px off and lost its middle piece
    /// (irregular 20 photos seed 13).
    EmptyCorners,
    /// Clusters again, a fit to part of a region accepted up to 0.75 of the tolerance where
    /// its picture runs on as across a typical true seam (`accept::LOOSER_PART_TOLERANCE`):
    /// last, so that a piece fitted loosely to its part waits until nothing else can be placed.
    LooserParts,
}

/// One round: every region's best piece or small cluster (or cluster's piece, see `kind`),
/// placed where it is unambiguous and its colours run on.
fn fill_round(
    shapes: &Shapes,
    colours: &SeamColours,
    g: &mut Growth,
    cluster: u32,
    round: Round,
    cache: &FitCache,
) -> usize {
    let (kind, empty_corners) = match round {
        Round::Clusters => (Items::Clusters, false),
        Round::MembersAlone => (Items::MembersAlone, false),
        Round::EmptyCorners => (Items::Clusters, true),
        Round::LooserParts => (Items::Clusters, false),
    };
    // A host may have been fitted into another's hole as an item meanwhile.
    if !g.placed.iter().flatten().any(|p| p.cluster == cluster) {
        return 0;
    }
    // Without colour no fit would pass (see `accept::MAX_COLOUR_FACTOR`): none is made.
    if !colours.knows_colours() {
        return 0;
    }
    // A round taking small clusters apart has nothing new to try without one: its items would
    // be the last round's, which placed none.
    if !anything_left_out(shapes, g, cluster)
        || (kind == Items::MembersAlone && !small_cluster(g, cluster))
    {
        return 0;
    }
    let Some(frame) = cluster_frame(shapes, g, cluster, empty_corners) else {
        return 0;
    };
    // A round with the empty corners taken in has nothing new to try without one.
    if empty_corners && frame.corners_taken_in.is_empty() {
        return 0;
    }
    let size = shapes.median_size;
    let limits = notch_limits(size);
    let regions = regions_of(&frame, size);
    // No region takes an item of more than this (see [`fits_area`], [`holds_a_run`]): a
    // larger cluster (the second puzzle of a mixed set) is not drawn and traced for nothing.
    let largest_region = regions.iter().map(|h| h.area).fold(0.0, f64::max);
    let items = items(shapes, g, cluster, largest_region / NOTCH_AREA.0, kind);
    // … nor without a cluster's piece among them (each left out by area or outline).
    let news = kind == Items::Clusters || items.iter().any(|it| it.member_of.is_some());
    if items.is_empty() || !news {
        return 0;
    }
    // While a cluster grew apart, a notch the hull's chord cuts across an empty corner is not
    // filled whole by a piece: the corner may be the cluster's, and the notch a part of its
    // place. Held-out irregular 100 photos seed 21 with three missing and three extraneous
    // pieces: a corner block of three grew apart, and the notch of one of its pieces, 0.55 of
    // a piece under the chord, took an extraneous piece whole (2.17 px, its picture running
    // on at 1.66), and another when that one was kept out; without them, the round that takes
    // the corner in fits the block to part of the corner's region (2.76 px) and the piece
    // beside it follows. Only a piece's whole fit: with such notches left out of the round
    // altogether, the clusters apart of irregular 100 photos seeds 67 and 86 no longer went
    // home (100 → 97.4 and 91.4 %).
    let awaited = !empty_corners && items.iter().any(|it| it.members.len() > 1);
    // Each region's fits that could matter, near enough to the tolerance to be chosen or to
    // rival the chosen one, with their colours read: those with the picture running on across
    // their seams, and the look-alikes, whose picture breaks there (a look-alike of another
    // puzzle fits a missing piece's hole as closely as the true pieces fit theirs).
    let per_region: Vec<(Vec<Fit>, Vec<Fit>)> = regions
        .par_iter()
        .map(|hole| {
            let region = region_key(hole, &frame, REGION_MARGIN * size);
            let waits = awaited && hole.open && frame.in_an_empty_corner(&hole.inside, size);
            region_fits(shapes, &frame, limits, (hole, region), &items, cache)
                .into_iter()
                .filter(|f| !(waits && !f.partial && items[f.item].members.len() == 1))
                .filter(|f| f.distance < AMBIGUITY * f.tolerance)
                .filter(|f| !sticks_out(shapes, g, cluster, &items[f.item], f, &frame))
                .filter(tight_beside_an_excused_knob)
                .filter_map(|f| {
                    let members = items[f.item]
                        .members
                        .iter()
                        .map(|&(i, at)| (i, f.pose * at));
                    let seams = if f.partial {
                        Seams::Chainlets
                    } else {
                        Seams::Stretches
                    };
                    let reading = seam_colour(shapes, colours, g, cluster, members, seams)
                        .filter(|r| enough_seams(&f, r))?;
                    let runs_on =
                        reading.factor <= max_colour(&f) && one_seam_runs_on(&f, reading.best);
                    Some((
                        runs_on,
                        Fit {
                            colour: reading.factor,
                            seams: reading.seams,
                            ..f
                        },
                    ))
                })
                .fold(
                    (Vec::new(), Vec::new()),
                    |(mut on, mut breaks), (runs_on, f)| {
                        if runs_on {
                            on.push(f)
                        } else {
                            breaks.push(f)
                        }
                        (on, breaks)
                    },
                )
        })
        .collect();
    // Each region's best fit, where nothing else fits that place nor that item another
    // place nearly as well; best first. A region filled from its ends takes a piece at each
    // end a round at most (the next fits against them): waiting a round for the second end
    // lost it where the first end's neighbour left the strip beside the puzzle's edge joined
    // to its slot (irregular 100 photos seed 39: a top edge's last two pieces, the second,
    // alone in a slot of 1.71 pieces' area, fitted turned round).
    let same_place = |a: P2, b: P2| (a - b).norm() < SAME_PLACE * size;
    let accepted = |best: &Fit, region: &[Fit], look_alikes: &[Fit]| {
        let clear = |other: &Fit| other.distance >= AMBIGUITY * best.distance;
        let rivals_here =
            |f: &&Fit| f.item != best.item && (!f.partial || same_place(f.centre, best.centre));
        let alone_here = region
            .iter()
            .filter(|f| !std::ptr::eq(*f, best))
            .filter(rivals_here)
            .all(clear)
            && !look_alikes
                .iter()
                .filter(rivals_here)
                .any(|f| look_alike_rivals(best, f));
        // A whole fit holds a piece all round, a fit to part of a region by two sides: a
        // piece that fits a region whole is not held back by places it fits partly
        // (irregular 100 photos seed 15: 1.62 px whole against 1.94 px partly elsewhere).
        // A fit judged by one seam (see `enough_seams`) must be the item's only place: where
        // it also fits elsewhere, the other fit has the better evidence (irregular 100 photos
        // seed 15 with three missing and three extraneous pieces: a piece fitted part of a
        // wrong region at 0.26 of the tolerance by one seam, its true place a whole fit at
        // 0.42).
        let mut elsewhere = per_region
            .iter()
            .flat_map(|(fits, _)| fits)
            .filter(|f| f.item == best.item && !same_place(f.centre, best.centre))
            .filter(|f| best.partial || !f.partial);
        let alone_there = if one_seam(best) {
            elsewhere.next().is_none()
        } else {
            elsewhere.all(clear)
        };
        best.distance <= bar(best, round) && alone_here && alone_there
    };
    let mut fits: Vec<Fit> = Vec::new();
    for (region, look_alikes) in &per_region {
        let Some(best) = region.first() else {
            continue;
        };
        if !accepted(best, region, look_alikes) {
            continue;
        }
        fits.push(*best);
        // The other end of a region filled from its ends, another item's fit to part of it a
        // piece or more away, is taken in the same round where it passes alone.
        if best.partial {
            let other_end = region.iter().find(|f| {
                f.partial && f.item != best.item && (f.centre - best.centre).norm() >= size
            });
            if let Some(other) = other_end.filter(|f| accepted(f, region, look_alikes)) {
                fits.push(*other);
            }
        }
    }
    place_fits(shapes, g, cluster, &items, fits)
}

/// The empty regions of `frame` that a round fits items to.
fn regions_of(frame: &Frame, size: f64) -> Vec<Hole> {
    empty_regions(
        frame,
        size.powi(2) / 3.0,
        (size / 8.0).max(2.0) as usize,
        notch_limits(size).depth,
    )
}

/// For each of `parts` (pieces of `cluster`), whether one of its pieces borders an empty
/// region of the cluster (a hole or notch a round would fill): only then can taking it off
/// free a place another item fits (see `reexamine`).
pub(super) fn beside_empty_regions(
    shapes: &Shapes,
    g: &Growth,
    cluster: u32,
    parts: &[Vec<usize>],
) -> Vec<bool> {
    let Some(frame) = cluster_frame(shapes, g, cluster, false) else {
        return vec![false; parts.len()];
    };
    let rims: Vec<fit::Rim> = regions_of(&frame, shapes.median_size)
        .into_iter()
        .filter(|h| !h.rim.is_empty())
        .map(|h| fit::Rim::new(h.rim))
        .collect();
    let reach = (SEAM_CLOSE_PX + 1) as f64;
    parts
        .iter()
        .map(|part| {
            part.iter().any(|&i| {
                let Some(p) = &g.placed[i] else {
                    return false;
                };
                shapes.pieces[i].outline.iter().step_by(2).any(|q| {
                    let q = p.pose * q;
                    rims.iter().any(|r| r.nearest_within(&q, reach).is_some())
                })
            })
        })
        .collect()
}

/// Whether `fit` places its item beyond the least rectangle holding the cluster by more than
/// [`BEYOND_BOUNDS`] of the median piece size (see [`Frame::beyond_bounds`]), unless one of
/// its border sides continues a placed piece's, end to start (see `border_line`), and it
/// reaches no farther than [`BEYOND_ON_BORDER`]. With a corner region empty, the least
/// rectangle need not follow the puzzle's frame, and a corner piece may bulge past it while
/// its bottom side runs on from its neighbour's (irregular 20 photos seed 9 with three
/// missing and three extraneous pieces: 0.42 of a piece); a piece sticking out of the
/// puzzle's side stands off its border line.
fn sticks_out(
    shapes: &Shapes,
    g: &Growth,
    cluster: u32,
    item: &Item,
    fit: &Fit,
    frame: &Frame,
) -> bool {
    let size = shapes.median_size;
    let reach = item
        .outline
        .iter()
        .map(|q| frame.beyond_bounds(&(fit.pose * q)))
        .fold(0.0, f64::max);
    if reach <= BEYOND_BOUNDS * size {
        return false;
    }
    if reach > BEYOND_ON_BORDER * size {
        return true;
    }
    let near: Vec<(usize, Pose)> = g
        .placed
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            p.as_ref()
                .filter(|p| p.cluster == cluster)
                .map(|p| (i, p.pose))
        })
        .filter(|(i, at)| {
            (at * shapes.pieces[*i].centroid - fit.centre).norm() < NEAR_BORDER * size
        })
        .collect();
    let tol = ENDPOINT_FRACTION * size;
    !item
        .members
        .iter()
        .any(|&(piece, at)| border_line::continued(shapes, &near, piece, &(fit.pose * at), tol) > 0)
}

/// Whether a piece with an outline is left out, or a cluster other than `largest` is placed:
/// else there is nothing to fit, and the cluster is not drawn.
pub(super) fn anything_left_out(shapes: &Shapes, g: &Growth, largest: u32) -> bool {
    g.placed.iter().enumerate().any(|(i, p)| match p {
        None => has_outline(shapes, i),
        Some(p) => p.cluster != largest,
    })
}

/// The cluster of most pieces, if it has 3 or more.
pub(super) fn largest_cluster(g: &Growth) -> Option<u32> {
    let count = cluster_sizes(g);
    (0..count.len())
        .max_by_key(|&c| count[c])
        .filter(|&c| count[c] >= 3)
        .map(|c| c as u32)
}

/// The number of pieces in each cluster, by cluster number.
pub(super) fn cluster_sizes(g: &Growth) -> Vec<usize> {
    let mut count: Vec<usize> = vec![0; g.clusters.max(1) as usize + 1];
    for p in g.placed.iter().flatten() {
        if let Some(c) = count.get_mut(p.cluster as usize) {
            *c += 1;
        }
    }
    count
}

#[cfg(test)]
mod tests;
