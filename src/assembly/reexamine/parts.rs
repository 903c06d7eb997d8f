//! Which parts of a cluster are taken off and tried elsewhere: those held to the rest by one
//! neighbour, by poor seams only, or by their fit alone, and whether a part sticks out of the
//! puzzle.

use super::super::geometry::{convex_depth, convex_hull, min_area_rectangle, P2};
use super::super::grow::Growth;
use super::super::outer_frame::reaches_past;
use super::super::seam_graph::{small_side, SeamGraph};
use super::super::shapes::Shapes;
use super::MAX_PART;

/// See [`outside_the_rest`].
const OUTSIDE_SHARE: f64 = 0.5;

/// A part of a cluster held to the rest through one neighbour only.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Held {
    /// Its pieces, sorted.
    pub(super) part: Vec<usize>,
    pub(super) by: HeldBy,
}

/// What holds a part to the rest of its cluster.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum HeldBy {
    /// The one neighbour it hangs on.
    Neighbour(usize),
    /// Poor seams only (see [`SeamGraph::poorly_held_parts`]), no one holder.
    PoorSeams,
    /// Its fit alone: a piece the holes step placed, with no recorded mate.
    Fit,
}

impl Held {
    /// The neighbour it hangs on, if one holds it.
    pub(super) fn holder(&self) -> Option<usize> {
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
pub(super) fn singly_held_parts(
    shapes: &Shapes,
    g: &Growth,
    cluster: u32,
    good_seam: f64,
) -> Vec<Held> {
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
pub(super) fn outside_the_rest(shapes: &Shapes, g: &Growth, cluster: u32, part: &[usize]) -> bool {
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
