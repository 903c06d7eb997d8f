//! The command line: parse arguments, call the library, print the result or one error.
//!
//! Exit codes: 0 success; 1 the work ran but an input failed or no solution exists;
//! 2 an error stopped the command (bad arguments, unreadable input).

mod edges;
mod output;
mod polygon;
mod polyomino;
mod progress;
mod score;
mod solve;
mod solve_polygon;
mod synth;
mod trace;

pub use output::{emit, emit_json};
pub use progress::progress_bar;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "jigsaw", version, about = "Solve jigsaw puzzles from photographs", long_about = None)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Flags every command takes.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct GlobalArgs {
    /// Print one JSON object on stdout instead of the human summary.
    #[arg(long, global = true)]
    pub json: bool,
    /// No progress bars, no warnings on stderr (errors are still printed).
    #[arg(long, short, global = true)]
    pub quiet: bool,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Segment photos or scans into pieces and trace their outlines (chain codes, chainlets,
    /// features), writing inspectable dumps.
    Trace(trace::Args),
    /// Solve a jigsaw puzzle from photos, scans or a trace dump.
    Solve(solve::Args),
    /// Generate a synthetic puzzle with known answer, rendered like a scan or a photo.
    Synth(synth::Args),
    /// Score an assembly against ground truth.
    Score(score::Args),
    /// Fill a polygonal region with polygonal pieces (Lynning 1973).
    Polygon(polygon::Args),
    /// Solve an edge-matching puzzle (square tiles with edge symbols).
    Edges(edges::Args),
    /// Pack polyomino pieces into a rectangle or any region (Deaconu).
    Polyomino(polyomino::Args),
}

/// Runs the command line and turns every outcome into an exit code, printing errors once.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("jigsaw: error: {err:#}");
            ExitCode::from(2)
        }
    }
}

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let g = cli.global;
    match cli.command {
        Command::Trace(a) => trace::run(a, g),
        Command::Solve(a) => solve::run(a, g),
        Command::Synth(a) => synth::run(a, g),
        Command::Score(a) => score::run(a, g),
        Command::Polygon(a) => polygon::run(a, g),
        Command::Edges(a) => edges::run(a, g),
        Command::Polyomino(a) => polyomino::run(a, g),
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
