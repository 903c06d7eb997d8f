//! How a fitted piece's seams are read for colour: by chainlet, or by stretch.

use super::super::colour::{seam_colour, Seams};
use super::*;
use crate::assembly::edge_colour::{Profile, SeamColours};
use crate::assembly::shapes::{ChainletShape, SAMPLES};

/// The picture at `x` along a straight seam on y = 0: colours that change all along it.
fn picture(x: f64) -> [f32; 3] {
    [50.0, x as f32, -(x as f32)]
}

/// A chainlet of piece `piece` sampled from x = `from` to `to`, 1 px below the seam line
/// for the neighbours (`below`), with the picture read along it, shifted by `off` (a
/// look-alike's colours).
fn chainlet(
    piece: usize,
    (from, to): (f64, f64),
    below: bool,
    off: f32,
) -> (ChainletShape, Profile) {
    let y = if below { 1.0 } else { 0.0 };
    let xs: Vec<f64> = (0..SAMPLES)
        .map(|t| from + (to - from) * t as f64 / (SAMPLES - 1) as f64)
        .collect();
    let mut c = ChainletShape::bare(piece, 0, to - from, false);
    c.samples = xs.iter().map(|&x| P2::new(x, y)).collect();
    let profile = xs
        .iter()
        .map(|&x| {
            let [l, a, b] = picture(x);
            [l, a + off, b]
        })
        .collect();
    (c, Some(profile))
}

/// A piece whose one chainlet, 48 px long on y = 0, lies along two neighbours: the first
/// along its first 26 px, the second along the rest (the cut's junction between them is no
/// critical point of the piece). The second neighbour's picture is shifted by `off`.
fn one_chainlet_along_two_neighbours(off: f32) -> (Shapes, SeamColours, Growth) {
    let parts = [
        chainlet(0, (0.0, 47.0), false, 0.0),
        chainlet(1, (0.0, 26.0), true, 0.0),
        chainlet(2, (27.0, 47.0), true, off),
    ];
    let mut shapes = Shapes {
        median_size: 100.0,
        ..Shapes::default()
    };
    let mut profiles = Vec::new();
    for (k, (c, profile)) in parts.into_iter().enumerate() {
        shapes
            .pieces
            .push(PieceShape::bare(k as u32 + 1, String::new(), vec![k]));
        shapes.chainlets.push(c);
        profiles.push(profile);
    }
    let g = Growth {
        placed: vec![None, Some(placed_as_cut(0)), Some(placed_as_cut(1))],
        clusters: 1,
        ..Growth::default()
    };
    (shapes, SeamColours::for_tests(profiles, 9.0), g)
}

/// Read by chainlet, the piece has one seam, too few to tell it from a look-alike; read by
/// stretch (a whole fit), two, and the picture runs on across both.
#[test]
fn a_chainlet_along_two_neighbours_is_read_as_two_seams_for_a_whole_fit() {
    let (shapes, colours, g) = one_chainlet_along_two_neighbours(0.0);
    let read = |seams| {
        let at = std::iter::once((0, Isometry2::identity()));
        seam_colour(&shapes, &colours, &g, 0, at, seams).map(|r| r.factor)
    };
    assert_eq!(read(Seams::Chainlets), None);
    let runs_on = read(Seams::Stretches).expect("two seams read");
    assert!(runs_on < 1.0, "{runs_on}");
}

/// Where the picture breaks across the second neighbour's stretch, the reading says so.
#[test]
fn a_stretch_whose_picture_breaks_counts_against_the_fit() {
    let (shapes, colours, g) = one_chainlet_along_two_neighbours(40.0);
    let at = std::iter::once((0, Isometry2::identity()));
    let reading = seam_colour(&shapes, &colours, &g, 0, at, Seams::Stretches).unwrap();
    assert!(reading.factor > 1.8, "{reading:?}");
    // The first neighbour's stretch still reads as a true seam: the best seam says so.
    assert!(reading.best < 1.0, "{reading:?}");
}
