//! The dominant colour of a set of pixels, and of the image border: the seed of the
//! background model. The border is where pieces are rare (they are laid out away from the
//! edges, or only clipped bits of them touch it), and the mode, unlike a mean, ignores the
//! minority of piece pixels that do reach it.

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
pub fn channel_medians(mut v: Vec<[f32; 3]>) -> [f32; 3] {
    let mut out = [0f32; 3];
    let mid = v.len() / 2;
    for (c, o) in out.iter_mut().enumerate() {
        v.select_nth_unstable_by(mid, |p, q| p[c].total_cmp(&q[c]));
        *o = v[mid][c];
    }
    out
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
}
