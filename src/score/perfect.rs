//! Perfect assemblies built from a truth: what an ideal solver would write. They let the
//! tests (and anyone checking the scorer) see 100% on a truth against itself, and lower,
//! predictable figures after deliberate damage.

use super::grid::GridTruth;
use crate::assembly::{Assembly, PlacedPiece, UnplacedPiece};
use crate::synth::geometry::Affine;
use crate::synth::truth::Truth;

/// Every piece shown in the images placed exactly, composed with `global` (any rigid map of
/// the assembled frame, since a solver picks its own frame); extraneous pieces unplaced.
pub fn from_synth(truth: &Truth, global: Affine) -> Assembly {
    let mut out = Assembly {
        clusters: 1,
        ..Assembly::default()
    };
    for p in &truth.pieces {
        let (Some(image), Some(t), Some(c)) = (&p.image, p.transform, p.centroid) else {
            continue;
        };
        if p.extraneous {
            out.unplaced.push(UnplacedPiece {
                id: p.id,
                image: image.clone(),
                centroid: c,
                reason: "no mate".into(),
            });
            continue;
        }
        out.pieces.push(PlacedPiece {
            scale: 1.0,
            id: p.id,
            image: image.clone(),
            centroid: c,
            transform: global.compose(&Affine(t).inverse()).0,
            sequence: out.pieces.len() as u32 + 1,
            confidence: 1.0,
            cluster: 0,
            mates: Vec::new(),
        });
    }
    out
}

/// Every grid piece placed at its cell, `pitch` pixels apart, the whole grid turned by
/// `angle` radians; each piece's own image turned by an arbitrary angle about an arbitrary
/// centroid (a grid truth knows neither), to show that only the places matter.
/// `image_of(id)` names the piece's source image (its stem must be the id).
pub fn from_grid(
    truth: &GridTruth,
    pitch: [f64; 2],
    angle: f64,
    image_of: impl Fn(u32) -> String,
) -> Assembly {
    let mut out = Assembly {
        clusters: 1,
        ..Assembly::default()
    };
    let (s, c) = angle.sin_cos();
    for (&id, &(col, row)) in &truth.cells {
        let local = [col as f64 * pitch[0], row as f64 * pitch[1]];
        let place = [
            c * local[0] - s * local[1] + 500.0,
            s * local[0] + c * local[1] + 300.0,
        ];
        let centroid = [
            400.0 + (id % 17) as f64 * 3.0,
            380.0 + (id % 13) as f64 * 5.0,
        ];
        let own = Affine::rigid(id as f64 * 0.7, false, centroid, place);
        out.pieces.push(PlacedPiece {
            scale: 1.0,
            id,
            image: image_of(id),
            centroid,
            transform: own.0,
            sequence: out.pieces.len() as u32 + 1,
            confidence: 1.0,
            cluster: 0,
            mates: Vec::new(),
        });
    }
    out
}
