//! Fits of left-out pieces on small hand-made clusters of square cells.

use super::fit::{fit_to_notch, fit_to_rim};
use super::partial::fit_partial;
use super::region_fits::{fits_area, holds_a_run};
use super::*;
use crate::assembly::shapes::PieceShape;
use nalgebra::{Isometry2, Vector2};

/// A 40 px cell with its top left corner at (x, y), clockwise on screen.
fn cell(x: f64, y: f64) -> Vec<P2> {
    vec![
        P2::new(x, y),
        P2::new(x + 40.0, y),
        P2::new(x + 40.0, y + 40.0),
        P2::new(x, y + 40.0),
    ]
}

/// The `k`-th piece placed where it was cut, as growth would have placed it.
fn placed_as_cut(k: usize) -> Placed {
    Placed {
        pose: Isometry2::identity(),
        sequence: k as u32 + 1,
        cluster: 0,
        supports: 2,
        merit: 0.5,
        spans: 0,
    }
}

/// The outline of a piece: `corners` joined by points 1 px apart, moved by `pose`.
fn piece(id: u32, corners: &[P2], pose: Isometry2<f64>) -> PieceShape {
    let mut outline = Vec::new();
    for (k, a) in corners.iter().enumerate() {
        let b = corners[(k + 1) % corners.len()];
        let n = (b - a).norm().ceil() as usize;
        outline.extend((0..n).map(|t| pose * (a + (b - a) * (t as f64 / n as f64))));
    }
    let area = super::super::geometry::signed_area(&outline).abs();
    PieceShape {
        outline,
        size: area.sqrt(),
        ..PieceShape::bare(id, String::new(), Vec::new())
    }
}

/// The cell at column 1, row 1 with a hole in its top side, where the knob of
/// [`edge_with_knob_below`] goes.
fn cell_with_hole_on_top() -> Vec<P2> {
    let mut corners = cell(40.0, 40.0);
    corners.splice(
        1..1,
        [
            P2::new(50.0, 40.0),
            P2::new(50.0, 60.0),
            P2::new(70.0, 60.0),
            P2::new(70.0, 40.0),
        ],
    );
    corners
}

/// The cell at column 1, row 0 (on the top edge) with a knob on its lower side.
fn edge_with_knob_below() -> Vec<P2> {
    let mut corners = cell(40.0, 0.0);
    corners.splice(
        3..3,
        [
            P2::new(70.0, 40.0),
            P2::new(70.0, 60.0),
            P2::new(50.0, 60.0),
            P2::new(50.0, 40.0),
        ],
    );
    corners
}

/// One cluster of the given cells of 40 px, each placed where it was cut, shaped by `shape`
/// (plain cells where it gives `None`).
fn cluster_of(
    cells: &[(i32, i32)],
    shape: impl Fn((i32, i32)) -> Option<Vec<P2>>,
) -> (Shapes, Growth) {
    let mut shapes = Shapes {
        median_size: 40.0,
        ..Shapes::default()
    };
    let mut g = Growth {
        placed: vec![None; cells.len()],
        clusters: 1,
        ..Growth::default()
    };
    for (k, &(i, j)) in cells.iter().enumerate() {
        let corners = shape((i, j)).unwrap_or_else(|| cell(40.0 * i as f64, 40.0 * j as f64));
        shapes
            .pieces
            .push(piece(k as u32 + 1, &corners, Isometry2::identity()));
        g.placed[k] = Some(placed_as_cut(k));
    }
    (shapes, g)
}

/// A 3 × 3 grid of 40 px cells: the eight round the middle placed where they belong, the
/// middle one (a cell with a knob, photographed turned and elsewhere) left out, with a
/// smaller piece.
#[test]
fn a_piece_left_out_of_a_closed_hole_is_fitted_to_its_rim() {
    let mut shapes = Shapes {
        median_size: 40.0,
        ..Shapes::default()
    };
    let mut g = Growth {
        placed: vec![None; 10],
        clusters: 1,
        ..Growth::default()
    };
    for (k, (i, j)) in (0..3)
        .flat_map(|i| (0..3).map(move |j| (i, j)))
        .filter(|&c| c != (1, 1))
        .enumerate()
    {
        shapes.pieces.push(piece(
            k as u32 + 1,
            &cell(40.0 * i as f64, 40.0 * j as f64),
            Isometry2::identity(),
        ));
        g.placed[k] = Some(placed_as_cut(k));
    }
    // The middle cell's left side bulges into a hole of its neighbour: a piece that fits
    // one way round only.
    let mut middle = cell(40.0, 40.0);
    middle.splice(
        3..3,
        [
            P2::new(40.0, 70.0),
            P2::new(30.0, 70.0),
            P2::new(30.0, 50.0),
            P2::new(40.0, 50.0),
        ],
    );
    let left = &mut shapes.pieces[1];
    *left = piece(2, &cell(0.0, 40.0), Isometry2::identity());
    let mut notched = cell(0.0, 40.0);
    notched.splice(
        2..2,
        [
            P2::new(40.0, 50.0),
            P2::new(30.0, 50.0),
            P2::new(30.0, 70.0),
            P2::new(40.0, 70.0),
        ],
    );
    notched.reverse();
    *left = piece(2, &notched, Isometry2::identity());
    let taken = Isometry2::new(Vector2::new(300.0, 120.0), 2.0);
    shapes.pieces.push(piece(9, &middle, taken));
    shapes
        .pieces
        .push(piece(10, &cell(0.0, 0.0)[..3], Isometry2::identity()));
    let frame = cluster_frame(&shapes, &g, 0, false).unwrap();
    let holes = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, 8.0);
    assert_eq!(holes.len(), 1);
    assert!(!holes[0].open);
    assert!((holes[0].area - 1800.0).abs() < 60.0, "{}", holes[0].area);
    let (pose, d) = fit_to_rim(&shapes.pieces[8].outline, &holes[0]);
    assert!(d < 2.0, "{d}");
    // Fitted as it was cut: its pose undoes the photograph's.
    let back = pose * taken;
    assert!(back.translation.vector.norm() < 1.5, "{back:?}");
    assert!(back.rotation.angle().abs() < 0.03, "{back:?}");
    // Without the picture a look-alike could not be told from it: nothing is placed.
    assert_eq!(
        fill_holes(
            &shapes,
            &SeamColours::default(),
            &mut g,
            &FitCache::default()
        ),
        0
    );
    assert!(g.placed[8].is_none());
    assert!(g.placed[9].is_none());
}

/// Two rows of three 40 px cells, the top middle one left out: an edge piece, its top side
/// straight and a knob on its lower side, photographed turned and elsewhere. The hull
/// closes the notch it leaves; its three shaped sides fit the notch's rim and bring it back
/// as it was cut, while a plain square of its size fits worse than the tolerance.
#[test]
fn an_edge_piece_left_out_of_a_notch_is_fitted_to_its_rim() {
    let (shapes, g) = cluster_of(&[(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)], |c| {
        (c == (1, 1)).then(cell_with_hole_on_top)
    });
    let edge = edge_with_knob_below();
    let taken = Isometry2::new(Vector2::new(300.0, 120.0), 2.0);
    let knobbed = piece(6, &edge, taken).outline;
    let plain = piece(7, &cell(40.0, 0.0), taken).outline;
    let frame = cluster_frame(&shapes, &g, 0, false).unwrap();
    let regions = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, 8.0);
    assert_eq!(regions.len(), 1);
    let notch = &regions[0];
    assert!(notch.open);
    assert!(fits_area(notch, 2000.0), "{}", notch.area);
    let limits = notch_limits(40.0);
    let tolerance = limits.tolerance;
    let (pose, d) = fit_to_notch(&knobbed, notch, &frame, limits).unwrap();
    assert!(d < 1.5, "{d}");
    let back = pose * taken;
    assert!(back.translation.vector.norm() < 1.5, "{back:?}");
    assert!(back.rotation.angle().abs() < 0.03, "{back:?}");
    let square = fit_to_notch(&plain, notch, &frame, limits);
    assert!(square.is_none_or(|(_, d)| d > tolerance), "{square:?}");
}

/// Two rows of four 40 px cells, the middle two of the top row left out: one notch of two
/// pieces' area, which no single piece fills. The left one of the run has a knob on its
/// lower side; its left and lower sides meet the rim, its right side faces the other empty
/// cell. It is fitted to that part of the notch and brought back as it was cut. The right
/// end of the notch has a knob of its neighbour reaching in: neither piece fits there.
/// A plain square fits neither end (at the left one, the knob's hole would be left
/// empty).
#[test]
fn the_end_piece_of_a_run_left_out_is_fitted_to_part_of_the_notch() {
    let cells = [(0, 0), (3, 0), (0, 1), (1, 1), (2, 1), (3, 1)];
    let (shapes, g) = cluster_of(&cells, |c| match c {
        (1, 1) => Some(cell_with_hole_on_top()),
        // A knob into the right end, on its left side.
        (3, 0) => {
            let mut corners = cell(120.0, 0.0);
            corners.extend([
                P2::new(120.0, 30.0),
                P2::new(105.0, 30.0),
                P2::new(105.0, 15.0),
                P2::new(120.0, 15.0),
            ]);
            Some(corners)
        }
        _ => None,
    });
    let end = edge_with_knob_below();
    let taken = Isometry2::new(Vector2::new(300.0, 120.0), 2.0);
    let knobbed = piece(7, &end, taken).outline;
    let plain = piece(8, &cell(40.0, 0.0), taken).outline;
    let frame = cluster_frame(&shapes, &g, 0, false).unwrap();
    let regions = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, 8.0);
    assert_eq!(regions.len(), 1);
    let notch = &regions[0];
    assert!(notch.open);
    let area = 1600.0 + 400.0;
    assert!(
        !fits_area(notch, area) && holds_a_run(notch, area),
        "{}",
        notch.area
    );
    let limits = notch_limits(40.0);
    let bar = PARTIAL_TOLERANCE * limits.tolerance;
    let places = fit_partial(&knobbed, notch, &frame, limits, 40.0);
    let &(pose, d) = places.first().expect("a fit to part of the notch");
    assert!(d < bar, "{d}");
    let back = pose * taken;
    assert!(back.translation.vector.norm() < 1.5, "{back:?}");
    assert!(back.rotation.angle().abs() < 0.03, "{back:?}");
    // Nowhere else nearly as well.
    assert!(
        places[1..].iter().all(|&(_, other)| other >= AMBIGUITY * d),
        "{places:?}"
    );
    let squares = fit_partial(&plain, notch, &frame, limits, 40.0);
    assert!(squares.iter().all(|&(_, d)| d > bar), "{squares:?}");
}

/// Three rows of four 40 px cells, the middle two of the middle row held by a second cluster,
/// turned and elsewhere (growth could not join it). Taken together its two pieces' outlines
/// fit the hole the two cells leave; moved by that fit into the first cluster, both come
/// back as they were cut and one cluster is left.
#[test]
fn a_small_cluster_is_fitted_to_the_hole_of_its_shape_and_joins() {
    let (shapes, mut g) = grid_with_cells_apart(|i, j| j == 1 && (i == 1 || i == 2));
    let frame = cluster_frame(&shapes, &g, 0, false).unwrap();
    let holes = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, 8.0);
    assert_eq!(holes.len(), 1);
    // A bound under the pair's area (no region could take it) leaves it out untraced.
    assert!(items(&shapes, &g, 0, 3000.0, Items::Clusters).is_empty());
    let all = items(
        &shapes,
        &g,
        0,
        holes[0].area / NOTCH_AREA.0,
        Items::Clusters,
    );
    assert_eq!(all.len(), 1);
    let pair = &all[0];
    assert_eq!(pair.cluster, Some(1));
    assert_eq!(pair.members.len(), 2);
    assert!((pair.area - 3200.0).abs() < 100.0, "{}", pair.area);
    // One outline round both, in order (no seam between them): the pair's perimeter, 240 px.
    let n = pair.outline.len();
    let length: f64 = (0..n)
        .map(|k| (pair.outline[(k + 1) % n] - pair.outline[k]).norm())
        .sum();
    assert!((225.0..=255.0).contains(&length), "{length}");
    assert!(fits_area(&holes[0], pair.area));
    let (pose, d) = fit_to_rim(&pair.outline, &holes[0]);
    assert!(d < 2.0, "{d}");
    move_cluster(&mut g, 1, 0, &pose);
    assert_eq!(g.clusters, 1);
    for p in g.placed.iter().flatten() {
        assert_eq!(p.cluster, 0);
        assert!(p.pose.translation.vector.norm() < 1.5, "{:?}", p.pose);
        assert!(p.pose.rotation.angle().abs() < 0.03, "{:?}", p.pose);
    }
}

/// Three rows of four 40 px cells, placed as cut in cluster 0 but those `apart` picks, which
/// a second cluster holds, turned and elsewhere.
fn grid_with_cells_apart(apart: impl Fn(i32, i32) -> bool) -> (Shapes, Growth) {
    let mut shapes = Shapes {
        median_size: 40.0,
        ..Shapes::default()
    };
    let cells: Vec<(i32, i32)> = (0..3).flat_map(|j| (0..4).map(move |i| (i, j))).collect();
    let taken = Isometry2::new(Vector2::new(500.0, 300.0), 2.0);
    let mut g = Growth {
        placed: vec![None; cells.len()],
        clusters: 2,
        ..Growth::default()
    };
    for (k, &(i, j)) in cells.iter().enumerate() {
        shapes.pieces.push(piece(
            k as u32 + 1,
            &cell(40.0 * i as f64, 40.0 * j as f64),
            Isometry2::identity(),
        ));
        let mut p = placed_as_cut(k);
        if apart(i, j) {
            p.cluster = 1;
            p.pose = taken;
        }
        g.placed[k] = Some(p);
    }
    (shapes, g)
}

/// After a round that placed nothing, a small cluster's pieces are offered one by one, each
/// in its source pixels and marked with its cluster, not the cluster whole; a cluster of
/// more pieces than [`items::MAX_MEMBERS_ALONE`] is not taken apart.
#[test]
fn a_small_clusters_pieces_are_offered_alone() {
    let (shapes, g) = grid_with_cells_apart(|i, j| j == 1 && (i == 1 || i == 2));
    assert!(small_cluster(&g, 0));
    let alone = items(&shapes, &g, 0, f64::MAX, Items::MembersAlone);
    assert_eq!(alone.len(), 2);
    for it in &alone {
        assert_eq!((it.cluster, it.member_of), (None, Some(1)));
        assert_eq!(it.members.len(), 1);
        assert_eq!(it.members[0].1, Isometry2::identity());
        assert_eq!(it.outline, shapes.pieces[it.members[0].0].outline);
    }
    let (shapes, g) = grid_with_cells_apart(|_, j| j == 2 || j == 1);
    assert!(!small_cluster(&g, 0));
    assert!(items(&shapes, &g, 0, f64::MAX, Items::MembersAlone).is_empty());
    assert_eq!(items(&shapes, &g, 0, f64::MAX, Items::Clusters).len(), 1);
}

/// A whole fit is accepted within its tolerance, or half of it for a fit to part of a region
/// (held by two sides); where the picture runs on across its seams as across a typical true
/// seam, within 1.5 times the tolerance, but a fit to part of a region never so.
#[test]
fn a_fit_whose_picture_runs_on_well_is_accepted_a_little_farther() {
    let fit = |partial: bool, colour: f64| fit_of(partial, 0.0, colour);
    assert_eq!(bar(&fit(false, 1.6)), 4.0);
    assert_eq!(bar(&fit(false, 1.1)), 6.0);
    assert_eq!(bar(&fit(true, 1.6)), 2.0);
    assert_eq!(bar(&fit(true, 1.1)), 2.0);
}

/// Two rows of five 40 px cells, the second and fourth of the top row left out, the first
/// and last 6 px taller: the hull's chord runs 6 px above the middle cell, and the strip
/// under it joins the two notches into one region. Each is also a region of its own, since
/// only what lies deeper than the notch depth (8 px) inside the hull separates them; without
/// that depth the strip makes them one only.
#[test]
fn notches_joined_by_the_strip_under_the_hull_are_regions_of_their_own() {
    let (shapes, g) = two_rows_with_tall_ends(5, &[1, 3]);
    let frame = cluster_frame(&shapes, &g, 0, false).unwrap();
    let joined = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, f64::INFINITY);
    assert_eq!(joined.len(), 1);
    assert!(joined[0].area > 3400.0, "{}", joined[0].area);
    let mut regions = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, 8.0);
    assert_eq!(regions.len(), 3);
    regions.sort_by(|a, b| a.area.total_cmp(&b.area));
    assert!((regions[2].area - joined[0].area).abs() < 1.0);
    assert_eq!(regions[2].rim.len(), joined[0].rim.len());
    regions.truncate(2);
    regions.sort_by(|a, b| a.centroid.x.total_cmp(&b.centroid.x));
    for (notch, x) in regions.iter().zip([60.0, 140.0]) {
        assert!(notch.open);
        assert!((notch.centroid.x - x).abs() < 3.0, "{:?}", notch.centroid);
        assert!((1500.0..2200.0).contains(&notch.area), "{}", notch.area);
    }
}

/// A whole fit within half its tolerance counts with a colour factor up to 2.2, others up to
/// 1.8; a fit to part of a region never with more.
#[test]
fn a_tight_fit_counts_with_a_weaker_colour_match() {
    let fit = |partial: bool, distance: f64| fit_of(partial, distance, f64::MAX);
    assert_eq!(max_colour(&fit(false, 1.9)), 2.2);
    assert_eq!(max_colour(&fit(false, 2.1)), 1.8);
    assert_eq!(max_colour(&fit(true, 1.0)), 1.8);
}

/// Two rows of seven 40 px cells, the second of the top row left out, the first and last
/// 6 px taller: the notch's region runs on along the strip under the hull's chord to the far
/// end. It is offered whole and, without that wing, as the notch alone.
#[test]
fn a_notch_with_a_long_wing_is_also_offered_without_it() {
    let (shapes, g) = two_rows_with_tall_ends(7, &[1]);
    let frame = cluster_frame(&shapes, &g, 0, false).unwrap();
    let whole = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, f64::INFINITY);
    assert_eq!(whole.len(), 1);
    let mut regions = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, 8.0);
    assert_eq!(regions.len(), 2);
    regions.sort_by(|a, b| a.area.total_cmp(&b.area));
    assert!((regions[1].area - whole[0].area).abs() < 1.0);
    let notch = &regions[0];
    assert!(
        notch.area < 0.9 * whole[0].area,
        "{} {}",
        notch.area,
        whole[0].area
    );
    assert!(
        (notch.centroid.x - 60.0).abs() < 4.0,
        "{:?}",
        notch.centroid
    );
}

/// A fit of tolerance 4 for the acceptance rules' tests.
fn fit_of(partial: bool, distance: f64, colour: f64) -> Fit {
    Fit {
        item: 0,
        pose: Isometry2::identity(),
        distance,
        centre: P2::origin(),
        partial,
        tolerance: 4.0,
        colour,
    }
}

/// Two rows of `width` 40 px cells placed as cut, the top row's cells at `gaps` left out, its
/// first and last cells 6 px taller: the hull's chord runs 6 px above the others.
fn two_rows_with_tall_ends(width: i32, gaps: &[i32]) -> (Shapes, Growth) {
    let cells: Vec<(i32, i32)> = (0..2)
        .flat_map(|j| (0..width).map(move |i| (i, j)))
        .filter(|&(i, j)| j != 0 || !gaps.contains(&i))
        .collect();
    cluster_of(&cells, |(i, j)| {
        (j == 0 && (i == 0 || i == width - 1)).then(|| {
            let x = 40.0 * i as f64;
            vec![
                P2::new(x, -6.0),
                P2::new(x + 40.0, -6.0),
                P2::new(x + 40.0, 40.0),
                P2::new(x, 40.0),
            ]
        })
    })
}

/// A 3 × 3 grid of 40 px cells without its top left corner: the hull's chord between the
/// corner's neighbours cuts the corner notch in half (800 px², under 0.4 of a cell with the
/// seams' band), and the least rectangle's corner, taken into the hull, gives it whole.
#[test]
fn a_missing_corner_piece_leaves_a_whole_notch_when_the_corner_is_taken_in() {
    let cells: Vec<(i32, i32)> = (0..3)
        .flat_map(|i| (0..3).map(move |j| (i, j)))
        .filter(|&c| c != (0, 0))
        .collect();
    let (shapes, g) = cluster_of(&cells, |_| None);
    let notch_area = |corners: bool| {
        let frame = cluster_frame(&shapes, &g, 0, corners).unwrap();
        let regions = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, 8.0);
        let area = regions.iter().map(|h| h.area).sum::<f64>();
        (frame.corners_taken_in, area)
    };
    let (taken, cut) = notch_area(false);
    assert!(taken.is_empty());
    assert!(cut < 0.6 * 1600.0, "{cut}");
    let (taken, whole) = notch_area(true);
    // The grid's top left corner, (0, 0), within the seams' few pixels.
    assert_eq!(taken.len(), 1);
    assert!(taken[0].coords.norm() < 3.0, "{:?}", taken[0]);
    assert!((whole - 1600.0).abs() < 0.1 * 1600.0, "{whole}");
    // With the corner piece in place no corner is empty.
    let (shapes, g) = cluster_of(&[(0, 0), (1, 0), (0, 1), (1, 1)], |_| None);
    let frame = cluster_frame(&shapes, &g, 0, true).unwrap();
    assert!(frame.corners_taken_in.is_empty());
}

/// Two puzzles mixed: the holes of the second one's cluster are filled as well as the first
/// one's, but a cluster smaller than a 3 × 3 block is something to fit, not a host.
#[test]
fn every_cluster_of_a_block_or_more_has_its_holes_filled_largest_first() {
    let sizes = [(0, 4), (1, 30), (2, 9), (3, 8), (4, 12)];
    let mut g = Growth {
        clusters: sizes.len() as u32,
        ..Growth::default()
    };
    for &(cluster, n) in &sizes {
        for _ in 0..n {
            let k = g.placed.len();
            g.placed.push(Some(Placed {
                cluster,
                ..placed_as_cut(k)
            }));
        }
    }
    g.placed.push(None);
    assert_eq!(hosts(&g), vec![1, 4, 2]);
    // A lone small cluster is the largest, and the host.
    let small = Growth {
        placed: g.placed[..4].to_vec(),
        clusters: 1,
        ..Growth::default()
    };
    assert_eq!(hosts(&small), vec![0]);
}
