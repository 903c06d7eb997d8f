//! `jigsaw score`: compare an assembly with ground truth.

use super::GlobalArgs;
use crate::assembly::Assembly;
use crate::score::{grid, real, synthetic};
use crate::synth::truth::Truth;
use anyhow::{bail, Context};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TruthFormat {
    /// A `truth.json` written by `jigsaw synth` (or its folder).
    Synth,
    /// pikachu-100's `solution_grid.txt`.
    PikachuGrid,
    /// white-1000's `6_solution/` folder of `<id>.json`.
    White1000,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The solution: an `assembly.json`, or the folder holding it.
    pub solution: PathBuf,
    /// The truth: a `truth.json` (or its folder), a `solution_grid.txt`, or a `6_solution/` folder.
    pub truth: PathBuf,
    /// How to read TRUTH (guessed from its name when omitted).
    #[arg(long, value_enum)]
    pub truth_format: Option<TruthFormat>,
}

pub fn run(args: Args, global: GlobalArgs) -> anyhow::Result<ExitCode> {
    let solution = if args.solution.is_dir() {
        args.solution.join("assembly.json")
    } else {
        args.solution.clone()
    };
    let text = std::fs::read_to_string(&solution)
        .with_context(|| format!("cannot read {}", solution.display()))?;
    let assembly: Assembly = serde_json::from_str(&text)
        .with_context(|| format!("{} is not an assembly.json", solution.display()))?;
    let format = match args.truth_format {
        Some(f) => f,
        None => guess_format(&args.truth)?,
    };
    let report = match format {
        TruthFormat::Synth => {
            let path = if args.truth.is_dir() {
                args.truth.join("truth.json")
            } else {
                args.truth.clone()
            };
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let truth =
                Truth::from_json(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            synthetic::score(&assembly, &truth)
                .with_context(|| format!("cannot score against {}", path.display()))?
        }
        TruthFormat::PikachuGrid => grid::score(&assembly, &real::pikachu_grid(&args.truth)?),
        TruthFormat::White1000 => grid::score(&assembly, &real::white1000(&args.truth)?),
    };
    if global.json {
        super::emit_json(&report)?;
    } else {
        super::emit(&report.summary())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn guess_format(truth: &Path) -> anyhow::Result<TruthFormat> {
    if !truth.exists() {
        bail!("cannot read {}: no such file or folder", truth.display());
    }
    if truth.is_dir() {
        if truth.join("truth.json").is_file() {
            return Ok(TruthFormat::Synth);
        }
        return Ok(TruthFormat::White1000);
    }
    if truth.extension().is_some_and(|e| e == "txt") {
        return Ok(TruthFormat::PikachuGrid);
    }
    Ok(TruthFormat::Synth)
}
