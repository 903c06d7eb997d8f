//! Rendering the scattered pieces into images as a scanner or a phone would capture them:
//! flat background, each piece's face sampled from the picture through the inverse of its
//! placement (bilinear), composited with exact anti-aliased coverage; `photo` adds uneven
//! light, a soft shadow and a slight blur; both add sensor noise.

use super::coverage::rasterize;
use super::geometry::{Affine, Pt};
use super::picture::Picture;
use super::random::{hash_unit, mix, Random};
use image::{GrayImage, RgbImage};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    /// Flatbed scan: even light, sharp, sensor noise, PNG.
    Scan,
    /// Phone photo: uneven light (±25%), soft shadow, slight blur, noise, JPEG.
    Photo,
}

/// One piece to draw: its outline in image pixels and the map from image to picture.
pub struct Sprite<'a> {
    pub outline: Vec<Pt>,
    pub to_picture: Affine,
    pub picture: &'a Picture,
}

pub struct Rendered {
    pub rgb: RgbImage,
    /// Piece coverage, 0..255: what the pieces' anti-aliased masks are (for tests and users
    /// checking a segmentation).
    pub mask: GrayImage,
}

/// Draws one image. `size` (a piece's size in pixels) scales the shadow; `seed` drives the
/// light and the noise, which are hashed per pixel so the result does not depend on threads.
pub fn render(
    wh: [u32; 2],
    style: Style,
    background: [f32; 3],
    sprites: &[Sprite],
    size: f64,
    seed: u64,
) -> Rendered {
    let (w, h) = (wh[0] as usize, wh[1] as usize);
    let mut rgb: Vec<[f32; 3]> = vec![background; w * h];
    let mut alpha = vec![0f32; w * h];
    if style == Style::Photo {
        let offset = [0.03 * size + 2.0, 0.045 * size + 2.0];
        let mut shadow = vec![0f32; w * h];
        for s in sprites {
            let moved: Vec<Pt> = s
                .outline
                .iter()
                .map(|p| [p[0] + offset[0], p[1] + offset[1]])
                .collect();
            stamp(&mut shadow, w, h, &moved, |dst, c| {
                *dst = (*dst + c).min(1.0)
            });
        }
        let radius = (0.025 * size + 1.5).round() as usize;
        for _ in 0..3 {
            box_blur(&mut shadow, w, h, radius);
        }
        for (p, s) in rgb.iter_mut().zip(&shadow) {
            let k = 1.0 - 0.4 * s;
            *p = [p[0] * k, p[1] * k, p[2] * k];
        }
    }
    for s in sprites {
        let cov = rasterize(&s.outline);
        for ly in 0..cov.h {
            let y = cov.y0 + ly as i64;
            if y < 0 || y >= h as i64 {
                continue;
            }
            for lx in 0..cov.w {
                let c = cov.data[ly * cov.w + lx];
                let x = cov.x0 + lx as i64;
                if c <= 0.0 || x < 0 || x >= w as i64 {
                    continue;
                }
                let q = s.to_picture.apply([x as f64, y as f64]);
                let face = s.picture.sample(q[0], q[1]);
                // The outer pixel of a piece shows its die-cut cardboard edge: the part of the
                // coverage that one pixel of erosion removes.
                let core = eroded(&cov, lx, ly);
                let i = y as usize * w + x as usize;
                let p = &mut rgb[i];
                for k in 0..3 {
                    p[k] = p[k] * (1.0 - c) + face[k] * core + CARDBOARD[k] * (c - core);
                }
                alpha[i] = (alpha[i] + c).min(1.0);
            }
        }
    }
    let sigma = match style {
        Style::Scan => 2.0,
        Style::Photo => {
            light(&mut rgb, w, h, seed);
            blur3(&mut rgb, w, h);
            3.0
        }
    };
    let salt = mix(seed, 77);
    let mut out = RgbImage::new(wh[0], wh[1]);
    for (i, (px, p)) in out.pixels_mut().zip(&rgb).enumerate() {
        for k in 0..3 {
            let n = gaussian(mix(salt, (i * 3 + k) as u64));
            px[k] = (p[k] + sigma * n).round().clamp(0.0, 255.0) as u8;
        }
    }
    let mask = GrayImage::from_raw(
        wh[0],
        wh[1],
        alpha.iter().map(|a| (a * 255.0).round() as u8).collect(),
    )
    .expect("mask buffer has the image's size");
    Rendered { rgb: out, mask }
}

/// The colour of the grey board puzzles are printed on, seen along the cut edge.
const CARDBOARD: [f32; 3] = [196.0, 188.0, 170.0];

/// Coverage of pixel (lx, ly) after eroding the piece by about one pixel: the smallest
/// coverage in its 3 × 3 neighbourhood, never above its own.
fn eroded(cov: &super::coverage::Coverage, lx: usize, ly: usize) -> f32 {
    let mut m = cov.data[ly * cov.w + lx];
    for dy in -1i64..=1 {
        for dx in -1i64..=1 {
            let (x, y) = (lx as i64 + dx, ly as i64 + dy);
            let v = if x < 0 || y < 0 || x >= cov.w as i64 || y >= cov.h as i64 {
                0.0
            } else {
                cov.data[y as usize * cov.w + x as usize]
            };
            m = m.min(v);
        }
    }
    m
}

/// Rasterises `poly` and combines its coverage into `buf` with `f`.
fn stamp(buf: &mut [f32], w: usize, h: usize, poly: &[Pt], f: impl Fn(&mut f32, f32)) {
    let cov = rasterize(poly);
    for ly in 0..cov.h {
        let y = cov.y0 + ly as i64;
        if y < 0 || y >= h as i64 {
            continue;
        }
        for lx in 0..cov.w {
            let x = cov.x0 + lx as i64;
            if x >= 0 && x < w as i64 {
                f(
                    &mut buf[y as usize * w + x as usize],
                    cov.data[ly * cov.w + lx],
                );
            }
        }
    }
}

/// Illumination: a tilt plus a vignette, within ±25%.
fn light(rgb: &mut [[f32; 3]], w: usize, h: usize, seed: u64) {
    let mut rng = Random::new(seed, 78);
    let theta = rng.uniform(0.0, std::f64::consts::TAU);
    let dir = [theta.cos(), theta.sin()];
    let centre = [
        w as f64 * rng.uniform(0.3, 0.7),
        h as f64 * rng.uniform(0.3, 0.7),
    ];
    let reach = (w as f64).hypot(h as f64);
    for y in 0..h {
        for x in 0..w {
            let d = [x as f64 - centre[0], y as f64 - centre[1]];
            let tilt = ((d[0] * dir[0] + d[1] * dir[1]) / (0.5 * reach)).clamp(-1.0, 1.0);
            let r2 = (d[0] * d[0] + d[1] * d[1]) / (reach * reach);
            let vignette = (1.0 - 4.0 * r2).clamp(-1.0, 1.0);
            let g = (1.0 + 0.25 * (0.6 * tilt + 0.4 * vignette)) as f32;
            let p = &mut rgb[y * w + x];
            *p = [p[0] * g, p[1] * g, p[2] * g];
        }
    }
}

/// Separable [1 2 1]/4 blur: the slight softness of a phone lens.
fn blur3(rgb: &mut [[f32; 3]], w: usize, h: usize) {
    let mut tmp = rgb.to_vec();
    for y in 0..h {
        for x in 0..w {
            let (l, r) = (x.saturating_sub(1), (x + 1).min(w - 1));
            let (a, b, c) = (rgb[y * w + l], rgb[y * w + x], rgb[y * w + r]);
            tmp[y * w + x] = [0, 1, 2].map(|k| 0.25 * a[k] + 0.5 * b[k] + 0.25 * c[k]);
        }
    }
    for y in 0..h {
        let (u, d) = (y.saturating_sub(1), (y + 1).min(h - 1));
        for x in 0..w {
            let (a, b, c) = (tmp[u * w + x], tmp[y * w + x], tmp[d * w + x]);
            rgb[y * w + x] = [0, 1, 2].map(|k| 0.25 * a[k] + 0.5 * b[k] + 0.25 * c[k]);
        }
    }
}

/// Running-sum box blur of radius `r`, rows then columns.
fn box_blur(buf: &mut [f32], w: usize, h: usize, r: usize) {
    let norm = 1.0 / (2 * r + 1) as f32;
    let mut line = Vec::new();
    for y in 0..h {
        line.clear();
        line.extend_from_slice(&buf[y * w..(y + 1) * w]);
        blur_line(&line, r, norm, |x, v| buf[y * w + x] = v);
    }
    for x in 0..w {
        line.clear();
        line.extend((0..h).map(|y| buf[y * w + x]));
        blur_line(&line, r, norm, |y, v| buf[y * w + x] = v);
    }
}

fn blur_line(line: &[f32], r: usize, norm: f32, mut put: impl FnMut(usize, f32)) {
    let n = line.len() as i64;
    let at = |i: i64| {
        if i < 0 || i >= n {
            0.0
        } else {
            line[i as usize]
        }
    };
    let mut sum: f32 = (-(r as i64)..=r as i64).map(at).sum();
    for i in 0..n {
        put(i as usize, sum * norm);
        sum += at(i + r as i64 + 1) - at(i - r as i64);
    }
}

/// A standard normal deviate (sum of four uniforms, rescaled) from a hash.
fn gaussian(h: u64) -> f32 {
    let u: f64 = (0..4).map(|k| hash_unit(mix(h, k))).sum();
    ((u - 2.0) * (3.0f64).sqrt()) as f32
}
