//! Tests of `jigsaw synth`.
