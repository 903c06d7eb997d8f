//! `jigsaw edges`: solve an edge-matching puzzle file, or study random / planted puzzles.

use super::GlobalArgs;
use crate::solvers::edges::planted::{e2_like_colours, planted_puzzle, puzzle_text, PlantSpec};
use crate::solvers::edges::random::{run_random, RandomSpec};
use crate::solvers::edges::render::{board_art, board_png, grid_text};
use crate::solvers::edges::{
    parse_puzzle, solve, solve_naive, Config, Limits, Order, Outcome, Overrides, Puzzle, Rule,
    Solution, Stop,
};
use anyhow::{bail, Context};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Puzzle file: one tile per line, four integers top right bottom left (see docs/edges.md).
    pub input: Option<PathBuf>,
    /// Board rows (overrides the file's header).
    #[arg(long)]
    pub rows: Option<usize>,
    /// Board columns (overrides the file's header).
    #[arg(long)]
    pub cols: Option<usize>,
    /// Matching rule: complement (a fits -a) or identical (a fits a).
    #[arg(long)]
    pub rule: Option<Rule>,
    /// Border symbol: must face the outside, and only the outside.
    #[arg(long, allow_hyphen_values = true, conflicts_with = "no_border")]
    pub border: Option<i32>,
    /// No border rule, even if some tile carries symbol 0.
    #[arg(long)]
    pub no_border: bool,
    /// Tiles are written top left right bottom (the Arc article's order).
    #[arg(long)]
    pub order_tlrb: bool,
    /// List every solution (all board rotations).
    #[arg(long, conflicts_with = "count")]
    pub all: bool,
    /// Only count the solutions.
    #[arg(long)]
    pub count: bool,
    /// List at most this many solutions.
    #[arg(long, default_value_t = 20)]
    pub max_print: usize,
    /// Cell order: rowmajor, colmajor or diagonal [default: along the shorter side].
    #[arg(long)]
    pub order: Option<Order>,
    /// The seeds' naive search (row-major, every unused tile in every rotation, no symmetry
    /// breaking) with its exact placement count.
    #[arg(long)]
    pub naive: bool,
    /// Search threads (fast engine). 1 keeps the first solution and the listing deterministic;
    /// more split the search tree, with exact counts.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Stop searching after this many seconds.
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// Stop searching after this many placements.
    #[arg(long)]
    pub placement_limit: Option<u64>,
    /// Write a picture of the first solution here (PNG).
    #[arg(long)]
    pub png: Option<PathBuf>,
    /// Generated puzzles (random statistics, planted solutions).
    #[command(flatten)]
    pub generate: Box<GenerateArgs>,
}

/// Flags for `--random` and `--planted`, boxed to keep the command enum small.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// Generate N random puzzles (the Arc article's model) and report the solution counts.
    #[arg(long, value_name = "N")]
    pub random: Option<u64>,
    /// Generate a puzzle with a planted solution (identical rule, border 0) and solve it.
    #[arg(long, conflicts_with = "random")]
    pub planted: bool,
    /// Random: symbol pairs (complement) or colours (identical). Planted: inner colours.
    #[arg(long)]
    pub symbols: Option<u32>,
    /// Planted: colours on the frame joins.
    #[arg(long)]
    pub frame_symbols: Option<u32>,
    /// Seed for --random and --planted.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Planted: also save the generated puzzle here, in the input format.
    #[arg(long)]
    pub save_puzzle: Option<PathBuf>,
}

pub fn run(args: Args, global: GlobalArgs) -> anyhow::Result<ExitCode> {
    let limits = Limits {
        time: args.time_limit.map(Duration::from_secs_f64),
        placements: args.placement_limit,
    };
    if let Some(n) = args.generate.random {
        return run_random_mode(&args, n, limits, global);
    }
    let puzzle = if args.generate.planted {
        planted(&args)?
    } else {
        let Some(path) = &args.input else {
            bail!("give a puzzle file, or --random N, or --planted");
        };
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let flags = Overrides {
            rows: args.rows,
            cols: args.cols,
            rule: args.rule,
            border: if args.no_border {
                Some(None)
            } else {
                args.border.map(Some)
            },
            tlrb: args.order_tlrb.then_some(true),
        };
        parse_puzzle(&text, &flags).with_context(|| format!("{}", path.display()))?
    };
    if args.naive && args.order.is_some_and(|o| o != Order::RowMajor) {
        bail!("--naive searches in row-major order only");
    }
    let order = if args.naive {
        Order::RowMajor
    } else {
        args.order
            .unwrap_or_else(|| Order::for_board(puzzle.rows, puzzle.cols))
    };
    let listing = if args.count { 0 } else { args.max_print };
    let stop_after = if args.all || args.count {
        None
    } else {
        Some(1)
    };
    let out = if args.naive {
        solve_naive(&puzzle, listing, stop_after, &limits)
    } else {
        let cfg = Config {
            order,
            keep: listing,
            stop_after,
            limits,
            threads: args.threads.max(1),
        };
        solve(&puzzle, &cfg)
    };
    // The naive engine keeps raw solutions; the fast one keeps one per rotation group.
    let listed: Vec<Solution> = if args.naive {
        out.solutions.clone()
    } else {
        out.solutions
            .iter()
            .flat_map(|s| {
                if args.all {
                    s.board_rotations()
                } else {
                    vec![s.clone()]
                }
            })
            .take(listing)
            .collect()
    };
    if let Some(png) = &args.png {
        if let Some(first) = listed.first() {
            crate::files::save_png_atomic(png, &board_png(&puzzle, first))?;
        }
    }
    report(&args, global, &puzzle, &out, &listed, order)?;
    // Failure: no solution, or a count that a limit cut short.
    let partial = matches!(out.stopped, Some(Stop::TimeLimit | Stop::PlacementLimit));
    let failed = out.raw == 0 || (partial && stop_after.is_none());
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn planted(args: &Args) -> anyhow::Result<Puzzle> {
    let rows = args.rows.unwrap_or(6);
    let cols = args.cols.unwrap_or(rows);
    if rows == 0 || cols == 0 || rows > 64 || cols > 64 {
        bail!("--planted needs 1..=64 rows and columns");
    }
    let (frame, inner) = e2_like_colours(rows.max(cols));
    let spec = PlantSpec {
        rows,
        cols,
        frame: args.generate.frame_symbols.unwrap_or(frame),
        inner: args.generate.symbols.unwrap_or(inner),
        border: Some(0),
        seed: args.generate.seed,
    };
    let (puzzle, plant) = planted_puzzle(&spec);
    debug_assert!(puzzle.check(&plant).is_ok());
    if let Some(path) = &args.generate.save_puzzle {
        let comment = format!(
            "planted {rows}x{cols}, {} frame and {} inner colours, seed {}",
            spec.frame, spec.inner, spec.seed
        );
        crate::files::write_atomic(path, puzzle_text(&puzzle, &comment).as_bytes())?;
    }
    Ok(puzzle)
}

fn stop_text(out: &Outcome) -> &'static str {
    match out.stopped {
        None => "complete",
        Some(Stop::Enough) => "stopped after the first solution",
        Some(Stop::TimeLimit) => "stopped at the time limit: counts are partial",
        Some(Stop::PlacementLimit) => "stopped at the placement limit: counts are partial",
    }
}

fn report(
    args: &Args,
    global: GlobalArgs,
    p: &Puzzle,
    out: &Outcome,
    listed: &[Solution],
    order: Order,
) -> anyhow::Result<()> {
    let secs = out.elapsed.as_secs_f64();
    let rate = out.placements as f64 / secs.max(1e-9);
    if global.json {
        let sols: Vec<_> = listed
            .iter()
            .map(|s| {
                let grid: Vec<[usize; 2]> = s
                    .cells
                    .iter()
                    .map(|c| [c.tile + 1, c.rot as usize])
                    .collect();
                json!({ "grid": grid })
            })
            .collect();
        return super::emit_json(&json!({
            "raw": out.raw,
            "distinct": out.distinct,
            "placements": out.placements,
            "nodes": out.nodes,
            "solutions": sols,
            "rows": p.rows,
            "cols": p.cols,
            "rule": p.rule,
            "border": p.border,
            "engine": if args.naive { "naive" } else { "fast" },
            "order": order,
            "complete": out.complete,
            "stopped": out.stopped,
            "seconds": secs,
            "placements_per_second": rate,
        }));
    }
    let mut text = String::new();
    for (i, s) in listed.iter().enumerate() {
        text.push_str(&format!(
            "solution {} (tile:rotation)\n{}",
            i + 1,
            grid_text(s)
        ));
        if i == 0 && !global.quiet {
            text.push_str(&board_art(p, s));
        }
    }
    let engine = if args.naive {
        "naive row-major".to_string()
    } else {
        format!("fast {order:?}")
    };
    text.push_str(&format!(
        "{} x {} board, {:?} rule, border {}: {} raw solutions, {} distinct up to board rotation ({})\n",
        p.rows,
        p.cols,
        p.rule,
        p.border.map_or("none".to_string(), |b| b.to_string()),
        out.raw,
        out.distinct,
        stop_text(out),
    ));
    text.push_str(&format!(
        "{engine} search: {} placements tested, {} accepted, {:.3} s, {:.1} million placements/s\n",
        out.placements,
        out.nodes,
        secs,
        rate / 1e6
    ));
    if out.raw == 0 {
        text.push_str(if out.complete {
            "no solution: this puzzle cannot be solved\n"
        } else {
            "no solution found before the search stopped\n"
        });
    }
    super::emit(&text)
}

fn run_random_mode(
    args: &Args,
    n: u64,
    limits: Limits,
    global: GlobalArgs,
) -> anyhow::Result<ExitCode> {
    let rows = args.rows.unwrap_or(3);
    let cols = args.cols.unwrap_or(rows);
    if rows == 0 || cols == 0 || rows * cols > 64 {
        bail!("--random needs a board of 1 to 64 cells (got {rows} x {cols})");
    }
    let symbols = args.generate.symbols.unwrap_or(4);
    if symbols == 0 || symbols > 100 {
        bail!("--symbols must be 1..=100");
    }
    let spec = RandomSpec {
        puzzles: n,
        symbols,
        rows,
        cols,
        rule: args.rule.unwrap_or(Rule::Complement),
        seed: args.generate.seed,
    };
    let Some(rep) = run_random(&spec, limits) else {
        bail!("a random puzzle hit the search limit; its count would be wrong");
    };
    if global.json {
        super::emit_json(&rep)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = format!(
        "{} random {}x{} puzzles, {} {:?} symbols, seed {}\nraw solutions -> puzzles\n",
        rep.puzzles, rows, cols, symbols, spec.rule, spec.seed
    );
    for (k, v) in &rep.histogram {
        text.push_str(&format!("{k:>8} -> {v}\n"));
    }
    text.push_str(&format!(
        "mean raw solutions {:.4} (expected {:.4}), solvable {:.2}%\n{} placements in {:.3} s ({:.1} million/s over all threads)\n",
        rep.mean_raw,
        rep.expected_raw,
        100.0 * rep.solvable,
        rep.placements,
        rep.seconds,
        rep.placements as f64 / rep.seconds.max(1e-9) / 1e6
    ));
    super::emit(&text)?;
    Ok(ExitCode::SUCCESS)
}
