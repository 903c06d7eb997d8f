//! What the step places: a piece left out, or a small cluster that growth could not join to
//! the largest (its seams with it failed the closure test too, e.g. beside a piece the front
//! end damaged). A cluster fills a hole or notch of its own shape as a piece does, moved as
//! one: its outline is its pieces' outlines taken together.

use super::super::geometry::P2;
use super::super::grow::Growth;
use super::super::shapes::{straight_within, Shapes};
use super::cache::item_key;
use super::fit::mean_point;
use super::fit::Rim;
use super::raster::cluster_frame;
use nalgebra::Isometry2;

/// A piece, or a cluster's pieces, fitted as one.
pub(super) struct Item {
    /// Each piece and its pose in the item's frame (source pixels for a left-out piece, the
    /// cluster's frame for a cluster).
    pub members: Vec<(usize, Isometry2<f64>)>,
    /// In the item's frame, in order round it.
    pub outline: Vec<P2>,
    /// Pixels.
    pub area: f64,
    pub centroid: P2,
    /// The cluster it is, if it is one.
    pub cluster: Option<u32>,
    /// The cluster a piece fitted alone belongs to (see [`Items::MembersAlone`]).
    pub member_of: Option<u32>,
    /// Its pieces and their poses, hashed (see [`item_key`]).
    pub key: u64,
    /// Its pieces' border sides, in its frame (see `fit::on_border`).
    pub border: Option<Rim>,
}

/// How the clusters other than the largest are offered.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Items {
    /// Each as one item, moved whole.
    Clusters,
    /// Each piece of a cluster of at most [`MAX_MEMBERS_ALONE`] as an item of its own: a
    /// cluster whose shape fits no region may still hold a piece that fits one, at the end of
    /// a run (irregular 100 photos seed 14: a pair of border pieces, one above the other,
    /// fits its notch whole only within 14 % of cutting in, its two pieces' angle a little
    /// off). The cluster keeps the rest for the next round.
    MembersAlone,
}

/// Clusters of more pieces are not taken apart: a second puzzle's, or a part of this one
/// large enough to carry its own evidence.
pub(super) const MAX_MEMBERS_ALONE: usize = 4;

/// Whether a cluster other than `largest` has few pieces enough to be taken apart (see
/// [`Items::MembersAlone`]).
pub(super) fn small_cluster(g: &Growth, largest: u32) -> bool {
    (0..g.clusters).filter(|&c| c != largest).any(|c| {
        let n = g.placed.iter().flatten().filter(|p| p.cluster == c).count();
        (2..=MAX_MEMBERS_ALONE).contains(&n)
    })
}

/// The pieces left out (with an outline to fit) and the clusters other than `largest`, of
/// at most `max_area` pixels: a cluster is drawn and traced only then.
pub(super) fn items(
    shapes: &Shapes,
    g: &Growth,
    largest: u32,
    max_area: f64,
    kind: Items,
) -> Vec<Item> {
    let area = |i: usize| shapes.pieces[i].size.powi(2);
    let fits_alone = |i: usize| has_outline(shapes, i) && area(i) <= max_area;
    let mut items: Vec<Item> = (0..shapes.pieces.len())
        .filter(|&i| g.placed[i].is_none() && fits_alone(i))
        .map(|i| alone(shapes, i, None))
        .collect();
    for c in (0..g.clusters).filter(|&c| c != largest) {
        let members: Vec<(usize, Isometry2<f64>)> = g
            .placed
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.as_ref().filter(|p| p.cluster == c).map(|p| (i, p.pose)))
            .collect();
        if kind == Items::MembersAlone {
            if (2..=MAX_MEMBERS_ALONE).contains(&members.len()) {
                items.extend(
                    members
                        .iter()
                        .filter(|&&(i, _)| fits_alone(i))
                        .map(|&(i, _)| alone(shapes, i, Some(c))),
                );
            }
            continue;
        }
        let total: f64 = members.iter().map(|&(i, _)| area(i)).sum();
        if members.is_empty() || total > max_area {
            continue;
        }
        let Some(frame) = cluster_frame(shapes, g, c, false) else {
            continue;
        };
        let outline = frame.outer_outline();
        if outline.len() < 8 {
            continue;
        }
        items.push(Item {
            key: item_key(&members),
            border: border_rim(shapes, Some(g), &members),
            area: total,
            members,
            centroid: mean_point(&outline),
            outline,
            cluster: Some(c),
            member_of: None,
        });
    }
    items
}

/// Whether piece `i`'s outline has points enough to be fitted at all.
pub(super) fn has_outline(shapes: &Shapes, i: usize) -> bool {
    shapes.pieces[i].outline.len() >= 8
}

/// Piece `i` as an item of its own, in its source pixels; `member_of` its cluster, if any.
fn alone(shapes: &Shapes, i: usize, member_of: Option<u32>) -> Item {
    let piece = &shapes.pieces[i];
    let members = vec![(i, Isometry2::identity())];
    Item {
        key: item_key(&members),
        // Every straight side of a loose piece, nothing having mated it yet, even where the cut
        // has straight interior sides too: `fit::on_border` leaves a point out only where it
        // faces the outside, nearer the hull's edge than to any rim, which an interior side
        // facing its neighbour's rim does not. Taking none where the cut has straight interior
        // sides left a border piece's side along a wavy edge compared with a rim it does not
        // face (irregular 100 photos seed 13: piece 61 at its true pose, 11–13 % of its points
        // outliers where 8 % are allowed; it fitted the corner notch beside it instead).
        border: border_rim(shapes, None, &members),
        members,
        outline: piece.outline.clone(),
        area: piece.size.powi(2),
        centroid: piece.centroid,
        cluster: None,
        member_of,
    }
}

/// A chainlet deviating from its chord by less than this fraction of the chord may be a border
/// side here, looser than the matings' straightness (`shapes::STRAIGHT_FRACTION`, 0.06): an
/// irregular puzzle's edge bows, and a corner piece's top side bowing 8 px over its chord
/// (0.066) was not taken for border, so that its corner, in the empty corner the hull takes
/// in, was judged against a rim it does not face (irregular 20 photos seed 18 with three
/// missing and three extraneous pieces at 120 px: 5 stray points, its pair's true fit at
/// 3.36 px over the bar of 2.72, and the pair left apart). A knob stands out by 20–30 %, and
/// `fit::on_border` still leaves a point out only where it faces the outside.
const BORDER_STRAIGHT_FRACTION: f64 = 0.1;

/// The border sides of `members` (piece, pose) in the item's frame, for `fit::on_border`: their
/// straight chainlets (see [`BORDER_STRAIGHT_FRACTION`]) that `g` (if given) has not mated;
/// `None` without any. An irregular cut has straight interior sides too, which face a piece:
/// those mated are not border (irregular 100 photos seed 24, where taking every straight
/// chainlet for border let corner piece 21 fit wrong).
fn border_rim(
    shapes: &Shapes,
    g: Option<&Growth>,
    members: &[(usize, Isometry2<f64>)],
) -> Option<Rim> {
    let points: Vec<P2> = members
        .iter()
        .flat_map(|(i, pose)| {
            shapes.pieces[*i]
                .chainlets
                .iter()
                .filter(|&&c| {
                    straight_within(&shapes.chainlets[c].points, BORDER_STRAIGHT_FRACTION)
                })
                .filter(|&&c| g.is_none_or(|g| g.mate_of[c].is_none()))
                .flat_map(move |&c| shapes.chainlets[c].points.iter().map(move |q| pose * q))
        })
        .collect();
    (!points.is_empty()).then(|| Rim::new(points))
}
