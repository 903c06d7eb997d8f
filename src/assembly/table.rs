//! The assembly table, `assembly.json`: the solver's answer, read by `jigsaw score` and by
//! people. Field names are a public contract: extend, never rename.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Assembly {
    pub pieces: Vec<PlacedPiece>,
    pub unplaced: Vec<UnplacedPiece>,
    /// Number of separate clusters (two puzzles mixed, or a gap the solver could not bridge).
    pub clusters: usize,
    #[serde(default)]
    pub junctions: Vec<JunctionRecord>,
}

/// A piece put into the assembled frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlacedPiece {
    pub id: u32,
    /// Source image path, as in the piece set.
    pub image: String,
    /// Centroid in the source image, pixels: with `image`, identifies the piece independently
    /// of id numbering (the scorer matches truth pieces by it).
    pub centroid: [f64; 2],
    /// Rigid 2×3 matrix `[[a, b, tx], [c, d, ty]]` mapping source-image pixel coordinates to
    /// the assembled frame.
    pub transform: [[f64; 3]; 2],
    /// How much bigger the piece is drawn in the assembled frame than in its source image,
    /// about `centroid` (1 unless the photos were brought to one zoom): the full map from the
    /// source image is `transform` after scaling by this about `centroid`. `transform` itself
    /// stays rigid and maps the centroid to its place.
    #[serde(default = "unit_scale")]
    pub scale: f64,
    /// Order in which the piece was placed, from 1.
    pub sequence: u32,
    /// 0..1: how sure the solver is of this placement.
    pub confidence: f64,
    /// Which cluster the piece belongs to, from 0.
    #[serde(default)]
    pub cluster: u32,
    /// The mate found for each of its chainlets.
    #[serde(default)]
    pub mates: Vec<MateRecord>,
}

fn unit_scale() -> f64 {
    1.0
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MateRecord {
    /// This piece's chainlet, `piece.k`.
    pub chainlet: String,
    /// The mating chainlet of another piece.
    pub mate: String,
    /// Contour comparison: sum of squared distances after alignment, pixels².
    pub delta: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnplacedPiece {
    pub id: u32,
    pub image: String,
    pub centroid: [f64; 2],
    /// Why it was left out, e.g. "no mate" (extraneous) or "closure failed".
    pub reason: String,
}

/// A junction closed during assembly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JunctionRecord {
    /// Position in the assembled frame.
    pub position: [f64; 2],
    /// Number of pieces meeting there.
    pub radiality: u32,
    /// Sum of squared distances around the junction over that of the next-best closure
    /// (smaller is more certain).
    pub figure_of_merit: f64,
}
