//! Orientation-invariant chainlet features (Freeman & Garder's feature vector) and the
//! polygonal approximation of each piece.

mod chainlet;
mod polygon;

pub use chainlet::{chainlet_features, features_of_points};
pub use polygon::{douglas_peucker, piece_polygon, DP_TOLERANCE};
