//! Fits of left-out pieces on small hand-made clusters of square cells.

use super::accept::PARTIAL_TOLERANCE;
use super::cache::Found;
use super::fit::{
    best_icp, distance_to, faces_outside, fit_to_notch, fit_to_rim, mean_point, notch_stages, Rim,
    ICP_ITERATIONS,
};
use super::knobs::{lost_knob, sealed_socket, swallowed_knob};
use super::partial::{across_pieces, fit_partial};
use super::region_fits::{fits_area, holds_a_run, run_area};
use super::*;
use crate::assembly::grow::Placed;
use crate::assembly::merge::move_cluster;
use crate::assembly::shapes::PieceShape;
use nalgebra::{Isometry2, Vector2};

mod bounds;
mod colour;
mod fits;
mod knobs;
mod rounds;
mod runs;

/// A 40 px cell with its top left corner at (x, y), clockwise on screen.
fn cell(x: f64, y: f64) -> Vec<P2> {
    vec![
        P2::new(x, y),
        P2::new(x + 40.0, y),
        P2::new(x + 40.0, y + 40.0),
        P2::new(x, y + 40.0),
    ]
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

/// The cells of a grid `columns` wide and `rows` high, row by row, but those `left_out`.
fn grid_cells(columns: i32, rows: i32, left_out: &[(i32, i32)]) -> Vec<(i32, i32)> {
    (0..rows)
        .flat_map(|j| (0..columns).map(move |i| (i, j)))
        .filter(|c| !left_out.contains(c))
        .collect()
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
        g.placed[k] = Some(Placed::as_cut(k, Isometry2::identity()));
    }
    (shapes, g)
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
        let mut p = Placed::as_cut(k, Isometry2::identity());
        if apart(i, j) {
            p.cluster = 1;
            p.pose = taken;
        }
        g.placed[k] = Some(p);
    }
    (shapes, g)
}

/// A fit of tolerance 4 for the acceptance rules' tests.
fn fit_of(partial: bool, distance: f64, colour: f64) -> Fit {
    Fit {
        item: 0,
        pose: Isometry2::identity(),
        distance,
        centre: P2::origin(),
        partial,
        excused: None,
        tolerance: 4.0,
        colour,
        seams: 2,
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
