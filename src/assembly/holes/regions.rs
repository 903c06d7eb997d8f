//! The regions a cluster leaves empty that a single piece may fill: holes closed all round,
//! and notches in its rim, open on the side where the cluster's convex hull crosses them.

use super::super::geometry::P2;
use super::raster::{fill_polygon, grow, Frame, SEAM_CLOSE_PX};
use nalgebra::Vector2;
use std::collections::{HashMap, VecDeque};

/// A notch region whose one deep part (see [`notches`]) keeps less than this share of its
/// pixels is offered both whole and as that part.
const TRIMMED: f64 = 0.9;

/// An empty region of the cluster's frame.
pub(super) struct Hole {
    /// Where a piece filling it meets its neighbours: its pixels next to the cluster's pieces,
    /// each moved half a pixel towards them, onto their outlines (a pixel between two pieces
    /// across a 1 px seam stays where it is, and is left out).
    pub rim: Vec<P2>,
    pub centroid: P2,
    /// Pixels.
    pub area: f64,
    /// Whether the cluster leaves it open on one side (a notch the hull closes).
    pub open: bool,
    /// Its pixels on a coarse grid: where a fit to part of it may start.
    pub inside: Vec<P2>,
}

/// The holes of the frame's cluster, background regions its pieces (grown by
/// [`SEAM_CLOSE_PX`]) enclose, then its notches, background regions inside its convex hull
/// that open onto the hull's edge, one for each part deeper than `notch_depth` inside the hull
/// (see [`notches`]); each at least `min_area` pixels, its inside sampled every `step` pixels.
pub(super) fn empty_regions(
    frame: &Frame,
    min_area: f64,
    step: usize,
    notch_depth: f64,
) -> Vec<Hole> {
    let (w, h) = (frame.w, frame.h);
    let grown = grow(&frame.filled, w, h, SEAM_CLOSE_PX as usize);
    // 0: unknown background, 1: outside, 2: piece, 3..: regions.
    let mut label: Vec<u32> = grown.iter().map(|&f| if f { 2 } else { 0 }).collect();
    flood(&mut label, w, h, 0, 1);
    let mut next = 3;
    let mut regions = take_regions(
        frame,
        &mut label,
        &mut next,
        min_area,
        step,
        false,
        notch_depth,
    );
    // The outside within the hull is searched again: what of it a piece could fill is a notch.
    let mut inside = vec![false; w * h];
    fill_polygon(&frame.hull, frame.ox, frame.oy, w, h, &mut inside);
    for (l, &i) in label.iter_mut().zip(&inside) {
        if *l == 1 && i {
            *l = 0;
        }
    }
    regions.extend(take_regions(
        frame,
        &mut label,
        &mut next,
        min_area,
        step,
        true,
        notch_depth,
    ));
    regions
}

/// Every 4-connected region of 0 labels, as a [`Hole`] if it is at least `min_area`; an
/// `open` one split into its notches (see [`notches`]).
fn take_regions(
    frame: &Frame,
    label: &mut [u32],
    next: &mut u32,
    min_area: f64,
    step: usize,
    open: bool,
    notch_depth: f64,
) -> Vec<Hole> {
    let (w, h, filled) = (frame.w, frame.h, &frame.filled);
    let mut holes = Vec::new();
    for start in 0..w * h {
        if label[start] != 0 {
            continue;
        }
        let region = flood(label, w, h, start, *next);
        *next += 1;
        // A notch region joining several notches is offered whole (as a run of border
        // pieces left out side by side leaves it) and as each of them.
        let parts = if open {
            notches(frame, &region, notch_depth)
        } else {
            Vec::new()
        };
        // A single notch is offered without its wings too where they are a tenth of the
        // region or more.
        let trimmed = parts.len() == 1 && (parts[0].len() as f64) < TRIMMED * region.len() as f64;
        let mut cores = vec![region];
        if parts.len() >= 2 || trimmed {
            cores.extend(parts);
        }
        // The band each takes back (see `regrow`) is claimed once all are done.
        let mut band = Vec::new();
        for core in cores {
            if (core.len() as f64) < min_area {
                continue;
            }
            // The region as the pieces leave it: its core grown back over the band the grown
            // pieces took, so that its rim lies on the pieces' outlines.
            let pixels = regrow(&core, filled, label, w, h, SEAM_CLOSE_PX as usize);
            for &k in &pixels[core.len()..] {
                label[k] = 2;
                band.push(k);
            }
            // Each rim pixel moved half way towards the pieces beside it: onto the outline, which
            // passes between pixel centres (a notch's rim would otherwise pull its piece inwards).
            let rim: Vec<P2> = pixels
                .iter()
                .filter_map(|&k| {
                    let (x, y) = (k % w, k / w);
                    let mut towards = Vector2::zeros();
                    for (a, b, dx, dy) in [
                        (x + 1, y, 1.0, 0.0),
                        (x.wrapping_sub(1), y, -1.0, 0.0),
                        (x, y + 1, 0.0, 1.0),
                        (x, y.wrapping_sub(1), 0.0, -1.0),
                    ] {
                        if a < w && b < h && filled[b * w + a] {
                            towards += Vector2::new(dx, dy);
                        }
                    }
                    (towards != Vector2::zeros())
                        .then(|| frame.pixel_centre(k) + towards.normalize() * 0.5)
                })
                .collect();
            let n = pixels.len() as f64;
            let centroid = pixels
                .iter()
                .fold(Vector2::zeros(), |s, &k| s + frame.pixel_centre(k).coords)
                / n;
            let step = step.max(1);
            let inside = core
                .iter()
                .filter(|&&k| (k % w) % step == 0 && (k / w) % step == 0)
                .map(|&k| frame.pixel_centre(k))
                .collect();
            holes.push(Hole {
                area: n,
                rim,
                centroid: P2::from(centroid),
                open,
                inside,
            });
        }
        for k in band {
            label[k] = u32::MAX;
        }
    }
    holes
}

/// The notches of the open `region` (pixels of the frame): each part of it deeper than
/// `depth` inside the hull (4-connected), with the shallower pixels that lie within 1.5 ×
/// `depth` steps of it (the nearest part's), the rest left out; none if no part is that
/// deep. The strip between an irregular edge and the hull's chord joins the notches along a
/// side into one region (irregular 20 photos seed 24: a notch and its wings 1.2 pieces'
/// area, too large for one piece, and its piece fills it whole, so no fit to part of it
/// either); a notch's own mouth lies less than `depth` from its deep part.
fn notches(frame: &Frame, region: &[usize], depth: f64) -> Vec<Vec<usize>> {
    let w = frame.w;
    let at: HashMap<usize, usize> = region.iter().enumerate().map(|(n, &k)| (k, n)).collect();
    let deep: Vec<bool> = region
        .iter()
        .map(|&k| frame.deeper_than(&frame.pixel_centre(k), depth))
        .collect();
    let neighbours = |k: usize| {
        let (x, y) = (k % w, k / w);
        [
            (x > 0).then(|| k - 1),
            (x + 1 < w).then(|| k + 1),
            (y > 0).then(|| k - w),
            Some(k + w),
        ]
        .into_iter()
        .flatten()
        .filter_map(|q| at.get(&q).copied())
    };
    // Each deep part labelled by a flood over deep pixels, then grown over the shallow ones
    // breadth first, every pixel taking the part that reaches it first.
    let mut part: Vec<Option<usize>> = vec![None; region.len()];
    let mut parts = 0;
    let mut front: VecDeque<(usize, usize)> = VecDeque::new();
    for seed in 0..region.len() {
        if !deep[seed] || part[seed].is_some() {
            continue;
        }
        part[seed] = Some(parts);
        let mut queue = vec![seed];
        while let Some(n) = queue.pop() {
            front.push_back((n, 0));
            for m in neighbours(region[n]) {
                if deep[m] && part[m].is_none() {
                    part[m] = Some(parts);
                    queue.push(m);
                }
            }
        }
        parts += 1;
    }
    let reach = (1.5 * depth).ceil() as usize;
    while let Some((n, steps)) = front.pop_front() {
        if steps == reach {
            continue;
        }
        for m in neighbours(region[n]) {
            if part[m].is_none() {
                part[m] = part[n];
                front.push_back((m, steps + 1));
            }
        }
    }
    let mut out = vec![Vec::new(); parts];
    for (n, p) in part.iter().enumerate() {
        if let Some(p) = p {
            out[*p].push(region[n]);
        }
    }
    out
}

/// `core` and the pixels within `r` steps (8-connected) of it that no piece covers, claimed
/// in `label` (value 2: grown over only) so that no other hole takes them.
fn regrow(
    core: &[usize],
    filled: &[bool],
    label: &mut [u32],
    w: usize,
    h: usize,
    r: usize,
) -> Vec<usize> {
    let mut all = core.to_vec();
    let mut front = core.to_vec();
    for _ in 0..r {
        let mut next = Vec::new();
        for &k in &front {
            let (x, y) = ((k % w) as i64, (k / w) as i64);
            for (dx, dy) in [
                (-1, -1),
                (0, -1),
                (1, -1),
                (-1, 0),
                (1, 0),
                (-1, 1),
                (0, 1),
                (1, 1),
            ] {
                let (a, b) = (x + dx, y + dy);
                if a < 0 || b < 0 || a >= w as i64 || b >= h as i64 {
                    continue;
                }
                let q = b as usize * w + a as usize;
                if label[q] == 2 && !filled[q] {
                    label[q] = u32::MAX;
                    next.push(q);
                }
            }
        }
        all.extend_from_slice(&next);
        front = next;
    }
    all
}

/// Labels the 4-connected region of value-0 pixels containing `start` (or, with `to = 1`, the
/// outside: every 0 pixel on the frame's edge and those it reaches) with `to`; returns its
/// pixels (none for the outside, which nobody reads and may take most of the frame).
fn flood(label: &mut [u32], w: usize, h: usize, start: usize, to: u32) -> Vec<usize> {
    let mut queue: VecDeque<usize> = VecDeque::new();
    let mut seen = Vec::new();
    let push = |k: usize, label: &mut [u32], queue: &mut VecDeque<usize>| {
        if label[k] == 0 {
            label[k] = to;
            queue.push_back(k);
        }
    };
    if to == 1 {
        for x in 0..w {
            push(x, label, &mut queue);
            push((h - 1) * w + x, label, &mut queue);
        }
        for y in 0..h {
            push(y * w, label, &mut queue);
            push(y * w + w - 1, label, &mut queue);
        }
    } else {
        push(start, label, &mut queue);
    }
    while let Some(k) = queue.pop_front() {
        if to != 1 {
            seen.push(k);
        }
        let (x, y) = (k % w, k / w);
        if x > 0 {
            push(k - 1, label, &mut queue);
        }
        if x + 1 < w {
            push(k + 1, label, &mut queue);
        }
        if y > 0 {
            push(k - w, label, &mut queue);
        }
        if y + 1 < h {
            push(k + w, label, &mut queue);
        }
    }
    seen
}
