//! Splitting pieces welded by a thin bridge.
//!
//! Two pieces laid close together can be joined in the mask by a bridge a few pixels wide: the
//! low pass of the hysteresis follows the blurred edges or the drop shadow across the narrow gap
//! between a knob's tip and its neighbour. The blob then comes out as one `merged` piece. The
//! older remedy, segmenting the blob again from its strong pixels alone, loses every faint
//! part of the pieces (a pale face held only by its rim falls apart into specks).
//!
//! A bridge is a *neck*: much narrower than the bodies it joins. A morphological opening with a
//! disc wider than the neck removes it while keeping both bodies, so the blob falls apart into
//! two large components. Trying the smallest disc first keeps everything else intact; what the
//! opening removed goes back to the one part it touches (a knob cut off at its own neck, a
//! sharp corner), and only what touches two parts (the bridge) is dropped.

use super::components::{labelled_areas, window, Blob, Labels};
use super::labelling::label_components;
use image::{GrayImage, Luma};
use imageproc::distance_transform::euclidean_squared_distance_transform;
use imageproc::region_labelling::Connectivity;

/// The parts of `blob` (in `labels`) split at its necks (see [`split_at_necks`]), each as a
/// blob in image coordinates (label 0) and its mask cropped to its box.
pub fn split_blob(
    labels: &Labels,
    blob: &Blob,
    min_part: u64,
    max_radius: u32,
) -> Option<Vec<(Blob, GrayImage)>> {
    let [x0, y0, _, _] = blob.bbox;
    let mask = super::components::crop_mask(labels, blob);
    let parts = split_at_necks(&mask, min_part, max_radius)?;
    let cut = |part: GrayImage| {
        let (mut lo, mut hi) = ([u32::MAX; 2], [0u32; 2]);
        let (mut area, mut sum) = (0u64, [0f64; 2]);
        for (x, y, _) in part.enumerate_pixels().filter(|(_, _, p)| p[0] != 0) {
            lo = [lo[0].min(x), lo[1].min(y)];
            hi = [hi[0].max(x), hi[1].max(y)];
            area += 1;
            sum = [sum[0] + x as f64, sum[1] + y as f64];
        }
        let (bw, bh) = (hi[0] + 1 - lo[0], hi[1] + 1 - lo[1]);
        let crop = GrayImage::from_fn(bw, bh, |x, y| *part.get_pixel(lo[0] + x, lo[1] + y));
        let part_blob = Blob {
            label: 0,
            bbox: [x0 + lo[0], y0 + lo[1], bw, bh],
            area,
            centroid: [
                x0 as f64 + sum[0] / area as f64,
                y0 as f64 + sum[1] / area as f64,
            ],
        };
        (part_blob, crop)
    };
    Some(parts.into_iter().map(cut).collect())
}

/// The blob `mask` (255 = blob, one 8-connected blob) split at its narrowest necks into parts of
/// at least `min_part` pixels each, as masks of the same size; `None` when no opening with a
/// disc of radius up to `max_radius` leaves two such parts.
///
/// The radii tried grow by about a third each step (1, 2, 3, 4, 5, 7, 9, …): the neck that
/// splits a blob is found to within a third of its width, and a large blob costs only a dozen
/// openings. Each opening is exact (Euclidean distance transforms).
pub fn split_at_necks(mask: &GrayImage, min_part: u64, max_radius: u32) -> Option<Vec<GrayImage>> {
    let (w, h) = mask.dimensions();
    // One pixel of background around the blob, so the distance to background is measured to
    // the crop's edge as well.
    let padded = GrayImage::from_fn(w + 2, h + 2, |x, y| {
        let inside = x >= 1 && y >= 1 && x <= w && y <= h && mask.get_pixel(x - 1, y - 1)[0] != 0;
        Luma([if inside { 0 } else { 255 }])
    });
    let to_background = euclidean_squared_distance_transform(&padded);
    let mut radius = 1u32;
    while radius <= max_radius {
        let r2 = f64::from(radius * radius);
        let eroded = GrayImage::from_fn(w + 2, h + 2, |x, y| {
            Luma([u8::from(to_background.get_pixel(x, y)[0] > r2) * 255])
        });
        let (_, cores) = label_components(&eroded, Connectivity::Eight);
        if cores >= 2 {
            if let Some(parts) = parts_of_opening(mask, &eroded, r2, min_part) {
                return Some(parts);
            }
        }
        radius = (radius + 1).max(radius * 4 / 3);
    }
    None
}

/// The parts of `mask` after opening it (`eroded`, padded by one pixel, dilated back by the
/// disc of squared radius `r2`), when at least two of the opening's components reach
/// `min_part` pixels; the rest of the blob joins the one part it touches or is dropped.
fn parts_of_opening(
    mask: &GrayImage,
    eroded: &GrayImage,
    r2: f64,
    min_part: u64,
) -> Option<Vec<GrayImage>> {
    let (w, h) = mask.dimensions();
    let to_core = euclidean_squared_distance_transform(eroded);
    let opened = GrayImage::from_fn(w, h, |x, y| {
        let on = mask.get_pixel(x, y)[0] != 0 && to_core.get_pixel(x + 1, y + 1)[0] <= r2;
        Luma([u8::from(on) * 255])
    });
    let (labels, areas) = labelled_areas(&opened, Connectivity::Eight);
    let n = areas.len() - 1;
    // Part number (1-based) of each large component of the opening.
    let mut part_of = vec![0usize; n + 1];
    let mut parts = 0;
    for l in 1..=n {
        if areas[l] >= min_part {
            parts += 1;
            part_of[l] = parts;
        }
    }
    if parts < 2 {
        return None;
    }
    let part_at = |x: u32, y: u32| part_of[labels.get_pixel(x, y)[0] as usize];
    // The rest: blob pixels in no large part, by 8-connected pieces, each given to the one part
    // it touches.
    let rest = GrayImage::from_fn(w, h, |x, y| {
        Luma([u8::from(mask.get_pixel(x, y)[0] != 0 && part_at(x, y) == 0) * 255])
    });
    let (rest_labels, m) = label_components(&rest, Connectivity::Eight);
    let m = m as usize;
    // Per piece of the rest: the part it touches, 0 for none yet, usize::MAX for several.
    let mut touches = vec![0usize; m + 1];
    for (x, y, p) in rest_labels.enumerate_pixels() {
        let r = p.0[0] as usize;
        if r == 0 {
            continue;
        }
        for (xx, yy) in window(x, y, 1, (w, h)) {
            let q = part_at(xx, yy);
            if q != 0 && touches[r] != q {
                touches[r] = if touches[r] == 0 { q } else { usize::MAX };
            }
        }
    }
    let out = (1..=parts)
        .map(|k| {
            GrayImage::from_fn(w, h, |x, y| {
                let r = rest_labels.get_pixel(x, y)[0] as usize;
                let on = part_at(x, y) == k || (r != 0 && touches[r] == k);
                Luma([u8::from(on) * 255])
            })
        })
        .collect();
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two 20 × 20 squares 6 px apart, joined by a bridge `bridge` px wide, one with a knob
    /// (a 6 × 4 tab) on its far side.
    fn welded(bridge: u32) -> GrayImage {
        GrayImage::from_fn(60, 30, |x, y| {
            let left = (2..22).contains(&x) && (5..25).contains(&y);
            let right = (28..48).contains(&x) && (5..25).contains(&y);
            let b0 = 15 - bridge / 2;
            let joint = (22..28).contains(&x) && (b0..b0 + bridge).contains(&y);
            let knob = (48..54).contains(&x) && (13..17).contains(&y);
            Luma([u8::from(left || right || joint || knob) * 255])
        })
    }

    #[test]
    fn a_thin_bridge_is_cut_and_the_knob_stays() {
        let parts = split_at_necks(&welded(2), 150, 6).expect("split");
        assert_eq!(parts.len(), 2);
        let area = |m: &GrayImage| m.pixels().filter(|p| p[0] != 0).count();
        let (a, b) = (&parts[0], &parts[1]);
        // Each square whole, with at most the bridge's first pixel (the exact opening keeps
        // the pixel where the bridge meets the square's side).
        assert!((400..=402).contains(&area(a)), "{}", area(a));
        // The knob (cut off by the opening at its own neck, or kept) belongs to its square.
        assert!((424..=426).contains(&area(b)), "{}", area(b));
        assert_eq!(b.get_pixel(52, 15)[0], 255);
        // The bridge is dropped.
        assert_eq!(a.get_pixel(25, 15)[0] | b.get_pixel(25, 15)[0], 0);
    }

    #[test]
    fn one_body_or_a_wide_joint_is_not_split() {
        // A joint as wide as the squares is no neck within the radii allowed.
        assert!(split_at_necks(&welded(20), 150, 6).is_none());
        // Parts must be large: the knob alone is no part.
        let one = GrayImage::from_fn(40, 30, |x, y| {
            let body = (2..22).contains(&x) && (5..25).contains(&y);
            let knob = (22..28).contains(&x) && (13..17).contains(&y);
            Luma([u8::from(body || knob) * 255])
        });
        assert!(split_at_necks(&one, 150, 6).is_none());
    }
}
