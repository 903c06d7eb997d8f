//! `jigsaw polygon PUZZLE [--all] [-o DIR] [--json]`: Lynning's polygonal puzzle solver.

use super::GlobalArgs;
use crate::files::{save_png_atomic, write_atomic, write_json_atomic};
use crate::solvers::polygon::{self, render, Options, Report};
use anyhow::Context;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Puzzle file: the line-based text format or the JSON contract (see docs/polygon.md).
    pub puzzle: PathBuf,
    /// Find every solution; counts are distinct up to the target's symmetries and swaps of
    /// identical pieces, plus the raw count.
    #[arg(long)]
    pub all: bool,
    /// With --all, list at most this many distinct solutions (counts stay complete).
    #[arg(long, default_value_t = 10)]
    pub max_print: usize,
    /// Write solution-NNN.svg/.png/.json and report.json into this folder.
    #[arg(short = 'o', long = "out")]
    pub out: Option<PathBuf>,
    /// Accept pieces whose total area exceeds the target's: cover the target with a subset.
    #[arg(long)]
    pub allow_leftover: bool,
    /// Length tolerance relative to the puzzle's scale (√ target area).
    #[arg(long, default_value_t = 1e-7)]
    pub tolerance: f64,
    /// Relative tolerance of the area checksum (pieces' total area = target area).
    #[arg(long, default_value_t = 1e-6)]
    pub area_tolerance: f64,
    /// Remember at most this many regions proven impossible (0 turns the memo off).
    #[arg(long, default_value_t = 4_000_000)]
    pub memo_limit: usize,
    /// Stop with an error after this many search nodes.
    #[arg(long, default_value_t = 2_000_000_000)]
    pub max_nodes: u64,
}

pub fn run(args: Args, global: GlobalArgs) -> anyhow::Result<ExitCode> {
    let name = args.puzzle.display().to_string();
    let text = std::fs::read_to_string(&args.puzzle)
        .with_context(|| format!("cannot read puzzle file {name}"))?;
    let puzzle = polygon::parse_puzzle(&text).with_context(|| format!("puzzle file {name}"))?;
    let options = Options {
        all: args.all,
        max_print: if args.all { args.max_print } else { 1 },
        allow_leftover: args.allow_leftover,
        tolerance: args.tolerance,
        corner_tolerance: None,
        refine: false,
        rank: false,
        area_tolerance: args.area_tolerance,
        max_nodes: args.max_nodes,
        memo_limit: args.memo_limit,
    };
    let report = polygon::solve(&puzzle, &options).with_context(|| format!("puzzle {name}"))?;
    if let Some(dir) = &args.out {
        write_outputs(dir, &puzzle.target, &report)?;
    }
    if global.json {
        super::emit_json(&report)?;
    } else {
        super::emit(&summary(&report, &args))?;
    }
    Ok(if report.arrangements > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn summary(r: &Report, args: &Args) -> String {
    let time = format!("{} nodes, {:.1} ms", r.nodes, r.elapsed_ms);
    if r.arrangements == 0 {
        return format!("no solution ({time})");
    }
    let mut s = if args.all {
        format!(
            "{} distinct solution(s), {} raw, {} arrangement(s) in the fixed target ({time})",
            r.distinct, r.raw, r.arrangements
        )
    } else {
        format!("solved ({time})")
    };
    if let Some(first) = r.solutions.first() {
        for p in &first.placements {
            s += &format!(
                "\n  piece {:>2}{} rotation {:>8.3}° translation ({:.4}, {:.4})",
                p.piece,
                if p.mirror { " mirrored" } else { "         " },
                p.rotation,
                p.translation[0],
                p.translation[1]
            );
        }
    }
    if let Some(dir) = &args.out {
        s += &format!(
            "\nwrote {} solution(s) to {}",
            r.solutions.len(),
            dir.display()
        );
    }
    s
}

fn write_outputs(dir: &Path, target: &[Vec<[f64; 2]>], report: &Report) -> anyhow::Result<()> {
    for (i, sol) in report.solutions.iter().enumerate() {
        let stem = dir.join(format!("solution-{:03}", i + 1));
        write_atomic(
            &stem.with_extension("svg"),
            render::svg(target, sol).as_bytes(),
        )?;
        save_png_atomic(&stem.with_extension("png"), &render::raster(target, sol))?;
        write_json_atomic(&stem.with_extension("json"), sol)?;
    }
    write_json_atomic(&dir.join("report.json"), report)
}
