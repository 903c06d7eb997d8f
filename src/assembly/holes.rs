//! The last piece of a hole: once growth is over, a piece left out though every one of its
//! neighbours is placed sits in a hole of the cluster that has its exact shape. Its chainlet
//! matings failed (a missed corner, a side the front end damaged), but the hole does not
//! depend on them: the whole outline is fitted to the hole's rim (iterative closest points
//! from rotations all round) and the piece is placed where it fits the rim closely, no other
//! left-out piece fits as well, and the picture runs on across its seams (a look-alike from
//! another puzzle fits a missing piece's hole as closely).
//!
//! Only holes closed all round are filled: an open notch in the cluster's rim does not pin a
//! piece's position along the open side.

use super::edge_colour::SeamColours;
use super::geometry::{fit_rigid, P2};
use super::grow::{Growth, Placed};
use super::shapes::Shapes;
use nalgebra::{Isometry2, Vector2};
use std::collections::VecDeque;

/// Seams between placed pieces are open by a pixel or two in the assembled frame; the placed
/// pieces are grown by this much so that a hole does not leak out through a seam.
const SEAM_CLOSE_PX: i64 = 2;
/// A hole is a candidate for a piece when their areas (the hole's corrected for the grown
/// rim) agree within this fraction.
const AREA_TOLERANCE: f64 = 0.3;
/// Fit accepted when the symmetric mean distance between the piece's outline and the hole's
/// rim is at most this fraction of the median piece size (plus the seams' width).
const FIT_FRACTION: f64 = 0.02;
/// … and the next-best left-out piece for the same hole fits at least this many times worse.
const AMBIGUITY: f64 = 1.5;
/// Two samples this far apart (a fraction of the median piece size) face each other across
/// a seam.
const FACING_FRACTION: f64 = 0.04;
/// … and the picture runs on across its seams: the median colour factor of its chainlets
/// (see [`SeamColours::factor_at`]; 1 for a typical true seam, 3 at most) at most this. Shape
/// alone cannot tell a look-alike: on classic 100 sets with `--missing 3 --extra 3` an
/// extraneous piece fitted a missing piece's hole as closely as true pieces fit theirs
/// (2.5 px against 1.6–3.5 px). Measured factors: the six true pieces the fit placed on the
/// sweep 0.82–2.21 (five under 1.6), nine extraneous fits in missing pieces' holes
/// 2.30–3.00. Without colour (blank pieces, masks) no hole is filled.
const MAX_COLOUR_FACTOR: f64 = 1.8;
/// Starting rotations of the fit, evenly spread.
const START_ROTATIONS: usize = 24;
const ICP_ITERATIONS: usize = 25;
/// Points of the outline and of the rim the fit uses at most.
const FIT_POINTS: usize = 180;
/// Frames over this many pixels are not rasterised (a 1000-piece puzzle at 120 px per piece
/// has about 15 million).
const MAX_FRAME_PIXELS: i64 = 60_000_000;

struct Hole {
    rim: Vec<P2>,
    centroid: P2,
    /// Pixels.
    area: f64,
}

/// Places left-out pieces into closed holes of the largest cluster that they fit all round.
/// Returns how many were placed.
pub(super) fn fill_holes(shapes: &Shapes, colours: &SeamColours, g: &mut Growth) -> usize {
    let left: Vec<usize> = (0..shapes.pieces.len())
        .filter(|&i| g.placed[i].is_none() && shapes.pieces[i].outline.len() >= 8)
        .collect();
    let Some(cluster) = largest_cluster(g) else {
        return 0;
    };
    if left.is_empty() {
        return 0;
    }
    let holes = closed_holes(shapes, g, cluster);
    let tolerance = FIT_FRACTION * shapes.median_size + SEAM_CLOSE_PX as f64;
    // Every candidate fit, then the unambiguous ones, best first.
    let mut fits: Vec<(f64, usize, usize, Isometry2<f64>, f64)> = Vec::new();
    for (h, hole) in holes.iter().enumerate() {
        let mut per_hole: Vec<(f64, usize, Isometry2<f64>)> = left
            .iter()
            .filter(|&&i| {
                let area = shapes.pieces[i].size.powi(2);
                (hole.area - area).abs() <= AREA_TOLERANCE * area
            })
            .map(|&i| {
                let (pose, d) = fit_to_rim(&shapes.pieces[i].outline, hole);
                (d, i, pose)
            })
            .collect();
        per_hole.sort_by(|a, b| a.0.total_cmp(&b.0));
        let Some(&(d, i, pose)) = per_hole.first() else {
            continue;
        };
        let clear = per_hole.get(1).is_none_or(|next| next.0 >= AMBIGUITY * d);
        if d > tolerance || !clear {
            continue;
        }
        let colour = seam_colour(shapes, colours, g, cluster, i, &pose);
        if colour.is_some_and(|c| c <= MAX_COLOUR_FACTOR) {
            fits.push((d, h, i, pose, d / tolerance));
        }
    }
    fits.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut sequence = g
        .placed
        .iter()
        .flatten()
        .map(|p| p.sequence)
        .max()
        .unwrap_or(0);
    let (mut used_holes, mut placed) = (Vec::new(), 0);
    for (_, h, i, pose, merit) in fits {
        if used_holes.contains(&h) || g.placed[i].is_some() {
            continue;
        }
        used_holes.push(h);
        sequence += 1;
        g.placed[i] = Some(Placed {
            pose,
            sequence,
            cluster,
            supports: 1,
            merit: merit.min(1.0),
            spans: 0,
        });
        g.loose.retain(|&l| l != i);
        placed += 1;
    }
    placed
}

fn largest_cluster(g: &Growth) -> Option<u32> {
    let mut count: Vec<usize> = vec![0; g.clusters.max(1) as usize + 1];
    for p in g.placed.iter().flatten() {
        if let Some(c) = count.get_mut(p.cluster as usize) {
            *c += 1;
        }
    }
    (0..count.len())
        .max_by_key(|&c| count[c])
        .filter(|&c| count[c] >= 3)
        .map(|c| c as u32)
}

/// The holes of `cluster`: background regions its placed pieces (grown by
/// [`SEAM_CLOSE_PX`]) enclose, at least a third of the median piece in area.
fn closed_holes(shapes: &Shapes, g: &Growth, cluster: u32) -> Vec<Hole> {
    let outlines: Vec<Vec<P2>> = g
        .placed
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.as_ref().filter(|p| p.cluster == cluster).map(|p| (i, p)))
        .map(|(i, p)| {
            shapes.pieces[i]
                .outline
                .iter()
                .map(|q| p.pose * q)
                .collect()
        })
        .collect();
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for q in outlines.iter().flatten() {
        (x0, y0, x1, y1) = (x0.min(q.x), y0.min(q.y), x1.max(q.x), y1.max(q.y));
    }
    if outlines.is_empty() || !(x1 > x0 && y1 > y0) {
        return Vec::new();
    }
    let margin = 2 * SEAM_CLOSE_PX + 2;
    let (ox, oy) = (x0.floor() as i64 - margin, y0.floor() as i64 - margin);
    let (w, h) = (
        x1.ceil() as i64 - ox + margin + 1,
        y1.ceil() as i64 - oy + margin + 1,
    );
    if w * h > MAX_FRAME_PIXELS {
        return Vec::new();
    }
    let (w, h) = (w as usize, h as usize);
    let mut filled = vec![false; w * h];
    for outline in &outlines {
        fill_polygon(outline, ox, oy, w, h, &mut filled);
    }
    let grown = grow(&filled, w, h, SEAM_CLOSE_PX as usize);
    // 0: unknown background, 1: outside, 2: piece, 3..: holes.
    let mut label: Vec<u32> = grown.iter().map(|&f| if f { 2 } else { 0 }).collect();
    flood(&mut label, w, h, 0, 1);
    let min_area = shapes.median_size.powi(2) / 3.0;
    let mut holes = Vec::new();
    let mut next = 3;
    for start in 0..w * h {
        if label[start] != 0 {
            continue;
        }
        let core = flood(&mut label, w, h, start, next);
        next += 1;
        if (core.len() as f64) < min_area {
            continue;
        }
        // The hole as the pieces leave it: its core grown back over the band the grown
        // pieces took, so that its rim lies on the pieces' outlines.
        let pixels = regrow(&core, &filled, &mut label, w, h, SEAM_CLOSE_PX as usize);
        let to_frame = |k: usize| P2::new((k % w) as f64 + ox as f64, (k / w) as f64 + oy as f64);
        let rim: Vec<P2> = pixels
            .iter()
            .filter(|&&k| {
                let (x, y) = (k % w, k / w);
                [
                    (x + 1, y),
                    (x.wrapping_sub(1), y),
                    (x, y + 1),
                    (x, y.wrapping_sub(1)),
                ]
                .iter()
                .any(|&(a, b)| a < w && b < h && filled[b * w + a])
            })
            .map(|&k| to_frame(k))
            .collect();
        let n = pixels.len() as f64;
        let centroid = pixels
            .iter()
            .fold(Vector2::zeros(), |s, &k| s + to_frame(k).coords)
            / n;
        holes.push(Hole {
            area: n,
            rim,
            centroid: P2::from(centroid),
        });
    }
    holes
}

/// How well the picture runs on across the seams of piece `i` placed at `pose` with the
/// placed pieces of `cluster`: the colour factor of each of its chainlets against the
/// chainlet it lies along (see [`SeamColours::factor_at`]), the median over its chainlets;
/// `None` where the pictures carry no colour or no chainlet lies along another.
fn seam_colour(
    shapes: &Shapes,
    colours: &SeamColours,
    g: &Growth,
    cluster: u32,
    i: usize,
    pose: &Isometry2<f64>,
) -> Option<f64> {
    if !colours.knows_colours() {
        return None;
    }
    let piece = &shapes.pieces[i];
    let reach = 2.0 * piece.size.max(shapes.median_size);
    let near = (FACING_FRACTION * shapes.median_size).max(3.0).powi(2);
    let mut factors = Vec::new();
    for &a in &piece.chainlets {
        let ca = &shapes.chainlets[a];
        let placed: Vec<P2> = ca.samples.iter().map(|q| pose * q).collect();
        let mut best: Option<(usize, usize)> = None;
        for (j, p) in g.placed.iter().enumerate() {
            let Some(p) = p.as_ref().filter(|p| p.cluster == cluster) else {
                continue;
            };
            if (p.pose * shapes.pieces[j].centroid - pose * piece.centroid).norm() > reach {
                continue;
            }
            for &b in &shapes.pieces[j].chainlets {
                let cb: Vec<P2> = shapes.chainlets[b]
                    .samples
                    .iter()
                    .map(|q| p.pose * q)
                    .collect();
                let facing = placed
                    .iter()
                    .filter(|q| cb.iter().any(|r| (r - *q).norm_squared() <= near))
                    .count();
                if facing * 3 >= placed.len() && best.is_none_or(|(_, f)| facing > f) {
                    best = Some((b, facing));
                }
            }
        }
        if let Some((b, _)) = best {
            let j = shapes.chainlets[b].piece;
            let Some(pb) = g.placed[j].as_ref() else {
                continue;
            };
            let relative = pose.inverse() * pb.pose;
            factors.push(colours.factor_at((a, ca), (b, &shapes.chainlets[b]), &relative));
        }
    }
    if factors.is_empty() {
        return None;
    }
    factors.sort_by(f64::total_cmp);
    Some(factors[factors.len() / 2])
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

/// Even-odd scanline fill of a closed polygon, sampled at pixel centres.
fn fill_polygon(poly: &[P2], ox: i64, oy: i64, w: usize, h: usize, out: &mut [bool]) {
    let (lo, hi) = poly
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), q| (a.min(q.y), b.max(q.y)));
    let (r0, r1) = (
        ((lo - oy as f64).floor().max(0.0)) as usize,
        ((hi - oy as f64).ceil().max(0.0) as usize).min(h.saturating_sub(1)),
    );
    let mut xs: Vec<f64> = Vec::new();
    for row in r0..=r1 {
        let y = row as f64 + oy as f64;
        xs.clear();
        for (k, a) in poly.iter().enumerate() {
            let b = poly[(k + 1) % poly.len()];
            if (a.y <= y) != (b.y <= y) {
                xs.push(a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x));
            }
        }
        xs.sort_by(|a, b| a.total_cmp(b));
        for pair in xs.chunks(2) {
            if let [a, b] = pair {
                // Pixel centres `x` with a ≤ x < b.
                let c0 = (a - ox as f64).ceil().max(0.0) as usize;
                let c1 = (b - ox as f64).ceil().max(0.0) as usize;
                for c in c0..c1.min(w) {
                    out[row * w + c] = true;
                }
            }
        }
    }
}

/// `mask` dilated by a square of radius `r`.
fn grow(mask: &[bool], w: usize, h: usize, r: usize) -> Vec<bool> {
    let mut rows = vec![false; w * h];
    for y in 0..h {
        for x in 0..w {
            if mask[y * w + x] {
                for c in x.saturating_sub(r)..=(x + r).min(w - 1) {
                    rows[y * w + c] = true;
                }
            }
        }
    }
    let mut out = vec![false; w * h];
    for y in 0..h {
        for x in 0..w {
            if rows[y * w + x] {
                for r2 in y.saturating_sub(r)..=(y + r).min(h - 1) {
                    out[r2 * w + x] = true;
                }
            }
        }
    }
    out
}

/// Labels the 4-connected region of value-0 pixels containing `start` (or, from `start = 0`
/// as the outside, every 0 pixel on the frame's edge) with `to`; returns its pixels.
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
        seen.push(k);
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

/// Every `step`-th point so that at most `n` remain.
fn thin(points: &[P2], n: usize) -> Vec<P2> {
    let step = points.len().div_ceil(n.max(1)).max(1);
    points.iter().step_by(step).copied().collect()
}

fn nearest(p: &P2, to: &[P2]) -> (usize, f64) {
    to.iter()
        .enumerate()
        .map(|(k, q)| (k, (q - p).norm_squared()))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map_or((0, f64::MAX), |(k, d)| (k, d.sqrt()))
}

/// The pose fitting `outline` (source pixels) into `hole`, and the symmetric mean distance
/// between the placed outline and the rim.
fn fit_to_rim(outline: &[P2], hole: &Hole) -> (Isometry2<f64>, f64) {
    let piece = thin(outline, FIT_POINTS);
    let rim = thin(&hole.rim, 2 * FIT_POINTS);
    let centroid = piece.iter().fold(Vector2::zeros(), |s, q| s + q.coords) / piece.len() as f64;
    let mut best = (Isometry2::identity(), f64::MAX);
    for k in 0..START_ROTATIONS {
        let angle = std::f64::consts::TAU * k as f64 / START_ROTATIONS as f64;
        let turn = Isometry2::rotation(angle);
        let mut pose = Isometry2::translation(hole.centroid.x, hole.centroid.y)
            * turn
            * Isometry2::translation(-centroid.x, -centroid.y);
        for _ in 0..ICP_ITERATIONS {
            let targets: Vec<P2> = piece
                .iter()
                .map(|q| rim[nearest(&(pose * q), &rim).0])
                .collect();
            let (next, _) = fit_rigid(&piece, &targets);
            let moved = (next.translation.vector - pose.translation.vector).norm()
                + (next.rotation.angle() - pose.rotation.angle()).abs() * 50.0;
            pose = next;
            if moved < 0.01 {
                break;
            }
        }
        let placed: Vec<P2> = piece.iter().map(|q| pose * q).collect();
        let there: f64 =
            placed.iter().map(|q| nearest(q, &rim).1).sum::<f64>() / placed.len() as f64;
        let back: f64 = rim.iter().map(|q| nearest(q, &placed).1).sum::<f64>() / rim.len() as f64;
        let d = 0.5 * (there + back);
        if d < best.1 {
            best = (pose, d);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assembly::shapes::PieceShape;

    #[test]
    fn a_polygon_is_filled_at_pixel_centres() {
        let square = [
            P2::new(2.0, 2.0),
            P2::new(7.0, 2.0),
            P2::new(7.0, 7.0),
            P2::new(2.0, 7.0),
        ];
        let mut out = vec![false; 100];
        fill_polygon(&square, 0, 0, 10, 10, &mut out);
        assert_eq!(out.iter().filter(|&&f| f).count(), 25);
        assert!(out[2 * 10 + 2] && !out[7 * 10 + 7]);
    }

    /// The outline of a piece: `corners` joined by points 1 px apart, moved by `pose`.
    fn piece(id: u32, corners: &[P2], pose: Isometry2<f64>) -> PieceShape {
        let mut outline = Vec::new();
        for (k, a) in corners.iter().enumerate() {
            let b = corners[(k + 1) % corners.len()];
            let n = (b - a).norm().ceil() as usize;
            outline.extend((0..n).map(|t| pose * (a + (b - a) * (t as f64 / n as f64))));
        }
        let area = super::super::geometry::signed_area(&outline).abs();
        PieceShape {
            outline,
            size: area.sqrt(),
            ..PieceShape::bare(id, String::new(), Vec::new())
        }
    }

    /// A 3 × 3 grid of 40 px cells: the eight round the middle placed where they belong, the
    /// middle one (a cell with a knob, photographed turned and elsewhere) left out, with a
    /// smaller piece.
    #[test]
    fn a_piece_left_out_of_a_closed_hole_is_fitted_to_its_rim() {
        let cell = |x: f64, y: f64| {
            vec![
                P2::new(x, y),
                P2::new(x + 40.0, y),
                P2::new(x + 40.0, y + 40.0),
                P2::new(x, y + 40.0),
            ]
        };
        let mut shapes = Shapes {
            median_size: 40.0,
            ..Shapes::default()
        };
        let mut g = Growth {
            placed: vec![None; 10],
            clusters: 1,
            ..Growth::default()
        };
        for (k, (i, j)) in (0..3)
            .flat_map(|i| (0..3).map(move |j| (i, j)))
            .filter(|&c| c != (1, 1))
            .enumerate()
        {
            shapes.pieces.push(piece(
                k as u32 + 1,
                &cell(40.0 * i as f64, 40.0 * j as f64),
                Isometry2::identity(),
            ));
            g.placed[k] = Some(Placed {
                pose: Isometry2::identity(),
                sequence: k as u32 + 1,
                cluster: 0,
                supports: 2,
                merit: 0.5,
                spans: 0,
            });
        }
        // The middle cell's left side bulges into a hole of its neighbour: a piece that fits
        // one way round only.
        let mut middle = cell(40.0, 40.0);
        middle.splice(
            3..3,
            [
                P2::new(40.0, 70.0),
                P2::new(30.0, 70.0),
                P2::new(30.0, 50.0),
                P2::new(40.0, 50.0),
            ],
        );
        let left = &mut shapes.pieces[1];
        *left = piece(2, &cell(0.0, 40.0), Isometry2::identity());
        let mut notched = cell(0.0, 40.0);
        notched.splice(
            2..2,
            [
                P2::new(40.0, 50.0),
                P2::new(30.0, 50.0),
                P2::new(30.0, 70.0),
                P2::new(40.0, 70.0),
            ],
        );
        notched.reverse();
        *left = piece(2, &notched, Isometry2::identity());
        let taken = Isometry2::new(Vector2::new(300.0, 120.0), 2.0);
        shapes.pieces.push(piece(9, &middle, taken));
        shapes
            .pieces
            .push(piece(10, &cell(0.0, 0.0)[..3], Isometry2::identity()));
        let holes = closed_holes(&shapes, &g, 0);
        assert_eq!(holes.len(), 1);
        assert!((holes[0].area - 1800.0).abs() < 60.0, "{}", holes[0].area);
        let (pose, d) = fit_to_rim(&shapes.pieces[8].outline, &holes[0]);
        assert!(d < 2.0, "{d}");
        // Fitted as it was cut: its pose undoes the photograph's.
        let back = pose * taken;
        assert!(back.translation.vector.norm() < 1.5, "{back:?}");
        assert!(back.rotation.angle().abs() < 0.03, "{back:?}");
        // Without the picture a look-alike could not be told from it: nothing is placed.
        assert_eq!(fill_holes(&shapes, &SeamColours::default(), &mut g), 0);
        assert!(g.placed[8].is_none());
        assert!(g.placed[9].is_none());
    }
}
