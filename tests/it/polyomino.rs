//! Tests of `jigsaw polyomino`.
