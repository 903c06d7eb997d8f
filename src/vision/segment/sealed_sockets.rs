//! Sockets the segmentation sealed: background in a piece's socket taken into its mask.
//!
//! A socket on a piece's shadow side holds the piece's own drop shadow, and a socket is narrow:
//! the pale rims of its lips, blurred, nearly meet across its mouth, and a photograph's JPEG
//! chroma bleeds the rims' and the face's colour into it. Its pixels then stand off the shade
//! ray of the background (the shade test refuses them as shadow) or are enclosed by a few
//! pixels of the low pass across the mouth and filled as a hole. Either way the mask runs
//! across the mouth, and the piece is traced without its socket: its neighbour's knob cuts
//! into it wherever the assembly tries the true pose (fresh classic 100 photos seed 201: a dark
//! navy piece on black cloth, its one socket sealed, and the corner piece whose knob belongs
//! there was fitted turned a quarter round; irregular 100 photos seed 217, red print on red
//! cloth: 20 sockets sealed in part or whole, and a border piece whose socket and whose
//! neighbour's were both sealed was left out).
//!
//! What was sealed looks like the background just outside the piece, shadow included, and it
//! is reached from outside without crossing the piece's rim, the die-cut edge, a pale or dark
//! line of no background colour. So the mask is flooded from its edge through the pixels whose
//! colour lies within a few ΔE of the background ring just outside the piece, nearby
//! ([`LOOK`]). A flooded bay is a sealed socket where
//! - it is closed within a knob's depth and small: not a face the colour of the background,
//!   which a gap in its rim lets the flood into;
//! - its core (the bay deeper than the blurred sliver that runs along every outline) is deep,
//!   opens onto the sliver across a narrow mouth only (a pale knob on pale paper, which the
//!   flood may enter too, meets it all round but for its neck), and holds a disc;
//! - and the pixels that hold the core stand well off the background, as a rim does (a pale
//!   part of a white face on white paper, flooded where its colour comes within the likeness,
//!   is held by more of the same face).
//!
//! The core is given back to the background with its mouth. Measured: the generated sweep's
//! re-traced photo sets (343) lose about 2 % of a piece's area on 1–4 pieces of most
//! irregular photo sets, almost all of it outside the true outline (see docs/segment.md).

use super::super::region::PieceRegion;
use super::colour::{distance, LabConverter};
use image::{GrayImage, Luma, RgbImage};
use imageproc::distance_transform::euclidean_squared_distance_transform;
use std::collections::VecDeque;

/// The background ring compared with lies this far outside the piece (px): past the blur of
/// its outline, within its drop shadow.
const RING_NEAR: f64 = 2.0;
const RING_FAR: f64 = 8.0;
/// A pixel is compared with the ring pixels within this fraction of the piece's side (the
/// square root of its area) beyond the ring's own width: the shadow and the light change along
/// the outline. A bay the flood takes deeper than this is no socket (the sealed sockets
/// measured reach 0.1–0.2 of the side).
const LOOK: f64 = 0.25;
/// Within this many times the background noise (ΔE, at least [`MIN_LIKENESS`]) of a nearby ring
/// pixel, a pixel looks like the background there. Measured on the sockets above: the sealed
/// pixels lie within 2–5 ΔE of the shadow beside the piece; the faces the colour of the
/// cloth, 7 ΔE off it on average, are reached only through gaps in their rim.
const LIKENESS_NOISE_FACTOR: f32 = 3.0;
const MIN_LIKENESS: f32 = 6.0;
/// Flooded pixels within this distance of the outside (px) are the blurred sliver along every
/// outline (and a drop shadow a side took in), which the flood runs along from one bay to the
/// next: a bay is judged by its core, the pixels deeper than this, and its core is given back
/// with the sliver within [`MOUTH_REACH`] steps of it (its mouth). At 2.5 px, the core of a
/// sealed socket on irregular 100 photos seed 217 ran on along a shadow skirt and opened onto
/// 0.34 of the piece's side.
const SLIVER: f64 = 4.5;
const MOUTH_REACH: usize = 6;
/// A socket's mouth is at most this fraction of the piece's side wide (where its core, the
/// bay deeper than [`SLIVER`], opens onto the sliver), and its bowl holds a disc of at least
/// [`MIN_BOWL`] of the side. Measured on the sealed sockets of fresh irregular 100 photos
/// seed 217 and classic 100 photos seed 201 (11 of them): mouths 0.05–0.14, bowls 0.05–0.14;
/// on the white faces of classic 100 photos seed 1, flooded through gaps in their faint rims
/// along the outline: mouths 0.25–0.36 (bowls 0.14–0.16), or a bowl of 0.057.
const MAX_MOUTH_WIDTH: f64 = 0.16;
const MIN_BOWL: f64 = 0.06;
/// A socket is held by its rim (the die-cut edge, pale or dark) and the face beyond: at least
/// [`MIN_WALLED`] of the pixels holding it stand [`RIM_CONTRAST`] times the likeness off the
/// background nearby. A pale face on pale paper, flooded where its colour comes within the
/// likeness, is held by more of the same face, just over it. Measured: the sealed sockets
/// above 0.29–0.69 (the red faces on red cloth hold theirs by the rim alone); the parts of
/// white faces on white paper that passed the other tests (irregular 20 photos seed 13,
/// classic 100 photos seed 13) 0–0.01.
const RIM_CONTRAST: f32 = 2.0;
const MIN_WALLED: f64 = 0.2;
/// The flood stops after this many times [`MAX_AREA`] of the piece (a face, not a socket).
const FLOOD_BUDGET: f64 = 3.0;
/// A sealed socket's core reaches this fraction of the piece's side deep into the mask (the
/// sealed sockets measured: 0.1–0.2) …
const MIN_DEPTH: f64 = 0.05;
/// … covers at most this fraction of the piece's area (a socket is about 2 %) …
const MAX_AREA: f64 = 0.05;
/// … and opens onto the sliver along at most this share of its edge (the sealed sockets
/// measured: 0.13–0.3; a knob of the background's colour: most of it).
const MAX_MOUTH: f64 = 0.4;

/// What [`reopen`] compares a piece's pixels with.
pub(super) struct Surroundings<'a> {
    pub image: &'a RgbImage,
    /// Pixels of any piece, row-major over the image: not background, whatever their colour.
    pub pieces: &'a [bool],
    /// The background noise, ΔE.
    pub noise: f32,
}

/// `region` with its sealed sockets given back to the background (see the module's doc);
/// `None` where it has none.
pub(super) fn reopen(region: &PieceRegion, around: &Surroundings) -> Option<PieceRegion> {
    let crop = Crop::new(region, around.image.dimensions());
    let side = (region.area as f64).sqrt();
    let likeness = (LIKENESS_NOISE_FACTOR * around.noise).max(MIN_LIKENESS);
    let conv = LabConverter::new();
    let lab_at = |(x, y): (usize, usize)| {
        let (ix, iy) = crop.in_image(x, y);
        conv.lab(around.image.get_pixel(ix, iy).0)
    };
    let ring = Ring::new(&crop, around, LOOK * side + RING_FAR, &lab_at);
    let max_depth2 = (LOOK * side).powi(2);
    let mut likes: Vec<Option<bool>> = vec![None; crop.w * crop.h];
    let mut looks_like_background = |k: usize| {
        *likes[k].get_or_insert_with(|| {
            let xy = (k % crop.w, k / crop.w);
            ring.near(xy, &lab_at(xy), likeness)
        })
    };
    let mut seen = vec![false; crop.w * crop.h];
    let mut sealed = Vec::new();
    let budget = (FLOOD_BUDGET * MAX_AREA * region.area as f64) as usize;
    for start in 0..crop.w * crop.h {
        if seen[start]
            || !crop.inside[start]
            || crop.depth2[start] > 1.0
            || !crop.opens_out(start)
            || !looks_like_background(start)
        {
            continue;
        }
        let Some(bay) = flood(&crop, start, &mut seen, budget, &mut looks_like_background) else {
            continue;
        };
        // A socket is closed by its rim within a knob's depth; deeper, the flood has run into
        // a face the colour of the background. Most bays are the sliver alone, with no core.
        if bay.iter().any(|&k| crop.depth2[k] > max_depth2)
            || !bay.iter().any(|&k| crop.past_sliver(k))
        {
            continue;
        }
        let wall = |k: usize| {
            let xy = (k % crop.w, k / crop.w);
            !ring.near(xy, &lab_at(xy), RIM_CONTRAST * likeness)
        };
        sealed.extend(crop.sealed_sockets(&bay, side, region.area as f64, &wall));
    }
    (!sealed.is_empty()).then(|| crop.without(region, &sealed))
}

/// The piece's mask on its box padded by the ring's width, with the distances the flood reads.
struct Crop {
    w: usize,
    h: usize,
    /// The crop's origin in the image (the box's corner, padded).
    x0: u32,
    y0: u32,
    /// Where the region's mask starts in the crop.
    dx: usize,
    dy: usize,
    /// Pixels that lie in the image.
    in_image: Vec<bool>,
    inside: Vec<bool>,
    /// Squared distance of each pixel inside to the nearest outside, and of each outside to
    /// the nearest inside.
    depth2: Vec<f64>,
    away2: Vec<f64>,
}

impl Crop {
    fn new(region: &PieceRegion, (iw, ih): (u32, u32)) -> Crop {
        let pad = RING_FAR.ceil() as u32 + 1;
        let [bx, by, bw, bh] = region.bbox;
        let (x0, y0) = (bx.saturating_sub(pad), by.saturating_sub(pad));
        let (x1, y1) = ((bx + bw + pad).min(iw), (by + bh + pad).min(ih));
        // One more pixel all round, outside the image where the crop meets its edge, so the
        // distances are measured to the crop's edge too.
        let (w, h) = ((x1 - x0) as usize + 2, (y1 - y0) as usize + 2);
        let (dx, dy) = ((bx - x0) as usize + 1, (by - y0) as usize + 1);
        let mut inside = vec![false; w * h];
        for (x, y, p) in region.mask.enumerate_pixels() {
            inside[(y as usize + dy) * w + x as usize + dx] = p[0] != 0;
        }
        let in_image = (0..w * h)
            .map(|k| {
                let (x, y) = (k % w, k / w);
                x >= 1 && y >= 1 && x <= (x1 - x0) as usize && y <= (y1 - y0) as usize
            })
            .collect();
        let squared = |on: &dyn Fn(usize) -> bool| {
            let img = GrayImage::from_fn(w as u32, h as u32, |x, y| {
                Luma([u8::from(on(y as usize * w + x as usize)) * 255])
            });
            euclidean_squared_distance_transform(&img).into_raw()
        };
        let depth2 = squared(&|k| !inside[k]);
        let away2 = squared(&|k| inside[k]);
        Crop {
            w,
            h,
            x0,
            y0,
            dx,
            dy,
            in_image,
            inside,
            depth2,
            away2,
        }
    }

    fn in_image(&self, x: usize, y: usize) -> (u32, u32) {
        (self.x0 + x as u32 - 1, self.y0 + y as u32 - 1)
    }

    /// The 4-neighbours of pixel `k`.
    fn neighbours(&self, k: usize) -> impl Iterator<Item = usize> {
        let (w, h) = (self.w, self.h);
        let (x, y) = (k % w, k / w);
        [
            (x > 0).then(|| k - 1),
            (x + 1 < w).then(|| k + 1),
            (y > 0).then(|| k - w),
            (y + 1 < h).then(|| k + w),
        ]
        .into_iter()
        .flatten()
    }

    /// Whether pixel `k` lies deeper inside than [`SLIVER`]: a bay's core.
    fn past_sliver(&self, k: usize) -> bool {
        self.depth2[k] > SLIVER * SLIVER
    }

    /// Whether pixel `k` (inside) touches the background in the image.
    fn opens_out(&self, k: usize) -> bool {
        self.neighbours(k)
            .any(|q| !self.inside[q] && self.in_image[q])
    }

    /// The pixels of the flooded `bay` that are sealed sockets: each part of its core (deeper
    /// than [`SLIVER`]) that reaches [`MIN_DEPTH`] of the piece's `side` deep, covers at most
    /// [`MAX_AREA`] of its `area`, is held by the piece along all its edge but [`MAX_MOUTH`]
    /// of it, opens across a mouth at most [`MAX_MOUTH_WIDTH`] wide, holds a disc of
    /// [`MIN_BOWL`] and is held by pixels that are a `wall` ([`MIN_WALLED`] of them), with the
    /// sliver within [`MOUTH_REACH`] of it (see the module's doc).
    fn sealed_sockets(
        &self,
        bay: &[usize],
        side: f64,
        area: f64,
        wall: &dyn Fn(usize) -> bool,
    ) -> Vec<usize> {
        let n = self.w * self.h;
        let mut in_bay = vec![false; n];
        for &k in bay {
            in_bay[k] = true;
        }
        let mut in_core = |k: usize| in_bay[k] && self.past_sliver(k);
        let mut seen = vec![false; n];
        let mut out = Vec::new();
        for &start in bay {
            if seen[start] || !in_core(start) {
                continue;
            }
            let core = flood(self, start, &mut seen, n, &mut in_core).unwrap_or_default();
            let deepest = core
                .iter()
                .map(|&k| self.depth2[k])
                .fold(0.0, f64::max)
                .sqrt();
            let edge: Vec<usize> = core
                .iter()
                .copied()
                .filter(|&k| self.neighbours(k).any(|q| !in_core(q)))
                .collect();
            // An edge pixel of the core is held where it meets the piece only; it opens where it
            // meets the sliver.
            let opening: Vec<usize> = edge
                .iter()
                .copied()
                .filter(|&k| self.neighbours(k).any(|q| in_bay[q] && !in_core(q)))
                .collect();
            if deepest >= MIN_DEPTH * side
                && core.len() as f64 <= MAX_AREA * area
                && !edge.is_empty()
                && opening.len() as f64 <= MAX_MOUTH * edge.len() as f64
            {
                let (mouth, bowl) = self.mouth_and_bowl(&opening, &core);
                // The pixels that hold the core: its rim, or the face behind it.
                let mut holding: Vec<usize> = edge
                    .iter()
                    .flat_map(|&k| self.neighbours(k))
                    .filter(|&q| self.inside[q] && !in_bay[q])
                    .collect();
                holding.sort_unstable();
                holding.dedup();
                let walled = holding.iter().filter(|&&q| wall(q)).count();
                if mouth <= MAX_MOUTH_WIDTH * side
                    && bowl >= MIN_BOWL * side
                    && walled as f64 >= MIN_WALLED * holding.len() as f64
                {
                    out.extend(self.with_mouth(&core, &in_bay));
                }
            }
        }
        out
    }

    /// The width of the mouth of a bay's `core` (how far apart the farthest two of its
    /// `opening` pixels, those that meet the sliver, lie) and of its bowl (the diameter of the
    /// largest disc the core holds).
    fn mouth_and_bowl(&self, opening: &[usize], core: &[usize]) -> (f64, f64) {
        let xy = |k: usize| ((k % self.w) as f64, (k / self.w) as f64);
        let mouth: Vec<(f64, f64)> = opening.iter().copied().map(xy).collect();
        let width = mouth
            .iter()
            .flat_map(|a| mouth.iter().map(move |b| (a.0 - b.0).hypot(a.1 - b.1)))
            .fold(0.0, f64::max);
        let mut member = vec![false; self.w * self.h];
        for &k in core {
            member[k] = true;
        }
        let img = GrayImage::from_fn(self.w as u32, self.h as u32, |x, y| {
            Luma([u8::from(!member[y as usize * self.w + x as usize]) * 255])
        });
        let d = euclidean_squared_distance_transform(&img);
        let deepest = core
            .iter()
            .map(|&k| d.get_pixel((k % self.w) as u32, (k / self.w) as u32)[0])
            .fold(0.0, f64::max);
        (width, 2.0 * deepest.sqrt())
    }

    /// `core` and the pixels of the bay (`in_bay`) within [`MOUTH_REACH`] steps of it.
    fn with_mouth(&self, core: &[usize], in_bay: &[bool]) -> Vec<usize> {
        let mut taken = vec![false; self.w * self.h];
        let mut all = core.to_vec();
        for &k in core {
            taken[k] = true;
        }
        let mut front = core.to_vec();
        for _ in 0..MOUTH_REACH {
            let mut next = Vec::new();
            for &k in &front {
                for q in self.neighbours(k) {
                    if in_bay[q] && !taken[q] {
                        taken[q] = true;
                        next.push(q);
                    }
                }
            }
            all.extend_from_slice(&next);
            front = next;
        }
        all
    }

    /// `region` without the crop's pixels `sealed`.
    fn without(&self, region: &PieceRegion, sealed: &[usize]) -> PieceRegion {
        let mut mask = region.mask.clone();
        for &k in sealed {
            let (x, y) = (k % self.w - self.dx, k / self.w - self.dy);
            mask.put_pixel(x as u32, y as u32, Luma([0]));
        }
        let area = mask.pixels().filter(|p| p[0] != 0).count() as u64;
        PieceRegion {
            bbox: region.bbox,
            mask,
            area,
        }
    }
}

/// The pixels 4-connected to `start` that pass `passes` and were not `seen`, breadth first;
/// `None` once more than `budget` are reached (a face, not a socket; its pixels stay seen).
fn flood(
    crop: &Crop,
    start: usize,
    seen: &mut [bool],
    budget: usize,
    passes: &mut impl FnMut(usize) -> bool,
) -> Option<Vec<usize>> {
    let mut queue = VecDeque::from([start]);
    seen[start] = true;
    let mut reached = Vec::new();
    let mut over = false;
    while let Some(k) = queue.pop_front() {
        reached.push(k);
        over |= reached.len() > budget;
        for q in crop.neighbours(k) {
            if !seen[q] && crop.inside[q] && passes(q) {
                seen[q] = true;
                queue.push_back(q);
            }
        }
    }
    (!over).then_some(reached)
}

/// The background ring just outside the piece, indexed on a coarse grid.
struct Ring {
    cell: usize,
    cols: usize,
    cells: Vec<Vec<(usize, usize, [f32; 3])>>,
    /// Each cell's colour box (least and greatest L, a, b of its pixels): most pixels tested
    /// are the piece's face, whose colour lies far from every box, so whole cells are passed
    /// over without comparing their pixels one by one.
    boxes: Vec<([f32; 3], [f32; 3])>,
    reach2: f64,
}

impl Ring {
    fn new(
        crop: &Crop,
        around: &Surroundings,
        reach: f64,
        lab_at: &dyn Fn((usize, usize)) -> [f32; 3],
    ) -> Ring {
        let cell = (reach.ceil() as usize).max(1);
        let (cols, rows) = (crop.w.div_ceil(cell), crop.h.div_ceil(cell));
        let mut cells = vec![Vec::new(); cols * rows];
        let (iw, _) = around.image.dimensions();
        for k in 0..crop.w * crop.h {
            let d2 = crop.away2[k];
            if crop.inside[k]
                || !crop.in_image[k]
                || d2 < RING_NEAR.powi(2)
                || d2 > RING_FAR.powi(2)
            {
                continue;
            }
            let (x, y) = (k % crop.w, k / crop.w);
            let (ix, iy) = crop.in_image(x, y);
            if around.pieces[iy as usize * iw as usize + ix as usize] {
                continue;
            }
            cells[(y / cell) * cols + x / cell].push((x, y, lab_at((x, y))));
        }
        let boxes = cells
            .iter()
            .map(|pixels| {
                let mut bounds = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
                for (_, _, lab) in pixels {
                    for (c, &v) in lab.iter().enumerate() {
                        bounds.0[c] = bounds.0[c].min(v);
                        bounds.1[c] = bounds.1[c].max(v);
                    }
                }
                bounds
            })
            .collect();
        Ring {
            cell,
            cols,
            cells,
            boxes,
            reach2: reach * reach,
        }
    }

    /// Whether a ring pixel within reach of `(x, y)` has a colour within `likeness` of `lab`.
    fn near(&self, (x, y): (usize, usize), lab: &[f32; 3], likeness: f32) -> bool {
        let rows = self.cells.len() / self.cols;
        let (cx, cy) = (x / self.cell, y / self.cell);
        let cols = cx.saturating_sub(1)..=(cx + 1).min(self.cols - 1);
        (cy.saturating_sub(1)..=(cy + 1).min(rows - 1))
            .flat_map(|r| cols.clone().map(move |c| r * self.cols + c))
            .filter(|&cell| box_distance(&self.boxes[cell], lab) < likeness)
            .flat_map(|cell| &self.cells[cell])
            .any(|&(rx, ry, q)| {
                let (dx, dy) = (rx as f64 - x as f64, ry as f64 - y as f64);
                dx * dx + dy * dy <= self.reach2 && distance(q, *lab, 1.0) < likeness
            })
    }
}

/// A lower bound of the ΔE from `lab` to every colour in the box `(least, greatest)`: the
/// distance to the box, whose per-channel gaps are no wider than any colour's in it (infinite
/// for an empty box).
fn box_distance((least, greatest): &([f32; 3], [f32; 3]), lab: &[f32; 3]) -> f32 {
    let gap = |c: usize| (least[c] - lab[c]).max(lab[c] - greatest[c]).max(0.0);
    if least[0] > greatest[0] {
        return f32::INFINITY;
    }
    distance([gap(0), gap(1), gap(2)], [0.0; 3], 1.0)
}

#[cfg(test)]
#[path = "sealed_sockets_tests.rs"]
mod tests;
