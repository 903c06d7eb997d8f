//! Random puzzles and the distribution of their solution counts.
//!
//! The model is the Arc article's `randtiles`: every edge of every tile independently and
//! uniformly one of the symbols, with no border, so that any two meeting edges fit with
//! probability 1/m (m = 2S symbols ±1..±S under the complement rule, S symbols 1..S under the
//! identical rule). The expected number of raw solutions is then exactly
//! n! · 4ⁿ / m^(internal edges): every arrangement has that many independent edge tests, each
//! passed with probability 1/m. For 3×3 with 4 symbol pairs: 9!·4⁹/8¹² ≈ 1.384.

use super::puzzle::{Puzzle, Rule};
use super::search::{solve, Config, Limits, Order};
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;

/// What to generate.
#[derive(Clone, Copy, Debug)]
pub struct RandomSpec {
    pub puzzles: u64,
    pub symbols: u32,
    pub rows: usize,
    pub cols: usize,
    pub rule: Rule,
    pub seed: u64,
}

/// The distribution of raw solution counts over the generated puzzles.
#[derive(Clone, Debug, Serialize)]
pub struct RandomReport {
    pub puzzles: u64,
    pub rows: usize,
    pub cols: usize,
    pub symbols: u32,
    pub rule: Rule,
    pub seed: u64,
    /// Raw solution count → number of puzzles with that count.
    pub histogram: BTreeMap<u64, u64>,
    pub mean_raw: f64,
    /// Fraction of puzzles with at least one solution.
    pub solvable: f64,
    /// n!·4ⁿ / m^(internal edges).
    pub expected_raw: f64,
    pub placements: u64,
    pub nodes: u64,
    pub seconds: f64,
}

/// Puzzle `index` of the stream with seed `seed`: each puzzle has its own generator, so the
/// set does not depend on how the work is split across threads.
pub fn random_puzzle(spec: &RandomSpec, index: u64) -> Puzzle {
    let mut rng =
        rand_pcg::Pcg64::seed_from_u64(spec.seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let s = spec.symbols as i32;
    let mut symbol = || -> i32 {
        match spec.rule {
            Rule::Complement => {
                let v = rng.random_range(0..2 * s);
                if v < s {
                    v + 1
                } else {
                    s - 1 - v
                }
            }
            Rule::Identical => rng.random_range(1..=s),
        }
    };
    let tiles = (0..spec.rows * spec.cols)
        .map(|_| [symbol(), symbol(), symbol(), symbol()])
        .collect();
    Puzzle {
        rows: spec.rows,
        cols: spec.cols,
        rule: spec.rule,
        border: None,
        tiles,
    }
}

/// n!·4ⁿ / m^(internal edges), computed in logarithms.
pub fn expected_raw(spec: &RandomSpec) -> f64 {
    let n = spec.rows * spec.cols;
    let m = match spec.rule {
        Rule::Complement => 2.0 * spec.symbols as f64,
        Rule::Identical => spec.symbols as f64,
    };
    let edges = spec.rows * (spec.cols - 1) + spec.cols * (spec.rows - 1);
    let ln_fact: f64 = (1..=n).map(|k| (k as f64).ln()).sum();
    (ln_fact + n as f64 * 4f64.ln() - edges as f64 * m.ln()).exp()
}

/// Generates and fully counts `spec.puzzles` puzzles (in parallel), each bounded by `limits`.
/// Returns `None` if a puzzle hit a limit (the counts would be wrong).
pub fn run_random(spec: &RandomSpec, limits: Limits) -> Option<RandomReport> {
    let start = std::time::Instant::now();
    let cfg = Config {
        order: Order::RowMajor,
        keep: 0,
        stop_after: None,
        limits,
        threads: 1,
    };
    let results: Vec<Option<(u64, u64, u64)>> = (0..spec.puzzles)
        .into_par_iter()
        .map(|i| {
            let out = solve(&random_puzzle(spec, i), &cfg);
            out.complete.then_some((out.raw, out.placements, out.nodes))
        })
        .collect();
    let mut histogram = BTreeMap::new();
    let (mut total, mut solvable, mut placements, mut nodes) = (0u64, 0u64, 0u64, 0u64);
    for r in results {
        let (raw, pl, nd) = r?;
        *histogram.entry(raw).or_insert(0) += 1;
        total += raw;
        solvable += u64::from(raw > 0);
        placements += pl;
        nodes += nd;
    }
    let count = spec.puzzles.max(1) as f64;
    Some(RandomReport {
        puzzles: spec.puzzles,
        rows: spec.rows,
        cols: spec.cols,
        symbols: spec.symbols,
        rule: spec.rule,
        seed: spec.seed,
        histogram,
        mean_raw: total as f64 / count,
        solvable: solvable as f64 / count,
        expected_raw: expected_raw(spec),
        placements,
        nodes,
        seconds: start.elapsed().as_secs_f64(),
    })
}
