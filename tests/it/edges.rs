//! Tests of `jigsaw edges`.
