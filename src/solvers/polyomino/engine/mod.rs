//! The fast general engine: a bitboard exact-cover search ([`search`]) over a [`Plan`],
//! monomorphised for boards of 64, 128, 256, 512 and 1024 squares.

pub mod bits;
pub mod search;

pub use search::Flow;

use super::placements::Plan;
use bits::Bits;
use search::Searcher;

/// The largest board (bounding box of the region, in squares) the engine accepts.
pub const MAX_BOARD: usize = 1024;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Placements made (search-tree nodes below the starts).
    pub nodes: u64,
    /// True when every branch was explored (no node limit hit, no early stop).
    pub complete: bool,
    /// True when the node limit ended the run.
    pub limit_hit: bool,
}

/// Runs the search once from each start (a set of placements fixed in advance, e.g. by
/// symmetry breaking; `&[vec![]]` for a plain run). `on_solution(start, placements)` sees
/// every tiling, the start's placements included.
pub fn enumerate(
    plan: &Plan,
    starts: &[Vec<usize>],
    prune: bool,
    max_nodes: Option<u64>,
    on_solution: &mut dyn FnMut(usize, &[usize]) -> Flow,
) -> Outcome {
    let len = plan.layout.len();
    assert!(len <= MAX_BOARD, "board size is checked before planning");
    match len.div_ceil(64) {
        0 | 1 => run::<1>(plan, starts, prune, max_nodes, on_solution),
        2 => run::<2>(plan, starts, prune, max_nodes, on_solution),
        3 | 4 => run::<4>(plan, starts, prune, max_nodes, on_solution),
        5..=8 => run::<8>(plan, starts, prune, max_nodes, on_solution),
        _ => run::<16>(plan, starts, prune, max_nodes, on_solution),
    }
}

fn run<const W: usize>(
    plan: &Plan,
    starts: &[Vec<usize>],
    prune: bool,
    max_nodes: Option<u64>,
    on_solution: &mut dyn FnMut(usize, &[usize]) -> Flow,
) -> Outcome {
    let current = std::cell::Cell::new(0usize);
    let mut searcher = Searcher::<W, _>::new(plan, prune, max_nodes, |chosen: &[usize]| {
        on_solution(current.get(), chosen)
    });
    let blocked = searcher.blocked();
    for (s, start) in starts.iter().enumerate() {
        current.set(s);
        let mut occupied = blocked;
        let mut ok = true;
        for &p in start {
            let m: Bits<W> = searcher.mask(p);
            let k = plan.placements[p].kind;
            if m.intersects(occupied) || searcher.remaining[k] == 0 {
                ok = false;
                break;
            }
            occupied = occupied.or(m);
            searcher.remaining[k] -= 1;
        }
        if ok {
            searcher.stack.extend_from_slice(start);
            searcher.search(occupied);
            searcher.stack.clear();
        }
        searcher.remaining = plan
            .kinds
            .iter()
            .map(|k| k.instances.len() as u16)
            .collect();
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
