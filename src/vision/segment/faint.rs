//! Pieces with no pixel above the high threshold.
//!
//! The high threshold (Otsu on the distance histogram) sits between the background and the
//! bulk of the pieces. On a set of saturated pieces, a pale one (light cyan on grey-white
//! paper, 20 ΔE off the background) can lie wholly under it: the hysteresis has no seed in it
//! and grows nothing, and the piece is not even reported as a speck. Its pixels do pass the low
//! pass, in one large blob, which no shadow or noise makes: a blob of the low pass as large as
//! a piece, clearly above the low threshold on average and untouched by the hysteresis result,
//! is taken as a piece.

use image::GrayImage;

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
    let (w, h) = (grown.width() as usize, grown.height() as usize);
    let grown_px = grown.as_raw();
    // Blobs of low-pass pixels outside `grown`: the hysteresis took in every low-pass pixel
    // next to it, so none of these touches it. Flooded one at a time (only the few pixels
    // outside the pieces that pass the low pass are visited).
    let mut seen = vec![false; w * h];
    let mut out: Option<GrayImage> = None;
    let mut stack = Vec::new();
    let mut blob = Vec::new();
    for start in 0..w * h {
        if seen[start] || grown_px[start] != 0 || !joins(start) {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        blob.clear();
        let mut sum = 0f64;
        while let Some(i) = stack.pop() {
            blob.push(i);
            sum += distances[i] as f64;
            let (x, y) = (i % w, i / w);
            for ny in y.saturating_sub(1)..(y + 2).min(h) {
                for nx in x.saturating_sub(1)..(x + 2).min(w) {
                    let j = ny * w + nx;
                    if !seen[j] && grown_px[j] == 0 && joins(j) {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
        }
        let area = blob.len() as u64;
        if area >= min_area.max(1) && sum / area as f64 >= min_mean as f64 {
            let mask = out.get_or_insert_with(|| grown.clone());
            let px: &mut [u8] = mask;
            for &i in &blob {
                px[i] = 255;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

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
