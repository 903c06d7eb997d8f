//! CIELAB pixels and the perceptual distance of a pixel from the background.
//!
//! Lab is used because its Euclidean distance (ΔE*ab, CIE76) roughly follows how different two
//! colours look, so one threshold serves white, grey, black and coloured backgrounds alike,
//! where a threshold on RGB would be far too loose on dark felt and too tight on white paper.

use image::RgbImage;
use rayon::prelude::*;

/// An image in CIELAB (D65), row-major, `[L, a, b]` per pixel, possibly a point sample of a
/// larger image: pixel (i, j) here is pixel (i × step, j × step) of the source.
pub struct LabImage {
    pub width: u32,
    pub height: u32,
    /// Source pixels per pixel here, along each axis.
    pub step: u32,
    pub pixels: Vec<[f32; 3]>,
}

impl LabImage {
    /// Every `step`-th pixel of every `step`-th row. Point samples, not averages, so the noise
    /// measured on them is the noise of the full image.
    pub fn sampled(img: &RgbImage, step: u32) -> LabImage {
        let step = step.max(1);
        let conv = LabConverter::new();
        let (width, height) = (img.width().div_ceil(step), img.height().div_ceil(step));
        let mut pixels = vec![[0f32; 3]; width as usize * height as usize];
        pixels
            .par_chunks_mut(width as usize)
            .enumerate()
            .for_each(|(j, out)| {
                // Runs of one colour (masks, whitened or flat backgrounds) convert once.
                let mut last = ([0u8; 3], conv.lab([0; 3]));
                for (i, o) in out.iter_mut().enumerate() {
                    let rgb = img.get_pixel(i as u32 * step, j as u32 * step).0;
                    if rgb != last.0 {
                        last = (rgb, conv.lab(rgb));
                    }
                    *o = last.1;
                }
            });
        LabImage {
            width,
            height,
            step,
            pixels,
        }
    }

    /// The whole image.
    #[cfg(test)]
    pub fn from_rgb(img: &RgbImage) -> LabImage {
        LabImage::sampled(img, 1)
    }

    pub fn get(&self, x: u32, y: u32) -> [f32; 3] {
        self.pixels[(y as usize) * (self.width as usize) + x as usize]
    }
}

/// sRGB → Lab by tables: the exact cube root was a sixth of segmentation time on 12 MP photos.
pub struct LabConverter {
    linear: [f32; 256],
    cube_root: CubeRoot,
}

impl Default for LabConverter {
    fn default() -> Self {
        Self::new()
    }
}

impl LabConverter {
    pub fn new() -> LabConverter {
        LabConverter {
            linear: srgb_to_linear_lut(),
            cube_root: CubeRoot::new(),
        }
    }

    pub fn lab(&self, [r, g, b]: [u8; 3]) -> [f32; 3] {
        let l = &self.linear;
        linear_to_lab_with(l[r as usize], l[g as usize], l[b as usize], |t| {
            self.cube_root.f(t)
        })
    }
}

/// The Lab colour of one sRGB pixel.
pub fn rgb_to_lab(rgb: [u8; 3]) -> [f32; 3] {
    let lut = srgb_to_linear_lut();
    linear_to_lab(
        lut[rgb[0] as usize],
        lut[rgb[1] as usize],
        lut[rgb[2] as usize],
    )
}

fn srgb_to_linear_lut() -> [f32; 256] {
    let mut lut = [0f32; 256];
    for (i, v) in lut.iter_mut().enumerate() {
        let c = i as f32 / 255.0;
        *v = if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        };
    }
    lut
}

/// Lab's `f(t)` (a cube root above a small linear toe) by table and linear interpolation;
/// the table's error is below 0.001 L units.
struct CubeRoot {
    table: Vec<f32>,
}

/// Table entries per unit of `t`.
const CUBE_ROOT_STEPS: usize = 4096;
/// The table covers `t` in `[0, CUBE_ROOT_RANGE]`: white's normalised X and Z land a rounding
/// error above 1.
const CUBE_ROOT_RANGE: f32 = 1.25;

impl CubeRoot {
    fn new() -> CubeRoot {
        let n = (CUBE_ROOT_RANGE * CUBE_ROOT_STEPS as f32) as usize;
        let table = (0..=n + 1)
            .map(|i| lab_f(i as f32 / CUBE_ROOT_STEPS as f32))
            .collect();
        CubeRoot { table }
    }

    fn f(&self, t: f32) -> f32 {
        if !(0.0..=CUBE_ROOT_RANGE).contains(&t) {
            return lab_f(t);
        }
        let x = t * CUBE_ROOT_STEPS as f32;
        let i = x as usize;
        let frac = x - i as f32;
        self.table[i] + (self.table[i + 1] - self.table[i]) * frac
    }
}

fn lab_f(t: f32) -> f32 {
    if t > 0.008_856 {
        t.cbrt()
    } else {
        7.787 * t + 16.0 / 116.0
    }
}

fn linear_to_lab(r: f32, g: f32, b: f32) -> [f32; 3] {
    linear_to_lab_with(r, g, b, lab_f)
}

fn linear_to_lab_with(r: f32, g: f32, b: f32, f: impl Fn(f32) -> f32) -> [f32; 3] {
    // sRGB → XYZ (D65), normalised by the white point.
    let x = (0.412_456_4 * r + 0.357_576_1 * g + 0.180_437_5 * b) / 0.950_47;
    let y = 0.212_672_9 * r + 0.715_152_2 * g + 0.072_175 * b;
    let z = (0.019_333_9 * r + 0.119_192 * g + 0.950_304_1 * b) / 1.088_83;
    let (fx, fy, fz) = (f(x), f(y), f(z));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// ΔE between two Lab colours, with the lightness difference weighted by `lightness_weight`.
pub fn distance(p: [f32; 3], q: [f32; 3], lightness_weight: f32) -> f32 {
    let dl = (p[0] - q[0]) * lightness_weight;
    let da = p[1] - q[1];
    let db = p[2] - q[2];
    (dl * dl + da * da + db * db).sqrt()
}

/// The deepest shadow [`shadow_distance`] forgives: the ray scale of a background whose
/// luminance is cut to about 40 % (scale³), darker than a soft cast shadow or a vignette's
/// corner after flattening.
const DEEPEST_SHADOW: f32 = 0.75;

/// ΔE of `p` from the nearest shadow of background colour `q`, and from `q` itself when `p` is
/// lighter.
///
/// Why: a shadow multiplies the background's linear RGB by a factor k < 1, which in Lab moves
/// it (to within the cube root's linear toe) along the ray from (L = −16, 0, 0) through
/// (L + 16, a, b), scaled by k^⅓. A pixel near that ray, on the dark side, is background in
/// shade however far it is from the background colour, while a patch of print close to the
/// background's colour but off that ray still counts.
pub fn shadow_distance(p: [f32; 3], q: [f32; 3], lightness_weight: f32) -> f32 {
    let v = [q[0] + 16.0, q[1], q[2]];
    let r = [p[0] + 16.0, p[1], p[2]];
    let vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    let along = (r[0] * v[0] + r[1] * v[1] + r[2] * v[2]) / vv.max(f32::EPSILON);
    if along >= 1.0 || vv <= f32::EPSILON {
        return distance(p, q, lightness_weight);
    }
    let k = along.max(DEEPEST_SHADOW);
    distance(p, [k * v[0] - 16.0, k * v[1], k * v[2]], lightness_weight)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shadow_is_near_its_background_and_a_hue_change_is_not() {
        let conv = LabConverter::new();
        let bg = conv.lab([200, 190, 170]);
        let shade = conv.lab([130, 124, 110]);
        let print = conv.lab([180, 190, 200]);
        assert!(distance(shade, bg, 1.0) > 15.0);
        assert!(shadow_distance(shade, bg, 1.0) < 3.0);
        assert!(shadow_distance(print, bg, 1.0) > 10.0);
        let lighter = conv.lab([240, 235, 225]);
        assert_eq!(
            shadow_distance(lighter, bg, 1.0),
            distance(lighter, bg, 1.0)
        );
    }

    #[test]
    fn tabled_cube_root_matches_the_exact_one() {
        let img = RgbImage::from_fn(64, 64, |x, y| {
            image::Rgb([(x * 4) as u8, (y * 4) as u8, 77])
        });
        let lab = LabImage::from_rgb(&img);
        for (p, q) in img.pixels().zip(&lab.pixels) {
            let exact = rgb_to_lab(p.0);
            assert!(distance(exact, *q, 1.0) < 0.01, "{exact:?} {q:?}");
        }
    }

    #[test]
    fn known_lab_values() {
        let white = rgb_to_lab([255, 255, 255]);
        assert!((white[0] - 100.0).abs() < 0.05 && white[1].abs() < 0.05 && white[2].abs() < 0.05);
        let black = rgb_to_lab([0, 0, 0]);
        assert!(black[0].abs() < 1e-3);
        // sRGB red is L 53.24, a 80.09, b 67.20.
        let red = rgb_to_lab([255, 0, 0]);
        assert!((red[0] - 53.24).abs() < 0.1, "{red:?}");
        assert!((red[1] - 80.09).abs() < 0.2, "{red:?}");
        assert!((red[2] - 67.20).abs() < 0.2, "{red:?}");
    }
}
