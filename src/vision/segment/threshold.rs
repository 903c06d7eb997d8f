//! The automatic threshold on the distance-from-background image.
//!
//! Background pixels pile up near distance 0 (noise, JPEG artefacts, left-over shading), piece
//! pixels spread wide. Otsu's method on the distance histogram finds the split that best
//! separates the two; a floor tied to the background's own noise keeps an image with no piece
//! (or a very faint one) from being split in the middle of its noise.

/// Width of one histogram bin in ΔE units.
const BIN: f32 = 0.25;
/// Number of bins: distances are clamped to `BINS × BIN` = 256 ΔE, beyond any Lab distance
/// that matters (white to black is 100).
const BINS: usize = 1024;

/// A histogram of distances.
pub struct DistanceHistogram {
    counts: Vec<u64>,
    total: u64,
}

impl DistanceHistogram {
    pub fn new(distances: &[f32]) -> DistanceHistogram {
        DistanceHistogram::of(distances.iter().copied())
    }

    /// The histogram of the distances `distances` yields (a filtered image, without copying it).
    pub fn of(distances: impl Iterator<Item = f32>) -> DistanceHistogram {
        let mut counts = vec![0u64; BINS];
        let mut total = 0;
        for d in distances {
            counts[bin_of(d)] += 1;
            total += 1;
        }
        DistanceHistogram { counts, total }
    }

    /// Otsu's threshold: the distance maximising the between-class variance. Pixels strictly
    /// above it are foreground.
    pub fn otsu(&self) -> f32 {
        let total = self.total as f64;
        if total == 0.0 {
            return 0.0;
        }
        let sum_all: f64 = self
            .counts
            .iter()
            .enumerate()
            .map(|(i, &c)| i as f64 * c as f64)
            .sum();
        let (mut w0, mut sum0) = (0.0f64, 0.0f64);
        let (mut best, mut best_bin) = (-1.0f64, 0usize);
        for (i, &c) in self.counts.iter().enumerate() {
            w0 += c as f64;
            sum0 += i as f64 * c as f64;
            let w1 = total - w0;
            if w0 == 0.0 || w1 == 0.0 {
                continue;
            }
            let m0 = sum0 / w0;
            let m1 = (sum_all - sum0) / w1;
            let between = w0 * w1 * (m0 - m1) * (m0 - m1);
            if between > best {
                best = between;
                best_bin = i;
            }
        }
        (best_bin as f32 + 1.0) * BIN
    }

    /// The median distance among pixels at or below `limit`: the typical noise of the pixels
    /// classed as background.
    pub fn median_below(&self, limit: f32) -> f32 {
        let last = bin_of(limit);
        let n: u64 = self.counts[..=last].iter().sum();
        let mut seen = 0;
        for (i, &c) in self.counts[..=last].iter().enumerate() {
            seen += c;
            if seen * 2 >= n.max(1) {
                return (i as f32 + 0.5) * BIN;
            }
        }
        limit
    }
}

/// Hysteresis thresholding: grows the `seeds` mask (the pixels above the high threshold, 255)
/// into every pixel that `joins` accepts and that is 8-connected through accepted pixels to a
/// seed.
///
/// Why: one global threshold must sit above the background's noise *and* its shadows, and
/// Otsu on a picture-faced puzzle lands high (40 ΔE on a dark scan whose background noise is
/// 2 ΔE), so a piece whose print comes close to the background loses those patches and falls
/// apart into specks. Those patches are still clearly off the background's noise, and they are
/// attached to the rest of their piece, which is what the low pass follows.
pub fn hysteresis(mut mask: Vec<u8>, width: usize, joins: impl Fn(usize) -> bool) -> Vec<u8> {
    let height = mask.len().checked_div(width).unwrap_or(0);
    let mut stack: Vec<usize> = (0..mask.len()).filter(|&i| mask[i] != 0).collect();
    while let Some(i) = stack.pop() {
        let (x, y) = (i % width, i / width);
        for ny in y.saturating_sub(1)..(y + 2).min(height) {
            for nx in x.saturating_sub(1)..(x + 2).min(width) {
                let j = ny * width + nx;
                if mask[j] == 0 && joins(j) {
                    mask[j] = 255;
                    stack.push(j);
                }
            }
        }
    }
    mask
}

/// Mean over the (2r+1)² box around each pixel (clamped at the edges), separably.
///
/// Both passes walk the image row by row: the vertical pass keeps one running sum per column
/// instead of walking each column down the image (a stride of a whole row per step, which
/// made this 3 × 3 mean 15 % of segmenting a photo). Each column's sums see the same
/// additions and subtractions in the same order either way, so the means are bit for bit
/// those of the column walk.
pub fn box_blur(values: &mut [f32], width: usize, radius: usize) {
    if radius == 0 || width == 0 {
        return;
    }
    let height = values.len().checked_div(width).unwrap_or(0);
    let mut tmp = vec![0f32; values.len()];
    for (src, dst) in values.chunks_exact(width).zip(tmp.chunks_exact_mut(width)) {
        sliding_window(
            &mut 0f32,
            width,
            radius,
            |sum, k, sign| *sum += sign * src[k],
            |sum, k, count| dst[k] = sum / count as f32,
        );
    }
    let row = |k: usize| &tmp[k * width..(k + 1) * width];
    sliding_window(
        &mut vec![0f32; width],
        height,
        radius,
        |sums, k, sign| {
            for (s, &v) in sums.iter_mut().zip(row(k)) {
                *s += sign * v;
            }
        },
        |sums, k, count| {
            for (v, s) in values[k * width..(k + 1) * width].iter_mut().zip(sums) {
                *v = s / count as f32;
            }
        },
    );
}

/// Slides a window of `radius` either side along `n` positions: `slide(sum, k, ±1.0)` adds
/// position `k` to the running `sum` or takes it out (adding `-1.0 * v` is the same float
/// operation as subtracting `v`), and `put(sum, k, count)` is called at each position with
/// its window summed. One schedule for both passes of [`box_blur`], so that a row of column
/// sums sees, column by column, the operations a single sum walking down the column would.
fn sliding_window<S>(
    sum: &mut S,
    n: usize,
    radius: usize,
    slide: impl Fn(&mut S, usize, f32),
    mut put: impl FnMut(&S, usize, usize),
) {
    let mut count = 0usize;
    for k in 0..radius.min(n) {
        slide(sum, k, 1.0);
        count += 1;
    }
    for k in 0..n {
        if k + radius < n {
            slide(sum, k + radius, 1.0);
            count += 1;
        }
        if k > radius {
            slide(sum, k - radius - 1, -1.0);
            count -= 1;
        }
        put(sum, k, count);
    }
}

fn bin_of(d: f32) -> usize {
    ((d / BIN) as usize).min(BINS - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The box mean the plain way: each column walked down the image with its own sum.
    fn box_blur_by_columns(values: &[f32], width: usize, radius: usize) -> Vec<f32> {
        let height = values.len() / width;
        let mean_along = |at: &dyn Fn(usize) -> f32, n: usize| -> Vec<f32> {
            let (mut sum, mut count, mut out) = (0f32, 0usize, Vec::with_capacity(n));
            for k in 0..radius.min(n) {
                sum += at(k);
                count += 1;
            }
            for k in 0..n {
                if k + radius < n {
                    sum += at(k + radius);
                    count += 1;
                }
                if k > radius {
                    sum -= at(k - radius - 1);
                    count -= 1;
                }
                out.push(sum / count as f32);
            }
            out
        };
        let mut rows = vec![0f32; values.len()];
        for y in 0..height {
            let m = mean_along(&|k| values[y * width + k], width);
            rows[y * width..(y + 1) * width].copy_from_slice(&m);
        }
        let mut out = vec![0f32; values.len()];
        for x in 0..width {
            for (y, v) in mean_along(&|k| rows[k * width + x], height)
                .into_iter()
                .enumerate()
            {
                out[y * width + x] = v;
            }
        }
        out
    }

    #[test]
    fn box_blur_row_by_row_is_bit_for_bit_the_column_walk() {
        let mut s = 12345u64;
        for (w, h, r) in [
            (37, 23, 1),
            (5, 40, 2),
            (40, 3, 1),
            (1, 9, 1),
            (9, 1, 3),
            (16, 16, 4),
        ] {
            let values: Vec<f32> = (0..w * h)
                .map(|_| {
                    s = s
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (s >> 40) as f32 / 7.3
                })
                .collect();
            let mut ours = values.clone();
            box_blur(&mut ours, w, r);
            let want = box_blur_by_columns(&values, w, r);
            let same = ours
                .iter()
                .zip(&want)
                .all(|(a, b)| a.to_bits() == b.to_bits());
            assert!(same, "{w}x{h} r={r}");
        }
    }

    #[test]
    fn otsu_splits_two_clusters() {
        let mut d = vec![1.0f32; 900];
        d.extend(std::iter::repeat_n(2.0, 100));
        d.extend(std::iter::repeat_n(40.0, 300));
        d.extend(std::iter::repeat_n(50.0, 300));
        let t = DistanceHistogram::new(&d).otsu();
        assert!((2.0..40.0).contains(&t), "threshold {t}");
    }

    #[test]
    fn hysteresis_keeps_weak_pixels_only_when_attached_to_strong_ones() {
        // Row 0: weak run attached to a strong pixel; row 2: an isolated weak run.
        let d = [
            9.0, 3.0, 3.0, 0.0, 0.0, //
            0.0, 0.0, 0.0, 0.0, 0.0, //
            0.0, 3.0, 3.0, 0.0, 0.0,
        ];
        let seeds = d.iter().map(|&v| u8::from(v > 5.0) * 255).collect();
        let m = hysteresis(seeds, 5, |j| d[j] > 2.0);
        assert_eq!(&m[..5], &[255, 255, 255, 0, 0]);
        assert!(m[5..].iter().all(|&v| v == 0));
    }

    #[test]
    fn median_of_background() {
        let d: Vec<f32> = (0..100).map(|i| i as f32).collect();
        let h = DistanceHistogram::new(&d);
        assert!((h.median_below(20.0) - 10.0).abs() <= 1.0);
    }
}
