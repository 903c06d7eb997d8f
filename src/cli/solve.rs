//! `jigsaw solve INPUT... [-o DIR] [--json] [--timings]`: photos, scans or a trace dump →
//! the assembled puzzle (`assembly.json`, `solution.png`) and the trace dumps.

use super::{emit, emit_json, GlobalArgs};
use crate::assembly::{assemble, AssemblyReport};
use crate::files::{save_png_atomic, write_json_atomic};
use crate::piece_set::PieceSet;
use crate::render::{render_outlines, render_solution, SolutionStyle};
use crate::vision::{load_dump, load_image, write_dump, write_overlays};
use anyhow::{bail, Context};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
#[group(id = "solve_args")]
pub struct Args {
    /// Photos, scans and folders of them (as for `jigsaw trace`), or one `jigsaw trace -o`
    /// folder to re-solve without tracing again.
    #[command(flatten)]
    pub front: super::trace::Args,
    /// What `solution.png` shows: the pieces' own pixels, or outlines with sequence numbers.
    #[arg(long, value_enum, default_value_t = Picture::Pixels)]
    pub picture: Picture,
    /// Longest side of `solution.png` in pixels.
    #[arg(long, value_name = "PX", default_value_t = 4000)]
    pub max_side: u32,
    /// `jigsaw`: interlocking pieces (Freeman & Garder); `polygon`: straight-sided pieces
    /// filling `--target` (Lynning).
    #[arg(long, value_enum, default_value_t = Solver::Jigsaw)]
    pub solver: Solver,
    /// With `--solver polygon`: the shape to fill, a polygon puzzle file (text or JSON, in
    /// the photos' pixels) or a photo/silhouette image (scaled to the pieces' total area).
    #[arg(long, value_name = "FILE")]
    pub target: Option<PathBuf>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solver {
    Jigsaw,
    Polygon,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Picture {
    Pixels,
    Outlines,
}

pub fn run(args: Args, global: GlobalArgs) -> anyhow::Result<ExitCode> {
    if args.solver == Solver::Polygon {
        return super::solve_polygon::run(&args, global);
    }
    let front = &args.front;
    let mut failed = false;
    let set = match dump_folder(&front.inputs) {
        Some(dir) => load_dump(&dir)?,
        None => {
            let (run, input_failed) = super::trace::trace_inputs(front, global);
            failed = input_failed;
            run.set
        }
    };
    if set.pieces.is_empty() {
        bail!("no pieces to assemble");
    }
    let mut report = assemble(&set);
    // Secondary critical points re-cut some chainlets; the dumps must name the same ones.
    let set = report.piece_set.take().unwrap_or(set);
    if front.timings {
        let t = &report.timings;
        eprintln!(
            "candidates       {:>8.3}\ncomparison       {:>8.3}\nassembly         {:>8.3}\noutline inset px {:>8.2}\ncandidates/chainlet {:>5.1}",
            t.candidates_s, t.comparison_s, t.assembly_s, report.outline_inset, report.mean_candidates
        );
    }
    if let Some(dir) = &front.output {
        write_outputs(dir, &set, &report, &args)?;
    }
    if global.json {
        emit_json(&report.assembly)?;
    } else if !global.quiet {
        emit(&summary(&set, &report))?;
        if let Some(dir) = &front.output {
            emit(&format!(
                "wrote {}/assembly.json and solution.png",
                dir.display()
            ))?;
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// A single argument that is a trace dump folder (it holds `index.json`).
fn dump_folder(inputs: &[PathBuf]) -> Option<PathBuf> {
    match inputs {
        [one] if one.join("index.json").is_file() => Some(one.clone()),
        _ => None,
    }
}

fn write_outputs(
    dir: &Path,
    set: &PieceSet,
    report: &AssemblyReport,
    args: &Args,
) -> anyhow::Result<()> {
    if dir.exists() && !dir.is_dir() {
        bail!("{}: exists and is not a folder", dir.display());
    }
    write_dump(dir, set).with_context(|| format!("cannot write the dump to {}", dir.display()))?;
    let limits = args.front.pipeline_options().limits;
    // The chainlets drawn are the ones the solver matched (re-cut at secondary critical
    // points), so a mating in `assembly.json` can be found on the photo by its label.
    write_overlays(dir, set, &limits)
        .with_context(|| format!("cannot write overlays to {}", dir.display()))?;
    write_json_atomic(&dir.join("assembly.json"), &report.assembly)?;
    write_json_atomic(&dir.join("assembly-report.json"), report)?;
    let style = SolutionStyle {
        max_side: args.max_side,
        ..SolutionStyle::default()
    };
    let picture = match args.picture {
        Picture::Pixels => render_solution(
            set,
            &report.assembly,
            |p| Ok(load_image(Path::new(p), &limits)?),
            &style,
        )?,
        Picture::Outlines => render_outlines(set, &report.assembly, &style),
    };
    save_png_atomic(&dir.join("solution.png"), &picture)
}

fn summary(set: &PieceSet, report: &AssemblyReport) -> String {
    let a = &report.assembly;
    let mut out = format!(
        "placed {} of {} pieces in {} cluster{}, {} junctions closed",
        a.pieces.len(),
        set.pieces.len(),
        a.clusters,
        if a.clusters == 1 { "" } else { "s" },
        a.junctions.len()
    );
    for u in &a.unplaced {
        out.push_str(&format!(
            "\nunplaced: piece {} ({}): {}",
            u.id, u.image, u.reason
        ));
    }
    out
}
