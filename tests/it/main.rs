//! One integration-test binary (links once, fast on 2 cores). Each module tests one command
//! or stage through the library or the real binary.

mod chain;
mod edges;
#[cfg(feature = "opencv")]
mod opencv;
mod polygon;
mod polyomino;
mod score;
mod segment;
mod solve;
mod solve_lattice;
mod solve_polygon;
mod synth;
mod trace;
mod util;
