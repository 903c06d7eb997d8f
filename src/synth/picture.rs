//! The puzzle's picture: a procedural, deterministic "painting" of soft colour regions,
//! shading and grain, one of whose colours is close to the background (so segmentation
//! cannot rely on colour contrast alone, as with real puzzles).

use super::random::{hash_unit, mix, Random};
use image::{Rgb, RgbImage};
use rayon::prelude::*;

/// The assembled picture, pixel centres at integer coordinates of the assembled frame.
pub struct Picture {
    pub image: RgbImage,
}

impl Picture {
    /// Paints a `width × height` picture whose features scale with `size` (a piece's size).
    pub fn paint(width: u32, height: u32, size: f64, background: [f32; 3], seed: u64) -> Picture {
        let mut rng = Random::new(seed, 40);
        // Five colours clearly unlike the background, plus one close to it that fills only
        // scattered patches (about a tenth of the picture): some regions of some pieces
        // nearly vanish against the background, as on real puzzles, but not whole swaths.
        let far = |c: &[f32; 3]| {
            (0..3)
                .map(|k| (c[k] - background[k]).powi(2))
                .sum::<f32>()
                .sqrt()
                > 80.0
        };
        let mut palette: Vec<[f32; 3]> = Vec::new();
        while palette.len() < 5 {
            let c = random_colour(&mut rng);
            if far(&c) || rng.chance(0.02) {
                palette.push(c);
            }
        }
        let near =
            [0, 1, 2].map(|c| (background[c] + rng.uniform(-14.0, 14.0) as f32).clamp(0.0, 255.0));
        let salt = mix(seed, 41);
        let region_scale = 2.2 * size;
        let shade_scale = 0.6 * size;
        let patch_scale = 1.3 * size;
        let mut image = RgbImage::new(width.max(1), height.max(1));
        image
            .par_chunks_mut(3 * width.max(1) as usize)
            .enumerate()
            .for_each(|(y, row)| {
                for (x, px) in row.chunks_mut(3).enumerate() {
                    let (fx, fy) = (x as f64, y as f64);
                    let n = fbm(fx / region_scale, fy / region_scale, 3, salt);
                    let t = ((n - 0.5) * 2.4 + 0.5).clamp(0.0, 1.0) * (palette.len() - 1) as f64;
                    let i = (t.floor() as usize).min(palette.len() - 2);
                    // Mostly flat regions with short transitions, like areas of a painting.
                    let f = ((t - i as f64 - 0.5) * 4.0 + 0.5).clamp(0.0, 1.0) as f32;
                    let shade =
                        0.85 + 0.3 * fbm(fx / shade_scale, fy / shade_scale, 2, salt ^ 7) as f32;
                    let grain = (value_noise(fx / 3.0, fy / 3.0, salt ^ 11) as f32 - 0.5) * 12.0;
                    let m = fbm(fx / patch_scale, fy / patch_scale, 2, salt ^ 13);
                    let g = (((m - 0.70) / 0.06).clamp(0.0, 1.0)) as f32;
                    for c in 0..3 {
                        let base = (palette[i][c] * (1.0 - f) + palette[i + 1][c] * f) * shade;
                        let v = base * (1.0 - g) + near[c] * g + grain;
                        px[c] = v.round().clamp(0.0, 255.0) as u8;
                    }
                }
            });
        Picture { image }
    }

    /// Bilinear sample at a point of the assembled frame (clamped at the picture's edge).
    pub fn sample(&self, x: f64, y: f64) -> [f32; 3] {
        let (w, h) = (self.image.width() as i64, self.image.height() as i64);
        let (x, y) = (x.clamp(0.0, (w - 1) as f64), y.clamp(0.0, (h - 1) as f64));
        let (x0, y0) = (x.floor() as i64, y.floor() as i64);
        let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
        let (fx, fy) = ((x - x0 as f64) as f32, (y - y0 as f64) as f32);
        let p = |xx: i64, yy: i64| -> &Rgb<u8> { self.image.get_pixel(xx as u32, yy as u32) };
        let (a, b, c, d) = (p(x0, y0), p(x1, y0), p(x0, y1), p(x1, y1));
        [0, 1, 2].map(|k| {
            let top = a[k] as f32 * (1.0 - fx) + b[k] as f32 * fx;
            let bottom = c[k] as f32 * (1.0 - fx) + d[k] as f32 * fx;
            top * (1.0 - fy) + bottom * fy
        })
    }
}

fn random_colour(rng: &mut Random) -> [f32; 3] {
    let hue = rng.uniform(0.0, 6.0);
    let sat = rng.uniform(0.25, 0.9);
    let val = rng.uniform(70.0, 240.0);
    let k = |n: f64| {
        let k = (n + hue) % 6.0;
        (val * (1.0 - sat * (k.min(4.0 - k).clamp(0.0, 1.0)))) as f32
    };
    [k(5.0), k(3.0), k(1.0)]
}

/// Smooth value noise in [0, 1] on the integer lattice, hashed with `salt`.
pub fn value_noise(x: f64, y: f64, salt: u64) -> f64 {
    let (xi, yi) = (x.floor(), y.floor());
    let (fx, fy) = (x - xi, y - yi);
    let (sx, sy) = (fx * fx * (3.0 - 2.0 * fx), fy * fy * (3.0 - 2.0 * fy));
    let corner = |dx: i64, dy: i64| {
        let h = mix(mix(salt, (xi as i64 + dx) as u64), (yi as i64 + dy) as u64);
        hash_unit(h)
    };
    let top = corner(0, 0) * (1.0 - sx) + corner(1, 0) * sx;
    let bottom = corner(0, 1) * (1.0 - sx) + corner(1, 1) * sx;
    top * (1.0 - sy) + bottom * sy
}

/// Fractal sum of `octaves` value-noise layers, normalised to [0, 1].
pub fn fbm(x: f64, y: f64, octaves: u32, salt: u64) -> f64 {
    let (mut sum, mut amp, mut total, mut f) = (0.0, 1.0, 0.0, 1.0);
    for o in 0..octaves {
        sum += amp * value_noise(x * f, y * f, salt.wrapping_add(o as u64 * 0x9E37));
        total += amp;
        amp *= 0.5;
        f *= 2.03;
    }
    sum / total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn painting_is_deterministic_and_varied() {
        let a = Picture::paint(64, 48, 20.0, [20.0, 20.0, 25.0], 3);
        let b = Picture::paint(64, 48, 20.0, [20.0, 20.0, 25.0], 3);
        assert_eq!(a.image, b.image);
        let first = a.image.get_pixel(0, 0);
        assert!(a.image.pixels().any(|p| p != first));
        let s = a.sample(10.0, 7.0);
        let p = a.image.get_pixel(10, 7);
        assert!((0..3).all(|k| (s[k] - p[k] as f32).abs() < 1e-4));
    }
}
