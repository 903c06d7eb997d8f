//! Synthetic photos of polyomino pieces: the known answer [`super::photo`] is tested against.
//!
//! Each piece is drawn as filled squares turned by its own angle (any angle, not only quarter
//! turns) at 3× the final size, then box-filtered down (anti-aliased sides as in a scan), and
//! light pixel noise is added to pieces and background alike.

use super::piece::CellMatrix;
use image::{Rgb, RgbImage};
use imageproc::drawing::draw_polygon_mut;
use imageproc::point::Point;

/// Supersampling factor of the drawing.
const SUPERSAMPLE: u32 = 3;

/// How to draw the picture.
#[derive(Clone, Debug, PartialEq)]
pub struct SynthOptions {
    /// Side of a unit square in the final picture, pixels.
    pub unit_px: f64,
    /// Turn of each piece, degrees (cycled when shorter than the piece list).
    pub angles_degrees: Vec<f64>,
    /// Amplitude of the uniform pixel noise, grey levels.
    pub noise: u8,
    /// Seed of the noise.
    pub seed: u64,
}

impl Default for SynthOptions {
    fn default() -> Self {
        SynthOptions {
            unit_px: 20.0,
            angles_degrees: vec![
                17.0, -33.0, 71.0, 5.0, -62.0, 128.0, 41.0, -8.0, 199.0, 87.5, -24.0, 53.0,
            ],
            noise: 6,
            seed: 7,
        }
    }
}

/// Draws `pieces` apart from each other in a grid of slots on a pale background.
pub fn render(pieces: &[CellMatrix], opts: &SynthOptions) -> RgbImage {
    let unit = opts.unit_px * SUPERSAMPLE as f64;
    let diagonal = pieces
        .iter()
        .map(|p| (p.rows as f64).hypot(p.cols as f64))
        .fold(1.0, f64::max);
    let slot = (diagonal + 1.5) * unit;
    let per_row = (pieces.len() as f64 * 4.0 / 3.0).sqrt().ceil().max(1.0) as usize;
    let slot_rows = pieces.len().div_ceil(per_row).max(1);
    let side = |n: usize| {
        let px = (n as f64 * slot / SUPERSAMPLE as f64).ceil() as u32;
        px * SUPERSAMPLE
    };
    let background = Rgb([232u8, 228, 220]);
    let mut big = RgbImage::from_pixel(side(per_row), side(slot_rows), background);
    for (i, piece) in pieces.iter().enumerate() {
        let angle = opts
            .angles_degrees
            .get(i % opts.angles_degrees.len().max(1));
        let angle = angle.copied().unwrap_or(0.0).to_radians();
        let centre = (
            ((i % per_row) as f64 + 0.5) * slot,
            ((i / per_row) as f64 + 0.5) * slot,
        );
        draw_piece(&mut big, piece, angle, centre, unit, colour(i));
    }
    let mut out = downscale(&big);
    add_noise(&mut out, opts.noise, opts.seed);
    out
}

/// A saturated colour per piece, far from the background and from black.
fn colour(i: usize) -> Rgb<u8> {
    const PALETTE: [[u8; 3]; 8] = [
        [200, 60, 50],
        [40, 110, 190],
        [60, 150, 70],
        [210, 150, 30],
        [130, 70, 160],
        [30, 150, 150],
        [190, 80, 140],
        [110, 90, 60],
    ];
    Rgb(PALETTE[i % PALETTE.len()])
}

fn draw_piece(
    img: &mut RgbImage,
    piece: &CellMatrix,
    angle: f64,
    centre: (f64, f64),
    unit: f64,
    colour: Rgb<u8>,
) {
    let coords = piece.coords();
    let n = coords.len().max(1) as f64;
    let mid_r = coords.iter().map(|p| p.0 as f64 + 0.5).sum::<f64>() / n;
    let mid_c = coords.iter().map(|p| p.1 as f64 + 0.5).sum::<f64>() / n;
    let (sin, cos) = angle.sin_cos();
    // Squares overlap by a hair so neighbours of one piece leave no seam.
    let grow = 0.5 / unit;
    for &(r, c) in &coords {
        let corners = [
            (c as f64 - grow, r as f64 - grow),
            (c as f64 + 1.0 + grow, r as f64 - grow),
            (c as f64 + 1.0 + grow, r as f64 + 1.0 + grow),
            (c as f64 - grow, r as f64 + 1.0 + grow),
        ];
        let poly: Vec<Point<i32>> = corners
            .iter()
            .map(|&(x, y)| {
                let (x, y) = ((x - mid_c) * unit, (y - mid_r) * unit);
                Point::new(
                    (centre.0 + cos * x - sin * y).round() as i32,
                    (centre.1 + sin * x + cos * y).round() as i32,
                )
            })
            .collect();
        draw_polygon_mut(img, &poly, colour);
    }
}

/// Box-filters the supersampled drawing to its final size.
fn downscale(big: &RgbImage) -> RgbImage {
    let (w, h) = (big.width() / SUPERSAMPLE, big.height() / SUPERSAMPLE);
    let area = SUPERSAMPLE * SUPERSAMPLE;
    RgbImage::from_fn(w, h, |x, y| {
        let mut sum = [0u32; 3];
        for dy in 0..SUPERSAMPLE {
            for dx in 0..SUPERSAMPLE {
                let p = big.get_pixel(x * SUPERSAMPLE + dx, y * SUPERSAMPLE + dy);
                for k in 0..3 {
                    sum[k] += p[k] as u32;
                }
            }
        }
        Rgb(sum.map(|s| ((s + area / 2) / area) as u8))
    })
}

/// Uniform noise of ±`amplitude` per channel, from a counter-based hash (deterministic).
fn add_noise(img: &mut RgbImage, amplitude: u8, seed: u64) {
    if amplitude == 0 {
        return;
    }
    let span = 2 * amplitude as u64 + 1;
    for (i, p) in img.pixels_mut().enumerate() {
        for k in 0..3 {
            let r = splitmix(seed ^ ((i as u64) * 3 + k as u64));
            let d = (r % span) as i32 - amplitude as i32;
            p[k] = (p[k] as i32 + d).clamp(0, 255) as u8;
        }
    }
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
