//! The fast general engine: a bitboard exact-cover search ([`search`]) over a [`Plan`],
//! monomorphised for boards of 64, 128, 256, 512 and 1024 squares.

pub mod bits;
pub mod search;
pub mod table;

pub use search::Flow;

use super::placements::Plan;
use bits::Bits;
use rayon::prelude::*;
use search::Searcher;
use table::{Geometry, Table};

/// The largest board (bounding box of the region, in squares) the engine accepts.
pub const MAX_BOARD: usize = 1024;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Outcome {
    /// Placements made (search-tree nodes below the starts).
    pub nodes: u64,
    /// True when every branch was explored (no node limit hit, no early stop).
    pub complete: bool,
    /// True when the node limit ended the run.
    pub limit_hit: bool,
}

/// Runs the search once from each start (a set of placements fixed in advance, e.g. by
/// symmetry breaking; `&[vec![]]` for a plain run), in order, on this thread.
/// `on_solution(start, placements)` sees every tiling, the start's placements included, and
/// may stop the whole run.
pub fn enumerate(
    plan: &Plan,
    starts: &[Vec<usize>],
    prune: bool,
    max_nodes: Option<u64>,
    on_solution: &mut dyn FnMut(usize, &[usize]) -> Flow,
) -> Outcome {
    match words(plan) {
        1 => run::<1>(plan, starts, prune, max_nodes, on_solution),
        2 => run::<2>(plan, starts, prune, max_nodes, on_solution),
        4 => run::<4>(plan, starts, prune, max_nodes, on_solution),
        8 => run::<8>(plan, starts, prune, max_nodes, on_solution),
        _ => run::<16>(plan, starts, prune, max_nodes, on_solution),
    }
}

/// Like [`enumerate`] without a node limit or early stop, searched in parallel. The work is
/// split into tasks (each start and one placement more); each task gets its own accumulator
/// from `init`, and they come back in the order a sequential run would visit them, with the
/// total node count.
pub fn enumerate_parallel<T: Send>(
    plan: &Plan,
    starts: &[Vec<usize>],
    prune: bool,
    init: &(dyn Fn() -> T + Sync),
    visit: &(dyn Fn(&mut T, usize, &[usize]) + Sync),
) -> (Vec<T>, u64) {
    match words(plan) {
        1 => run_parallel::<1, T>(plan, starts, prune, init, visit),
        2 => run_parallel::<2, T>(plan, starts, prune, init, visit),
        4 => run_parallel::<4, T>(plan, starts, prune, init, visit),
        8 => run_parallel::<8, T>(plan, starts, prune, init, visit),
        _ => run_parallel::<16, T>(plan, starts, prune, init, visit),
    }
}

fn words(plan: &Plan) -> usize {
    let len = plan.layout.len();
    assert!(len <= MAX_BOARD, "board size is checked before planning");
    len.div_ceil(64).max(1).next_power_of_two()
}

/// Puts a start's placements on the board; `None` if they overlap or overuse a kind.
fn place_start<const W: usize, F: FnMut(&[usize]) -> Flow>(
    plan: &Plan,
    searcher: &mut Searcher<'_, W, F>,
    start: &[usize],
) -> Option<Bits<W>> {
    searcher.remaining = plan
        .kinds
        .iter()
        .map(|k| k.instances.len() as u16)
        .collect();
    searcher.unused = search::kinds_mask(plan.kinds.len());
    searcher.stack.clear();
    let mut occupied = searcher.blocked();
    for &p in start {
        let m: Bits<W> = searcher.mask(p);
        let k = plan.placements[p].kind;
        if m.intersects(occupied) || searcher.remaining[k] == 0 {
            return None;
        }
        occupied = occupied.or(m);
        searcher.take(k, false);
    }
    searcher.stack.extend_from_slice(start);
    Some(occupied)
}

fn run<const W: usize>(
    plan: &Plan,
    starts: &[Vec<usize>],
    prune: bool,
    max_nodes: Option<u64>,
    on_solution: &mut dyn FnMut(usize, &[usize]) -> Flow,
) -> Outcome {
    let geometry = Geometry::<W>::new(plan);
    let table = Table::<W>::new(plan, &geometry);
    let current = std::cell::Cell::new(0usize);
    let mut searcher = Searcher::<W, _>::new(
        plan,
        &table,
        &geometry,
        prune,
        max_nodes,
        |chosen: &[usize]| on_solution(current.get(), chosen),
    );
    for (s, start) in starts.iter().enumerate() {
        current.set(s);
        if let Some(occupied) = place_start(plan, &mut searcher, start) {
            searcher.search(occupied);
        }
        if searcher.stopped {
            break;
        }
    }
    Outcome {
        nodes: searcher.nodes,
        complete: !searcher.stopped,
        limit_hit: searcher.limit_hit,
    }
}

fn run_parallel<const W: usize, T: Send>(
    plan: &Plan,
    starts: &[Vec<usize>],
    prune: bool,
    init: &(dyn Fn() -> T + Sync),
    visit: &(dyn Fn(&mut T, usize, &[usize]) + Sync),
) -> (Vec<T>, u64) {
    let geometry = Geometry::<W>::new(plan);
    let table = Table::<W>::new(plan, &geometry);
    // One level deeper than the starts, so the cores get many small tasks instead of a few
    // unequal ones (6x10 has only 8 symmetry-breaking starts).
    let mut tasks: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut nodes = 0;
    {
        let mut splitter =
            Searcher::<W, _>::new(plan, &table, &geometry, prune, None, |_: &[usize]| {
                Flow::Continue
            });
        for (s, start) in starts.iter().enumerate() {
            let Some(occupied) = place_start(plan, &mut splitter, start) else {
                continue;
            };
            match splitter.children(occupied) {
                None => tasks.push((s, start.clone())),
                Some(children) => tasks.extend(children.into_iter().map(|c| {
                    let mut task = start.clone();
                    task.push(c);
                    (s, task)
                })),
            }
        }
        nodes += splitter.nodes;
    }
    let parts: Vec<(T, u64)> = tasks
        .par_iter()
        .map(|(s, task)| {
            let mut acc = init();
            let nodes = {
                let mut searcher = Searcher::<W, _>::new(
                    plan,
                    &table,
                    &geometry,
                    prune,
                    None,
                    |chosen: &[usize]| {
                        visit(&mut acc, *s, chosen);
                        Flow::Continue
                    },
                );
                if let Some(occupied) = place_start(plan, &mut searcher, task) {
                    searcher.search(occupied);
                }
                searcher.nodes
            };
            (acc, nodes)
        })
        .collect();
    let mut accs = Vec::with_capacity(parts.len());
    for (acc, n) in parts {
        nodes += n;
        accs.push(acc);
    }
    (accs, nodes)
}
