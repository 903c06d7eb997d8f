//! The classic solvers from the same literature, each usable on its own: Lynning's polygonal
//! region filling, edge-matching puzzles, and polyomino packing.

pub mod edges;
pub mod polygon;
pub mod polyomino;
