//! From straightened photo pieces to the solver and back: the edge bias measured by the area
//! checksum, the target brought to the pieces' scale, the tolerances the fit's noise allows,
//! and a solution turned into an [`Assembly`] of source-image motions.

use super::{PhotoPieces, SHORT_SIDE_PX};
use crate::assembly::{Assembly, PlacedPiece};
use crate::piece_set::PieceSet;
use crate::solvers::polygon::geometry::{
    collapse_short_sides, dist, dist_to_line, dist_to_segment, dot, orientation, signed_area, sub,
    Pt, Tol,
};
use crate::solvers::polygon::records::clean_simple;
use crate::solvers::polygon::{Options, Puzzle, Solution};

/// The largest edge bias [`calibrate_edges`] corrects, pixels. Measured biases: 0.1–0.35 px on
/// flatbed scans (the anti-aliased cut rim), 1.9–2.2 px on phone-style photos (lens blur and
/// JPEG's half-resolution chroma spread the piece's colour about a pixel beyond its cut on
/// every side, and the drop shadow adds more on the side it falls). A bias beyond this is not
/// an edge effect but a target of the wrong size, which the area checksum then reports.
pub const MAX_EDGE_BIAS_PX: f64 = 3.0;

/// Moves every piece side inwards by the segmentation's edge bias, measured by the area
/// checksum against a target of known size: `(pieces' area − target area) / pieces'
/// perimeter`. Why: a mask thresholded below half coverage takes in the blurred edge, which
/// makes every piece some tenths of a pixel too large (2–3 % of the area on the synthetic
/// scans), more than the solver's length tolerance accumulates over a chain of pieces. Biases
/// beyond `max_px` are not corrected (the area checksum then reports the mismatch). Returns
/// the offset applied, pixels (positive = the pieces shrank).
pub fn calibrate_edges(pieces: &mut PhotoPieces, target_area: f64, max_px: f64) -> f64 {
    let perimeter: f64 = pieces
        .polygons
        .iter()
        .flat_map(|p| (0..p.len()).map(move |k| dist(p[k], p[(k + 1) % p.len()])))
        .sum();
    let bias = (pieces.area - target_area) / perimeter.max(1.0);
    if !bias.is_finite() || bias.abs() > max_px {
        return 0.0;
    }
    for poly in &mut pieces.polygons {
        *poly = collapse_short_sides(&offset_polygon(poly, -bias), SHORT_SIDE_PX);
    }
    pieces.area = pieces.polygons.iter().map(|p| signed_area(p).abs()).sum();
    bias
}

/// `poly` with every side moved outwards by `out` pixels (inwards when negative).
fn offset_polygon(poly: &[Pt], out: f64) -> Vec<Pt> {
    let n = poly.len();
    let s = orientation(poly);
    let lines: Vec<(Pt, Pt)> = (0..n)
        .map(|k| {
            let (a, b) = (poly[k], poly[(k + 1) % n]);
            let l = dist(a, b).max(f64::MIN_POSITIVE);
            let u = [(b[0] - a[0]) / l, (b[1] - a[1]) / l];
            // Positive signed area: the interior is on the left, outwards is on the right.
            let nrm = [u[1] * s, -u[0] * s];
            ([a[0] + out * nrm[0], a[1] + out * nrm[1]], u)
        })
        .collect();
    (0..n)
        .map(|k| {
            let ((p, d), (q, e)) = (lines[(k + n - 1) % n], lines[k]);
            let den = d[0] * e[1] - d[1] * e[0];
            if den.abs() < 1e-6 {
                q
            } else {
                let t = ((q[0] - p[0]) * e[1] - (q[1] - p[1]) * e[0]) / den;
                [p[0] + t * d[0], p[1] + t * d[1]]
            }
        })
        .collect()
}

/// Scales `target` about the origin so that its area is `area` (the silhouette case).
pub fn scale_target(target: &[Vec<Pt>], area: f64) -> Vec<Vec<Pt>> {
    let have = crate::solvers::polygon::target_area(target);
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
/// shortest side between the corners that survive cleaning at that tolerance (a corner flatter
/// than the tolerance is not one to the solver, so the sides it separates do not limit it),
/// and 0.05. Corner tolerance (which piece vertices are corners): twice the fit noise, since
/// the straightening has already kept only corners that bend the outline beyond the noise.
/// Area tolerance: a band of 1 px along every piece's perimeter, relative to the total area
/// (at least 1 %). The memo of impossible regions is off: its key quantises vertices on a grid
/// of 8√2 eps, which for measured pieces (eps of a few pixels) is coarse enough for two
/// different regions to share a key and a solvable one to be pruned, while noisy regions
/// reached by different paths never coincide anyway.
pub fn photo_options(pieces: &PhotoPieces, puzzle: &Puzzle) -> Options {
    let scale = crate::solvers::polygon::puzzle_scale(puzzle);
    let wanted = 1.5 + 4.0 * pieces.noise_px;
    let flat = Tol::flat_vertices(wanted);
    let no_faint = Vec::new();
    let shortest = pieces
        .polygons
        .iter()
        .enumerate()
        .flat_map(|(k, p)| {
            let p = clean_simple(p, &flat).unwrap_or_else(|_| p.clone());
            let faint = pieces.faint_sides.get(k).unwrap_or(&no_faint);
            let detour = detour_sides(&p);
            (0..p.len())
                .filter(|j| !detour.contains(j))
                .map(|j| (p[j], p[(j + 1) % p.len()]))
                .filter(|&side| !faint.iter().any(|&f| same_side(side, f)))
                .map(|(a, b)| dist(a, b))
                .collect::<Vec<_>>()
        })
        .fold(f64::MAX, f64::min);
    let eps_px = wanted.min(0.25 * shortest);
    let perimeter: f64 = pieces
        .polygons
        .iter()
        .flat_map(|p| (0..p.len()).map(move |k| dist(p[k], p[(k + 1) % p.len()])))
        .sum();
    let tolerance = (eps_px / scale).clamp(1e-6, 0.05);
    Options {
        tolerance,
        corner_tolerance: Some((2.0 * pieces.noise_px / scale).clamp(1e-7, tolerance)),
        area_tolerance: (perimeter / pieces.area.max(1.0)).clamp(0.01, 0.2),
        refine: true,
        rank: true,
        max_print: RANKED_SOLUTIONS,
        memo_limit: 0,
        ..Options::default()
    }
}

/// Two consecutive sides whose far ends lie this close to one line (pixels) are a detour of
/// one straight side ([`detour_sides`]).
const DETOUR_PX: f64 = 1.5;

/// The sides of `poly` (indices: side `j` runs from vertex `j`) that make a detour from one
/// straight side: two consecutive sides leaving the line of the side before them and coming
/// back onto it (or onto the line of the side after them), within [`DETOUR_PX`], a dent or a
/// bump. Why: a piece whose white face met white paper along a side comes out with such a dent
/// where the outline followed the print's edge for a stretch (12-piece photo seed 52: a 6.4
/// and a 13.4 px side 3.8 px deep into a 99 px side), and its short sides capped the solver's
/// tolerance at 1.6 px for no side any piece has. A real short side lies between two corners
/// of the outline; over the rendered photos seeds 1–80 no real side makes such a detour
/// (within 4 px, even).
pub(super) fn detour_sides(poly: &[Pt]) -> Vec<usize> {
    let m = poly.len();
    if m < 5 {
        return Vec::new();
    }
    let on_line = |p: Pt, a: Pt, b: Pt| dist_to_line(p, a, b).is_some_and(|d| d <= DETOUR_PX);
    let mut out = Vec::new();
    for j in 0..m {
        let (before, start, end, after) = (
            poly[(j + m - 1) % m],
            poly[j],
            poly[(j + 2) % m],
            poly[(j + 3) % m],
        );
        if on_line(end, before, start) || on_line(start, end, after) {
            out.extend([j, (j + 1) % m]);
        }
    }
    out
}

/// How far a side of the polygon as the solver gets it may lie from one recorded as faint
/// (its midpoint from the side, pixels) and still be that side: the edge calibration moves
/// every side by up to [`MAX_EDGE_BIAS_PX`].
const SAME_SIDE_PX: f64 = MAX_EDGE_BIAS_PX + 1.0;

/// Whether `side` is `faint` (a side of the straightened polygon, [`PhotoPieces::faint_sides`])
/// after the edge calibration and cleaning: its midpoint within [`SAME_SIDE_PX`] of `side`,
/// running within 30° of its direction.
fn same_side(side: (Pt, Pt), faint: (Pt, Pt)) -> bool {
    let (u, v) = (sub(side.1, side.0), sub(faint.1, faint.0));
    let (lu, lv) = (dist(side.0, side.1), dist(faint.0, faint.1));
    if lu <= 0.0 || lv <= 0.0 {
        return false;
    }
    let mid = [
        0.5 * (faint.0[0] + faint.1[0]),
        0.5 * (faint.0[1] + faint.1[1]),
    ];
    dot(u, v) / (lu * lv) >= 30f64.to_radians().cos()
        && dist_to_segment(mid, side.0, side.1) <= SAME_SIDE_PX
}

/// How many of the best fitting solutions the search keeps for the print to choose from
/// ([`choose_by_print`]).
pub const RANKED_SOLUTIONS: usize = 8;

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
            scale: 1.0,
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
