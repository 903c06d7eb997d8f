//! The photo path: traced pieces → a polygon [`Puzzle`] → the solver → an [`Assembly`].
//!
//! The vision front end's polygons follow the pixel staircase of the outline, so they carry
//! spurious vertices and bent sides. [`straighten`] snaps them to the polygons the pieces were
//! cut as: near-collinear vertices are merged, a line is fitted to the chain points of each
//! side (away from its corners) and neighbouring lines are intersected. The fit's residual
//! measures the noise, from which [`photo_options`] picks the solver's tolerance.
//!
//! Everything stays in source-image pixels: the pieces as traced, the target either given in
//! pixels (a polygon file) or scaled so that its area is the pieces' total area (a
//! silhouette). A solver placement is then a motion of the source image itself, which is what
//! an [`Assembly`] transform is. Mirrored pieces get a reflection composed into the matrix,
//! whose determinant is then −1.

use super::geometry::{signed_area, Pt};
use super::{Options, Puzzle, Solution};
use crate::assembly::{Assembly, PlacedPiece};
use crate::piece_set::{Piece, PieceSet};

/// What went wrong turning photographs into a polygon puzzle.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PhotoError {
    #[error("no pieces were traced")]
    NoPieces,
    #[error("piece {id} ({image}): its outline does not straighten into a polygon")]
    Degenerate { id: u32, image: String },
    #[error("the target has no polygon")]
    NoTarget,
    #[error("the target outline does not straighten into a polygon")]
    DegenerateTarget,
}

/// A piece outline snapped to straight sides.
#[derive(Clone, Debug, PartialEq)]
pub struct Straightened {
    /// Vertices in source-image pixel coordinates (pixel centres at +0.5), same orientation as
    /// the traced polygon.
    pub polygon: Vec<Pt>,
    /// RMS distance of the outline's chain points from the fitted sides, pixels.
    pub residual: f64,
    /// Number of chain points that took part in the fits.
    pub samples: usize,
}

/// The pieces of a piece set as polygon-solver input.
#[derive(Clone, Debug, PartialEq)]
pub struct PhotoPieces {
    /// Straightened polygons, one per traced piece, in piece-set order.
    pub polygons: Vec<Vec<Pt>>,
    /// `ids[k]` is the piece-set id of `polygons[k]` (the solver's piece index k).
    pub ids: Vec<u32>,
    /// RMS fit residual over all pieces, pixels: the measured vertex noise.
    pub noise_px: f64,
    /// Total area of the straightened pieces, pixels².
    pub area: f64,
}

/// Straightens every traced piece.
pub fn photo_pieces(set: &PieceSet) -> Result<PhotoPieces, PhotoError> {
    if set.pieces.is_empty() {
        return Err(PhotoError::NoPieces);
    }
    let mut out = PhotoPieces {
        polygons: Vec::new(),
        ids: Vec::new(),
        noise_px: 0.0,
        area: 0.0,
    };
    let (mut sq, mut n) = (0.0, 0usize);
    for piece in &set.pieces {
        let s = straighten(piece).ok_or_else(|| PhotoError::Degenerate {
            id: piece.id,
            image: piece.image.clone(),
        })?;
        sq += s.residual * s.residual * s.samples as f64;
        n += s.samples;
        out.area += signed_area(&s.polygon).abs();
        out.polygons.push(s.polygon);
        out.ids.push(piece.id);
    }
    out.noise_px = if n > 0 { (sq / n as f64).sqrt() } else { 0.0 };
    Ok(out)
}

/// Straightens a traced piece (its `polygon` and `chain`); `None` if fewer than three sides
/// survive.
pub fn straighten(piece: &Piece) -> Option<Straightened> {
    let chain: Vec<Pt> = piece
        .chain
        .points()
        .iter()
        .map(|p| [p[0] as f64 + 0.5, p[1] as f64 + 0.5])
        .collect();
    // The dense chain is the rough polygon: the traced polygon's vertices follow corner
    // detection, which on ragged outlines keeps bumps as corners.
    let rough: Vec<Pt> = if chain.len() >= 3 {
        chain.clone()
    } else {
        piece
            .polygon
            .iter()
            .map(|p| [p[0] + 0.5, p[1] + 0.5])
            .collect()
    };
    straighten_outline(&rough, &chain)
}

/// Straightens `poly` (rough vertices) against `chain` (the dense boundary points, boundary
/// pixel centres). The boundary pixels' centres lie about half a pixel inside the true edge,
/// so each fitted line is moved half a pixel outwards: pieces and target then measure the
/// same, and the area checksum holds.
pub fn straighten_outline(poly: &[Pt], chain: &[Pt]) -> Option<Straightened> {
    let area = signed_area(poly);
    if poly.len() < 3 || !area.is_finite() || area == 0.0 {
        return None;
    }
    // Vertices closer than this to the chord of their neighbours are not corners.
    let merge = (0.015 * area.abs().sqrt()).max(1.5);
    let mut v = merge_collinear(poly, merge, false);
    v = merge_collinear(&v, merge, true);
    if v.len() < 3 {
        return None;
    }
    let outward = if area > 0.0 { 1.0 } else { -1.0 };
    let (mut sq, mut samples) = (0.0, 0usize);
    let lines: Vec<(Pt, Pt)> = (0..v.len())
        .map(|k| {
            let (a, b) = (v[k], v[(k + 1) % v.len()]);
            let pts = side_points(chain, a, b, merge);
            let (c, d) = if pts.len() >= 3 {
                fit_line(&pts, a, b)
            } else {
                (a, unit([b[0] - a[0], b[1] - a[1]]))
            };
            for p in &pts {
                let e = (p[0] - c[0]) * d[1] - (p[1] - c[1]) * d[0];
                sq += e * e;
            }
            samples += pts.len();
            // Positive signed area: the interior is to the left of the direction.
            let nrm = [d[1] * outward, -d[0] * outward];
            ([c[0] + 0.5 * nrm[0], c[1] + 0.5 * nrm[1]], d)
        })
        .collect();
    let n = v.len();
    let old = v.clone();
    for k in 0..n {
        let (l0, l1) = (lines[(k + n - 1) % n], lines[k]);
        let keep = old[k];
        let near = 0.25
            * dist(old[k], old[(k + 1) % n])
                .min(dist(old[k], old[(k + n - 1) % n]))
                .max(merge);
        v[k] = match intersect(l0, l1) {
            Some(p) if dist(p, keep) <= near => p,
            _ => keep,
        };
    }
    let v = merge_collinear(&v, 0.5 * merge, true);
    (v.len() >= 3 && signed_area(&v).abs() > 0.0).then(|| Straightened {
        polygon: v,
        residual: if samples > 0 {
            (sq / samples as f64).sqrt()
        } else {
            0.0
        },
        samples,
    })
}

/// Repeatedly drops the vertex nearest to the chord of its neighbours while that distance is
/// below `tol`; with `short`, also vertices closer than `tol` to the next one (not on the
/// dense chain, where every point is).
fn merge_collinear(poly: &[Pt], tol: f64, short: bool) -> Vec<Pt> {
    let mut v: Vec<Pt> = poly.to_vec();
    while v.len() > 3 {
        let n = v.len();
        let (k, h) = (0..n)
            .map(|k| {
                let (a, p, b) = (v[(k + n - 1) % n], v[k], v[(k + 1) % n]);
                let h = if short && dist(p, b) < tol {
                    0.0
                } else {
                    height(a, p, b)
                };
                (k, h)
            })
            .min_by(|x, y| x.1.total_cmp(&y.1))
            .expect("n > 3");
        if h >= tol {
            break;
        }
        v.remove(k);
    }
    v
}

/// Distance of `p` from the line through `a` and `b` (from `a` if they coincide).
fn height(a: Pt, p: Pt, b: Pt) -> f64 {
    let d = [b[0] - a[0], b[1] - a[1]];
    let len = d[0].hypot(d[1]);
    if len == 0.0 {
        return dist(a, p);
    }
    ((p[0] - a[0]) * d[1] - (p[1] - a[1]) * d[0]).abs() / len
}

/// Chain points along side `a`→`b`: between 15 % and 85 % of the way and within `band` of it,
/// so that the rounded corners do not bend the fit.
fn side_points(chain: &[Pt], a: Pt, b: Pt, band: f64) -> Vec<Pt> {
    let d = [b[0] - a[0], b[1] - a[1]];
    let len2 = d[0] * d[0] + d[1] * d[1];
    if len2 == 0.0 {
        return Vec::new();
    }
    chain
        .iter()
        .copied()
        .filter(|p| {
            let t = ((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / len2;
            (0.15..=0.85).contains(&t) && height(a, *p, b) <= band
        })
        .collect()
}

/// Total least squares line through `pts`: a point on it and its unit direction (oriented
/// like `a`→`b`).
fn fit_line(pts: &[Pt], a: Pt, b: Pt) -> (Pt, Pt) {
    let n = pts.len() as f64;
    let c = [
        pts.iter().map(|p| p[0]).sum::<f64>() / n,
        pts.iter().map(|p| p[1]).sum::<f64>() / n,
    ];
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    for p in pts {
        let (x, y) = (p[0] - c[0], p[1] - c[1]);
        sxx += x * x;
        sxy += x * y;
        syy += y * y;
    }
    let theta = 0.5 * (2.0 * sxy).atan2(sxx - syy);
    let mut d = [theta.cos(), theta.sin()];
    if d[0] * (b[0] - a[0]) + d[1] * (b[1] - a[1]) < 0.0 {
        d = [-d[0], -d[1]];
    }
    (c, d)
}

fn intersect((p, d): (Pt, Pt), (q, e): (Pt, Pt)) -> Option<Pt> {
    let den = d[0] * e[1] - d[1] * e[0];
    if den.abs() < 0.05 {
        return None;
    }
    let t = ((q[0] - p[0]) * e[1] - (q[1] - p[1]) * e[0]) / den;
    Some([p[0] + t * d[0], p[1] + t * d[1]])
}

fn unit(d: Pt) -> Pt {
    let l = d[0].hypot(d[1]).max(f64::MIN_POSITIVE);
    [d[0] / l, d[1] / l]
}

fn dist(a: Pt, b: Pt) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// Scales `target` about the origin so that its area is `area` (the silhouette case).
pub fn scale_target(target: &[Vec<Pt>], area: f64) -> Vec<Vec<Pt>> {
    let have = super::target_area(target);
    let k = if have > 0.0 {
        (area / have).sqrt()
    } else {
        1.0
    };
    target
        .iter()
        .map(|p| p.iter().map(|q| [q[0] * k, q[1] * k]).collect())
        .collect()
}

/// The polygon puzzle: the straightened pieces (flipping allowed) and the target.
pub fn photo_puzzle(pieces: &PhotoPieces, target: Vec<Vec<Pt>>) -> Puzzle {
    Puzzle {
        pieces: pieces.polygons.clone(),
        target,
        flip: true,
        names: pieces.ids.iter().map(|id| id.to_string()).collect(),
    }
}

/// Solver options for measured pieces. Length tolerance: 1.5 px plus four times the measured
/// fit noise (vertices come from intersecting two fitted lines, so they scatter more than the
/// points), relative to √(target area) as the solver wants it, at most a quarter of the
/// shortest side and 0.05. Area tolerance: a band of 1 px along every piece's perimeter,
/// relative to the total area (at least 1 %).
pub fn photo_options(pieces: &PhotoPieces, puzzle: &Puzzle) -> Options {
    let scale = super::puzzle_scale(puzzle);
    let shortest = pieces
        .polygons
        .iter()
        .flat_map(|p| (0..p.len()).map(move |k| dist(p[k], p[(k + 1) % p.len()])))
        .fold(f64::MAX, f64::min);
    let eps_px = (1.5 + 4.0 * pieces.noise_px).min(0.25 * shortest);
    let perimeter: f64 = pieces
        .polygons
        .iter()
        .flat_map(|p| (0..p.len()).map(move |k| dist(p[k], p[(k + 1) % p.len()])))
        .sum();
    Options {
        tolerance: (eps_px / scale).clamp(1e-6, 0.05),
        area_tolerance: (perimeter / pieces.area.max(1.0)).clamp(0.01, 0.2),
        ..Options::default()
    }
}

/// The solution as an assembly table: each piece's transform is the solver's motion of its
/// straightened polygon, hence of its source image (`placed = R·M·p + t`, `M` = x ↦ −x when
/// mirrored, so `det = −1` then). Pieces the solver left out are listed as unplaced.
pub fn photo_assembly(set: &PieceSet, pieces: &PhotoPieces, solution: &Solution) -> Assembly {
    let mut placed = Vec::new();
    for (seq, pl) in solution.placements.iter().enumerate() {
        let Some(piece) = pieces.ids.get(pl.piece).and_then(|&id| set.piece(id)) else {
            continue;
        };
        let (s, c) = pl.rotation.to_radians().sin_cos();
        let m = if pl.mirror { -1.0 } else { 1.0 };
        let t = pl.translation;
        placed.push(PlacedPiece {
            id: piece.id,
            image: piece.image.clone(),
            centroid: piece.centroid,
            transform: [[c * m, -s, t[0]], [s * m, c, t[1]]],
            sequence: seq as u32 + 1,
            confidence: 1.0,
            cluster: 0,
            mates: Vec::new(),
        });
    }
    let unplaced = set
        .pieces
        .iter()
        .filter(|p| !placed.iter().any(|q| q.id == p.id))
        .map(|p| crate::assembly::UnplacedPiece {
            id: p.id,
            image: p.image.clone(),
            centroid: p.centroid,
            reason: "left over by the polygon solver".into(),
        })
        .collect();
    Assembly {
        clusters: usize::from(!placed.is_empty()),
        pieces: placed,
        unplaced,
        junctions: Vec::new(),
    }
}

#[cfg(test)]
#[path = "photo_tests.rs"]
mod tests;
