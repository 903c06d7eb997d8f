//! `jigsaw polyomino`: pack polyomino pieces into a rectangle or a drawn region (Deaconu).

use super::{emit, emit_json, GlobalArgs};
use crate::files::save_png_atomic;
use crate::solvers::polyomino::photo::{self, PhotoReading};
use crate::solvers::polyomino::{
    paper, parse, render, solve, Freedom, Options, Problem, Region, Solution,
};
use crate::vision::{load_image, LoadLimits};
use anyhow::{bail, Context, Result};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Pieces: drawn as in the paper (any non-space character is a square, pieces separated
    /// by blank lines) or JSON (`{"pieces": [...], "region": ...}`).
    #[arg(required_unless_present = "photo", conflicts_with = "photo")]
    pub pieces: Option<PathBuf>,
    /// Read the pieces from a picture instead (pieces apart on a plain background, at any
    /// angle); the recognised pieces are printed for checking before the solution.
    #[arg(long, value_name = "IMG")]
    pub photo: Option<PathBuf>,
    /// Largest picture accepted, in pixels (with `--photo`).
    #[arg(long, value_name = "N", default_value_t = 100_000_000)]
    pub max_pixels: u64,
    /// Cover an M×N rectangle (M rows, N columns), e.g. `6x10`.
    #[arg(long, value_name = "MxN", conflicts_with = "region")]
    pub rect: Option<String>,
    /// Cover a drawn region (squares: any character but space and `.`; holes allowed), or JSON.
    #[arg(long, value_name = "FILE")]
    pub region: Option<PathBuf>,
    /// Allow quarter turns of the pieces.
    #[arg(long)]
    pub rotate: bool,
    /// Allow mirror images of the pieces (turning them over).
    #[arg(long)]
    pub flip: bool,
    /// Enumerate every solution and print them (one per symmetry class unless `--raw`).
    #[arg(long)]
    pub all: bool,
    /// Enumerate every solution but print only the counts.
    #[arg(long, conflicts_with = "all")]
    pub count: bool,
    /// List every raw solution instead of one per symmetry class (slower: no symmetry breaking).
    #[arg(long)]
    pub raw: bool,
    /// Print at most N solutions.
    #[arg(long, value_name = "N")]
    pub max_print: Option<usize>,
    /// `engine` (fast bitboard exact cover, default) or `paper` (Deaconu's backtracking,
    /// first solution only).
    #[arg(long, value_enum, default_value_t = Method::Engine)]
    pub method: Method,
    /// Give up after N search nodes (the output then says the search is incomplete).
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Search on one core only (by default enumeration uses all cores).
    #[arg(long)]
    pub sequential: bool,
    /// Draw the first printed solution as a PNG with coloured pieces.
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
    /// Pixels per square in the PNG.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(4..=256))]
    pub cell_px: u32,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Engine,
    Paper,
}

pub fn run(args: Args, global: GlobalArgs) -> Result<ExitCode> {
    let (problem, reading) = load(&args)?;
    let source = args.pieces.as_ref().or(args.photo.as_ref()).cloned();
    let source = source.unwrap_or_default();
    let enumerate = args.all || args.count;
    let shown = |p: &Path| p.display().to_string();
    let clock = std::time::Instant::now();
    let (mut out, solutions) = match args.method {
        Method::Paper => {
            if enumerate || args.raw {
                bail!("the paper's algorithm stops at the first solution; use --method engine with --all or --count");
            }
            let res = paper::solve(&problem, args.max_nodes)
                .with_context(|| format!("cannot solve the pieces in {}", shown(&source)))?;
            let found = res.solution.is_some() as u64;
            let out = json!({
                "method": "paper",
                "distinct": found,
                "raw": found,
                "nodes": res.nodes,
                "complete": res.complete,
                "order": res.order.iter().map(|i| i + 1).collect::<Vec<_>>(),
            });
            (out, res.solution.into_iter().collect::<Vec<_>>())
        }
        Method::Engine => {
            let options = Options {
                all: enumerate,
                // `--count` keeps no tilings, except one to draw for `--png`.
                keep: if args.count {
                    args.png.is_some() as usize
                } else {
                    args.max_print.unwrap_or(usize::MAX)
                },
                raw: args.raw,
                max_nodes: args.max_nodes,
                parallel: !args.sequential,
            };
            let report = solve(&problem, &options)
                .with_context(|| format!("cannot solve the pieces in {}", shown(&source)))?;
            let out = json!({
                "method": "engine",
                "distinct": report.distinct,
                "raw": report.raw,
                "nodes": report.nodes,
                "complete": report.complete,
                "symmetries": report.symmetries.len(),
            });
            (out, report.solutions)
        }
    };
    out["seconds"] = json!(clock.elapsed().as_secs_f64());
    let solutions: Vec<Solution> = solutions
        .into_iter()
        .take(args.max_print.unwrap_or(usize::MAX))
        .collect();
    if let Some(path) = &args.png {
        match solutions.first() {
            Some(s) => save_png_atomic(path, &render::png(s, args.cell_px))?,
            None if !global.quiet => {
                eprintln!("no solution to draw; {} not written", path.display())
            }
            None => {}
        }
    }
    if !args.count {
        out["solutions"] = json!(solutions.iter().map(render::rows).collect::<Vec<_>>());
        out["positions"] = json!(solutions
            .iter()
            .map(|s| s
                .positions
                .iter()
                .map(|p| json!({"piece": p.piece, "a": p.a, "b": p.b}))
                .collect::<Vec<_>>())
            .collect::<Vec<_>>());
    }
    let none = out["raw"].as_u64() == Some(0);
    if let Some(reading) = &reading {
        out["photo"] = photo_json(reading);
    }
    if global.json {
        emit_json(&out)?;
    } else {
        let mut text = reading.as_ref().map(photo_text).unwrap_or_default();
        text += &human(&out, &solutions, enumerate);
        emit(&text)?;
    }
    Ok(if none {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn load(args: &Args) -> Result<(Problem, Option<PhotoReading>)> {
    let read = |p: &Path| {
        std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))
    };
    let (file, reading, source) = match (&args.pieces, &args.photo) {
        (_, Some(img)) => {
            let limits = LoadLimits {
                max_pixels: args.max_pixels,
            };
            let rgb = load_image(img, &limits)?;
            let reading = photo::read_pieces(&rgb, &photo::PhotoOptions::default())
                .with_context(|| format!("cannot read polyomino pieces from {}", img.display()))?;
            let file = parse::PieceFile {
                pieces: reading.pieces.iter().map(|p| p.cells.clone()).collect(),
                region: None,
            };
            (file, Some(reading), img)
        }
        (Some(path), None) => {
            let file = parse::pieces_file(&read(path)?)
                .with_context(|| format!("cannot parse the pieces in {}", path.display()))?;
            (file, None, path)
        }
        (None, None) => bail!("give a pieces file or --photo IMG"),
    };
    let region: Region = match (&args.rect, &args.region, file.region) {
        (Some(spec), _, _) => parse::rect(spec)?,
        (None, Some(path), _) => parse::region_file(&read(path)?)
            .with_context(|| format!("cannot parse the region in {}", path.display()))?,
        (None, None, Some(r)) => r,
        (None, None, None) => bail!(
            "no region: give --rect MxN or --region FILE (or a \"region\" in the JSON pieces file {})",
            source.display()
        ),
    };
    let problem = Problem {
        pieces: file.pieces,
        region,
        freedom: Freedom {
            rotate: args.rotate,
            flip: args.flip,
        },
    };
    Ok((problem, reading))
}

/// The recognised pieces in the text format (a valid pieces file: the headers are comments),
/// so a person can check them against the picture and reuse them.
fn photo_text(reading: &PhotoReading) -> String {
    let mut text = format!(
        "// {} pieces read from the photo: unit square {:.1} px, lattice fit {:.2}, sides shifted {:+.2} px\n",
        reading.pieces.len(),
        reading.unit_px,
        reading.lattice_fit,
        reading.side_shift_px
    );
    if reading.specks + reading.rejected > 0 {
        text += &format!(
            "// ignored: {} specks smaller than half a square, {} blobs cut by the border or tiny\n",
            reading.specks, reading.rejected
        );
    }
    text.push('\n');
    for (i, p) in reading.pieces.iter().enumerate() {
        text += &format!(
            "// piece {} at x={}, y={}: turned {:.1} deg, straightness {:.2}, residual {:.3}\n",
            i + 1,
            p.bbox[0],
            p.bbox[1],
            p.angle_degrees,
            p.straightness,
            p.residual
        );
        text += &photo::drawing(&p.cells, render::label(i));
        text.push('\n');
    }
    text
}

fn photo_json(reading: &PhotoReading) -> serde_json::Value {
    json!({
        "unit_px": reading.unit_px,
        "lattice_fit": reading.lattice_fit,
        "side_shift_px": reading.side_shift_px,
        "specks": reading.specks,
        "rejected": reading.rejected,
        "pieces": reading.pieces.iter().map(|p| json!({
            "rows": photo::drawing(&p.cells, '#').lines().map(str::to_string).collect::<Vec<_>>(),
            "bbox": p.bbox,
            "angle_degrees": p.angle_degrees,
            "straightness": p.straightness,
            "residual": p.residual,
        })).collect::<Vec<_>>(),
    })
}

fn human(out: &serde_json::Value, solutions: &[Solution], enumerate: bool) -> String {
    let mut text = String::new();
    for (n, s) in solutions.iter().enumerate() {
        if enumerate {
            text += &format!("solution {}\n", n + 1);
        }
        for row in render::rows(s) {
            text += &row;
            text.push('\n');
        }
        if !enumerate {
            text += "positions (a_i, b_i), 1-based row and column of each piece's top-left:\n";
            for p in &s.positions {
                text += &format!(
                    "  piece {} ({}): a = {}, b = {}\n",
                    p.piece,
                    render::label(p.piece - 1),
                    p.a,
                    p.b
                );
            }
        }
        text.push('\n');
    }
    let complete = out["complete"].as_bool() == Some(true);
    let nodes = &out["nodes"];
    if enumerate {
        text += &format!(
            "{} distinct {} up to {} {}, {} raw; {} nodes{}\n",
            out["distinct"],
            plural(&out["distinct"], "solution", "solutions"),
            out["symmetries"],
            plural(&out["symmetries"], "symmetry", "symmetries"),
            out["raw"],
            nodes,
            if complete {
                ""
            } else {
                " (INCOMPLETE: node limit hit, counts are lower bounds)"
            }
        );
    } else if solutions.is_empty() {
        text += &if complete {
            format!("No solution ({nodes} nodes searched)\n")
        } else {
            format!("No solution found within the node limit ({nodes} nodes); the search is incomplete\n")
        };
    } else {
        text += &format!(
            "found by the {} method after {} nodes\n",
            out["method"].as_str().unwrap_or("?"),
            nodes
        );
    }
    text
}

fn plural(n: &serde_json::Value, one: &'static str, many: &'static str) -> &'static str {
    if n.as_u64() == Some(1) {
        one
    } else {
        many
    }
}
