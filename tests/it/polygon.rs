//! Tests of `jigsaw polygon`.
