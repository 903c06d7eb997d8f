//! Binary clean-up of the thresholded mask.
//!
//! The order matters on real photos. A piece whose picture is near the background colour at
//! its edge (white sky on white paper) is often enclosed only by its thin rim (the cut's
//! side, a hairline shadow), 1–3 pixels wide. An opening first would erase that rim and let the
//! background flood into the piece. So: a closing bridges hairline gaps in the rim, holes are
//! filled while the rim still encloses them, and only then an opening drops hairs, dust and
//! JPEG speckle narrower than the radius, after which holes are filled again.
//!
//! The structuring element is the digital disc {(dx, dy) : dx² + dy² ≤ r²}, the same set
//! imageproc's `Norm::L2` morphology uses, computed here as a union of horizontal runs (one
//! per dy), which is several times faster than a Euclidean distance transform on 12 MP masks.
//! Outside the image counts as background for dilation and as foreground for erosion, so a
//! piece cut by the image edge stays touching it (and is still reported as clipped).

use super::components::fill_holes;
use image::GrayImage;
use rayon::prelude::*;

/// The radius used when the options do not fix one: about one pixel per megapixel-side
/// (1 px at 1 MP, 3 px at 12 MP), so the clean-up scales with the photo's resolution but never
/// rounds off more than a hair of a piece's corners.
pub fn auto_radius(width: u32, height: u32) -> u8 {
    let side = ((width as f64) * (height as f64)).sqrt();
    (side / 1000.0).round().clamp(1.0, 6.0) as u8
}

/// Close, fill holes, open, fill holes (255 = piece), with a disc of the given radius.
/// Radius 0 only fills holes.
pub fn clean(mask: &mut GrayImage, radius: u8) {
    if radius > 0 {
        *mask = erode(&dilate(mask, radius), radius);
    }
    fill_holes(mask);
    if radius > 0 {
        *mask = dilate(&erode(mask, radius), radius);
        fill_holes(mask);
    }
}

/// Every pixel within the disc of a foreground pixel becomes foreground.
pub fn dilate(mask: &GrayImage, radius: u8) -> GrayImage {
    let (w, h) = (mask.width() as usize, mask.height() as usize);
    let r = radius as i64;
    // Per row, the horizontal distance to the nearest foreground pixel (saturating).
    let mut near = vec![u8::MAX; w * h];
    near.par_chunks_mut(w)
        .zip(mask.par_chunks(w))
        .for_each(|(out, src)| {
            let mut d = u8::MAX;
            for (o, &s) in out.iter_mut().zip(src) {
                d = if s > 0 { 0 } else { d.saturating_add(1) };
                *o = d;
            }
            let mut d = u8::MAX;
            for (o, &s) in out.iter_mut().zip(src).rev() {
                d = if s > 0 { 0 } else { d.saturating_add(1) };
                *o = (*o).min(d);
            }
        });
    // Half-width of the disc at each vertical offset.
    let half: Vec<u8> = (-r..=r)
        .map(|dy| ((r * r - dy * dy) as f64).sqrt().floor() as u8)
        .collect();
    let mut out = vec![0u8; w * h];
    out.par_chunks_mut(w).enumerate().for_each(|(y, row)| {
        for (k, &hw) in half.iter().enumerate() {
            let yy = y as i64 + k as i64 - r;
            if yy < 0 || yy >= h as i64 {
                continue;
            }
            let src = &near[yy as usize * w..(yy as usize + 1) * w];
            for (o, &d) in row.iter_mut().zip(src) {
                if d <= hw {
                    *o = 255;
                }
            }
        }
    });
    GrayImage::from_raw(w as u32, h as u32, out).expect("same size")
}

/// Every pixel whose disc is not wholly foreground becomes background.
pub fn erode(mask: &GrayImage, radius: u8) -> GrayImage {
    let mut inverted = mask.clone();
    inverted
        .iter_mut()
        .for_each(|p| *p = if *p > 0 { 0 } else { 255 });
    let mut out = dilate(&inverted, radius);
    out.iter_mut().for_each(|p| *p = 255 - *p);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use imageproc::distance_transform::Norm;

    fn noise_mask(w: u32, h: u32, seed: u64) -> GrayImage {
        let mut s = seed;
        GrayImage::from_fn(w, h, |x, y| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let blob = (x as i64 - 20).pow(2) + (y as i64 - 15).pow(2) < 150;
            image::Luma([if blob || (s >> 60) == 0 { 255 } else { 0 }])
        })
    }

    #[test]
    fn same_as_imageproc_l2_for_every_radius() {
        for r in 1..=5u8 {
            for seed in 0..3 {
                let m = noise_mask(47, 33, seed);
                assert_eq!(
                    dilate(&m, r),
                    imageproc::morphology::dilate(&m, Norm::L2, r),
                    "dilate r={r}"
                );
                assert_eq!(
                    erode(&m, r),
                    imageproc::morphology::erode(&m, Norm::L2, r),
                    "erode r={r}"
                );
            }
        }
    }

    #[test]
    fn clean_keeps_a_thin_rim_enclosing_a_background_coloured_face() {
        // A 1-pixel ring (the rim of a piece whose face matches the background) survives as a
        // filled disc, and a lone speck vanishes.
        let mut m = GrayImage::from_fn(60, 60, |x, y| {
            let d2 = (x as i64 - 30).pow(2) + (y as i64 - 30).pow(2);
            image::Luma([if (380..=440).contains(&d2) { 255 } else { 0 }])
        });
        m.put_pixel(3, 50, image::Luma([255]));
        clean(&mut m, 2);
        assert_eq!(m.get_pixel(30, 30).0[0], 255);
        assert_eq!(m.get_pixel(3, 50).0[0], 0);
    }
}
