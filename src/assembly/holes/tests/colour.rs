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
        placed: vec![
            None,
            Some(Placed::as_cut(0, Isometry2::identity())),
            Some(Placed::as_cut(1, Isometry2::identity())),
        ],
        clusters: 1,
        ..Growth::default()
    };
    (shapes, SeamColours::for_tests(profiles, 9.0), g)
}

/// Read by chainlet, the piece has one seam, too few to tell it from a look-alike but for a
/// tight fit (see `accept::enough_seams`); read by stretch (a whole fit), two, and the
/// picture runs on across both.
#[test]
fn a_chainlet_along_two_neighbours_is_read_as_two_seams_for_a_whole_fit() {
    let (shapes, colours, g) = one_chainlet_along_two_neighbours(0.0);
    let read = |seams| {
        let at = std::iter::once((0, Isometry2::identity()));
        seam_colour(&shapes, &colours, &g, 0, at, seams).expect("a seam read")
    };
    assert_eq!(read(Seams::Chainlets).seams, 1);
    let by_stretch = read(Seams::Stretches);
    assert_eq!(by_stretch.seams, 2);
    assert!(by_stretch.factor < 1.0, "{by_stretch:?}");
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

/// Two seams read are enough for any fit; one only for a fit to part of a region matched
/// closely (irregular 100 photos seed 88's corner piece: 0.21 of the tolerance, its one seam
/// 1.07), across which the picture runs on as across a typical true seam.
#[test]
fn one_seam_is_enough_only_for_a_close_fit_to_part_of_a_region() {
    use super::super::accept::{enough_seams, one_seam};
    use super::super::colour::SeamReading;
    let reading = |seams, best| SeamReading {
        factor: best,
        best,
        seams,
    };
    // Tolerance 4: 0.84 px is 0.21 of it.
    assert!(enough_seams(&fit_of(true, 0.84, 1.07), &reading(1, 1.07)));
    assert!(
        !enough_seams(&fit_of(false, 0.84, 1.07), &reading(1, 1.07)),
        "whole"
    );
    assert!(
        !enough_seams(&fit_of(true, 1.6, 1.07), &reading(1, 1.07)),
        "0.4 of it"
    );
    assert!(
        !enough_seams(&fit_of(true, 0.84, 1.5), &reading(1, 1.5)),
        "picture breaks"
    );
    assert!(enough_seams(&fit_of(false, 3.9, 2.0), &reading(2, 1.5)));
    // Judged so, the fit must then be the piece's only place (see `fill_round`).
    let judged = |seams| Fit {
        seams,
        ..fit_of(true, 0.84, 1.07)
    };
    assert!(one_seam(&judged(1)));
    assert!(!one_seam(&judged(2)));
}
