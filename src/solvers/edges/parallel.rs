//! Splitting the fast engine's search tree for several threads.
//!
//! The top levels are expanded breadth-first until there are enough independent subtrees
//! (prefixes) to keep every thread busy despite their very uneven sizes; rayon then searches
//! them, in order, on a pool of the requested size. Counts are sums, so they are exact; the
//! solutions kept are concatenated in prefix order (the order a single thread would find them
//! in, when nothing stops the search early).

use super::engine::{Part, Prepared, Shared};
use super::search::Config;
use rayon::prelude::*;
use std::time::Instant;

/// Subtrees wanted per thread.
const PER_THREAD: usize = 64;

/// Searches in parallel; returns the parts in prefix order, and the placements tested and
/// accepted while expanding the prefixes.
pub fn run_split(
    prep: &Prepared,
    cfg: &Config,
    start: Instant,
    shared: &Shared,
) -> (Vec<Part>, u64, u64) {
    let want = cfg.threads * PER_THREAD;
    let mut prefixes: Vec<Vec<u32>> = vec![Vec::new()];
    let (mut spent, mut accepted) = (0u64, 0u64);
    // Expand while the frontier is small and every prefix leaves at least two cells to search.
    while prefixes.len() < want && prefixes.first().is_some_and(|p| p.len() + 2 < prep.n) {
        let mut next = Vec::new();
        for p in &prefixes {
            let (kids, tested) = prep.children(p);
            spent += tested;
            accepted += kids.len() as u64;
            for k in kids {
                let mut q = p.clone();
                q.push(k);
                next.push(q);
            }
        }
        if next.is_empty() {
            return (Vec::new(), spent, accepted);
        }
        prefixes = next;
    }
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
    {
        Ok(pool) => pool,
        Err(_) => return (vec![prep.run(cfg, &[], start, shared)], 0, 0),
    };
    let parts = pool.install(|| {
        prefixes
            .par_iter()
            .map(|p| {
                if shared.stop.load(std::sync::atomic::Ordering::Relaxed) {
                    return Part {
                        stopped: Some(super::search::Stop::Enough),
                        ..Part::default()
                    };
                }
                prep.run(cfg, p, start, shared)
            })
            .collect()
    });
    (parts, spent, accepted)
}
