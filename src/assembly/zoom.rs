//! Zoom per source image: pieces photographed one by one are not all at the same scale.
//!
//! A phone held by hand is a little nearer one piece than the next. On pikachu-100 (one photo
//! per piece) the chords of true mates differ by 2.1 % (standard deviation; up to 5 %, 36 px on
//! a 730 px side), and one zoom factor per photo explains nearly all of it: the residual falls
//! to 0.5 %, where shuffling the same ratios over the same pairs leaves 1.2 %. A 2 % error
//! moves a corner 15 px, more than the closure test tolerates, so pockets came out of shape
//! and look-alike pieces fitted better than the true ones.
//!
//! The zoom is read from the puzzle itself: for every pair of mutually best mates on different
//! images, ln(chord a / chord b) = z(image a) − z(image b). The z are fitted by least squares
//! (shrunk towards 0, so an image with one pair moves little), pairs whose residual is
//! an outlier (false best mates) are dropped and the fit repeated. The zoom is applied only if
//! it explains the ratios significantly better than one common scale (an F test), so a set
//! whose images share a scale (a scanner, a fixed camera) is left exactly as it is.

use super::matings::MatingTable;
use super::shapes::Shapes;
use std::collections::HashMap;

/// Shrinkage of every image's ln zoom towards 0, in units of one pair's weight.
const SHRINK: f64 = 0.5;
const SWEEPS: usize = 200;
/// Pairs with a residual beyond this many robust standard deviations are false best mates.
const OUTLIER_SIGMAS: f64 = 3.0;
/// The fitted zooms must explain this much more variance per parameter than is left per
/// remaining degree of freedom (F statistic); about 1 when the images share one scale.
const MIN_F: f64 = 4.0;
/// … and spread by at least this much (standard deviation of ln zoom): smaller differences
/// move a corner by well under a pixel.
const MIN_SPREAD: f64 = 0.004;
/// Chords shorter than this fraction of the median piece size are too short to read a zoom.
const MIN_CHORD_FRACTION: f64 = 0.2;

/// Scale factors per piece (1 = unchanged) that bring every image to the common zoom, or
/// `None` if the images share one scale as far as the mates can tell.
pub fn piece_scales(shapes: &Shapes, table: &MatingTable) -> Option<Vec<f64>> {
    let mut images: HashMap<&str, usize> = HashMap::new();
    let image_of: Vec<usize> = shapes
        .pieces
        .iter()
        .map(|p| {
            let next = images.len();
            *images.entry(p.image.as_str()).or_insert(next)
        })
        .collect();
    if images.len() < 2 {
        return None;
    }
    let mut pairs = ratio_pairs(shapes, table, &image_of);
    let mut z = fit(&pairs, images.len());
    let residual = |p: &Pair, z: &[f64]| p.2 - (z[p.0] - z[p.1]);
    let mut abs: Vec<f64> = pairs.iter().map(|p| residual(p, &z).abs()).collect();
    abs.sort_by(f64::total_cmp);
    let sigma = 1.4826 * abs.get(abs.len() / 2).copied()?;
    pairs.retain(|p| residual(p, &z).abs() <= OUTLIER_SIGMAS * sigma.max(1e-9));
    z = fit(&pairs, images.len());
    let fitted: Vec<bool> = {
        let mut f = vec![false; images.len()];
        for p in &pairs {
            f[p.0] = true;
            f[p.1] = true;
        }
        f
    };
    let params = fitted.iter().filter(|&&f| f).count().saturating_sub(1);
    let n = pairs.len();
    if params == 0 || n <= params + 2 {
        return None;
    }
    let rss0: f64 = pairs.iter().map(|p| p.2 * p.2).sum();
    let rss1: f64 = pairs.iter().map(|p| residual(p, &z).powi(2)).sum();
    let f_stat = ((rss0 - rss1) / params as f64) / (rss1 / (n - params) as f64).max(1e-12);
    let used: Vec<f64> = (0..z.len()).filter(|&k| fitted[k]).map(|k| z[k]).collect();
    let mean = used.iter().sum::<f64>() / used.len() as f64;
    let spread = (used.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / used.len() as f64).sqrt();
    if f_stat < MIN_F || spread < MIN_SPREAD {
        return None;
    }
    // Bring every image to the mean zoom: coordinates shrink by exp(z − mean).
    Some(
        image_of
            .iter()
            .map(|&k| if fitted[k] { (mean - z[k]).exp() } else { 1.0 })
            .collect(),
    )
}

/// (image of a, image of b, ln(chord a / chord b)).
type Pair = (usize, usize, f64);

/// Mutually best mates on different images, with their chord ratio.
fn ratio_pairs(shapes: &Shapes, table: &MatingTable, image_of: &[usize]) -> Vec<Pair> {
    let min_chord = MIN_CHORD_FRACTION * shapes.median_size;
    let chord = |c: usize| {
        let p = &shapes.chainlets[c].points;
        (p[p.len() - 1] - p[0]).norm()
    };
    let best = |c: usize| table.per_chainlet[c].first().map(|m| m.b);
    (0..shapes.chainlets.len())
        .filter_map(|a| {
            let b = best(a)?;
            if a > b || best(b) != Some(a) {
                return None;
            }
            let (ia, ib) = (
                image_of[shapes.chainlets[a].piece],
                image_of[shapes.chainlets[b].piece],
            );
            let (la, lb) = (chord(a), chord(b));
            (ia != ib && la >= min_chord && lb >= min_chord).then(|| (ia, ib, (la / lb).ln()))
        })
        .collect()
}

/// ln zoom per image: Gauss–Seidel on the shrunk normal equations.
fn fit(pairs: &[Pair], images: usize) -> Vec<f64> {
    let mut by_image: Vec<Vec<(usize, f64)>> = vec![Vec::new(); images];
    for &(a, b, y) in pairs {
        by_image[a].push((b, y));
        by_image[b].push((a, -y));
    }
    let mut z = vec![0.0; images];
    for _ in 0..SWEEPS {
        for k in 0..images {
            let list = &by_image[k];
            if list.is_empty() {
                continue;
            }
            let sum: f64 = list.iter().map(|&(o, y)| y + z[o]).sum();
            z[k] = sum / (list.len() as f64 + SHRINK);
        }
    }
    z
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assembly::geometry::{Pose, P2};
    use crate::assembly::matings::Mating;
    use crate::assembly::shapes::{ChainletShape, PieceShape};

    #[test]
    fn fit_recovers_zooms_from_exact_ratios() {
        let truth = [0.03, -0.02, 0.0, 0.01];
        let mut pairs = Vec::new();
        for a in 0..4 {
            for b in 0..4 {
                if a < b {
                    for _ in 0..20 {
                        pairs.push((a, b, truth[a] - truth[b]));
                    }
                }
            }
        }
        let z = fit(&pairs, 4);
        let mean = z.iter().sum::<f64>() / 4.0;
        let true_mean = truth.iter().sum::<f64>() / 4.0;
        for k in 0..4 {
            assert!((z[k] - mean - (truth[k] - true_mean)).abs() < 1e-3, "{z:?}");
        }
    }

    /// One piece per photo (`zooms[i]` its zoom), four chainlets each, every chainlet the
    /// mutual best mate of one chainlet of another piece; each seam's true length varies and
    /// each chord is measured with relative noise `noise` (deterministic).
    fn photographed(zooms: &[f64], noise: f64, one_image: bool) -> (Shapes, MatingTable) {
        let n = zooms.len();
        let mut state = 12345u64;
        let mut jitter = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) as f64 / (1u64 << 31) as f64 - 0.5) * 2.0 * noise
        };
        let mut partner = vec![0; 4 * n];
        for i in 0..n {
            for (k, step, other) in [(0, 1, 2), (1, 7, 3)] {
                let (a, b) = (4 * i + k, 4 * ((i + step) % n) + other);
                partner[a] = b;
                partner[b] = a;
            }
        }
        let mut shapes = Shapes {
            median_size: 100.0,
            ..Shapes::default()
        };
        for (i, zoom) in zooms.iter().enumerate() {
            let image = if one_image {
                "all".into()
            } else {
                format!("{i}.jpg")
            };
            let chainlets = (4 * i..4 * i + 4).collect();
            shapes
                .pieces
                .push(PieceShape::bare(i as u32 + 1, image, chainlets));
            for k in 0..4 {
                let c = 4 * i + k;
                let seam = 80.0 + (c.min(partner[c]) % 7) as f64 * 6.0;
                let chord = seam * zoom * (1.0 + jitter());
                shapes.chainlets.push(ChainletShape {
                    points: vec![P2::origin(), P2::new(chord, 0.0)],
                    ..ChainletShape::bare(i, k, chord, false)
                });
            }
        }
        let table = MatingTable::bare(
            partner
                .iter()
                .map(|&b| {
                    vec![Mating {
                        b,
                        delta: 1.0,
                        pose: Pose::identity(),
                    }]
                })
                .collect(),
            1.0,
            1.0,
        );
        (shapes, table)
    }

    #[test]
    fn photos_at_different_zooms_are_brought_to_one() {
        let zooms: Vec<f64> = (0..40)
            .map(|i| 1.0 + 0.03 * ((i * 7 % 11) as f64 / 10.0 - 0.5))
            .collect();
        let (shapes, table) = photographed(&zooms, 0.002, false);
        let scales = piece_scales(&shapes, &table).expect("a zoom spread of 3 % is found");
        let common: Vec<f64> = scales.iter().zip(&zooms).map(|(s, z)| s * z).collect();
        let mean = common.iter().sum::<f64>() / common.len() as f64;
        for c in &common {
            assert!((c / mean - 1.0).abs() < 0.004, "{common:?}");
        }
    }

    #[test]
    fn photos_at_one_zoom_are_left_alone() {
        let (shapes, table) = photographed(&[1.0; 40], 0.01, false);
        assert_eq!(piece_scales(&shapes, &table), None);
        let zooms: Vec<f64> = (0..40).map(|i| 1.0 + 0.03 * (i % 3) as f64).collect();
        let (shapes, table) = photographed(&zooms, 0.002, true);
        assert_eq!(
            piece_scales(&shapes, &table),
            None,
            "one image has one zoom"
        );
    }

    #[test]
    fn rescaling_scales_geometry_and_lengths_about_the_centroid() {
        let (mut shapes, _) = photographed(&[1.0, 1.0], 0.0, false);
        shapes.pieces[0].centroid = P2::new(10.0, 0.0);
        shapes.chainlets[0].features.signed_area = 50.0;
        let out = shapes.rescaled(&[2.0, 1.0]);
        assert!(out.zoom_corrected && !shapes.zoom_corrected);
        assert_eq!(out.pieces[0].scale, 2.0);
        let c = &out.chainlets[0];
        assert_eq!(c.points[0], P2::new(-10.0, 0.0));
        assert_eq!(c.length, 2.0 * shapes.chainlets[0].length);
        assert_eq!(c.features.signed_area, 200.0);
        assert_eq!(out.chainlets[4].points, shapes.chainlets[4].points);
    }
}
