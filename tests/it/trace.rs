//! Tests of `jigsaw trace`.
