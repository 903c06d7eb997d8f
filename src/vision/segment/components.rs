//! From a binary mask to blobs: hole filling, 8-connected labelling, and per-blob statistics
//! and cropped masks.

use super::labelling::label_components;
pub use super::labelling::Labels;
use image::{GrayImage, Luma};
use imageproc::region_labelling::Connectivity;

/// The widest margin a tightly cropped single-piece image may leave on any side, in pixels.
pub const TIGHT_CROP_MARGIN: u32 = 2;
/// The largest share of its image a tightly cropped piece may fill.
const TIGHT_CROP_MAX_FILL: f64 = 0.9;

/// One connected foreground region.
#[derive(Clone, Debug)]
pub struct Blob {
    pub label: u32,
    /// `[x, y, w, h]`.
    pub bbox: [u32; 4],
    pub area: u64,
    pub centroid: [f64; 2],
}

impl Blob {
    /// Whether the blob reaches the edge of a `width × height` image.
    pub fn touches_border(&self, width: u32, height: u32) -> bool {
        let [x, y, w, h] = self.bbox;
        x == 0 || y == 0 || x + w >= width || y + h >= height
    }

    /// Whether the blob is a whole piece that was already cut out tightly (a single-piece mask
    /// like white-1000's `2_segmented`, or a crop from another segmenter): its box reaches
    /// within [`TIGHT_CROP_MARGIN`] pixels of all four sides of the image (white-1000's masks
    /// leave 0 or 1 pixel), and it leaves some of the image empty. A piece really cut by the
    /// frame of a photo reaches one or two sides; a blob filling (nearly) the whole image is a
    /// failed background estimate, not a piece. Jigsaw pieces fill 45–80% of their box.
    pub fn is_tight_crop(&self, width: u32, height: u32) -> bool {
        let [x, y, w, h] = self.bbox;
        let m = TIGHT_CROP_MARGIN;
        x <= m
            && y <= m
            && width - (x + w) <= m
            && height - (y + h) <= m
            && (self.area as f64) < TIGHT_CROP_MAX_FILL * width as f64 * height as f64
    }
}

/// Sets every background pixel that cannot reach the image border to foreground: the holes
/// inside pieces (a glare spot, a printed area the colour of the background, a Sharpie number
/// on a white puzzle) become piece. Background connectivity is 4 so it is the dual of the
/// 8-connected pieces: a diagonal gap in an outline does not leak.
pub fn fill_holes(mask: &mut GrayImage) {
    let (w, h) = (mask.width() as usize, mask.height() as usize);
    if w == 0 || h == 0 {
        return;
    }
    let buf: &mut [u8] = mask;
    const OUTSIDE: u8 = 1;
    let mut stack: Vec<usize> = Vec::new();
    let seed = |i: usize, buf: &mut [u8], stack: &mut Vec<usize>| {
        if buf[i] == 0 {
            buf[i] = OUTSIDE;
            stack.push(i);
        }
    };
    for x in 0..w {
        seed(x, buf, &mut stack);
        seed((h - 1) * w + x, buf, &mut stack);
    }
    for y in 0..h {
        seed(y * w, buf, &mut stack);
        seed(y * w + w - 1, buf, &mut stack);
    }
    while let Some(i) = stack.pop() {
        let (x, y) = (i % w, i / w);
        if x > 0 {
            seed(i - 1, buf, &mut stack);
        }
        if x + 1 < w {
            seed(i + 1, buf, &mut stack);
        }
        if y > 0 {
            seed(i - w, buf, &mut stack);
        }
        if y + 1 < h {
            seed(i + w, buf, &mut stack);
        }
    }
    for p in buf.iter_mut() {
        *p = if *p == OUTSIDE { 0 } else { 255 };
    }
}

/// The components of `mask` (non-zero = foreground) and the pixel count of each label
/// (index 0 counts the background), for the clean-ups that keep or drop components by size.
pub fn labelled_areas(mask: &GrayImage, connectivity: Connectivity) -> (Labels, Vec<u64>) {
    let (labels, n) = label_components(mask, connectivity);
    let n = n as usize;
    let mut areas = vec![0u64; n + 1];
    for p in labels.pixels() {
        areas[p.0[0] as usize] += 1;
    }
    (labels, areas)
}

/// The 8-connected blobs of `mask` (non-zero = foreground), with the label image.
pub fn label_blobs(mask: &GrayImage) -> (Labels, Vec<Blob>) {
    let (labels, n) = label_components(mask, Connectivity::Eight);
    let n = n as usize;
    // Per label: min x, min y, max x, max y, area, sum x, sum y.
    let mut acc = vec![(u32::MAX, u32::MAX, 0u32, 0u32, 0u64, 0f64, 0f64); n + 1];
    for (x, y, p) in labels.enumerate_pixels() {
        let l = p.0[0] as usize;
        if l == 0 {
            continue;
        }
        let a = &mut acc[l];
        a.0 = a.0.min(x);
        a.1 = a.1.min(y);
        a.2 = a.2.max(x);
        a.3 = a.3.max(y);
        a.4 += 1;
        a.5 += x as f64;
        a.6 += y as f64;
    }
    let blobs = acc
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, a)| a.4 > 0)
        .map(|(l, a)| Blob {
            label: l as u32,
            bbox: [a.0, a.1, a.2 - a.0 + 1, a.3 - a.1 + 1],
            area: a.4,
            centroid: [a.5 / a.4 as f64, a.6 / a.4 as f64],
        })
        .collect();
    (labels, blobs)
}

/// The pixels within `r` of (`x`, `y`) in the Chebyshev distance (a (2r + 1)² square), cut to
/// an image of `size`.
pub fn window(x: u32, y: u32, r: u32, size: (u32, u32)) -> impl Iterator<Item = (u32, u32)> {
    let (w, h) = size;
    let xs = x.saturating_sub(r)..(x + r + 1).min(w);
    (y.saturating_sub(r)..(y + r + 1).min(h)).flat_map(move |yy| xs.clone().map(move |xx| (xx, yy)))
}

/// The blob's own pixels, cut to its bounding box: 255 inside, 0 outside.
pub fn crop_mask(labels: &Labels, blob: &Blob) -> GrayImage {
    let [x0, y0, w, h] = blob.bbox;
    GrayImage::from_fn(w, h, |x, y| {
        if labels.get_pixel(x0 + x, y0 + y).0[0] == blob.label {
            Luma([255])
        } else {
            Luma([0])
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holes_fill_but_border_notches_do_not() {
        let mut m = GrayImage::new(9, 7);
        // A ring with a one-pixel hole at (4, 3), and a U open to the top edge at x = 1.
        for y in 1..6 {
            for x in 2..7 {
                m.put_pixel(x, y, Luma([255]));
            }
        }
        m.put_pixel(4, 3, Luma([0]));
        m.put_pixel(0, 0, Luma([255]));
        m.put_pixel(0, 1, Luma([255]));
        fill_holes(&mut m);
        assert_eq!(m.get_pixel(4, 3).0[0], 255);
        assert_eq!(m.get_pixel(1, 0).0[0], 0);
        assert_eq!(m.get_pixel(8, 6).0[0], 0);
    }

    #[test]
    fn blobs_have_box_area_and_centroid() {
        let mut m = GrayImage::new(10, 10);
        for y in 2..5 {
            for x in 3..8 {
                m.put_pixel(x, y, Luma([255]));
            }
        }
        m.put_pixel(9, 9, Luma([255]));
        let (labels, blobs) = label_blobs(&m);
        assert_eq!(blobs.len(), 2);
        let big = blobs.iter().find(|b| b.area == 15).unwrap();
        assert_eq!(big.bbox, [3, 2, 5, 3]);
        assert_eq!(big.centroid, [5.0, 3.0]);
        assert!(!big.touches_border(10, 10));
        assert!(blobs
            .iter()
            .any(|b| b.area == 1 && b.touches_border(10, 10)));
        let crop = crop_mask(&labels, big);
        assert!(crop.pixels().all(|p| p.0[0] == 255));
    }
}
