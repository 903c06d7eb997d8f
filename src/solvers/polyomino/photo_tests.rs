//! Reading synthetic photos back into the pieces they were drawn from.

use super::parse::pieces_text;
use super::photo::{read_pieces, PhotoError, PhotoOptions};
use super::photo_synth::{render, SynthOptions};
use super::piece::{CellMatrix, Freedom, Shape};
use image::{Rgb, RgbImage};
use imageproc::drawing::draw_filled_circle_mut;

fn pentominoes() -> Vec<CellMatrix> {
    let text = include_str!("../../../samples/polyomino/pentominoes.txt");
    pieces_text(text).unwrap()
}

/// The least of a piece's quarter turns: equal exactly when two pieces are the same piece
/// turned (a mirror image is a different piece here, since a photo keeps handedness).
fn turned_class(m: &CellMatrix) -> Shape {
    let rotate = Freedom {
        rotate: true,
        flip: false,
    };
    Shape::from_coords(&m.coords())
        .orientations(rotate)
        .into_iter()
        .min()
        .unwrap()
}

fn assert_reads_back(pieces: &[CellMatrix], opts: &SynthOptions) {
    let img = render(pieces, opts);
    let reading = read_pieces(&img, &PhotoOptions::default()).unwrap();
    assert_eq!(reading.pieces.len(), pieces.len(), "{reading:?}");
    assert!(
        (reading.unit_px - opts.unit_px).abs() < 0.03 * opts.unit_px,
        "unit {} for {}",
        reading.unit_px,
        opts.unit_px
    );
    for (i, (read, want)) in reading.pieces.iter().zip(pieces).enumerate() {
        assert_eq!(
            turned_class(&read.cells),
            turned_class(want),
            "piece {} read as {:?}",
            i + 1,
            read
        );
        assert!(read.residual < 0.05, "piece {}: {read:?}", i + 1);
    }
}

#[test]
fn pentominoes_at_any_angle_read_back_exactly() {
    assert_reads_back(&pentominoes(), &SynthOptions::default());
}

#[test]
fn small_squares_and_other_angles() {
    let opts = SynthOptions {
        unit_px: 11.0,
        angles_degrees: vec![3.0, 44.0, -27.0, 61.0, 12.5, -80.0],
        noise: 10,
        seed: 99,
    };
    assert_reads_back(&pentominoes(), &opts);
}

#[test]
fn mixed_sizes_find_the_unit_not_a_multiple() {
    // A monomino, a 2×2 square and a long L: the square alone would also fit a unit twice
    // as large; the others pin it down.
    let text = "#\n\n##\n##\n\n#...\n####\n\n###\n#..\n";
    let pieces = pieces_text(text).unwrap();
    let opts = SynthOptions {
        unit_px: 16.0,
        ..SynthOptions::default()
    };
    assert_reads_back(&pieces, &opts);
}

#[test]
fn a_disc_is_not_made_of_squares() {
    let mut img = RgbImage::from_pixel(200, 160, Rgb([230, 230, 225]));
    draw_filled_circle_mut(&mut img, (100, 80), 40, Rgb([180, 40, 40]));
    let err = read_pieces(&img, &PhotoOptions::default()).unwrap_err();
    assert!(
        matches!(err, PhotoError::NotSquares { piece: 1, .. }),
        "{err}"
    );
}

#[test]
fn an_empty_picture_has_no_pieces() {
    let img = RgbImage::from_pixel(200, 160, Rgb([230, 230, 225]));
    let err = read_pieces(&img, &PhotoOptions::default()).unwrap_err();
    assert!(matches!(err, PhotoError::NoPieces { .. }), "{err}");
}

#[test]
fn a_triangle_among_squares_is_refused() {
    let mut img = render(&pentominoes()[..3], &SynthOptions::default());
    let (w, h) = img.dimensions();
    let poly = [
        imageproc::point::Point::new(w as i32 - 60, h as i32 - 20),
        imageproc::point::Point::new(w as i32 - 10, h as i32 - 20),
        imageproc::point::Point::new(w as i32 - 35, h as i32 - 63),
    ];
    imageproc::drawing::draw_polygon_mut(&mut img, &poly, Rgb([40, 90, 160]));
    let err = read_pieces(&img, &PhotoOptions::default()).unwrap_err();
    assert!(
        matches!(
            err,
            PhotoError::NotSquares { .. } | PhotoError::NotOnLattice { .. }
        ),
        "{err}"
    );
}
