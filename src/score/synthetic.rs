//! Scoring against a synthetic `truth.json`.
//!
//! Solution pieces are matched to truth pieces by image file name and centroid (the nearest
//! truth centroid in the same image, within half a piece, each truth piece used once), since
//! the solver numbers pieces its own way. For a matched piece, `solution ∘ truth` maps the
//! assembled frame into the solution frame; a correct solution makes that map the same for
//! every piece.
//!
//! Tolerance τ = max(3, 0.1 · piece size) pixels. A true pair is right when the two pieces'
//! maps carry each point of their shared cut to within τ of each other; a piece is right when
//! its map carries each of its outline points to within τ of where the best global map (the
//! one, among the pieces' own maps, that the most pieces agree with) carries them.

use super::{file_name, ScoreError, ScoreReport};
use crate::assembly::Assembly;
use crate::synth::geometry::{dist, Affine, Pt};
use crate::synth::truth::Truth;

/// At most this many points of an outline or a cut take part in a comparison.
const PROBES: usize = 16;

pub fn score(assembly: &Assembly, truth: &Truth) -> Result<ScoreReport, ScoreError> {
    if truth.pieces.is_empty() {
        return Err(ScoreError::EmptyTruth);
    }
    let size = truth.px_per_piece;
    let tol = (0.1 * size).max(3.0);
    let matched = match_pieces(assembly, truth, 0.5 * size);
    let index_of = |id: u32| truth.pieces.iter().position(|p| p.id == id);
    // Per truth piece: the map from the assembled frame to the solution frame.
    let mut maps: Vec<Option<Affine>> = vec![None; truth.pieces.len()];
    let mut unmatched = 0;
    let mut extras: Vec<PlacedExtra> = Vec::new();
    let mut real_clusters: Vec<u32> = Vec::new();
    for (k, m) in matched.iter().enumerate() {
        let Some(t) = *m else {
            unmatched += 1;
            continue;
        };
        let piece = &truth.pieces[t];
        let truth_map = Affine(piece.transform.expect("matched pieces have an image"));
        let map = Affine(assembly.pieces[k].transform).compose(&truth_map);
        if piece.extraneous {
            extras.push(PlacedExtra {
                truth: t,
                cluster: assembly.pieces[k].cluster,
                map,
            });
            continue;
        }
        real_clusters.push(assembly.pieces[k].cluster);
        maps[t] = Some(map);
    }
    let (extraneous_used, extraneous_apart) = sort_extras(&extras, &real_clusters, truth, tol);
    let expected: Vec<usize> = (0..truth.pieces.len())
        .filter(|&i| !truth.pieces[i].missing && !truth.pieces[i].extraneous)
        .collect();
    let placed = expected.iter().filter(|&&i| maps[i].is_some()).count();

    let (mut pairs, mut pairs_right) = (0, 0);
    for &i in &expected {
        for nb in &truth.pieces[i].neighbours {
            let Some(j) = index_of(nb.id) else { continue };
            if nb.id < truth.pieces[i].id || truth.pieces[j].missing {
                continue;
            }
            pairs += 1;
            if let (Some(a), Some(b)) = (maps[i], maps[j]) {
                let probes = spread(nb.boundary.iter().flatten().copied().collect());
                if deviation(&a, &b, &probes) <= tol {
                    pairs_right += 1;
                }
            }
        }
    }

    let probes: Vec<Vec<Pt>> = truth
        .pieces
        .iter()
        .map(|p| spread(p.assembled_outline.clone()))
        .collect();
    let placed_ids: Vec<usize> = expected
        .iter()
        .copied()
        .filter(|&i| maps[i].is_some())
        .collect();
    let mut direct = 0;
    for &g in &placed_ids {
        let global = maps[g].expect("placed");
        let agree = placed_ids
            .iter()
            .filter(|&&k| deviation(&maps[k].expect("placed"), &global, &probes[k]) <= tol)
            .count();
        direct = direct.max(agree);
    }
    Ok(ScoreReport {
        truth_format: "synth".into(),
        pieces_expected: expected.len(),
        pieces_placed: placed,
        neighbour_pairs: pairs,
        neighbour_correct: pairs_right,
        neighbour_accuracy: 0.0,
        direct_correct: direct,
        direct_accuracy: 0.0,
        perfect: false,
        extraneous_used,
        extraneous_apart,
        unmatched,
        tolerance_px: tol,
    }
    .finish())
}

/// An extraneous piece placed: its truth piece, its cluster, and its map from the other
/// puzzle's assembled frame to the solution frame.
struct PlacedExtra {
    truth: usize,
    cluster: u32,
    map: Affine,
}

/// The extraneous pieces placed, as (used, apart), each by truth id. Extraneous pieces are cut
/// from one other puzzle: those in a cluster of their own that agree on one map into that
/// puzzle's frame (each within the tolerance on its outline) are its pieces rightly kept
/// together and apart, as a mixed puzzle's are; any other is used.
fn sort_extras(
    extras: &[PlacedExtra],
    real_clusters: &[u32],
    truth: &Truth,
    tol: f64,
) -> (Vec<u32>, Vec<u32>) {
    let (mut used, mut apart) = (Vec::new(), Vec::new());
    for x in extras {
        let id = truth.pieces[x.truth].id;
        let together = extras.iter().filter(|e| e.cluster == x.cluster).all(|e| {
            let probes = spread(truth.pieces[e.truth].assembled_outline.clone());
            deviation(&e.map, &x.map, &probes) <= tol
        });
        if together && !real_clusters.contains(&x.cluster) {
            apart.push(id);
        } else {
            used.push(id);
        }
    }
    used.sort_unstable();
    apart.sort_unstable();
    (used, apart)
}

/// For each placed solution piece, the index of its truth piece: nearest centroid in the same
/// image within `radius`, closest pairs first, each truth piece once.
pub fn match_pieces(assembly: &Assembly, truth: &Truth, radius: f64) -> Vec<Option<usize>> {
    let mut candidates: Vec<(f64, usize, usize)> = Vec::new();
    for (k, p) in assembly.pieces.iter().enumerate() {
        let name = file_name(&p.image);
        for (t, tp) in truth.pieces.iter().enumerate() {
            let (Some(img), Some(c)) = (&tp.image, tp.centroid) else {
                continue;
            };
            if file_name(img) != name {
                continue;
            }
            let d = dist(p.centroid, c);
            if d <= radius {
                candidates.push((d, k, t));
            }
        }
    }
    candidates.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut out = vec![None; assembly.pieces.len()];
    let mut used = vec![false; truth.pieces.len()];
    for (_, k, t) in candidates {
        if out[k].is_none() && !used[t] {
            out[k] = Some(t);
            used[t] = true;
        }
    }
    out
}

/// Up to [`PROBES`] points spread evenly along a point list.
fn spread(points: Vec<Pt>) -> Vec<Pt> {
    if points.len() <= PROBES {
        return points;
    }
    (0..PROBES)
        .map(|i| points[i * points.len() / PROBES])
        .collect()
}

/// The largest distance between where `a` and `b` carry the same point.
fn deviation(a: &Affine, b: &Affine, points: &[Pt]) -> f64 {
    points
        .iter()
        .map(|p| dist(a.apply(*p), b.apply(*p)))
        .fold(0.0, f64::max)
}
