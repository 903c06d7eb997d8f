//! The engine's front door: validate, plan, break symmetry, search (in parallel when
//! enumerating), and turn the found placements into counts and labelled tilings.

use super::engine::{self, Flow};
use super::placements::{self, Plan};
use super::symmetry::{Breaking, Symmetry};
use super::{
    validate, Options, PiecePosition, PolyominoError, Problem, Report, Solution, MAX_PLACEMENTS,
};

/// Counts and kept tilings of one part of the search.
#[derive(Default)]
struct Tally {
    raw: u64,
    /// Class shares scaled by `|G'|` (see [`super::symmetry`]).
    shares: u64,
    found: u64,
    solutions: Vec<Solution>,
}

struct Counter<'a> {
    plan: &'a Plan,
    sym: &'a Symmetry,
    breaking: &'a Breaking,
    options: &'a Options,
}

impl Counter<'_> {
    fn visit(&self, t: &mut Tally, start: usize, chosen: &[usize]) {
        let stab = &self.breaking.stabilisers[start];
        let weight = (self.sym.order() / stab.len()) as u64;
        t.raw += weight;
        t.shares += self.sym.fixing(chosen, stab) as u64 * weight;
        t.found += 1;
        let keep = self.options.raw || !self.options.all || self.sym.is_least(chosen, stab);
        if keep && t.solutions.len() < self.options.keep {
            t.solutions.push(to_solution(self.plan, chosen));
        }
    }
}

/// The fast engine: every tiling (or the first), counted raw and up to symmetry.
pub fn solve(problem: &Problem, options: &Options) -> Result<Report, PolyominoError> {
    validate(problem)?;
    let count = placements::count(&problem.pieces, &problem.region, problem.freedom);
    if count > MAX_PLACEMENTS {
        return Err(PolyominoError::TooManyPlacements {
            count,
            limit: MAX_PLACEMENTS,
        });
    }
    let plan = Plan::new(&problem.pieces, &problem.region, problem.freedom);
    let sym = Symmetry::new(&plan, &problem.region.symmetries());
    let breaking = if options.all && !options.raw {
        sym.breaking(&plan)
    } else {
        Breaking {
            starts: vec![vec![]],
            stabilisers: vec![(0..sym.order()).collect()],
            fixed_kind: None,
        }
    };
    // A kind with fewer placements than copies can never be placed: no search needed.
    let placeable = plan.kinds.iter().enumerate().all(|(k, kind)| {
        plan.placements.iter().filter(|p| p.kind == k).count() >= kind.instances.len()
    });
    if !placeable {
        return Ok(Report {
            distinct: 0,
            raw: 0,
            nodes: 0,
            complete: true,
            limit_hit: false,
            symmetries: sym.group.clone(),
            solutions: Vec::new(),
        });
    }
    let counter = Counter {
        plan: &plan,
        sym: &sym,
        breaking: &breaking,
        options,
    };
    let (tally, outcome) = if options.all && options.parallel && options.max_nodes.is_none() {
        let (parts, nodes) = engine::enumerate_parallel(
            &plan,
            &breaking.starts,
            true,
            &Tally::default,
            &|t: &mut Tally, s: usize, chosen: &[usize]| counter.visit(t, s, chosen),
        );
        let mut total = Tally::default();
        for t in parts {
            total.raw += t.raw;
            total.shares += t.shares;
            total.found += t.found;
            let room = options.keep.saturating_sub(total.solutions.len());
            total.solutions.extend(t.solutions.into_iter().take(room));
        }
        let outcome = engine::Outcome {
            nodes,
            complete: true,
            limit_hit: false,
        };
        (total, outcome)
    } else {
        let mut tally = Tally::default();
        let mut on_solution = |start: usize, chosen: &[usize]| {
            counter.visit(&mut tally, start, chosen);
            if options.all {
                Flow::Continue
            } else {
                Flow::Stop
            }
        };
        let outcome = engine::enumerate(
            &plan,
            &breaking.starts,
            true,
            options.max_nodes,
            &mut on_solution,
        );
        (tally, outcome)
    };
    let (raw, distinct) = if options.all {
        (tally.raw, tally.shares / sym.order() as u64)
    } else {
        (tally.found, tally.found)
    };
    Ok(Report {
        distinct,
        raw,
        nodes: outcome.nodes,
        complete: outcome.complete,
        limit_hit: outcome.limit_hit,
        symmetries: sym.group.clone(),
        solutions: tally.solutions,
    })
}

fn to_solution(plan: &Plan, chosen: &[usize]) -> Solution {
    let l = plan.layout;
    let mut grid = vec![vec![None; l.cols]; l.rows];
    let mut positions = Vec::new();
    for (piece, p) in plan.assign_pieces(chosen) {
        let pl = &plan.placements[p];
        for &i in &pl.cells {
            let (r, c) = l.coords(i);
            grid[r][c] = Some(piece);
        }
        positions.push(PiecePosition {
            piece: piece + 1,
            a: pl.row + 1,
            b: pl.col + 1,
            placed: plan.kinds[pl.kind].orientations[pl.orientation].to_matrix(),
        });
    }
    positions.sort_by_key(|p| p.piece);
    Solution { grid, positions }
}
