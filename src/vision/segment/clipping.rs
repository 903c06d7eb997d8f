//! Shades of an overexposed background.
//!
//! White paper under a phone's auto exposure is often clipped: where the light is strongest
//! every channel reads 255 and the paper looks neutral white, while it is in truth a little
//! warm (classic photo seeds 1 and 10: the unclipped paper is at a* −0.9, b* +2.6; the clipped
//! part at 0, 0). The background field follows the clipped colour there, and the shade test
//! ([`super::colour::shadow_distance`]) predicts that a shadow of neutral white is neutral
//! grey. But a shadow is the paper's *true* colour, dimmed: it shows the warm tint the
//! clipping hid (a*, b* ≈ −1.2, +3.0 in those drop shadows), 3–4 ΔE off the neutral ray
//! against 2.6 allowed, so the low pass of the hysteresis took the whole soft drop shadow of
//! the pale pieces on such paper into the pieces.
//!
//! A shade keeps the background's *chromaticity* (a* and b* over L* + 16, the direction of
//! the shade ray in Lab), and the unclipped background shows it. So when part of the
//! background is clipped, the chromaticity of the unclipped background pixels gives a second
//! shade ray at every pixel, and a pixel is in shade when it is near either ray.

use super::colour::LabImage;

/// A channel at or above this value counts as clipped: JPEG rounding and noise spread a
/// saturated area to a few levels below 255.
const CLIPPED_LEVEL: u8 = 250;
/// The shade ray from the unclipped background is used when at least this fraction of the
/// background samples is clipped: below it, the field follows the true colour nearly
/// everywhere and its own ray is right.
const MIN_CLIPPED_FRACTION: f64 = 0.05;
/// ... and at least this fraction is unclipped, to measure the true chromaticity on (a fully
/// whitened background, as a cut-out composited over white, shows none).
const MIN_UNCLIPPED_FRACTION: f64 = 0.05;

/// The chromaticity `[a*/(L*+16), b*/(L*+16)]` of the background where it is not clipped, when
/// a noticeable part of it is (see the module documentation); `None` otherwise. `lab` is the
/// point sample of `img` the model is fitted on, `is_background` says which of its samples the
/// background model classes as background.
pub fn unclipped_chromaticity(
    img: &image::RgbImage,
    lab: &LabImage,
    is_background: impl Fn(usize) -> bool,
) -> Option<[f32; 2]> {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut clipped = 0usize;
    for (i, p) in lab.pixels.iter().enumerate() {
        if !is_background(i) {
            continue;
        }
        let (x, y) = (i as u32 % lab.width, i as u32 / lab.width);
        let rgb = img.get_pixel(x * lab.step, y * lab.step).0;
        if is_clipped(rgb) {
            clipped += 1;
            continue;
        }
        let scale = p[0] + 16.0;
        a.push(p[1] / scale);
        b.push(p[2] / scale);
    }
    let total = (clipped + a.len()) as f64;
    if total == 0.0
        || (clipped as f64) < MIN_CLIPPED_FRACTION * total
        || (a.len() as f64) < MIN_UNCLIPPED_FRACTION * total
    {
        return None;
    }
    Some([median(&mut a), median(&mut b)])
}

/// Whether a pixel has a channel at (or within JPEG noise of) the top of the range, where its
/// colour no longer says what it shows. Only overexposure counts: the shadow of a background
/// crushed to black is crushed too, while the shadow of an overexposed one is not.
pub fn is_clipped(rgb: [u8; 3]) -> bool {
    rgb.iter().any(|&c| c >= CLIPPED_LEVEL)
}

/// The colour with lightness `q[0]` and chromaticity `c`: where the shade ray through `c`
/// crosses the lightness of the background colour `q`.
pub fn with_chromaticity(q: [f32; 3], c: [f32; 2]) -> [f32; 3] {
    let scale = q[0] + 16.0;
    [q[0], c[0] * scale, c[1] * scale]
}

fn median(v: &mut [f32]) -> f32 {
    let mid = v.len() / 2;
    *v.select_nth_unstable_by(mid, f32::total_cmp).1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::segment::colour::{shadow_distance, LabConverter};
    use image::{Rgb, RgbImage};

    /// Warm paper, its right half overexposed to pure white.
    fn half_clipped() -> RgbImage {
        RgbImage::from_fn(40, 20, |x, _| {
            if x < 20 {
                Rgb([236, 236, 228])
            } else {
                Rgb([255, 255, 255])
            }
        })
    }

    #[test]
    fn the_shade_of_clipped_white_paper_has_the_papers_tint() {
        let img = half_clipped();
        let lab = LabImage::sampled(&img, 1);
        let c = unclipped_chromaticity(&img, &lab, |_| true).expect("half is clipped");
        let conv = LabConverter::new();
        let white = conv.lab([255, 255, 255]);
        // The paper's drop shadow: its true colour dimmed to 80 %.
        let shade = conv.lab([189, 189, 182]);
        assert!(shadow_distance(shade, white, 1.0) > 2.5);
        assert!(shadow_distance(shade, with_chromaticity(white, c), 1.0) < 1.0);
        // A pale pink face is no shade of either.
        let pink = conv.lab([255, 240, 250]);
        assert!(shadow_distance(pink, with_chromaticity(white, c), 1.0) > 5.0);
    }

    #[test]
    fn an_unclipped_or_wholly_clipped_background_gives_no_second_ray() {
        let warm = RgbImage::from_pixel(30, 30, Rgb([236, 236, 228]));
        let lab = LabImage::sampled(&warm, 1);
        assert_eq!(unclipped_chromaticity(&warm, &lab, |_| true), None);
        let white = RgbImage::from_pixel(30, 30, Rgb([255, 255, 255]));
        let lab = LabImage::sampled(&white, 1);
        assert_eq!(unclipped_chromaticity(&white, &lab, |_| true), None);
    }
}
