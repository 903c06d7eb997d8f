//! The last piece of a hole: once growth is over, a piece left out though every one of its
//! neighbours is placed sits in a hole of the cluster that has its exact shape. Its chainlet
//! matings failed (a missed corner, a side the front end damaged), but the hole does not
//! depend on them: the whole outline is fitted to the hole's rim (iterative closest points
//! from rotations all round) and the piece is placed where it fits the rim closely, no other
//! left-out piece fits as well, and the picture runs on across its seams (a look-alike from
//! another puzzle fits a missing piece's hole as closely).
//!
//! A border piece leaves a notch open on the puzzle's edge instead. The cluster's convex hull
//! closes it, and the piece's outline is fitted to the notch's rim where both lie well inside
//! the hull: its sides along the puzzle's edge face no rim. It must not cut into the cluster.
//! Rounds repeat while they place pieces: a filled notch may close the hole beside it.

mod fit;
mod raster;

use super::edge_colour::SeamColours;
use super::geometry::P2;
use super::grow::{Growth, Placed};
use super::shapes::Shapes;
use fit::{fit_to_notch, fit_to_rim, NotchLimits};
use nalgebra::Isometry2;
use raster::{cluster_frame, empty_regions, Frame, Hole, SEAM_CLOSE_PX};
use rayon::prelude::*;

/// A hole is a candidate for a piece when their areas (the hole's corrected for the grown
/// rim) agree within this fraction.
const AREA_TOLERANCE: f64 = 0.3;
/// A notch's area, cut by the hull's chord, lies within these fractions of its piece's: less
/// where the piece's edge bulges out past the chord, more where the hull also takes in dents
/// of an irregular exterior beside it.
const NOTCH_AREA: (f64, f64) = (0.4, 1.6);
/// A seam point of a notch fit counts at most this fraction of the median piece size.
const NOTCH_CAP_FRACTION: f64 = 0.15;
/// Outline points of a notch fit that may lie inside the cluster, beyond the tolerance.
const MAX_INTRUSION: f64 = 0.03;
/// Points of a notch fit, either way, that may lie over twice the tolerance from the other
/// side: a knob is about a sixth of a classic piece's outline.
const MAX_OUTLIERS: f64 = 0.08;
/// A notch fit compares the piece's outline and the notch's rim where they lie deeper inside
/// the hull than this fraction of the median piece size: the dents of an irregular exterior
/// are shallower (a sixth of a piece at most, in `jigsaw synth`), and so are the sides of a
/// piece that lie on the puzzle's edge.
const NOTCH_DEPTH_FRACTION: f64 = 0.2;
/// Fit accepted when its distance (see [`fit_to_rim`], [`fit_to_notch`]) is at most this
/// fraction of the median piece size (plus the seams' width).
const FIT_FRACTION: f64 = 0.02;
/// … and every other left-out piece whose picture runs on across its seams (see
/// [`MAX_COLOUR_FACTOR`]) fits the same region at least this many times worse, and the piece
/// fits every other region this many times worse.
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
/// 2.30–3.00. Without colour (blank pieces, masks) no hole is filled. The bar refuses some
/// true fits (session 13: 2.09, 2.15, 2.35 on three sets) and they stay left out.
const MAX_COLOUR_FACTOR: f64 = 1.8;
/// Rounds of filling at most: a piece placed in one round closes the hole or notch beside it
/// for the next.
const MAX_ROUNDS: usize = 4;

/// Places left-out pieces into the holes and notches of the largest cluster that they fit.
/// Returns how many were placed.
pub(super) fn fill_holes(shapes: &Shapes, colours: &SeamColours, g: &mut Growth) -> usize {
    let mut placed = 0;
    for _ in 0..MAX_ROUNDS {
        match fill_round(shapes, colours, g) {
            0 => break,
            n => placed += n,
        }
    }
    placed
}

/// One round: every region's best piece, placed where it is unambiguous and its colours run on.
fn fill_round(shapes: &Shapes, colours: &SeamColours, g: &mut Growth) -> usize {
    let left: Vec<usize> = (0..shapes.pieces.len())
        .filter(|&i| g.placed[i].is_none() && shapes.pieces[i].outline.len() >= 8)
        .collect();
    let Some(cluster) = largest_cluster(g) else {
        return 0;
    };
    // Without colour no fit would pass (see [`MAX_COLOUR_FACTOR`]): none is made.
    if left.is_empty() || !colours.knows_colours() {
        return 0;
    }
    let Some(frame) = cluster_frame(shapes, g, cluster) else {
        return 0;
    };
    let regions = empty_regions(&frame, shapes.median_size.powi(2) / 3.0);
    let limits = notch_limits(shapes.median_size);
    // Each region's fits that could matter, near enough to the tolerance to be chosen or to
    // rival the chosen one, and with the picture running on across their seams: a piece
    // whose picture breaks at its seams rivals none (a look-alike of another puzzle fits a
    // missing piece's hole as closely as the true pieces fit theirs).
    let per_region: Vec<Vec<Fit>> = regions
        .par_iter()
        .map(|hole| {
            region_fits(shapes, &frame, limits, hole, &left)
                .into_iter()
                .filter(|f| f.distance < AMBIGUITY * limits.tolerance)
                .filter(|f| {
                    let colour = seam_colour(shapes, colours, g, cluster, f.piece, &f.pose);
                    colour.is_some_and(|c| c <= MAX_COLOUR_FACTOR)
                })
                .collect()
        })
        .collect();
    // Each region's best fit, where no other piece fits that region nor that piece another
    // region nearly as well; best first.
    let mut fits: Vec<Fit> = Vec::new();
    for (h, region) in per_region.iter().enumerate() {
        let Some(best) = region.first() else {
            continue;
        };
        let clear = |other: &Fit| other.distance >= AMBIGUITY * best.distance;
        let alone_here = region.get(1).is_none_or(clear);
        let alone_there = per_region
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != h)
            .filter_map(|(_, r)| r.iter().find(|f| f.piece == best.piece))
            .all(clear);
        if best.distance <= limits.tolerance && alone_here && alone_there {
            fits.push(*best);
        }
    }
    fits.sort_by(|a, b| a.distance.total_cmp(&b.distance));
    let mut sequence = g
        .placed
        .iter()
        .flatten()
        .map(|p| p.sequence)
        .max()
        .unwrap_or(0);
    let mut placed = 0;
    for Fit {
        piece: i,
        pose,
        distance,
    } in fits
    {
        // A piece is the best of one region at most (see `alone_there`), but for a perfect fit.
        if g.placed[i].is_some() {
            continue;
        }
        sequence += 1;
        g.placed[i] = Some(Placed {
            pose,
            sequence,
            cluster,
            supports: 1,
            merit: (distance / limits.tolerance).min(1.0),
            spans: 0,
        });
        g.loose.retain(|&l| l != i);
        placed += 1;
    }
    placed
}

fn notch_limits(median_size: f64) -> NotchLimits {
    NotchLimits {
        tolerance: FIT_FRACTION * median_size + SEAM_CLOSE_PX as f64,
        cap: NOTCH_CAP_FRACTION * median_size,
        depth: NOTCH_DEPTH_FRACTION * median_size,
        max_intrusion: MAX_INTRUSION,
        max_outliers: MAX_OUTLIERS,
    }
}

/// A left-out piece fitted to a region.
#[derive(Clone, Copy, Debug)]
struct Fit {
    piece: usize,
    pose: Isometry2<f64>,
    /// Pixels: see [`fit_to_rim`] and [`fit_to_notch`].
    distance: f64,
}

/// Every piece of `left` that fits `hole` at all, best first.
fn region_fits(
    shapes: &Shapes,
    frame: &Frame,
    limits: NotchLimits,
    hole: &Hole,
    left: &[usize],
) -> Vec<Fit> {
    let mut fits: Vec<Fit> = left
        .iter()
        .filter(|&&i| fits_area(hole, shapes.pieces[i].size.powi(2)))
        .filter_map(|&i| {
            let outline = &shapes.pieces[i].outline;
            let (pose, d) = if hole.open {
                fit_to_notch(outline, hole, frame, limits)?
            } else {
                fit_to_rim(outline, hole)
            };
            Some(Fit {
                piece: i,
                pose,
                distance: d,
            })
        })
        .collect();
    fits.sort_by(|a, b| a.distance.total_cmp(&b.distance));
    fits
}

/// Whether a piece of `area` pixels may fill `hole`.
fn fits_area(hole: &Hole, area: f64) -> bool {
    if hole.open {
        hole.area >= NOTCH_AREA.0 * area && hole.area <= NOTCH_AREA.1 * area
    } else {
        (hole.area - area).abs() <= AREA_TOLERANCE * area
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assembly::shapes::PieceShape;
    use nalgebra::Vector2;

    /// A 40 px cell with its top left corner at (x, y), clockwise on screen.
    fn cell(x: f64, y: f64) -> Vec<P2> {
        vec![
            P2::new(x, y),
            P2::new(x + 40.0, y),
            P2::new(x + 40.0, y + 40.0),
            P2::new(x, y + 40.0),
        ]
    }

    /// The `k`-th piece placed where it was cut, as growth would have placed it.
    fn placed_as_cut(k: usize) -> Placed {
        Placed {
            pose: Isometry2::identity(),
            sequence: k as u32 + 1,
            cluster: 0,
            supports: 2,
            merit: 0.5,
            spans: 0,
        }
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
            g.placed[k] = Some(placed_as_cut(k));
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
        let frame = cluster_frame(&shapes, &g, 0).unwrap();
        let holes = empty_regions(&frame, 40.0 * 40.0 / 3.0);
        assert_eq!(holes.len(), 1);
        assert!(!holes[0].open);
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

    /// Two rows of three 40 px cells, the top middle one left out: an edge piece, its top side
    /// straight and a knob on its lower side, photographed turned and elsewhere. The hull
    /// closes the notch it leaves; its three shaped sides fit the notch's rim and bring it back
    /// as it was cut, while a plain square of its size fits worse than the tolerance.
    #[test]
    fn an_edge_piece_left_out_of_a_notch_is_fitted_to_its_rim() {
        let mut shapes = Shapes {
            median_size: 40.0,
            ..Shapes::default()
        };
        let mut g = Growth {
            placed: vec![None; 5],
            clusters: 1,
            ..Growth::default()
        };
        for (k, (i, j)) in [(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)]
            .into_iter()
            .enumerate()
        {
            let mut corners = cell(40.0 * i as f64, 40.0 * j as f64);
            if (i, j) == (1, 1) {
                // The hole the knob goes into, in its top side.
                corners.splice(
                    1..1,
                    [
                        P2::new(50.0, 40.0),
                        P2::new(50.0, 60.0),
                        P2::new(70.0, 60.0),
                        P2::new(70.0, 40.0),
                    ],
                );
            }
            shapes
                .pieces
                .push(piece(k as u32 + 1, &corners, Isometry2::identity()));
            g.placed[k] = Some(placed_as_cut(k));
        }
        let mut edge = cell(40.0, 0.0);
        edge.splice(
            3..3,
            [
                P2::new(70.0, 40.0),
                P2::new(70.0, 60.0),
                P2::new(50.0, 60.0),
                P2::new(50.0, 40.0),
            ],
        );
        let taken = Isometry2::new(Vector2::new(300.0, 120.0), 2.0);
        let knobbed = piece(6, &edge, taken).outline;
        let plain = piece(7, &cell(40.0, 0.0), taken).outline;
        let frame = cluster_frame(&shapes, &g, 0).unwrap();
        let regions = empty_regions(&frame, 40.0 * 40.0 / 3.0);
        assert_eq!(regions.len(), 1);
        let notch = &regions[0];
        assert!(notch.open);
        assert!(fits_area(notch, 2000.0), "{}", notch.area);
        let limits = notch_limits(40.0);
        let tolerance = limits.tolerance;
        let (pose, d) = fit_to_notch(&knobbed, notch, &frame, limits).unwrap();
        assert!(d < 1.5, "{d}");
        let back = pose * taken;
        assert!(back.translation.vector.norm() < 1.5, "{back:?}");
        assert!(back.rotation.angle().abs() < 0.03, "{back:?}");
        let square = fit_to_notch(&plain, notch, &frame, limits);
        assert!(square.is_none_or(|(_, d)| d > tolerance), "{square:?}");
    }
}
