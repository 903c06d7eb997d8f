//! The background model: its dominant colour, and the slow field of that colour across the image
//! (uneven light, vignetting, a paper sheet that is whiter in the middle).
//!
//! The dominant colour comes from the image border, where pieces are rare (they are laid out
//! away from the edges, or only clipped bits of them touch it): the most populated coarse Lab
//! cell of a border ring, refined to the median of the ring pixels near it. The field is then a
//! grid of robust per-block estimates (the per-channel median of the pixels a first pass classed
//! as background), with blocks covered by pieces filled in from their neighbours, smoothed, and
//! interpolated bilinearly. Subtracting it flattens the illumination before thresholding.

use super::colour::LabImage;
use std::collections::HashMap;

/// Side of a coarse Lab cell for finding the border's dominant colour, in ΔE units.
const MODE_CELL: f32 = 4.0;
/// Pixels within this ΔE of the modal cell centre count towards the refined colour.
const MODE_RADIUS: f32 = 10.0;

/// The most common colour along the image border.
pub fn border_colour(lab: &LabImage) -> [f32; 3] {
    let (w, h) = (lab.width, lab.height);
    let ring = (w.min(h) / 50).clamp(1, 32);
    let mut samples = Vec::new();
    for y in 0..h {
        let near_y = y < ring || y >= h - ring;
        let mut x = 0;
        while x < w {
            samples.push(lab.get(x, y));
            // Inside rows only the left and right strips belong to the ring.
            x = if near_y || x + 1 < ring || x + 1 >= w - ring {
                x + 1
            } else {
                w - ring
            };
        }
    }
    dominant_colour(&samples)
}

/// The modal colour of a set of Lab samples, robust to a minority of other colours.
pub fn dominant_colour(samples: &[[f32; 3]]) -> [f32; 3] {
    let cell = |p: [f32; 3]| {
        (
            (p[0] / MODE_CELL).floor() as i32,
            (p[1] / MODE_CELL).floor() as i32,
            (p[2] / MODE_CELL).floor() as i32,
        )
    };
    let mut counts: HashMap<(i32, i32, i32), usize> = HashMap::new();
    for &p in samples {
        *counts.entry(cell(p)).or_default() += 1;
    }
    // Smooth the counts over the 3×3×3 neighbourhood so a colour split across a cell boundary
    // is not outvoted by a tighter but smaller cluster.
    let best = counts
        .keys()
        .max_by_key(|&&(l, a, b)| {
            let mut n = 0;
            for dl in -1..=1 {
                for da in -1..=1 {
                    for db in -1..=1 {
                        n += counts.get(&(l + dl, a + da, b + db)).copied().unwrap_or(0);
                    }
                }
            }
            (n, std::cmp::Reverse((l, a, b)))
        })
        .copied()
        .unwrap_or((0, 0, 0));
    let centre = [
        (best.0 as f32 + 0.5) * MODE_CELL,
        (best.1 as f32 + 0.5) * MODE_CELL,
        (best.2 as f32 + 0.5) * MODE_CELL,
    ];
    let near: Vec<[f32; 3]> = samples
        .iter()
        .copied()
        .filter(|&p| super::colour::distance(p, centre, 1.0) <= MODE_RADIUS)
        .collect();
    if near.is_empty() {
        return centre;
    }
    channel_medians(near)
}

/// Per-channel medians (a robust mean that ignores outliers such as dust or a piece edge).
fn channel_medians(mut v: Vec<[f32; 3]>) -> [f32; 3] {
    let mut out = [0f32; 3];
    let mid = v.len() / 2;
    for (c, o) in out.iter_mut().enumerate() {
        v.select_nth_unstable_by(mid, |p, q| p[c].total_cmp(&q[c]));
        *o = v[mid][c];
    }
    out
}

/// The background colour at every pixel, as a coarse grid interpolated bilinearly.
#[derive(Clone, Debug)]
pub struct BackgroundField {
    block: u32,
    cols: u32,
    rows: u32,
    cells: Vec<[f32; 3]>,
}

impl BackgroundField {
    /// The same colour everywhere.
    pub fn uniform(colour: [f32; 3]) -> BackgroundField {
        BackgroundField {
            block: u32::MAX,
            cols: 1,
            rows: 1,
            cells: vec![colour],
        }
    }

    /// Estimates the field from the pixels `is_background` accepts, on blocks of about
    /// `block` pixels. Blocks with too few background pixels take their neighbours' values;
    /// if none has any, the field is `fallback` everywhere.
    pub fn estimate(
        lab: &LabImage,
        block: u32,
        fallback: [f32; 3],
        is_background: impl Fn(usize) -> bool,
    ) -> BackgroundField {
        let block = block.max(4);
        let cols = lab.width.div_ceil(block);
        let rows = lab.height.div_ceil(block);
        // Sample every `step`-th pixel: ~1000 samples per block are plenty for a median.
        let step = (block / 32).max(1);
        let mut cells: Vec<Option<[f32; 3]>> = Vec::with_capacity((cols * rows) as usize);
        for r in 0..rows {
            for c in 0..cols {
                let (x0, y0) = (c * block, r * block);
                let (x1, y1) = ((x0 + block).min(lab.width), (y0 + block).min(lab.height));
                let mut v = Vec::new();
                let mut seen = 0usize;
                for y in (y0..y1).step_by(step as usize) {
                    for x in (x0..x1).step_by(step as usize) {
                        seen += 1;
                        let i = y as usize * lab.width as usize + x as usize;
                        if is_background(i) {
                            v.push(lab.pixels[i]);
                        }
                    }
                }
                // A block mostly covered by a piece says little about the background there:
                // its few background pixels are the piece's halo and shadow.
                cells.push((v.len() * 4 >= seen).then(|| channel_medians(v)));
            }
        }
        let mut cells = fill_gaps(cells, cols, rows);
        if cells.is_empty() {
            return BackgroundField::uniform(fallback);
        }
        smooth(&mut cells, cols, rows);
        BackgroundField {
            block,
            cols,
            rows,
            cells,
        }
    }

    /// The background colour at pixel (x, y).
    pub fn at(&self, x: u32, y: u32) -> [f32; 3] {
        if self.cells.len() == 1 {
            return self.cells[0];
        }
        // Cell centres sit at (c + 0.5) * block.
        let fx = ((x as f32 + 0.5) / self.block as f32 - 0.5).clamp(0.0, (self.cols - 1) as f32);
        let fy = ((y as f32 + 0.5) / self.block as f32 - 0.5).clamp(0.0, (self.rows - 1) as f32);
        let (c0, r0) = (fx.floor() as u32, fy.floor() as u32);
        let (c1, r1) = ((c0 + 1).min(self.cols - 1), (r0 + 1).min(self.rows - 1));
        let (tx, ty) = (fx - c0 as f32, fy - r0 as f32);
        let g = |c: u32, r: u32| self.cells[(r * self.cols + c) as usize];
        let (a, b, c, d) = (g(c0, r0), g(c1, r0), g(c0, r1), g(c1, r1));
        let mut out = [0f32; 3];
        for k in 0..3 {
            let top = a[k] + (b[k] - a[k]) * tx;
            let bottom = c[k] + (d[k] - c[k]) * tx;
            out[k] = top + (bottom - top) * ty;
        }
        out
    }
}

/// Fills unknown cells by repeatedly averaging their known 8-neighbours (a discrete harmonic
/// in-painting). Returns an empty vector when no cell is known.
fn fill_gaps(mut cells: Vec<Option<[f32; 3]>>, cols: u32, rows: u32) -> Vec<[f32; 3]> {
    if cells.iter().all(Option::is_none) {
        return Vec::new();
    }
    while cells.iter().any(Option::is_none) {
        let prev = cells.clone();
        for r in 0..rows as i64 {
            for c in 0..cols as i64 {
                let i = (r * cols as i64 + c) as usize;
                if prev[i].is_some() {
                    continue;
                }
                let mut sum = [0f32; 3];
                let mut n = 0;
                for (dr, dc) in NEIGHBOURS {
                    let (rr, cc) = (r + dr, c + dc);
                    if rr < 0 || cc < 0 || rr >= rows as i64 || cc >= cols as i64 {
                        continue;
                    }
                    if let Some(v) = prev[(rr * cols as i64 + cc) as usize] {
                        for k in 0..3 {
                            sum[k] += v[k];
                        }
                        n += 1;
                    }
                }
                if n > 0 {
                    cells[i] = Some(sum.map(|s| s / n as f32));
                }
            }
        }
    }
    cells.into_iter().flatten().collect()
}

const NEIGHBOURS: [(i64, i64); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// One pass of a 3×3 box filter: the field is meant to be slow, and single-block outliers
/// (a block whose "background" was mostly shadow) should not dent it.
fn smooth(cells: &mut [[f32; 3]], cols: u32, rows: u32) {
    let prev = cells.to_vec();
    for r in 0..rows as i64 {
        for c in 0..cols as i64 {
            let mut sum = prev[(r * cols as i64 + c) as usize];
            let mut n = 1.0;
            for (dr, dc) in NEIGHBOURS {
                let (rr, cc) = (r + dr, c + dc);
                if rr < 0 || cc < 0 || rr >= rows as i64 || cc >= cols as i64 {
                    continue;
                }
                let v = prev[(rr * cols as i64 + cc) as usize];
                for k in 0..3 {
                    sum[k] += v[k];
                }
                n += 1.0;
            }
            cells[(r * cols as i64 + c) as usize] = sum.map(|s| s / n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dominant_colour_ignores_a_minority() {
        let mut s = vec![[50.0, 10.0, -10.0]; 70];
        s.extend(vec![[90.0, 0.0, 0.0]; 30]);
        let c = dominant_colour(&s);
        assert!((c[0] - 50.0).abs() < 1e-3 && (c[1] - 10.0).abs() < 1e-3);
    }

    #[test]
    fn field_fills_covered_blocks_and_interpolates() {
        // A horizontal lightness ramp; the middle third is "covered by a piece".
        let (w, h) = (90u32, 30u32);
        let pixels = (0..h)
            .flat_map(|_| (0..w).map(|x| [40.0 + x as f32 / 3.0, 0.0, 0.0]))
            .collect();
        let lab = LabImage {
            width: w,
            height: h,
            pixels,
        };
        let f = BackgroundField::estimate(&lab, 10, [0.0; 3], |i| {
            let x = i % w as usize;
            !(30..60).contains(&x)
        });
        let mid = f.at(45, 15)[0];
        assert!((mid - 55.0).abs() < 3.0, "{mid}");
        assert!(f.at(5, 5)[0] < f.at(85, 5)[0]);
    }
}
