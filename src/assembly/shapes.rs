//! The geometry assembly works on, prepared once from the piece set: each outline as smoothed
//! points (one per chain index, so critical-point indices address it directly), each chainlet
//! as its dense points and an arc-length resampling for point-by-point comparison.

use super::geometry::{
    bounds, distance_to_boundary, inset_points, resample, signed_area, smooth_closed, P2,
};
use crate::piece_set::{ChainletFeatures, PieceSet};
use crate::plane::contains;

/// Points per chainlet in contour comparison: enough to follow a knob, few enough to compare
/// thousands of candidate pairs quickly.
pub const SAMPLES: usize = 48;
/// Points of the polyline that closest-point refinement snaps to: fine enough that a pixel
/// of misalignment shows, bounded so big photos cost no more than small ones.
pub const DENSE_SAMPLES: usize = 160;
/// Points of the coarse outline used for intersection tests.
const POLYGON_POINTS: usize = 120;

#[derive(Clone, Debug)]
pub struct PieceShape {
    pub id: u32,
    pub image: String,
    pub outline: Vec<P2>,
    /// A coarse copy of the outline for fast overlap tests.
    pub polygon: Vec<P2>,
    /// `[x0, y0, x1, y1]` of the outline, for cheap rejection before point-in-polygon.
    pub bounds: [f64; 4],
    pub centroid: P2,
    /// How deep the centroid lies inside the outline (0 if outside it: an irregular piece's
    /// may be), for the overlap test of look-alikes (see [`super::compare::overlaps`]).
    pub centroid_depth: f64,
    /// √area: the length scale tolerances are taken relative to.
    pub size: f64,
    /// Indices into [`Shapes::chainlets`], in clockwise order.
    pub chainlets: Vec<usize>,
    /// The factor the source outline was scaled by about `centroid` to bring its photo to the
    /// puzzle's common zoom (see [`super::zoom`]); 1 as traced.
    pub scale: f64,
}

#[derive(Clone, Debug)]
pub struct ChainletShape {
    pub piece: usize,
    pub label: String,
    /// Outline index where it starts and ends (wrapping).
    pub start: usize,
    pub end: usize,
    pub points: Vec<P2>,
    /// [`DENSE_SAMPLES`] points by arc length, for closest-point refinement.
    pub dense: Vec<P2>,
    pub samples: Vec<P2>,
    /// Arc length of the smoothed chainlet. The chain's own length (even codes 1, odd √2)
    /// changes by up to 8 % with the piece's rotation, and mates lie at different rotations.
    pub length: f64,
    pub features: ChainletFeatures,
    /// Too close to a straight line to be matched by shape: exterior-boundary candidate.
    pub straight: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Shapes {
    pub pieces: Vec<PieceShape>,
    pub chainlets: Vec<ChainletShape>,
    pub median_size: f64,
    /// Whether the photos were brought to one zoom (see [`super::zoom`]): then they were taken
    /// one by one, and each is also tilted a little differently, which no zoom undoes.
    pub zoom_corrected: bool,
}

/// Deviation from the chord below this fraction of the chord length counts as straight: the
/// flat sides of border pieces bow by a percent or two, knobs stand out by 20–30 %.
const STRAIGHT_FRACTION: f64 = 0.06;

/// The shapes of `set`'s pieces, each outline moved `inset` pixels inward along its normal
/// (negative: outward) to undo a segmentation bias (see [`super::bias`]).
pub fn build_shapes(set: &PieceSet, inset: f64) -> Shapes {
    let mut shapes = Shapes::default();
    for (pi, piece) in set.pieces.iter().enumerate() {
        let mut raw: Vec<P2> = piece
            .chain_points_px()
            .iter()
            .map(|p| P2::new(p[0], p[1]))
            .collect();
        raw.pop();
        let smooth = smooth_closed(&raw, 1.5);
        let outline = inset_points(&smooth, true, signed_area(&smooth).signum(), inset);
        let n = outline.len();
        let step = (n / POLYGON_POINTS).max(1);
        let polygon: Vec<P2> = outline.iter().step_by(step).copied().collect();
        let area = signed_area(&outline).abs().max(1.0);
        let mut chainlet_ids = Vec::new();
        for c in &piece.chainlets {
            if n == 0 {
                break;
            }
            let (s, e) = (c.start % n, c.end % n);
            let mut points = Vec::new();
            let mut i = s;
            loop {
                points.push(outline[i]);
                if i == e || points.len() > n {
                    break;
                }
                i = (i + 1) % n;
            }
            if points.len() < 3 {
                continue;
            }
            chainlet_ids.push(shapes.chainlets.len());
            shapes.chainlets.push(ChainletShape::from_points(
                pi,
                c.label.clone(),
                (s, e),
                points,
                c.features.clone(),
            ));
        }
        let centroid = P2::new(piece.centroid[0], piece.centroid[1]);
        let centroid_depth = depth_inside(&polygon, &centroid);
        let bounds = bounds(&outline);
        shapes.pieces.push(PieceShape {
            id: piece.id,
            image: piece.image.clone(),
            outline,
            polygon,
            bounds,
            centroid,
            centroid_depth,
            size: area.sqrt(),
            chainlets: chainlet_ids,
            scale: 1.0,
        });
    }
    shapes.median_size = median_size(&shapes.pieces);
    shapes
}

impl ChainletShape {
    /// The chainlet of piece `piece` along `points` (outline indices `start..=end`), sampled
    /// as every chainlet is compared: the traced ones, and those the Type II search and the
    /// false-corner search make of their portions and joined runs.
    pub fn from_points(
        piece: usize,
        label: String,
        (start, end): (usize, usize),
        points: Vec<P2>,
        features: ChainletFeatures,
    ) -> Self {
        let samples = resample(&points, SAMPLES);
        ChainletShape {
            piece,
            label,
            start,
            end,
            straight: is_straight(&samples),
            length: points.windows(2).map(|w| (w[1] - w[0]).norm()).sum(),
            dense: resample(&points, DENSE_SAMPLES.min(points.len()).max(2)),
            samples,
            points,
            features,
        }
    }
}

#[cfg(test)]
impl ChainletShape {
    /// Chainlet `k` (from 0) of piece `piece`, labelled `piece+1.k+1`, with no outline: for
    /// tests of the bookkeeping over pieces and their chainlets.
    pub fn bare(piece: usize, k: usize, length: f64, straight: bool) -> Self {
        ChainletShape {
            piece,
            label: format!("{}.{}", piece + 1, k + 1),
            start: 0,
            end: 0,
            points: Vec::new(),
            dense: Vec::new(),
            samples: Vec::new(),
            length,
            features: Default::default(),
            straight,
        }
    }
}

#[cfg(test)]
impl Shapes {
    /// `pieces` bare pieces (see [`PieceShape::bare`]) of `each` bare chainlets, chainlet `k`
    /// of piece `p` being chainlet `each · p + k`, median size 100, each chainlet a piece's
    /// side long: for tests of the bookkeeping over pieces and their chainlets.
    pub fn bare(pieces: usize, each: usize) -> Shapes {
        let mut s = Shapes {
            median_size: 100.0,
            ..Shapes::default()
        };
        for p in 0..pieces {
            let ids = (0..each).map(|k| each * p + k).collect();
            s.pieces
                .push(PieceShape::bare(p as u32 + 1, String::new(), ids));
            s.chainlets
                .extend((0..each).map(|k| ChainletShape::bare(p, k, 100.0, false)));
        }
        s
    }
}

#[cfg(test)]
impl PieceShape {
    /// A piece of size 100 with no outline, at the origin: for tests of the bookkeeping over
    /// pieces and their chainlets.
    pub fn bare(id: u32, image: String, chainlets: Vec<usize>) -> Self {
        PieceShape {
            id,
            image,
            outline: Vec::new(),
            polygon: Vec::new(),
            bounds: [0.0; 4],
            centroid: P2::origin(),
            centroid_depth: 0.0,
            size: 100.0,
            chainlets,
            scale: 1.0,
        }
    }

    /// Makes it the square cell of `side` px whose top left corner is (`x0`, `y0`), traced
    /// clockwise (image axes) from that corner one point per pixel, its centroid at its
    /// centre: pieces that touch along straight sides, for tests of contacts and overlaps.
    pub fn set_square(&mut self, x0: f64, y0: f64, side: f64) {
        let corners = [(0.0, 0.0), (side, 0.0), (side, side), (0.0, side)];
        let steps = side.round() as usize;
        self.outline = (0..4)
            .flat_map(|c| {
                let (a, b) = (corners[c], corners[(c + 1) % 4]);
                (0..steps).map(move |t| {
                    let t = t as f64 / steps as f64;
                    P2::new(x0 + a.0 + (b.0 - a.0) * t, y0 + a.1 + (b.1 - a.1) * t)
                })
            })
            .collect();
        self.centroid = P2::new(x0 + side / 2.0, y0 + side / 2.0);
        self.polygon = corners
            .iter()
            .map(|&(x, y)| P2::new(x0 + x, y0 + y))
            .collect();
        self.bounds = [x0, y0, x0 + side, y0 + side];
        self.centroid_depth = side / 2.0;
        self.size = side;
    }
}

impl Shapes {
    /// The same shapes with piece `i`'s geometry scaled by `factors[i]` about its centroid,
    /// lengths and areas in its features with it: the photos brought to one zoom.
    pub fn rescaled(&self, factors: &[f64]) -> Shapes {
        let mut out = self.clone();
        for (piece, &k) in out.pieces.iter_mut().zip(factors) {
            let c = piece.centroid;
            let at = |p: &P2| c + (p - c) * k;
            piece.outline.iter_mut().for_each(|p| *p = at(p));
            piece.polygon.iter_mut().for_each(|p| *p = at(p));
            let [x0, y0, x1, y1] = piece.bounds;
            let (lo, hi) = (at(&P2::new(x0, y0)), at(&P2::new(x1, y1)));
            piece.bounds = [lo.x, lo.y, hi.x, hi.y];
            piece.size *= k;
            piece.centroid_depth *= k;
            piece.scale *= k;
            for &i in &piece.chainlets {
                let ch = &mut out.chainlets[i];
                for list in [&mut ch.points, &mut ch.dense, &mut ch.samples] {
                    list.iter_mut().for_each(|p| *p = at(p));
                }
                ch.length *= k;
                let f = &mut ch.features;
                f.chain_length *= k;
                f.distance_vector_length *= k;
                f.signed_area *= k * k;
                f.max_perpendicular *= k;
                f.min_perpendicular *= k;
            }
        }
        out.median_size = median_size(&out.pieces);
        out.zoom_corrected = true;
        out
    }
}

fn median_size(pieces: &[PieceShape]) -> f64 {
    let mut sizes: Vec<f64> = pieces.iter().map(|p| p.size).collect();
    sizes.sort_by(f64::total_cmp);
    sizes.get(sizes.len() / 2).copied().unwrap_or(1.0)
}

fn depth_inside(polygon: &[P2], p: &P2) -> f64 {
    if polygon.len() >= 3 && contains(polygon, *p) {
        distance_to_boundary(polygon, p)
    } else {
        0.0
    }
}

pub(super) fn is_straight(samples: &[P2]) -> bool {
    straight_within(samples, STRAIGHT_FRACTION)
}

/// Whether `samples` deviate from their chord by less than `fraction` of its length; fewer
/// than two samples, or a chord under a pixel, are not straight.
pub(super) fn straight_within(samples: &[P2], fraction: f64) -> bool {
    let (Some(&a), Some(&b)) = (samples.first(), samples.last()) else {
        return false;
    };
    let chord = (b - a).norm();
    if chord < 1.0 {
        return false;
    }
    let dir = (b - a) / chord;
    let deviation = samples
        .iter()
        .map(|p| {
            let v = p - a;
            (v.x * dir.y - v.y * dir.x).abs()
        })
        .fold(0.0, f64::max);
    deviation < fraction * chord
}
