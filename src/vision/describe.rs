//! One segmented piece → its [`Piece`] record: chain, critical points, chainlets with
//! features, polygon. This is stages 2–3 of the pipeline for a single piece, a pure function.

use super::grid_chain::grid_chain;
use super::magnify::box_in_source;
use super::region::PieceRegion;
use super::trace::{trace_region, TraceError};
use crate::chain::ChainCode;
use crate::chainlets::{chainlet_spans, critical_points, CriticalOptions, Outline};
use crate::features::{chainlet_features, features_of_points, piece_polygon, DP_TOLERANCE};
use crate::piece_set::{Chainlet, CriticalPoint, Piece};

/// How pieces are described.
#[derive(Clone, Debug, Default)]
pub struct DescribeOptions {
    /// Freeman & Garder's coarse grid: chain on a grid of this many pixels. The chain (start
    /// and codes) is then in grid units; positions, features and the polygon stay in pixels.
    pub grid: Option<u32>,
    /// The region was found on its image magnified this many times (`vision::magnify`; 0 or
    /// 1: not): the piece comes back in source pixels, its chain in steps of 1/k pixel.
    pub magnified: u32,
    pub critical: CriticalOptions,
}

/// Describes the piece in `region`, numbered `id`, from the image at `image` (the path as
/// given).
pub fn describe_piece(
    id: u32,
    image: &str,
    region: &PieceRegion,
    opts: &DescribeOptions,
) -> Result<Piece, TraceError> {
    let fine = trace_region(region)?;
    let k = opts.magnified.max(1);
    // Source pixels per chain step: positions are measured on the chain, then scaled.
    let (chain, unit) = match opts.grid {
        Some(n) => (grid_chain(&fine, n)?, f64::from(n) / f64::from(k)),
        None => (fine, 1.0 / f64::from(k)),
    };
    let mut critical = critical_points(&chain, &opts.critical);
    for c in &mut critical {
        c.x *= unit;
        c.y *= unit;
    }
    let chainlets = chainlets_between(id, &chain, &critical, unit);
    let size = Outline::new(&chain).size();
    let mut polygon = piece_polygon(&chain, &critical, (DP_TOLERANCE * size).max(1.0));
    for p in &mut polygon {
        p[0] *= unit;
        p[1] *= unit;
    }
    let scale = 1.0 / f64::from(k);
    Ok(Piece {
        id,
        image: image.to_string(),
        bbox: box_in_source(region.bbox, k),
        centroid: centroid(region).map(|v| v * scale),
        area: region.area as f64 * (scale * scale),
        chain,
        chain_unit: unit,
        critical_points: critical,
        chainlets,
        polygon,
    })
}

/// The chainlets `id.k` of `chain` between its `critical` points, with their features;
/// `unit` is the chain's grid spacing in pixels (features are always in pixels).
pub fn chainlets_between(
    id: u32,
    chain: &ChainCode,
    critical: &[CriticalPoint],
    unit: f64,
) -> Vec<Chainlet> {
    let points: Vec<[f64; 2]> = chain
        .points()
        .iter()
        .map(|p| [f64::from(p[0]) * unit, f64::from(p[1]) * unit])
        .collect();
    let n = chain.len();
    chainlet_spans(id, critical)
        .into_iter()
        .map(|(label, start, end)| {
            let features = if unit == 1.0 {
                chainlet_features(&chainlet_chain(chain, start, end))
            } else {
                let span = match (end + n - start) % n.max(1) {
                    0 => n,
                    s => s,
                };
                let run: Vec<[f64; 2]> =
                    (0..=span).map(|k| points[(start + k) % n.max(1)]).collect();
                features_of_points(&run)
            };
            Chainlet {
                label,
                start,
                end,
                features,
            }
        })
        .collect()
}

/// The sub-chain of a chainlet; one that starts and ends at the same critical point goes all
/// the way round.
fn chainlet_chain(chain: &ChainCode, start: usize, end: usize) -> ChainCode {
    if start == end {
        let mut codes = chain.codes[start..].to_vec();
        codes.extend_from_slice(&chain.codes[..start]);
        return ChainCode::new(chain.point_at(start), codes);
    }
    chain
        .sub_chain(start, end)
        .expect("critical indices lie on the closed chain")
}

/// Mean position of the mask's piece pixels, in source-image pixels.
fn centroid(region: &PieceRegion) -> [f64; 2] {
    let (mut sx, mut sy, mut count) = (0.0, 0.0, 0.0);
    for (x, y, p) in region.mask.enumerate_pixels() {
        if p.0[0] > 127 {
            sx += f64::from(x);
            sy += f64::from(y);
            count += 1.0;
        }
    }
    if count == 0.0 {
        return [f64::from(region.bbox[0]), f64::from(region.bbox[1])];
    }
    [
        f64::from(region.bbox[0]) + sx / count,
        f64::from(region.bbox[1]) + sy / count,
    ]
}
