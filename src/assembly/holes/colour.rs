//! Whether the picture runs on across a fitted piece's seams: shape alone cannot tell a
//! look-alike from another puzzle from the piece a region lost.

use super::super::edge_colour::SeamColours;
use super::super::geometry::P2;
use super::super::grow::Growth;
use super::super::shapes::Shapes;
use nalgebra::Isometry2;

/// Two samples this far apart (a fraction of the median piece size) face each other across
/// a seam.
const FACING_FRACTION: f64 = 0.04;
/// Samples of a chainlet (of [`crate::assembly::shapes::SAMPLES`]) that must face its
/// neighbour's for the colours across the seam to count.
const MIN_FACING_SAMPLES: usize = 12;
/// With this many seams read or more, the worst is left out of the median.
const DROP_WORST_FROM: usize = 4;

/// How a fit's seams are read: a chainlet lies along one neighbour, or each stretch of it
/// along the neighbour it faces.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Seams {
    /// Each chainlet against the one chainlet it lies along over a third of its length at
    /// least: for a fit to part of a region, held by two sides, whose chainlets may lie
    /// along a neighbour's rim by chance where it slides (irregular 100 photos seed 82: read
    /// by stretches, a border piece's partial fit elsewhere passed, and re-examination moved
    /// it off its true place).
    Chainlets,
    /// Each stretch of a chainlet facing one chainlet of the cluster, read as a seam of its
    /// own: for a whole fit, held all round. The cut's junction between two neighbours need
    /// not be a critical point of the piece (irregular 100 photos seed 81: a border piece's
    /// chainlet ran 26 samples along one neighbour and 12 along the next, so one seam was
    /// read, too few, and its notch stayed empty).
    Stretches,
}

/// What a fit's seams read (see [`seam_colour`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct SeamReading {
    /// The median colour factor over the seams but the worst: how well the picture runs on.
    pub factor: f64,
    /// The best seam's: whether the picture runs on across one seam at least as across a
    /// typical true one (a look-alike of another puzzle may read middling everywhere).
    pub best: f64,
    /// How many seams were read: too few tell a piece from a look-alike only with more
    /// evidence (see `accept::enough_seams`).
    pub seams: usize,
}

/// How well the picture runs on across the seams of the pieces `members` (each placed at
/// its pose) with the placed pieces of `cluster`: the colour factor of each seam, read as
/// `seams` says (see [`SeamColours::factor_facing`]), the median over them but the worst
/// (see [`DROP_WORST_FROM`]), and the best; `None` where the pictures carry no colour or no
/// seam is read.
pub(super) fn seam_colour(
    shapes: &Shapes,
    colours: &SeamColours,
    g: &Growth,
    cluster: u32,
    members: impl Iterator<Item = (usize, Isometry2<f64>)>,
    seams: Seams,
) -> Option<SeamReading> {
    if !colours.knows_colours() {
        return None;
    }
    let mut factors: Vec<f64> = members
        .flat_map(|(i, pose)| seam_factors(shapes, colours, g, cluster, (i, &pose), seams))
        .collect();
    if factors.is_empty() {
        return None;
    }
    factors.sort_by(f64::total_cmp);
    let seams = factors.len();
    let best = factors[0];
    // One seam may read the wrong colours where the neighbour's outline is damaged (the
    // front end partly filled its knob hole, and the profile samples off the seam): of four
    // or more, the worst is left out. A look-alike's seams break everywhere.
    if factors.len() >= DROP_WORST_FROM {
        factors.pop();
    }
    let n = factors.len();
    Some(SeamReading {
        factor: 0.5 * (factors[(n - 1) / 2] + factors[n / 2]),
        best,
        seams,
    })
}

/// A sample of a piece's chainlet, the nearest sample of a chainlet around it, and their
/// squared distance.
type Facing = (usize, usize, f64);

/// The colour factor of each seam of piece `i`, placed at `pose`, with `cluster`, read as
/// `seams` says. Samples are paired by place, each with the nearest facing sample, not by
/// arc length: a piece fitted to a region meets its neighbours' chainlets where their
/// critical points do not match, often along part of one only.
fn seam_factors(
    shapes: &Shapes,
    colours: &SeamColours,
    g: &Growth,
    cluster: u32,
    (i, pose): (usize, &Isometry2<f64>),
    seams: Seams,
) -> Vec<f64> {
    let piece = &shapes.pieces[i];
    let reach = 2.0 * piece.size.max(shapes.median_size);
    let near = (FACING_FRACTION * shapes.median_size).max(3.0).powi(2);
    // The cluster's chainlets within reach, placed.
    let around: Vec<(usize, Vec<P2>)> = g
        .placed
        .iter()
        .enumerate()
        .filter_map(|(j, p)| Some((j, p.as_ref().filter(|p| p.cluster == cluster)?)))
        .filter(|(j, p)| {
            (p.pose * shapes.pieces[*j].centroid - pose * piece.centroid).norm() <= reach
        })
        .flat_map(|(j, p)| {
            shapes.pieces[j].chainlets.iter().map(move |&b| {
                let placed = shapes.chainlets[b].samples.iter().map(|q| p.pose * q);
                (b, placed.collect())
            })
        })
        .collect();
    let mut factors = Vec::new();
    for &a in &piece.chainlets {
        let placed: Vec<P2> = shapes.chainlets[a]
            .samples
            .iter()
            .map(|q| pose * q)
            .collect();
        // Per chainlet `b` around: each sample's nearest sample of `b` and the squared
        // distance, where within reach of facing.
        let facing: Vec<(usize, Vec<Facing>)> = around
            .iter()
            .map(|(b, bs)| {
                let pairs = placed
                    .iter()
                    .enumerate()
                    .filter_map(|(s, q)| {
                        let (t, d) = bs
                            .iter()
                            .enumerate()
                            .map(|(t, r)| (t, (r - q).norm_squared()))
                            .min_by(|x, y| x.1.total_cmp(&y.1))?;
                        (d <= near).then_some((s, t, d))
                    })
                    .collect();
                (*b, pairs)
            })
            .collect();
        let read = |b: usize, pairs: &[Facing]| {
            let pairs: Vec<(usize, usize)> = pairs.iter().map(|&(s, t, _)| (s, t)).collect();
            colours.factor_facing(a, b, &pairs, MIN_FACING_SAMPLES)
        };
        match seams {
            Seams::Chainlets => {
                // The first of the most, as the cluster's pieces are numbered (`max_by_key`
                // keeps the last).
                let best = facing
                    .iter()
                    .rev()
                    .filter(|(_, pairs)| pairs.len() * 3 >= placed.len())
                    .max_by_key(|(_, pairs)| pairs.len());
                factors.extend(best.and_then(|(b, pairs)| read(*b, pairs)));
            }
            Seams::Stretches => {
                // Each sample to the chainlet it faces most closely.
                let mut nearest: Vec<Option<(usize, f64)>> = vec![None; placed.len()];
                for (k, (_, pairs)) in facing.iter().enumerate() {
                    for &(s, _, d) in pairs {
                        if nearest[s].is_none_or(|(_, e)| d < e) {
                            nearest[s] = Some((k, d));
                        }
                    }
                }
                for (k, (b, pairs)) in facing.iter().enumerate() {
                    let own: Vec<Facing> = pairs
                        .iter()
                        .filter(|&&(s, _, _)| nearest[s].is_some_and(|(m, _)| m == k))
                        .copied()
                        .collect();
                    factors.extend(read(*b, &own));
                }
            }
        }
    }
    factors
}
