//! CIELAB pixels and the perceptual distance of a pixel from the background.
//!
//! Lab is used because its Euclidean distance (ΔE*ab, CIE76) roughly follows how different two
//! colours look, so one threshold serves white, grey, black and coloured backgrounds alike,
//! where a threshold on RGB would be far too loose on dark felt and too tight on white paper.

use image::RgbImage;

/// An image in CIELAB (D65), row-major, `[L, a, b]` per pixel.
pub struct LabImage {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<[f32; 3]>,
}

impl LabImage {
    pub fn from_rgb(img: &RgbImage) -> LabImage {
        let lut = srgb_to_linear_lut();
        let pixels = img
            .pixels()
            .map(|p| {
                let [r, g, b] = p.0;
                linear_to_lab(lut[r as usize], lut[g as usize], lut[b as usize])
            })
            .collect();
        LabImage {
            width: img.width(),
            height: img.height(),
            pixels,
        }
    }

    pub fn get(&self, x: u32, y: u32) -> [f32; 3] {
        self.pixels[(y as usize) * (self.width as usize) + x as usize]
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

fn linear_to_lab(r: f32, g: f32, b: f32) -> [f32; 3] {
    // sRGB → XYZ (D65), normalised by the white point.
    let x = (0.412_456_4 * r + 0.357_576_1 * g + 0.180_437_5 * b) / 0.950_47;
    let y = 0.212_672_9 * r + 0.715_152_2 * g + 0.072_175 * b;
    let z = (0.019_333_9 * r + 0.119_192 * g + 0.950_304_1 * b) / 1.088_83;
    let f = |t: f32| {
        if t > 0.008_856 {
            t.cbrt()
        } else {
            7.787 * t + 16.0 / 116.0
        }
    };
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

#[cfg(test)]
mod tests {
    use super::*;

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
