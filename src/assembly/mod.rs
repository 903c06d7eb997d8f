//! Assembly: from a [`crate::piece_set::PieceSet`] to placed pieces, by Freeman & Garder's
//! mating candidates, contour comparison and outward-spiral junction closure.

mod table;

pub use table::{Assembly, JunctionRecord, MateRecord, PlacedPiece, UnplacedPiece};
