//! Segmentation on small synthetic photos: known pieces on white, black and coloured
//! backgrounds under a strong illumination gradient, with noise, dust, a hole and a piece cut by
//! the left edge.

use super::*;
use crate::piece_set::RejectReason;
use image::Rgb;

/// A jigsaw-like shape centred at (cx, cy): a square body of side `s` with a round knob on the
/// right and a round socket bitten out of the top.
fn in_piece(x: f64, y: f64, cx: f64, cy: f64, s: f64) -> bool {
    let (dx, dy) = (x - cx, y - cy);
    let h = s / 2.0;
    let r = s / 5.0;
    let body = dx.abs() <= h && dy.abs() <= h;
    let knob = (dx - h - r * 0.6).powi(2) + dy.powi(2) <= r * r;
    let socket = dx.powi(2) + (dy + h - r * 0.6).powi(2) <= r * r;
    (body || knob) && !socket
}

/// A tiny deterministic noise source (no rand dependency in unit tests).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

struct Scene {
    width: u32,
    height: u32,
    /// Background colour at the left and right edge (a horizontal illumination gradient).
    background: ([f64; 3], [f64; 3]),
    piece: [f64; 3],
    /// `piece` is an offset from the local background colour (a tinted, translucent-looking
    /// piece whose contrast is the same everywhere), not a colour.
    relative: bool,
    /// Piece centres and sides.
    pieces: Vec<(f64, f64, f64)>,
}

impl Scene {
    fn render(&self, seed: u64) -> RgbImage {
        let mut rng = Lcg(seed);
        let (l, r) = self.background;
        RgbImage::from_fn(self.width, self.height, |x, y| {
            let t = x as f64 / self.width as f64;
            let inside = self
                .pieces
                .iter()
                .any(|&(cx, cy, s)| in_piece(x as f64, y as f64, cx, cy, s));
            let bg = [0, 1, 2].map(|k| l[k] + (r[k] - l[k]) * t);
            let mut c = if inside && self.relative {
                [0, 1, 2].map(|k| bg[k] + self.piece[k])
            } else if inside {
                // The face carries a pattern, and the light falls on it too.
                let stripe = if (x / 6 + y / 6) % 2 == 0 { 1.0 } else { 0.8 };
                self.piece.map(|v| v * stripe * (1.0 - 0.25 * t))
            } else {
                bg
            };
            for v in &mut c {
                *v += (rng.next() - 0.5) * 12.0;
            }
            Rgb(c.map(|v| v.round().clamp(0.0, 255.0) as u8))
        })
    }
}

fn grid_scene(background: ([f64; 3], [f64; 3]), piece: [f64; 3]) -> Scene {
    Scene {
        width: 320,
        height: 220,
        background,
        piece,
        relative: false,
        pieces: vec![
            (60.0, 60.0, 60.0),
            (170.0, 55.0, 56.0),
            (265.0, 65.0, 58.0),
            (70.0, 160.0, 58.0),
            (180.0, 165.0, 62.0),
        ],
    }
}

fn assert_finds_the_grid(img: &RgbImage, what: &str) {
    let seg = segment(img, &SegmentOptions::default());
    assert_eq!(seg.pieces.len(), 5, "{what}: {:?}", seg.rejected);
    // Reading order: the three of the top row left to right, then the bottom two.
    let centres: Vec<u32> = seg
        .pieces
        .iter()
        .map(|p| p.bbox[0] + p.bbox[2] / 2)
        .collect();
    assert!(
        centres[0] < centres[1] && centres[1] < centres[2],
        "{what}: {centres:?}"
    );
    assert!(seg.pieces[3].bbox[1] > seg.pieces[2].bbox[1] + 40, "{what}");
    for p in &seg.pieces {
        // Each true piece area is about 0.9 s² (body + knob − socket).
        let area = p.area as f64;
        assert!((2500.0..4200.0).contains(&area), "{what}: area {area}");
        assert_eq!(p.mask.dimensions(), (p.bbox[2], p.bbox[3]));
        let counted = p.mask.pixels().filter(|v| v.0[0] == 255).count() as u64;
        assert_eq!(counted, p.area);
    }
}

#[test]
fn pieces_on_white_paper_under_a_gradient() {
    // The paper darkens by 40 L units across the frame, more than the pale piece differs from
    // it: one global background colour cannot separate them, the flattened field can.
    let scene = grid_scene(
        ([250.0, 248.0, 240.0], [135.0, 133.0, 128.0]),
        [200.0, 70.0, 50.0],
    );
    assert_finds_the_grid(&scene.render(1), "white");
}

#[test]
fn flattening_finds_low_contrast_pieces_under_strong_vignetting() {
    // The paper darkens by 45 L units across the frame, far more than the pieces (a constant
    // tint of about 25 ΔE) differ from the paper under them: one global background colour
    // cannot separate them, the flattened field can.
    let scene = Scene {
        relative: true,
        ..grid_scene(
            ([245.0, 245.0, 240.0], [120.0, 120.0, 116.0]),
            [-15.0, -5.0, -45.0],
        )
    };
    assert_finds_the_grid(&scene.render(10), "vignetting");
}

#[test]
fn pieces_on_black_felt_under_a_gradient() {
    let scene = grid_scene(
        ([40.0, 40.0, 42.0], [12.0, 12.0, 14.0]),
        [235.0, 235.0, 228.0],
    );
    assert_finds_the_grid(&scene.render(2), "black");
}

#[test]
fn pieces_on_a_green_cloth_under_a_gradient() {
    let scene = grid_scene(
        ([40.0, 150.0, 60.0], [20.0, 90.0, 35.0]),
        [210.0, 180.0, 60.0],
    );
    assert_finds_the_grid(&scene.render(3), "green");
}

#[test]
fn a_piece_at_the_left_edge_is_clipped() {
    let mut scene = grid_scene(([245.0; 3], [225.0; 3]), [60.0, 60.0, 160.0]);
    // Its body starts at x = 0 exactly.
    scene.pieces.push((30.0, 115.0, 60.0));
    scene.pieces[0].1 = 40.0;
    scene.pieces[3].1 = 185.0;
    let seg = segment(&scene.render(4), &SegmentOptions::default());
    assert_eq!(seg.pieces.len(), 5, "{:?}", seg.rejected);
    let clipped: Vec<_> = seg
        .rejected
        .iter()
        .filter(|r| r.reason == RejectReason::Clipped)
        .collect();
    assert_eq!(clipped.len(), 1, "{:?}", seg.rejected);
    assert_eq!(clipped[0].bbox[0], 0);
}

#[test]
fn a_hole_in_a_piece_is_filled_and_dust_is_a_speck() {
    let scene = grid_scene(([245.0; 3], [235.0; 3]), [90.0, 40.0, 30.0]);
    let mut img = scene.render(5);
    // A background-coloured hole in the middle of the first piece (glare, a printed patch).
    for y in 52..68 {
        for x in 52..68 {
            img.put_pixel(x, y, Rgb([245, 245, 245]));
        }
    }
    // Dust: a few dark specks of 2–5 px and a short hair, away from the pieces.
    for (x, y, s) in [(120u32, 120u32, 2u32), (250, 190, 5), (300, 130, 3)] {
        for dy in 0..s {
            for dx in 0..s {
                img.put_pixel(x + dx, y + dy, Rgb([30, 30, 30]));
            }
        }
    }
    for i in 0..25 {
        img.put_pixel(110 + i, 100 + i / 5, Rgb([20, 20, 20]));
        img.put_pixel(110 + i, 101 + i / 5, Rgb([20, 20, 20]));
    }
    let seg = segment(&img, &SegmentOptions::default());
    assert_eq!(seg.pieces.len(), 5, "{:?}", seg.rejected);
    let first = &seg.pieces[0];
    let (x0, y0) = (first.bbox[0], first.bbox[1]);
    assert_eq!(
        first.mask.get_pixel(60 - x0, 60 - y0).0[0],
        255,
        "hole filled"
    );
    assert!(seg.rejected.iter().all(|r| r.reason == RejectReason::Speck));
}

#[test]
fn two_touching_pieces_are_merged() {
    let mut scene = grid_scene(([245.0; 3], [230.0; 3]), [60.0, 120.0, 60.0]);
    // Move the last piece against the fourth.
    scene.pieces[4].0 = 122.0;
    scene.pieces[4].1 = 160.0;
    let seg = segment(&scene.render(6), &SegmentOptions::default());
    assert_eq!(seg.pieces.len(), 3, "{:?}", seg.rejected);
    assert_eq!(
        seg.rejected
            .iter()
            .filter(|r| r.reason == RejectReason::Merged)
            .count(),
        1,
        "{:?}",
        seg.rejected
    );
}

#[test]
fn two_pieces_welded_by_a_thin_bridge_are_cut_apart() {
    // A strip 4 px wide, the colour of the pieces, from the fourth piece's knob tip (x ≈ 118)
    // to the fifth piece's left side (x = 149): wider than the clean-up's opening removes, much
    // narrower than either piece. Before the neck cut this came out as one merged blob.
    let scene = grid_scene(([245.0; 3], [230.0; 3]), [60.0, 120.0, 60.0]);
    let mut img = scene.render(10);
    for y in 158..162 {
        for x in 110..155 {
            img.put_pixel(x, y, Rgb([60, 120, 60]));
        }
    }
    assert_finds_the_grid(&img, "welded");
    let seg = segment(&img, &SegmentOptions::default());
    assert!(
        seg.rejected
            .iter()
            .all(|r| r.reason != RejectReason::Merged),
        "{:?}",
        seg.rejected
    );
}

#[test]
fn a_plain_background_has_no_pieces() {
    let scene = Scene {
        pieces: vec![],
        ..grid_scene(([230.0, 225.0, 215.0], [180.0, 175.0, 170.0]), [0.0; 3])
    };
    let seg = segment(&scene.render(7), &SegmentOptions::default());
    assert!(seg.pieces.is_empty(), "{:?}", seg.pieces.len());
}

#[test]
fn one_piece_alone_is_found() {
    let scene = Scene {
        pieces: vec![(150.0, 110.0, 90.0)],
        ..grid_scene(([235.0; 3], [200.0; 3]), [230.0, 200.0, 40.0])
    };
    let seg = segment(&scene.render(8), &SegmentOptions::default());
    assert_eq!(seg.pieces.len(), 1);
    assert!(seg.rejected.is_empty(), "{:?}", seg.rejected);
}

#[test]
fn the_threshold_override_is_used() {
    let scene = grid_scene(([245.0; 3], [235.0; 3]), [90.0, 40.0, 30.0]);
    let opts = SegmentOptions {
        threshold: Some(12.5),
        ..SegmentOptions::default()
    };
    let (seg, diag) = segment_with_diagnostics(&scene.render(9), &opts);
    assert_eq!(diag.threshold, 12.5);
    assert_eq!(seg.pieces.len(), 5);
}

#[test]
fn degenerate_images_do_not_panic() {
    for (w, h) in [(0, 0), (0, 5), (1, 1), (3, 2), (1, 40)] {
        let img = RgbImage::from_pixel(w, h, Rgb([200, 10, 10]));
        let seg = segment(&img, &SegmentOptions::default());
        assert!(seg.pieces.len() <= 1, "{w}x{h}");
        let (d, _) = background_distance(&img, &SegmentOptions::default());
        assert_eq!(d.dimensions(), (w, h));
    }
    // A lone dark pixel on white.
    let mut img = RgbImage::from_pixel(5, 5, Rgb([255; 3]));
    img.put_pixel(2, 2, Rgb([0; 3]));
    assert!(segment(&img, &SegmentOptions::default()).pieces.is_empty());
}

#[test]
fn a_mask_saved_as_jpeg_is_thresholded_at_mid_grey() {
    // A white disc on black with JPEG-like noise of up to 30 levels on both sides: the
    // piece is exactly the pixels above mid-grey, with nothing modelled.
    let mut s = 99u64;
    let mut noise = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 59) as u8
    };
    let inside = |x: u32, y: u32| (x as i64 - 40).pow(2) + (y as i64 - 30).pow(2) < 400;
    let img = RgbImage::from_fn(80, 60, |x, y| {
        let v = if inside(x, y) { 255 - noise() } else { noise() };
        Rgb([v, v, v])
    });
    assert!(is_black_and_white(&img));
    let (seg, diag) = segment_with_diagnostics(&img, &SegmentOptions::default());
    assert_eq!(seg.pieces.len(), 1);
    let want = (0..80).flat_map(|x| (0..60).map(move |y| (x, y)));
    let want = want.filter(|&(x, y)| inside(x, y)).count() as u64;
    assert_eq!(seg.pieces[0].area, want);
    assert_eq!(diag.threshold, 0.5, "no background model");
    // Mid-grey anywhere makes it a photograph.
    let mut photo = img.clone();
    photo.put_pixel(3, 3, Rgb([128, 128, 128]));
    assert!(!is_black_and_white(&photo));
}
