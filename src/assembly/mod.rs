//! Assembly: from a [`crate::piece_set::PieceSet`] to placed pieces, by Freeman & Garder's
//! method: mating candidates by feature similarity ([`candidates`]), contour comparison
//! ([`compare`]) into a mating table ([`matings`]), and outward growth by junction closure
//! ([`grow`]). The result is the assembly table ([`Assembly`]).

pub mod bias;
mod border_line;
pub mod candidates;
mod carried;
mod closure;
pub mod compare;
mod cut_apart;
pub mod edge_colour;
pub mod geometry;
pub mod grow;
mod grower;
mod holes;
mod leaning;
pub mod matings;
mod member_grid;
mod merge;
mod outer_frame;
mod output;
pub mod partial;
mod pocket;
mod pose_graph;
mod reexamine;
mod rejoin;
mod relax;
mod restarts;
mod seam_graph;
mod settle;
pub mod shapes;
mod spanning;
mod straight;
mod table;
mod weak;
pub mod zoom;

pub use candidates::FeatureStats;
pub use table::{Assembly, JunctionRecord, MateRecord, PlacedPiece, UnplacedPiece};

use crate::piece_set::PieceSet;
use serde::Serialize;
use std::time::Instant;

/// How long each stage took, for `--timings` and the benchmark.
#[derive(Clone, Debug, Default, Serialize)]
pub struct AssemblyTimings {
    /// Shapes and feature candidates, including the search for the outline inset.
    pub candidates_s: f64,
    pub comparison_s: f64,
    pub assembly_s: f64,
}

/// The assembly and what it took to get there.
#[derive(Clone, Debug, Serialize)]
pub struct AssemblyReport {
    pub assembly: Assembly,
    pub timings: AssemblyTimings,
    pub feature_stats: FeatureStats,
    /// Δ threshold T derived from this puzzle (pixels², over the comparison samples).
    pub delta_threshold: f64,
    /// The smallest and largest scale factor applied to bring the photos to one zoom (see
    /// [`zoom`]); absent when they share one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zoom_range: Option<[f64; 2]>,
    /// Pixels every outline was moved inward to undo the segmentation's bias (see [`bias`]);
    /// 0 when no inset made the outlines fit their mates better.
    pub outline_inset: f64,
    /// Contour comparisons made (of the last matching pass).
    pub comparisons: usize,
    /// Closures that failed the intersection or closure test and were backed out of.
    pub rejected_closures: usize,
    /// Chainlets, those with enough shape to match (not straight), those with at least one
    /// feature-similar candidate, and those with at least one acceptable mating.
    pub chainlets: usize,
    pub chainlets_shaped: usize,
    pub chainlets_with_candidates: usize,
    pub chainlets_with_matings: usize,
    /// Feature-similar candidates per shaped chainlet, on average: each was compared coarsely.
    pub mean_candidates: f64,
    /// Secondary critical points added where Type II matings end (see [`partial`]).
    pub secondary_points: usize,
    /// False critical points removed where chainlets joined match another piece's chainlet.
    pub false_corners_removed: usize,
    /// Blocks of the grown cluster held by one seam that were cut off and merged back where
    /// several seams agree (see [`rejoin`]).
    pub blocks_rejoined: usize,
    /// Parts of the cluster held by one neighbour that were taken off and placed better by
    /// the holes step (see [`reexamine`]).
    pub parts_moved: usize,
    /// Seams of a cluster apart cut because the holes step then placed more (see
    /// [`cut_apart`]).
    pub clusters_cut: usize,
    /// Seams found closed once the assembly was settled (see [`settle`]).
    pub seams_closed: usize,
    /// The piece set with its critical points revised (added or removed), when any were: the
    /// mates in the assembly table name its chainlets, so the dumps must be written from it.
    #[serde(skip)]
    pub piece_set: Option<PieceSet>,
}

/// Candidates per chainlet kept after the feature test, smallest separation first. Every one
/// is compared coarsely (one rigid fit), which costs little, so this only bounds the worst
/// case: feature separation ranks true mates poorly on noisy photographs, and at 500 pieces a
/// limit of 40 lost the true mate of 4 chainlets in 10. Measured on classic 500 photos
/// (seeds 2, 11, 12) with colour: 40 gave 33, 16 and 28 % neighbour accuracy; 100 gave 91,
/// 45, 92 %; 200 gave 99.7, 78, 97 %; 400 gave 100, 93, 98 %; 1000 gave 100, 98, 98 %.
const CANDIDATE_LIMIT: usize = 1000;

/// Assembles the pieces of `set`. Never fails: pieces that cannot be placed are listed in
/// [`Assembly::unplaced`] with the reason.
pub fn assemble(set: &PieceSet) -> AssemblyReport {
    let t0 = Instant::now();
    // Outlines biased off the cut (see `bias`): matched at the inset that fits best.
    let bias::Fitted {
        inset: outline_inset,
        mut shapes,
        candidates: mut cands,
        stats,
    } = bias::fitted_inset(set, CANDIDATE_LIMIT);
    let t1 = Instant::now();
    let mut table = matings::mating_table(
        &shapes,
        &cands,
        stats,
        edge_colour::SeamColours::read(&shapes),
    );
    // Photos at different zooms: brought to one, and matched again.
    let scales = zoom::piece_scales(&shapes, &table);
    if let Some(k) = &scales {
        shapes = shapes.rescaled(k);
        // The colour profiles were read where the outlines lie in the photos: kept.
        (cands, table) = matched(&shapes, std::mem::take(&mut table.colours));
    }
    // Type II matings: cut chainlets where partial mates end, then match the new chainlets.
    let refined = partial::split_at_partial_matings(set, &shapes, &table);
    if let Some((refined_set, _)) = &refined {
        shapes = shapes::build_shapes(refined_set, outline_inset);
        let colours = edge_colour::SeamColours::read(&shapes);
        if let Some(k) = &scales {
            shapes = shapes.rescaled(k);
        }
        (cands, table) = matched(&shapes, colours);
    }
    let t2 = Instant::now();
    let mut growth = restarts::grow(&shapes, &table);
    let blocks_rejoined = rejoin::rejoin_bridged_blocks(&shapes, &table, &mut growth);
    let revised = fill_what_is_left(&shapes, &table, &mut growth);
    let seams_closed = settle::settle(&shapes, &table, &mut growth, settle::Leaning::OnContacts);
    let assembly = output::to_assembly(&shapes, &table, &growth);
    let t3 = Instant::now();
    let shaped = shapes.chainlets.iter().filter(|c| !c.straight).count();
    AssemblyReport {
        assembly,
        timings: AssemblyTimings {
            candidates_s: (t1 - t0).as_secs_f64(),
            comparison_s: (t2 - t1).as_secs_f64(),
            assembly_s: (t3 - t2).as_secs_f64(),
        },
        feature_stats: table.stats.clone(),
        delta_threshold: table.delta_threshold,
        zoom_range: scales.as_ref().map(|k| {
            let (lo, hi) = k
                .iter()
                .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
            [lo, hi]
        }),
        outline_inset,
        comparisons: table.comparisons,
        rejected_closures: growth.rejections,
        chainlets: shapes.chainlets.len(),
        chainlets_shaped: shaped,
        chainlets_with_candidates: cands.iter().filter(|c| !c.is_empty()).count(),
        chainlets_with_matings: table.per_chainlet.iter().filter(|m| !m.is_empty()).count(),
        mean_candidates: cands.iter().map(Vec::len).sum::<usize>() as f64 / shaped.max(1) as f64,
        secondary_points: refined.as_ref().map_or(0, |r| r.1.added),
        false_corners_removed: refined.as_ref().map_or(0, |r| r.1.removed),
        blocks_rejoined,
        parts_moved: revised.parts_moved,
        clusters_cut: revised.clusters_cut,
        seams_closed,
        piece_set: refined.map(|r| r.0),
    }
}

/// The holes step and the re-examination of single holds (see [`holes`], [`reexamine`]) on
/// the grown clusters as they are, and, while that leaves something out, once more on the
/// clusters settled first (see [`settle`]): a hole between two paths of growth is out of
/// shape until the cluster is settled, but settling also moves the pieces around a hole
/// that fitted as grown. The outcome whose largest cluster holds more pieces is kept (the
/// unsettled one on a tie), and while it still leaves something out, both steps run once
/// more on it settled with what it filled. Returns what the re-examination and the cuts
/// changed.
fn fill_what_is_left(
    shapes: &shapes::Shapes,
    table: &matings::MatingTable,
    growth: &mut grow::Growth,
) -> Revised {
    // The re-examination's trials refill the holes with most regions as they were.
    let fits = holes::FitCache::default();
    let moved = fill_and_settle(shapes, table, growth, &fits);
    holes::fill_with_loose_groups(shapes, table, growth, &fits);
    moved
}

/// [`fill_what_is_left`] but for the left-out pieces that mate one another.
fn fill_and_settle(
    shapes: &shapes::Shapes,
    table: &matings::MatingTable,
    growth: &mut grow::Growth,
    fits: &holes::FitCache,
) -> Revised {
    let grown = growth.clone();
    let fill = |g: &mut grow::Growth| {
        holes::fill_holes(shapes, &table.colours, g, fits);
        let mut parts_moved = reexamine::reexamine_single_holds(shapes, table, g, fits);
        let clusters_cut = cut_apart::cut_clusters_apart(shapes, &table.colours, g, fits);
        // A block cut off and placed may leave a part of the largest cluster to move.
        if clusters_cut > 0 {
            parts_moved += reexamine::reexamine_single_holds(shapes, table, g, fits);
        }
        Revised {
            parts_moved,
            clusters_cut,
        }
    };
    let moved = fill(growth);
    let largest = |g: &grow::Growth| {
        holes::largest_cluster(g).map(|c| (c, holes::cluster_sizes(g)[c as usize]))
    };
    let Some((cluster, size)) = largest(growth) else {
        return moved;
    };
    if !table.colours.knows_colours() || !holes::anything_left_out(shapes, growth, cluster) {
        return moved;
    }
    let mut settled = grown;
    settle::settle(shapes, table, &mut settled, settle::Leaning::OnSeamsOnly);
    let moved_settled = fill(&mut settled);
    let (mut moved, mut size) = (moved, size);
    if let Some((_, s)) = largest(&settled).filter(|&(_, s)| s > size) {
        *growth = settled;
        moved = moved_settled;
        size = s;
    }
    // Each outcome may fill a region the other cannot: settling moves the pieces around a
    // notch by a pixel or two, enough to open or close it to a piece (irregular 100 photos
    // seed 45: the grown cluster fits a border piece's region, the settled one only its
    // neighbour's). The better one, settled with what it filled and filled again, may take
    // both.
    let Some((cluster, _)) = largest(growth) else {
        return moved;
    };
    if !holes::anything_left_out(shapes, growth, cluster) {
        return moved;
    }
    let mut again = growth.clone();
    settle::settle(shapes, table, &mut again, settle::Leaning::OnSeamsOnly);
    let moved_again = fill(&mut again);
    if largest(&again).is_some_and(|(_, s)| s > size) {
        *growth = again;
        return Revised {
            parts_moved: moved.parts_moved + moved_again.parts_moved,
            clusters_cut: moved.clusters_cut + moved_again.clusters_cut,
        };
    }
    moved
}

/// What the re-examination (see [`reexamine`]) and the cuts of clusters apart (see
/// [`cut_apart`]) changed.
#[derive(Clone, Copy, Debug, Default)]
struct Revised {
    parts_moved: usize,
    clusters_cut: usize,
}

/// Feature candidates and the mating table of `shapes`, matched afresh (after their outlines
/// changed), weighed by `colours`.
fn matched(
    shapes: &shapes::Shapes,
    colours: edge_colour::SeamColours,
) -> (Vec<Vec<candidates::Candidate>>, matings::MatingTable) {
    let (cands, stats) = candidates::mating_candidates(shapes, CANDIDATE_LIMIT);
    let table = matings::mating_table(shapes, &cands, stats, colours);
    (cands, table)
}
