//! Polyomino packing: cover a region with given polyomino pieces (Deaconu), by exact cover.
