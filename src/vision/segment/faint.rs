//! Pieces with no pixel above the high threshold.
//!
//! The high threshold (Otsu on the distance histogram) sits between the background and the
//! bulk of the pieces. On a set of saturated pieces, a pale one (light cyan on grey-white
//! paper, 20 ΔE off the background) can lie wholly under it: the hysteresis has no seed in it
//! and grows nothing, and the piece is not even reported as a speck. Its pixels do pass the low
//! pass, in one large blob, which no shadow or noise makes: a blob of the low pass as large as
//! a piece, clearly above the low threshold on average and untouched by the hysteresis result,
//! is taken as a piece.

use image::{GrayImage, Luma};
use imageproc::region_labelling::{connected_components, Connectivity};

/// The mask `grown` with every faint piece added, or `None` when there is none. `joins` is the
/// low pass; `distances` every pixel's distance from the background; a faint piece has at least
/// `min_area` pixels and a mean distance of at least `min_mean`.
pub fn add_faint_pieces(
    grown: &GrayImage,
    distances: &[f32],
    joins: impl Fn(usize) -> bool,
    min_area: u64,
    min_mean: f32,
) -> Option<GrayImage> {
    let (w, h) = grown.dimensions();
    let low = GrayImage::from_fn(w, h, |x, y| {
        Luma([u8::from(joins(y as usize * w as usize + x as usize)) * 255])
    });
    let labels = connected_components(&low, Connectivity::Eight, Luma([0u8]));
    let n = labels.pixels().map(|p| p.0[0]).max().unwrap_or(0) as usize;
    // Per label: area, sum of distances, whether it touches the grown mask.
    let mut acc = vec![(0u64, 0f64, false); n + 1];
    for (x, y, l) in labels.enumerate_pixels() {
        let l = l.0[0] as usize;
        if l == 0 {
            continue;
        }
        let a = &mut acc[l];
        a.0 += 1;
        a.1 += distances[y as usize * w as usize + x as usize] as f64;
        a.2 |= grown.get_pixel(x, y)[0] != 0;
    }
    let keep: Vec<bool> = acc
        .iter()
        .map(|&(area, sum, touched)| {
            !touched && area >= min_area && area > 0 && sum / area as f64 >= min_mean as f64
        })
        .collect();
    if !keep.iter().skip(1).any(|&k| k) {
        return None;
    }
    let mut out = grown.clone();
    for (x, y, l) in labels.enumerate_pixels() {
        if keep[l.0[0] as usize] {
            out.put_pixel(x, y, Luma([255]));
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_faint_blob_is_added_and_small_or_seeded_ones_are_not() {
        let (w, h) = (40u32, 20u32);
        // A faint 10 × 10 square (distance 12) at x 2..12, a faint 3 × 3 one at x 20..23, and a
        // faint square at x 28..38 that the hysteresis already found.
        let d: Vec<f32> = (0..w * h)
            .map(|i| {
                let (x, y) = (i % w, i / w);
                let faint = (5..15).contains(&y) && ((2..12).contains(&x) || (28..38).contains(&x))
                    || (5..8).contains(&y) && (20..23).contains(&x);
                if faint {
                    12.0
                } else {
                    1.0
                }
            })
            .collect();
        let grown = GrayImage::from_fn(w, h, |x, y| {
            Luma([u8::from((28..38).contains(&x) && (5..15).contains(&y)) * 255])
        });
        let out = add_faint_pieces(&grown, &d, |j| d[j] > 5.0, 50, 9.0).expect("one added");
        assert_eq!(out.get_pixel(6, 9)[0], 255);
        assert_eq!(out.get_pixel(21, 6)[0], 0);
        assert_eq!(out.pixels().filter(|p| p[0] != 0).count(), 200);
        assert!(add_faint_pieces(&grown, &d, |j| d[j] > 5.0, 50, 20.0).is_none());
    }
}
