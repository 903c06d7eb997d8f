//! `truth.json`: the answer to a generated puzzle. Field names are a public contract
//! (the scorer and the tests read them): extend, never rename.
//!
//! Frames: the *assembled frame* is the pixel grid of `solution.png` (the puzzle put
//! together); each *image frame* is the pixel grid of one scattered image. In both, the centre
//! of pixel (i, j) is at (i, j), x right, y down. A piece's `transform` maps its place in the
//! assembled frame to where it lies in its image: `[[a, b, tx], [c, d, ty]]` with
//! `x_img = a x + b y + tx`, `y_img = c x + d y + ty` (a rotation, or a rotation after a
//! mirror when `flipped`). `PlacedPiece.transform` of `assembly.json` runs the other way
//! (image → assembled), so a perfect solution has `solution ∘ truth` = one common rigid map
//! for all pieces.

use super::raster::Style;
use super::Kind;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Truth {
    /// `"jigsaw-synth-truth/1"`.
    pub format: String,
    pub kind: Kind,
    pub style: Style,
    pub seed: u64,
    /// Nominal piece size in pixels (side of a classic piece, √area otherwise).
    pub px_per_piece: f64,
    /// `[rows, cols]` for classic puzzles.
    pub grid: Option<[usize; 2]>,
    pub assembled: AssembledTruth,
    pub images: Vec<ImageTruth>,
    /// Puzzle pieces `1..=n`, then extraneous pieces.
    pub pieces: Vec<PieceTruth>,
    pub junctions: Vec<JunctionTruth>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AssembledTruth {
    pub width: u32,
    pub height: u32,
    /// The puzzle's exterior outline, clockwise on screen.
    pub outline: Vec<[f64; 2]>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImageTruth {
    /// Path relative to the folder holding `truth.json` (`images/scan-001.png`).
    pub path: String,
    pub width: u32,
    pub height: u32,
    pub background: [u8; 3],
    /// Ids of the pieces shown in it.
    pub pieces: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PieceTruth {
    pub id: u32,
    /// `None` for a missing piece.
    pub image: Option<String>,
    /// Left out of the images (`--missing`).
    pub missing: bool,
    /// Not part of this puzzle (`--extra`): its assembled-frame fields refer to the other
    /// puzzle's frame.
    pub extraneous: bool,
    /// Shown face down (mirrored); polygonal puzzles only.
    pub flipped: bool,
    /// Assembled frame → image frame (see the module documentation).
    pub transform: Option<[[f64; 3]; 2]>,
    /// Area centroid of `outline`, image pixels.
    pub centroid: Option<[f64; 2]>,
    /// Outline in image pixels, clockwise on screen in the assembled frame.
    pub outline: Option<Vec<[f64; 2]>>,
    pub assembled_centroid: [f64; 2],
    pub assembled_outline: Vec<[f64; 2]>,
    /// Area in pixels².
    pub area: f64,
    pub neighbours: Vec<NeighbourTruth>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NeighbourTruth {
    pub id: u32,
    /// The shared cut in the assembled frame, one polyline per contiguous stretch.
    pub boundary: Vec<Vec<[f64; 2]>>,
    /// Its total length, pixels.
    pub length: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JunctionTruth {
    /// Assembled frame.
    pub position: [f64; 2],
    /// Number of regions meeting there, the outside counting as one.
    pub radiality: u32,
    pub pieces: Vec<u32>,
    /// On the puzzle's exterior boundary.
    pub exterior: bool,
}

pub const FORMAT: &str = "jigsaw-synth-truth/1";

impl Truth {
    /// Reads and checks a `truth.json`.
    pub fn from_json(text: &str) -> Result<Truth, String> {
        let t: Truth =
            serde_json::from_str(text).map_err(|e| format!("not a synth truth file: {e}"))?;
        if t.format != FORMAT {
            return Err(format!(
                "unknown truth format {:?} (expected {FORMAT:?})",
                t.format
            ));
        }
        Ok(t)
    }
}
