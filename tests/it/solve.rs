//! Tests of `jigsaw solve`.
