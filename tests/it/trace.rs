//! Tests of tracing, critical points and features on real masks, and of `jigsaw trace`.

use crate::util::shared_data;
use image::GrayImage;
use jigsaw::chain::ChainCode;
use jigsaw::chainlets::{critical_points, CriticalOptions};
use jigsaw::piece_set::{CriticalKind, CriticalPoint};
use jigsaw::vision::{trace_region, PieceRegion};
use rayon::prelude::*;
use std::path::Path;

/// A single-piece mask file as a `PieceRegion` (threshold at mid-grey), for data sets that are
/// already segmented.
fn mask_region(path: &Path) -> PieceRegion {
    let mask: GrayImage = image::open(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_luma8();
    let mut mask = mask;
    let mut area = 0;
    for p in mask.pixels_mut() {
        p.0[0] = if p.0[0] > 127 { 255 } else { 0 };
        area += u64::from(p.0[0] == 255);
    }
    PieceRegion {
        bbox: [0, 0, mask.width(), mask.height()],
        mask,
        area,
    }
}

fn corners(chain: &ChainCode) -> Vec<CriticalPoint> {
    critical_points(chain, &CriticalOptions::default())
        .into_iter()
        .filter(|c| c.kind == CriticalKind::Discontinuity)
        .collect()
}

/// Interior angles (degrees) of the quadrilateral through 4 corners.
fn quad_angles(c: &[CriticalPoint]) -> Vec<f64> {
    (0..4)
        .map(|i| {
            let p = &c[(i + 3) % 4];
            let q = &c[i];
            let r = &c[(i + 1) % 4];
            let a = (p.x - q.x, p.y - q.y);
            let b = (r.x - q.x, r.y - q.y);
            let cos = (a.0 * b.0 + a.1 * b.1) / ((a.0.hypot(a.1)) * (b.0.hypot(b.1)));
            cos.clamp(-1.0, 1.0).acos().to_degrees()
        })
        .collect()
}

#[test]
fn white_1000_masks_have_four_corners() {
    let Some(dir) = shared_data("real/roksenhorn-puzzle-bot/white-1000/piece_masks_png") else {
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 1001);
    let results: Vec<(String, usize, bool)> = files
        .par_iter()
        .map(|f| {
            let chain = trace_region(&mask_region(f)).expect("traces");
            assert!(chain.is_closed());
            let c = corners(&chain);
            let ok = c.len() == 4 && quad_angles(&c).iter().all(|a| (a - 90.0).abs() < 15.0);
            (f.display().to_string(), c.len(), ok)
        })
        .collect();
    let good = results.iter().filter(|r| r.2).count();
    let bad: Vec<_> = results.iter().filter(|r| !r.2).collect();
    eprintln!(
        "white-1000: {good}/{} with 4 rectangular corners; bad: {:?}",
        results.len(),
        &bad[..bad.len().min(30)]
    );
    assert!(good as f64 >= 0.995 * results.len() as f64);
}
