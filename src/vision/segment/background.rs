//! The background model: its dominant colour, and the slow field of that colour across the image
//! (uneven light, vignetting, a paper sheet that is whiter in the middle).
//!
//! The dominant colour comes from the image border, where pieces are rare (they are laid out
//! away from the edges, or only clipped bits of them touch it): the most populated coarse Lab
//! cell of a border ring, refined to the median of the ring pixels near it. The field is a grid
//! of blocks: first each block's dominant colour, accepted by growing from the border across
//! blocks whose colours change slowly ([`BackgroundField::grow`]), then refined to the
//! per-channel median of the pixels the first field classes as background
//! ([`BackgroundField::estimate`]). Blocks covered by pieces take their neighbours' values; the
//! grid is interpolated bilinearly. It is not smoothed: a box filter would pull the darkest
//! corners of a vignette towards the brighter middle, and the per-block values are already
//! robust (modes and medians of hundreds of pixels). Measuring distance from it flattens the
//! illumination before thresholding.

use super::colour::LabImage;
use super::dominant::{channel_medians, dominant_colour};

/// Samples per block side for the block statistics (at most 16 × 16 = 256 per block).
const SAMPLES_PER_BLOCK_SIDE: u32 = 16;

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

    /// A field from per-block estimates, blocks without one filled from their neighbours;
    /// `fallback` everywhere when no block has an estimate.
    fn from_blocks(
        cells: Vec<Option<[f32; 3]>>,
        block: u32,
        cols: u32,
        rows: u32,
        fallback: [f32; 3],
    ) -> BackgroundField {
        let cells = fill_gaps(cells, cols, rows);
        if cells.is_empty() {
            return BackgroundField::uniform(fallback);
        }
        BackgroundField {
            block,
            cols,
            rows,
            cells,
        }
    }

    /// A first field that needs no threshold: each block's dominant colour, accepted as
    /// background by growing from the border block nearest `seed`, best match first, into
    /// neighbouring blocks whose dominant colour is within `tolerance` ΔE of the accepted
    /// neighbour's. The light changes slowly from block to block, a piece changes the colour
    /// abruptly, so the growth follows a strong vignette across the whole frame yet stops at
    /// the pieces (blocks mostly covered by a piece), which then take their neighbours' values.
    ///
    /// With [`Growth::Consensus`] a block is also checked against all its accepted neighbours
    /// when it is taken (see [`fits_accepted_neighbours`]).
    pub fn grow(
        lab: &LabImage,
        block: u32,
        seed: [f32; 3],
        tolerance: f32,
        growth: Growth,
    ) -> BackgroundField {
        let block = (block / lab.step).max(4);
        let cols = lab.width.div_ceil(block);
        let rows = lab.height.div_ceil(block);
        let step = (block / SAMPLES_PER_BLOCK_SIDE).max(1);
        let modes: Vec<[f32; 3]> = (0..rows * cols)
            .map(|i| {
                let (c, r) = (i % cols, i / cols);
                let (x0, y0) = (c * block, r * block);
                let (x1, y1) = ((x0 + block).min(lab.width), (y0 + block).min(lab.height));
                let mut v = Vec::new();
                for y in (y0..y1).step_by(step as usize) {
                    for x in (x0..x1).step_by(step as usize) {
                        v.push(lab.get(x, y));
                    }
                }
                dominant_colour(&v)
            })
            .collect();
        let on_border = |i: u32| {
            let (c, r) = (i % cols, i / cols);
            c == 0 || r == 0 || c + 1 == cols || r + 1 == rows
        };
        let start = (0..rows * cols)
            .filter(|&i| on_border(i))
            .min_by(|&a, &b| {
                let da = super::colour::distance(modes[a as usize], seed, 1.0);
                let db = super::colour::distance(modes[b as usize], seed, 1.0);
                da.total_cmp(&db)
            })
            .unwrap_or(0) as usize;
        // Best-first growth (Prim's order) so the result does not depend on scan order.
        let mut accepted: Vec<Option<[f32; 3]>> = vec![None; modes.len()];
        let mut heap = std::collections::BinaryHeap::new();
        heap.push(Candidate {
            cost: 0.0,
            index: start,
        });
        while let Some(Candidate { index, .. }) = heap.pop() {
            if accepted[index].is_some() {
                continue;
            }
            let value = modes[index];
            let (c, r) = ((index as u32 % cols) as i64, (index as u32 / cols) as i64);
            if growth == Growth::Consensus
                && !fits_accepted_neighbours(&accepted, cols, rows, (r, c), value, tolerance)
            {
                continue;
            }
            accepted[index] = Some(value);
            for j in neighbours(cols, rows, (r, c)) {
                let cost = super::colour::distance(modes[j], value, 1.0);
                if accepted[j].is_none() && cost <= tolerance {
                    heap.push(Candidate { cost, index: j });
                }
            }
        }
        BackgroundField::from_blocks(accepted, block * lab.step, cols, rows, seed)
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
        // Blocks on the (possibly sampled) Lab grid; the field itself is in source pixels.
        let block = (block / lab.step).max(4);
        let cols = lab.width.div_ceil(block);
        let rows = lab.height.div_ceil(block);
        // Sample every `step`-th pixel: a few hundred samples per block are plenty.
        let step = (block / SAMPLES_PER_BLOCK_SIDE).max(1);
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
        BackgroundField::from_blocks(cells, block * lab.step, cols, rows, fallback)
    }

    /// The background colour along source row `y` at columns `0, step, 2·step, …` (`count`
    /// of them): bilinear interpolation between cell centres (which sit at `(c + 0.5) ×
    /// block`), clamped at the edges. Done a row at a time because a per-pixel lookup dominated
    /// segmentation time on 12 MP photos.
    pub fn row(&self, y: u32, count: u32, step: u32, out: &mut Vec<[f32; 3]>) {
        out.clear();
        if self.cells.len() == 1 {
            out.resize(count as usize, self.cells[0]);
            return;
        }
        let fy = ((y as f32 + 0.5) / self.block as f32 - 0.5).clamp(0.0, (self.rows - 1) as f32);
        let r0 = fy.floor() as u32;
        let r1 = (r0 + 1).min(self.rows - 1);
        let ty = fy - r0 as f32;
        let line: Vec<[f32; 3]> = (0..self.cols)
            .map(|c| {
                let a = self.cells[(r0 * self.cols + c) as usize];
                let b = self.cells[(r1 * self.cols + c) as usize];
                [0, 1, 2].map(|k| a[k] + (b[k] - a[k]) * ty)
            })
            .collect();
        let last = (self.cols - 1) as f32;
        out.extend((0..count).map(|i| {
            let x = i * step;
            let fx = ((x as f32 + 0.5) / self.block as f32 - 0.5).clamp(0.0, last);
            let c0 = fx as usize;
            let c1 = (c0 + 1).min(self.cols as usize - 1);
            let tx = fx - c0 as f32;
            let (a, b) = (line[c0], line[c1]);
            [0, 1, 2].map(|k| a[k] + (b[k] - a[k]) * tx)
        }));
    }

    /// The background colour at pixel (x, y).
    #[cfg(test)]
    pub fn at(&self, x: u32, y: u32) -> [f32; 3] {
        let mut row = Vec::new();
        self.row(y, x + 1, 1, &mut row);
        row[x as usize]
    }
}

/// Which blocks [`BackgroundField::grow`] accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Growth {
    /// A block within the tolerance of the neighbour the growth reaches it from. Steps each
    /// within the tolerance can add up across the blocks at a piece's edge, whose dominant
    /// colours are mixtures: on classic photo seed 3 the growth went from the blue cloth
    /// through (33, 13, −40) and (32, 17, −44) to (33, 19, −46), a blue piece 13 ΔE from the
    /// cloth, in steps of 4, 6 and 3 ΔE.
    Stepwise,
    /// Also within the tolerance of the median of all its accepted neighbours, so the field
    /// never takes a piece's colour.
    Consensus,
}

/// Whether a block's dominant colour lies within `tolerance` ΔE of the per-channel median of
/// its accepted 8-neighbours (or has none yet). The neighbours on the background side outvote
/// the one mixed block that led the growth towards a piece; a rejected block is looked at
/// again when another neighbour is accepted.
fn fits_accepted_neighbours(
    accepted: &[Option<[f32; 3]>],
    cols: u32,
    rows: u32,
    (r, c): (i64, i64),
    value: [f32; 3],
    tolerance: f32,
) -> bool {
    let around: Vec<[f32; 3]> = neighbours(cols, rows, (r, c))
        .filter_map(|j| accepted[j])
        .collect();
    around.is_empty() || super::colour::distance(value, channel_medians(around), 1.0) <= tolerance
}

/// A block waiting to join the background, cheapest first.
struct Candidate {
    cost: f32,
    index: usize,
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}
impl Eq for Candidate {}
impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Candidate {
    /// Reversed, so the max-heap pops the smallest cost; ties by index for determinism.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other
            .cost
            .total_cmp(&self.cost)
            .then(other.index.cmp(&self.index))
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
                for j in neighbours(cols, rows, (r, c)) {
                    if let Some(v) = prev[j] {
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

/// The indices of the blocks around block (`r`, `c`) of a `cols` × `rows` grid, in
/// [`NEIGHBOURS`] order.
fn neighbours(cols: u32, rows: u32, (r, c): (i64, i64)) -> impl Iterator<Item = usize> {
    NEIGHBOURS.iter().filter_map(move |&(dr, dc)| {
        let (rr, cc) = (r + dr, c + dc);
        (rr >= 0 && cc >= 0 && rr < rows as i64 && cc < cols as i64)
            .then(|| (rr * cols as i64 + cc) as usize)
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A `w` × `h` Lab image, every pixel from `colour(x, y)`.
    fn lab_image(w: u32, h: u32, colour: impl Fn(u32, u32) -> [f32; 3]) -> LabImage {
        LabImage {
            width: w,
            height: h,
            step: 1,
            pixels: (0..h)
                .flat_map(|y| (0..w).map(move |x| (x, y)))
                .map(|(x, y)| colour(x, y))
                .collect(),
        }
    }

    #[test]
    fn growth_does_not_creep_into_a_piece_through_mixed_blocks() {
        // Blue cloth with three blocks in a row stepping towards a blue piece 13 ΔE away
        // (dominant colours measured on classic photo seed 3): each step is within the
        // tolerance of the block before it, the last is not near the cloth.
        let cloth = [32.0, 10.0, -37.0];
        let steps = [
            [33.0, 13.0, -40.0],
            [32.0, 17.0, -44.0],
            [33.0, 19.0, -46.0],
        ];
        let lab = lab_image(80, 50, |x, y| match (x / 10, y / 10) {
            (c @ 3..=5, 2) => steps[c as usize - 3],
            _ => cloth,
        });
        let off_cloth = |growth, x| {
            let f = BackgroundField::grow(&lab, 10, cloth, 6.0, growth);
            crate::vision::segment::colour::distance(f.at(x, 25), cloth, 1.0)
        };
        for x in [45, 55] {
            let d = off_cloth(Growth::Consensus, x);
            assert!(
                d < 2.5,
                "the field at x = {x} took the piece's colour: {d} ΔE"
            );
        }
        // Step by step, the growth does take it.
        assert!(off_cloth(Growth::Stepwise, 55) > 10.0);
    }

    #[test]
    fn growth_follows_a_vignette_but_stops_at_a_piece() {
        // Lightness falls from 90 to 30 across the image; a bright square "piece" in the middle.
        let lab = lab_image(120, 60, |x, y| {
            if (50..80).contains(&x) && (15..45).contains(&y) {
                [95.0, 20.0, 20.0]
            } else {
                [90.0 - x as f32 / 2.0, 0.0, 0.0]
            }
        });
        for growth in [Growth::Stepwise, Growth::Consensus] {
            let f = BackgroundField::grow(&lab, 10, [90.0, 0.0, 0.0], 6.0, growth);
            // Inside the piece the field is the interpolated background, not the piece.
            let inside = f.at(65, 30);
            assert!(
                (inside[0] - 57.5).abs() < 4.0 && inside[1].abs() < 1.0,
                "{growth:?}: {inside:?}"
            );
            // Far right, 60 L units from the seed, is still background.
            let far = f.at(115, 30);
            assert!((far[0] - 32.5).abs() < 3.0, "{growth:?}: {far:?}");
        }
    }

    #[test]
    fn field_fills_covered_blocks_and_interpolates() {
        // A horizontal lightness ramp; the middle third is "covered by a piece".
        let w = 90;
        let lab = lab_image(w, 30, |x, _| [40.0 + x as f32 / 3.0, 0.0, 0.0]);
        let f = BackgroundField::estimate(&lab, 10, [0.0; 3], |i| {
            let x = i % w as usize;
            !(30..60).contains(&x)
        });
        let mid = f.at(45, 15)[0];
        assert!((mid - 55.0).abs() < 3.0, "{mid}");
        assert!(f.at(5, 5)[0] < f.at(85, 5)[0]);
    }
}
