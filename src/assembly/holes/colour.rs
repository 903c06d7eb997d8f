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
/// Chainlets whose colours across their seams are read, at least.
const MIN_SEAMS: usize = 2;
/// With this many seams read or more, the worst is left out of the median.
const DROP_WORST_FROM: usize = 4;

/// How well the picture runs on across the seams of the pieces `members` (each placed at
/// its pose) with the placed pieces of `cluster`: the colour factor of each of their
/// chainlets against the chainlet it lies along (see [`SeamColours::factor_facing`]), the
/// median over those chainlets but the worst (see [`DROP_WORST_FROM`]); `None` where the
/// pictures carry no colour or fewer than [`MIN_SEAMS`] chainlets lie along others.
pub(super) fn seam_colour(
    shapes: &Shapes,
    colours: &SeamColours,
    g: &Growth,
    cluster: u32,
    members: impl Iterator<Item = (usize, Isometry2<f64>)>,
) -> Option<f64> {
    if !colours.knows_colours() {
        return None;
    }
    let mut factors: Vec<f64> = members
        .flat_map(|(i, pose)| seam_factors(shapes, colours, g, cluster, i, &pose))
        .collect();
    // A region is bounded by two neighbours at least; a seam along one chainlet alone is too
    // little to tell a piece from a look-alike sitting in a dent of the puzzle's edge.
    if factors.len() < MIN_SEAMS {
        return None;
    }
    factors.sort_by(f64::total_cmp);
    // One seam may read the wrong colours where the neighbour's outline is damaged (the
    // front end partly filled its knob hole, and the profile samples off the seam): of four
    // or more, the worst is left out. A look-alike's seams break everywhere.
    if factors.len() >= DROP_WORST_FROM {
        factors.pop();
    }
    let n = factors.len();
    Some(0.5 * (factors[(n - 1) / 2] + factors[n / 2]))
}

/// The colour factor of each chainlet of piece `i`, placed at `pose`, that lies along a
/// chainlet of `cluster`.
fn seam_factors(
    shapes: &Shapes,
    colours: &SeamColours,
    g: &Growth,
    cluster: u32,
    i: usize,
    pose: &Isometry2<f64>,
) -> Vec<f64> {
    let piece = &shapes.pieces[i];
    let reach = 2.0 * piece.size.max(shapes.median_size);
    let near = (FACING_FRACTION * shapes.median_size).max(3.0).powi(2);
    let mut factors = Vec::new();
    for &a in &piece.chainlets {
        let ca = &shapes.chainlets[a];
        let placed: Vec<P2> = ca.samples.iter().map(|q| pose * q).collect();
        // The chainlet it lies along, and for each of its samples the nearest sample of that
        // chainlet facing it: paired by place, not by arc length, since a piece fitted to a
        // region meets its neighbours' chainlets where their critical points do not match,
        // often along part of one only.
        let mut best: Option<(usize, Vec<(usize, usize)>)> = None;
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
                let pairs: Vec<(usize, usize)> = placed
                    .iter()
                    .enumerate()
                    .filter_map(|(s, q)| {
                        let (t, d) = cb
                            .iter()
                            .enumerate()
                            .map(|(t, r)| (t, (r - q).norm_squared()))
                            .min_by(|x, y| x.1.total_cmp(&y.1))?;
                        (d <= near).then_some((s, t))
                    })
                    .collect();
                if pairs.len() * 3 >= placed.len()
                    && best.as_ref().is_none_or(|(_, f)| pairs.len() > f.len())
                {
                    best = Some((b, pairs));
                }
            }
        }
        if let Some((b, pairs)) = best {
            if let Some(f) = colours.factor_facing(a, b, &pairs, MIN_FACING_SAMPLES) {
                factors.push(f);
            }
        }
    }
    factors
}
