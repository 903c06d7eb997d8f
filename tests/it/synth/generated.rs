//! A generated set traced through the CLI, as a user would run it: `jigsaw synth`, then
//! `jigsaw trace --json` on its images (written against the documented contracts).

use crate::util::{run, scratch};
use jigsaw::synth::truth::Truth;

/// Generates a `kind` puzzle at 80 px per piece (the size these front-end tests were measured
/// at, under the CLI's default) and traces its images with `trace_args` added; returns the
/// truth and the printed trace JSON.
pub fn synth_and_trace(
    kind: &str,
    pieces: usize,
    seed: u64,
    style: &str,
    trace_args: &[&str],
) -> (Truth, serde_json::Value) {
    let px = ["--px-per-piece", "80"];
    synth_with_and_trace(kind, pieces, seed, style, &px, trace_args)
}

/// [`synth_and_trace`] with `synth_args` added to `jigsaw synth` (e.g. `--px-per-piece`).
pub fn synth_with_and_trace(
    kind: &str,
    pieces: usize,
    seed: u64,
    style: &str,
    synth_args: &[&str],
    trace_args: &[&str],
) -> (Truth, serde_json::Value) {
    let dir = scratch();
    let out = dir.path().join("set");
    let (n, s) = (pieces.to_string(), seed.to_string());
    let mut args = vec![
        "--quiet",
        "synth",
        "--kind",
        kind,
        "--pieces",
        &n,
        "--seed",
        &s,
        "--style",
        style,
        "-o",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(synth_args);
    let o = run(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let truth =
        Truth::from_json(&std::fs::read_to_string(out.join("truth.json")).unwrap()).unwrap();
    let images: Vec<String> = truth
        .images
        .iter()
        .map(|i| out.join(&i.path).to_str().unwrap().to_string())
        .collect();
    let mut args = vec!["--quiet", "--json", "trace"];
    args.extend_from_slice(trace_args);
    args.extend(images.iter().map(String::as_str));
    let t = run(&args);
    assert!(
        t.status.success(),
        "trace failed: {}",
        String::from_utf8_lossy(&t.stderr)
    );
    (truth, serde_json::from_slice(&t.stdout).unwrap())
}
