//! The piece set: what the vision front end knows about every piece, and all that assembly
//! and the solvers read. It is the `index.json` dump and the `jigsaw trace --json` output, so
//! field names here are a public contract: extend, never rename.

use crate::chain::ChainCode;
use serde::{Deserialize, Serialize};

/// Every piece of every input image, numbered 1..N in input order, then top-to-bottom,
/// left-to-right within an image.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PieceSet {
    pub images: Vec<ImageReport>,
    pub pieces: Vec<Piece>,
}

/// One input image and the blobs in it that did not become pieces.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImageReport {
    /// The path as the user gave it (or as found in a folder they gave).
    pub path: String,
    pub width: u32,
    pub height: u32,
    pub rejected: Vec<Rejected>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rejected {
    /// `[x, y, w, h]` in source-image pixels.
    pub bbox: [u32; 4],
    pub reason: RejectReason,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RejectReason {
    /// Touches the image border, so its outline is not the piece's.
    Clipped,
    /// Much larger than the median piece: probably pieces touching each other.
    Merged,
    /// Too small to be a piece: dust, a hair, noise.
    Speck,
}

/// One piece: its outline as a chain, the critical points on it, the chainlets between them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Piece {
    pub id: u32,
    /// The source image path, as in [`ImageReport::path`].
    pub image: String,
    /// `[x, y, w, h]` in source-image pixels (after EXIF orientation).
    pub bbox: [u32; 4],
    pub centroid: [f64; 2],
    /// Area in pixels of the segmented region.
    pub area: f64,
    /// The outer boundary, clockwise on screen, from the topmost-then-leftmost pixel, in
    /// steps of [`Piece::chain_unit`].
    pub chain: ChainCode,
    /// Source-image pixels per chain step: 1 for a pixel chain; N on Freeman & Garder's
    /// N-pixel grid (`--grid N`); 1/k for a small piece chained on its image magnified k
    /// times (`vision::magnify`), whose pixel outline would be a coarse staircase. Chain node
    /// (i, j) is pixel (i·unit, j·unit); all other positions here are in pixels. Absent in
    /// the dump when 1.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub chain_unit: f64,
    pub critical_points: Vec<CriticalPoint>,
    pub chainlets: Vec<Chainlet>,
    /// Polygonal approximation, clockwise on screen, in source-image pixels.
    pub polygon: Vec<[f64; 2]>,
}

/// A point where the outline is split into chainlets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CriticalPoint {
    /// Index into [`Piece::chain`] codes: the point reached after `index` codes.
    pub index: usize,
    pub x: f64,
    pub y: f64,
    /// Turning angle at the point, degrees; positive turns clockwise on screen (convex corner of
    /// a clockwise outline), negative is a reflex turn.
    pub angle_deg: f64,
    pub kind: CriticalKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CriticalKind {
    /// A slope discontinuity: a corner.
    Discontinuity,
    /// A curvature inflection, used where a piece has too few corners (Freeman & Garder).
    Inflection,
    /// Where a partial (Type II) mating ends on the longer of two chainlets: the far end of
    /// the shorter one marks a junction the corner detector missed (Freeman & Garder's
    /// secondary critical points). Added by assembly, never by tracing.
    Secondary,
}

/// The part of a chain between two consecutive critical points, labelled `piece.k`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Chainlet {
    /// `"<piece id>.<k>"`, k = 1, 2, … clockwise from the first critical point after the chain
    /// start.
    pub label: String,
    /// Chain index of the critical point it starts at.
    pub start: usize,
    /// Chain index of the critical point it ends at (smaller than `start` if it wraps).
    pub end: usize,
    pub features: ChainletFeatures,
}

/// Freeman & Garder's chainlet features. All are invariant under rotation of the piece except
/// `distance_vector_angle_deg`, which is kept because relative angles between chainlets of one
/// piece are.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ChainletFeatures {
    /// Arc length of the chainlet (even codes 1, odd √2).
    pub chain_length: f64,
    /// Length of the straight segment from the chainlet's start to its end.
    pub distance_vector_length: f64,
    /// Direction of that segment, degrees counter-clockwise on screen from east.
    pub distance_vector_angle_deg: f64,
    /// Signed area between chainlet and distance vector; positive bulges outward (a knob).
    pub signed_area: f64,
    /// Largest signed perpendicular distance from the distance vector (outward positive).
    pub max_perpendicular: f64,
    /// Smallest signed perpendicular distance from the distance vector.
    pub min_perpendicular: f64,
    /// How many times the chainlet crosses its distance vector.
    pub crossings: u32,
    /// Area outward of the distance vector over the total area on both sides (0..1).
    pub area_ratio: f64,
}

impl PieceSet {
    pub fn piece(&self, id: u32) -> Option<&Piece> {
        self.pieces.iter().find(|p| p.id == id)
    }
}

impl Piece {
    /// The chain's nodes in source-image pixels (the closing node repeats the first).
    pub fn chain_points_px(&self) -> Vec<[f64; 2]> {
        let u = self.chain_unit;
        self.chain
            .points()
            .iter()
            .map(|p| [f64::from(p[0]) * u, f64::from(p[1]) * u])
            .collect()
    }
}

fn one() -> f64 {
    1.0
}

fn is_one(v: &f64) -> bool {
    *v == 1.0
}
