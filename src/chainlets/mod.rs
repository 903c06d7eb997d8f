//! Critical points (slope discontinuities, or curvature inflections as the fallback) and the
//! chainlets `piece.k` between them.

mod apex;
mod critical;
mod cut;
mod inflection;
mod lobes;
mod outline;
mod pixel_edge;
mod quad;
mod rounded;
mod runs;
mod sides;

pub use critical::{candidates, discontinuities, turn_deg, Candidate, CriticalOptions};
pub use cut::{looks_irregular, off_square_share};
pub use inflection::inflections;
pub use outline::{shoelace, Outline};
pub use quad::quad_corners;
pub use rounded::rounded_corners;

use crate::chain::ChainCode;
use crate::piece_set::{CriticalKind, CriticalPoint};

/// The critical points of a closed chain in chain order: its slope discontinuities (the four
/// corners of the four-sided model where the piece fits it, else every local discontinuity);
/// where there are fewer than two, the curvature inflections join them (marked as such), as Freeman &
/// Garder prescribe.
pub fn critical_points(chain: &ChainCode, opts: &CriticalOptions) -> Vec<CriticalPoint> {
    let outline = Outline::new(chain);
    if opts.four_sided {
        if let Some(mut corners) = quad_corners(&outline, opts) {
            corners.sort_by_key(|c| c.index);
            return corners;
        }
    }
    let mut points = discontinuities(&outline, opts);
    if opts.skip_lobes {
        let on_lobe = lobes::lobe_chain_indices(&outline, chain.len());
        points.retain(|c| !on_lobe[c.index % on_lobe.len()]);
    }
    if opts.convex_only {
        points.retain(|c| c.angle_deg > 0.0);
    }
    if points.len() < 2 {
        let taken: Vec<usize> = points.iter().map(|c| c.index).collect();
        points.extend(
            inflections(&outline)
                .into_iter()
                .filter(|c| !taken.contains(&c.index)),
        );
        points.sort_by_key(|c| c.index);
    }
    points
}

/// The `(label, start, end)` of each chainlet: the chain cut at the critical points, labelled
/// `piece.k` clockwise from the first critical point after the chain start. The last chainlet
/// wraps past the chain start (`end < start`). One critical point gives one chainlet that goes
/// all the way round; none gives the whole chain from index 0.
pub fn chainlet_spans(piece: u32, critical: &[CriticalPoint]) -> Vec<(String, usize, usize)> {
    let mut idx: Vec<usize> = critical.iter().map(|c| c.index).collect();
    idx.sort_unstable();
    idx.dedup();
    if idx.is_empty() {
        return vec![(format!("{piece}.1"), 0, 0)];
    }
    let m = idx.len();
    (0..m)
        .map(|k| (format!("{piece}.{}", k + 1), idx[k], idx[(k + 1) % m]))
        .collect()
}

/// Whether a chainlet cut anywhere by a discontinuity (not only inflections).
pub fn has_discontinuity(critical: &[CriticalPoint]) -> bool {
    critical
        .iter()
        .any(|c| c.kind == CriticalKind::Discontinuity)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cp(index: usize) -> CriticalPoint {
        CriticalPoint {
            index,
            x: 0.0,
            y: 0.0,
            angle_deg: 90.0,
            kind: CriticalKind::Discontinuity,
        }
    }

    #[test]
    fn spans_are_labelled_from_the_first_point_after_the_start() {
        let spans = chainlet_spans(7, &[cp(30), cp(5), cp(18)]);
        assert_eq!(
            spans,
            vec![
                ("7.1".to_string(), 5, 18),
                ("7.2".to_string(), 18, 30),
                ("7.3".to_string(), 30, 5)
            ]
        );
        assert_eq!(chainlet_spans(2, &[cp(4)]), vec![("2.1".to_string(), 4, 4)]);
        assert_eq!(chainlet_spans(2, &[]), vec![("2.1".to_string(), 0, 0)]);
    }

    #[test]
    fn the_irregular_model_keeps_convex_corners_only() {
        // An L: five convex corners and one reflex corner, all right angles.
        let l = image::GrayImage::from_fn(140, 140, |x, y| {
            let inside = (20..120).contains(&x) && (20..120).contains(&y);
            let notch = x >= 70 && y < 70;
            image::Luma([if inside && !notch { 255 } else { 0 }])
        });
        let chain = crate::vision::trace_mask(&l).unwrap();
        let all = CriticalOptions {
            convex_only: false,
            ..CriticalOptions::irregular()
        };
        let cps = critical_points(&chain, &all);
        assert_eq!(cps.len(), 6, "{cps:?}");
        assert_eq!(cps.iter().filter(|c| c.angle_deg < 0.0).count(), 1);
        let cps = critical_points(&chain, &CriticalOptions::irregular());
        assert_eq!(cps.len(), 5, "{cps:?}");
        assert!(cps.iter().all(|c| c.angle_deg > 0.0), "{cps:?}");
    }

    /// A shape's rim roughened by up to half a pixel, as a photographed cut is: a regular 12-gon
    /// turns 30° at each vertex, the shallow corner of an irregular cut's junction (with the
    /// default's 3 px sharpness chord and a 22° floor, 8 of the 12 are found); a disc of the same
    /// size, equally rough, turns as much in all but has no corner.
    fn rough(inside: impl Fn(f64, f64) -> f64) -> crate::chain::ChainCode {
        let img = image::GrayImage::from_fn(200, 200, |x, y| {
            let noise = ((x.wrapping_mul(7919) ^ y.wrapping_mul(104_729)) % 17) as f64 / 8.0 - 1.0;
            let v = inside(x as f64 - 100.0, y as f64 - 100.0) + 0.5 * noise;
            image::Luma([if v >= 0.0 { 255 } else { 0 }])
        });
        crate::vision::trace_mask(&img).unwrap()
    }

    #[test]
    fn the_irregular_model_finds_shallow_corners_on_a_rough_rim() {
        let sector = std::f64::consts::PI / 6.0;
        let dodecagon = rough(|x, y| {
            // Distance inside the nearest side of a 12-gon with circumradius 75.
            let a = y.atan2(x).rem_euclid(sector) - sector / 2.0;
            75.0 * (sector / 2.0).cos() - (x * x + y * y).sqrt() * a.cos()
        });
        let cps = critical_points(&dodecagon, &CriticalOptions::irregular());
        assert_eq!(cps.len(), 12, "{cps:?}");
        for c in &cps {
            let r = ((c.x - 100.0).powi(2) + (c.y - 100.0).powi(2)).sqrt();
            assert!((r - 75.0).abs() < 4.0, "{c:?} off the vertex circle");
            assert!((15.0..45.0).contains(&c.angle_deg), "{c:?}");
        }
        let disc = rough(|x, y| 72.0 - (x * x + y * y).sqrt());
        let cps = critical_points(&disc, &CriticalOptions::irregular());
        assert!(
            cps.iter().all(|c| c.kind != CriticalKind::Discontinuity),
            "{cps:?}"
        );
    }

    #[test]
    fn a_disc_falls_back_to_no_critical_points_and_an_ellipse_with_a_dent_to_inflections() {
        let disc = image::GrayImage::from_fn(120, 120, |x, y| {
            let d = ((x as f64 - 60.0).powi(2) + (y as f64 - 60.0).powi(2)).sqrt();
            image::Luma([if d <= 45.0 { 255 } else { 0 } as u8])
        });
        let chain = crate::vision::trace_mask(&disc).unwrap();
        let cps = critical_points(&chain, &CriticalOptions::default());
        assert!(cps.is_empty(), "{cps:?}");
        // A peanut: two discs joined smoothly has two concave waists, so four inflections.
        let peanut = image::GrayImage::from_fn(200, 120, |x, y| {
            let (x, y) = (x as f64, y as f64);
            let f = |cx: f64| ((x - cx).powi(2) + (y - 60.0).powi(2)).sqrt();
            let v = (-(f(65.0) / 40.0).powi(2)).exp() + (-(f(135.0) / 40.0).powi(2)).exp();
            image::Luma([if v > 0.5 { 255 } else { 0 } as u8])
        });
        let chain = crate::vision::trace_mask(&peanut).unwrap();
        let cps = critical_points(&chain, &CriticalOptions::default());
        assert_eq!(cps.len(), 4, "{cps:?}");
        assert!(cps.iter().all(|c| c.kind == CriticalKind::Inflection));
    }
}
