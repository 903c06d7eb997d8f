//! `jigsaw synth`: generate a synthetic puzzle with known answer.

use super::GlobalArgs;
use crate::synth::{self, Kind, Params, Style};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Shape of the pieces.
    #[arg(long, value_enum, default_value = "classic")]
    pub kind: Kind,
    /// Number of pieces (classic puzzles round it to the nearest near-square grid).
    #[arg(long, default_value_t = 12)]
    pub pieces: usize,
    /// Random seed: the same arguments give byte-identical files.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output folder (created if needed).
    #[arg(short, long)]
    pub output: PathBuf,
    /// How the pieces are captured.
    #[arg(long, value_enum, default_value = "scan")]
    pub style: Style,
    /// Nominal piece size in pixels (side of a classic piece, square root of the area
    /// otherwise); `jigsaw solve` wants 120 or more on photos of irregular pieces.
    #[arg(long, default_value_t = synth::CLI_PX_PER_PIECE)]
    pub px_per_piece: f64,
    /// Leave this many pieces out of the images.
    #[arg(long, default_value_t = 0)]
    pub missing: usize,
    /// Add this many pieces of another puzzle (same kind, another seed).
    #[arg(long, default_value_t = 0)]
    pub extra: usize,
    /// Never lay polygonal pieces face down.
    #[arg(long)]
    pub no_flip: bool,
    /// At most this many pieces per image.
    #[arg(long, default_value_t = 40)]
    pub per_image: usize,
    /// Also write each image's anti-aliased piece mask to `masks/`.
    #[arg(long)]
    pub masks: bool,
}

#[derive(serde::Serialize)]
struct Summary<'a> {
    output: String,
    kind: Kind,
    style: Style,
    pieces: usize,
    missing: usize,
    extraneous: usize,
    images: Vec<&'a str>,
    junctions_by_radiality: Vec<[u32; 2]>,
    seconds: f64,
}

pub fn run(args: Args, global: GlobalArgs) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let params = Params {
        kind: args.kind,
        pieces: args.pieces,
        seed: args.seed,
        style: args.style,
        px_per_piece: args.px_per_piece,
        missing: args.missing,
        extra: args.extra,
        flip: !args.no_flip,
        per_image: args.per_image,
    };
    let out = synth::generate(&params)?;
    synth::write(&out, &args.output, args.masks)?;
    let t = &out.truth;
    let mut radiality: Vec<[u32; 2]> = Vec::new();
    for j in &t.junctions {
        match radiality.iter_mut().find(|r| r[0] == j.radiality) {
            Some(r) => r[1] += 1,
            None => radiality.push([j.radiality, 1]),
        }
    }
    radiality.sort_unstable();
    let summary = Summary {
        output: args.output.display().to_string(),
        kind: t.kind,
        style: t.style,
        pieces: t.pieces.iter().filter(|p| !p.extraneous).count(),
        missing: t.pieces.iter().filter(|p| p.missing).count(),
        extraneous: t.pieces.iter().filter(|p| p.extraneous).count(),
        images: t.images.iter().map(|i| i.path.as_str()).collect(),
        junctions_by_radiality: radiality,
        seconds: start.elapsed().as_secs_f64(),
    };
    if global.json {
        super::emit_json(&summary)?;
    } else if !global.quiet {
        let rad: Vec<String> = summary
            .junctions_by_radiality
            .iter()
            .map(|r| format!("{}×{}", r[1], r[0]))
            .collect();
        super::emit(&format!(
            "{:?} puzzle, {} pieces ({} missing, {} extraneous) in {} image(s) under {}\njunctions (count×radiality): {}\nwrote truth.json and solution.png in {:.2} s",
            summary.kind,
            summary.pieces,
            summary.missing,
            summary.extraneous,
            summary.images.len(),
            summary.output,
            rad.join(", "),
            summary.seconds
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}
