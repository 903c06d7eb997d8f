//! Tests of `jigsaw score`.
