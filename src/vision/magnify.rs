//! Small pieces are segmented and chained on their image magnified.
//!
//! A piece 45 px across (gathanase's 144-piece scan) has an outline of steps a fiftieth of its
//! side, and the segmentation's pixel-sized operations take as much off a knob's neck as
//! necks differ from piece to piece, so the chainlets' features scatter. Measured on that
//! scan: traced as it is, 66 mating candidates per chainlet and 142 pieces in 3 clusters with
//! a corner built wrong; on the image magnified twice, 54 candidates and the full 12 × 12
//! lattice. The image, not the mask, is magnified: interpolating the anti-aliased rim of a scan
//! or photo places the outline between pixels (magnifying the mask alone left 142 pieces in 2
//! clusters). Pieces are then described in source pixels with a chain of 1/k-pixel steps
//! (`DescribeOptions::magnified`, [`crate::piece_set::Piece::chain_unit`]).

use crate::piece_set::Rejected;
use image::{Rgb, RgbImage};

/// Images whose median piece size (√area) is below this many pixels are magnified.
/// Generated puzzles (80 px per piece and up) and the real sets other than gathanase's are
/// all above it and traced as they are.
const SMALL_PIECE_PX: f64 = 64.0;
/// … to at least this median size (at most 4 times).
const MAGNIFIED_PX: f64 = 90.0;
/// Never magnify an image past this many pixels (a photo of many small pieces).
const MAX_MAGNIFIED_PIXELS: f64 = 64e6;

/// How many times an image of `width × height` whose pieces have the areas `areas` is
/// magnified before it is segmented and chained (1: not at all).
pub fn magnification(areas: impl Iterator<Item = f64>, width: u32, height: u32) -> u32 {
    let mut sizes: Vec<f64> = areas.map(f64::sqrt).collect();
    sizes.sort_by(f64::total_cmp);
    let Some(&median) = sizes.get(sizes.len() / 2) else {
        return 1;
    };
    if median >= SMALL_PIECE_PX {
        return 1;
    }
    let wanted = (MAGNIFIED_PX / median.max(1.0)).ceil().clamp(2.0, 4.0);
    let room = (MAX_MAGNIFIED_PIXELS / (f64::from(width) * f64::from(height)).max(1.0))
        .sqrt()
        .floor();
    wanted.min(room).max(1.0) as u32
}

/// `image` sampled `k` times more finely: pixel (u, v) is the image interpolated bilinearly
/// at (u/k, v/k), so magnified pixel k·x is source pixel x exactly and a chain node
/// converts to source pixels by a factor alone. (`image::imageops::resize` aligns the
/// pixels' squares instead, which would shift every outline by (k − 1)/2k pixel.)
pub fn magnify(image: &RgbImage, k: u32) -> RgbImage {
    let (w, h) = image.dimensions();
    if k <= 1 || w == 0 || h == 0 {
        return image.clone();
    }
    let kf = f64::from(k);
    RgbImage::from_fn((w - 1) * k + 1, (h - 1) * k + 1, |u, v| {
        let (x, fx) = (u / k, f64::from(u % k) / kf);
        let (y, fy) = (v / k, f64::from(v % k) / kf);
        let (x1, y1) = ((x + 1).min(w - 1), (y + 1).min(h - 1));
        let (a, b) = (image.get_pixel(x, y).0, image.get_pixel(x1, y).0);
        let (c, d) = (image.get_pixel(x, y1).0, image.get_pixel(x1, y1).0);
        Rgb(std::array::from_fn(|i| {
            let top = f64::from(a[i]) * (1.0 - fx) + f64::from(b[i]) * fx;
            let bottom = f64::from(c[i]) * (1.0 - fx) + f64::from(d[i]) * fx;
            (top * (1.0 - fy) + bottom * fy).round() as u8
        }))
    })
}

/// Every channel of `image` set to black or white at mid-grey: a magnified mask is a mask
/// again, its outline the mid-grey contour between the source pixels' centres.
pub fn threshold_at_mid_grey(image: &mut RgbImage) {
    for p in image.pixels_mut() {
        p.0 = p.0.map(|v| if v >= 128 { 255 } else { 0 });
    }
}

/// A blob rejected on the magnified image, with its box in source pixels.
pub fn rejected_in_source(mut r: Rejected, k: u32) -> Rejected {
    r.bbox = box_in_source(r.bbox, k);
    r
}

/// The source pixels `[x, y, w, h]` that cover magnified pixels `bbox`.
pub(super) fn box_in_source(bbox: [u32; 4], k: u32) -> [u32; 4] {
    let [x, y, w, h] = bbox;
    let (x0, y0) = (x / k, y / k);
    let x1 = (x + w.max(1) - 1).div_ceil(k);
    let y1 = (y + h.max(1) - 1).div_ceil(k);
    [x0, y0, x1 - x0 + 1, y1 - y0 + 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magnified_pixel_k_times_x_is_source_pixel_x() {
        let image = RgbImage::from_fn(3, 2, |x, y| Rgb([(x * 100) as u8, (y * 200) as u8, 7]));
        let big = magnify(&image, 2);
        assert_eq!(big.dimensions(), (5, 3));
        for (x, y, p) in image.enumerate_pixels() {
            assert_eq!(big.get_pixel(2 * x, 2 * y), p);
        }
        // Between pixels: the mean of its neighbours.
        assert_eq!(big.get_pixel(1, 0).0, [50, 0, 7]);
        assert_eq!(big.get_pixel(3, 1).0, [150, 100, 7]);
    }

    #[test]
    fn a_magnified_mask_is_a_mask_again() {
        let mask = RgbImage::from_fn(4, 4, |x, y| Rgb([if x + y > 3 { 255 } else { 0 }; 3]));
        let mut big = magnify(&mask, 3);
        let black_and_white = super::super::segment::is_black_and_white;
        assert!(!black_and_white(&big));
        threshold_at_mid_grey(&mut big);
        assert!(black_and_white(&big));
        // Source pixels keep their value; between them, the nearer one wins: (4/3, 2) lies
        // nearer black (1, 2), (5/3, 2) nearer white (2, 2).
        for (x, y, p) in mask.enumerate_pixels() {
            assert_eq!(big.get_pixel(3 * x, 3 * y), p);
        }
        assert_eq!(big.get_pixel(4, 6).0, [0; 3]);
        assert_eq!(big.get_pixel(5, 6).0, [255; 3]);
    }

    #[test]
    fn only_images_of_small_pieces_are_magnified_and_within_bounds() {
        let areas = |side: f64| vec![side * side; 9].into_iter();
        assert_eq!(magnification(areas(120.0), 1000, 1000), 1);
        assert_eq!(magnification(areas(64.0), 1000, 1000), 1);
        assert_eq!(magnification(areas(45.0), 1000, 1000), 2);
        assert_eq!(magnification(areas(25.0), 1000, 1000), 4);
        // A 30 Mpx photo of small pieces would pass the bound at 2 times.
        assert_eq!(magnification(areas(45.0), 6000, 5000), 1);
        assert_eq!(magnification(std::iter::empty(), 1000, 1000), 1);
    }

    /// A square chained on its image magnified twice comes back where it is chained as it
    /// is, in source pixels: corners and centroid; its outline lies between the boundary
    /// pixels' centres and the square's edge.
    #[test]
    fn a_piece_chained_magnified_comes_back_in_source_pixels() {
        use crate::piece_set::{CriticalKind, Piece};
        use crate::vision::{describe_piece, segment, DescribeOptions, SegmentOptions};
        let image = RgbImage::from_fn(100, 90, |x, y| {
            let inside = (20..60).contains(&x) && (25..65).contains(&y);
            Rgb(if inside {
                [230, 220, 210]
            } else {
                [30, 40, 50]
            })
        });
        let describe = |img: &RgbImage, magnified: u32| {
            let seg = segment(img, &SegmentOptions::default());
            assert_eq!(seg.pieces.len(), 1);
            let opts = DescribeOptions {
                magnified,
                ..DescribeOptions::default()
            };
            describe_piece(1, "a.png", &seg.pieces[0], &opts).unwrap()
        };
        let plain = describe(&image, 1);
        let fine = describe(&magnify(&image, 2), 2);
        assert_eq!(fine.chain_unit, 0.5);
        // The magnified segmentation keeps the samples half way to the background, so the
        // outline runs out to the square's true edge, half a pixel beyond the pixel centres.
        let [x, y, w, h] = plain.bbox;
        assert_eq!(fine.bbox, [x - 1, y - 1, w + 2, h + 2]);
        for p in fine.chain_points_px() {
            let inside = (19.5..=59.5).contains(&p[0]) && (24.5..=64.5).contains(&p[1]);
            assert!(inside, "{p:?}");
        }
        let corners = |p: &Piece| -> Vec<[f64; 2]> {
            p.critical_points
                .iter()
                .filter(|c| c.kind == CriticalKind::Discontinuity)
                .map(|c| [c.x, c.y])
                .collect()
        };
        assert_eq!(corners(&fine).len(), 4);
        for c in corners(&plain) {
            let near = corners(&fine)
                .iter()
                .any(|f| (f[0] - c[0]).hypot(f[1] - c[1]) <= 1.0);
            assert!(
                near,
                "corner {c:?} not found magnified: {:?}",
                corners(&fine)
            );
        }
        let [(x, y), (u, v)] = [plain.centroid, fine.centroid].map(|c| (c[0], c[1]));
        assert!((x - u).hypot(y - v) < 0.5);
        assert!(
            (39.0 * 39.0..=41.0 * 41.0).contains(&fine.area),
            "{}",
            fine.area
        );
        let length: f64 = fine.chainlets.iter().map(|c| c.features.chain_length).sum();
        assert!((39.0 * 4.0..=41.0 * 4.0).contains(&length), "{length}");
    }

    #[test]
    fn boxes_come_back_covering_their_source_pixels() {
        // Magnified pixels 4..=9 are source 2..=4.5: pixels 2 to 5.
        assert_eq!(box_in_source([4, 4, 6, 1], 2), [2, 2, 4, 1]);
        assert_eq!(box_in_source([0, 0, 5, 5], 2), [0, 0, 3, 3]);
    }
}
