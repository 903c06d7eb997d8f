//! Clusters that rest on weak evidence. A cluster in which no junction was ever closed holds
//! together by single matings only, and a single knob-and-hole mating between two pieces of
//! different puzzles (or an extraneous piece and a real one) can look as good as a poor true
//! one. Freeman & Garder start assembly only from a well-determined piece for the same
//! reason. Such a cluster is kept only if every mating in it is as good as the matings the
//! puzzle's junction closures confirmed; otherwise its pieces are left unplaced and listed.

use super::grow::Growth;
use super::shapes::Shapes;

/// The quantile of junction-confirmed Δ that a mating of an unconfirmed cluster must reach.
const CONFIRMED_QUANTILE: f64 = 0.9;

/// Dissolves the unconfirmed clusters whose matings are worse than the confirmed ones, and
/// renumbers the remaining clusters and the placing sequence. Returns the pieces set loose.
pub fn dissolve_weak_clusters(shapes: &Shapes, g: &mut Growth) -> Vec<usize> {
    let clusters = g.clusters as usize;
    let mut confirmed = vec![false; clusters];
    for j in &g.junctions {
        confirmed[j.cluster as usize] = true;
    }
    let cluster_of = |g: &Growth, c: usize| {
        g.placed[shapes.chainlets[c].piece]
            .as_ref()
            .map(|p| p.cluster as usize)
    };
    let mut good: Vec<f64> = (0..shapes.chainlets.len())
        .filter(|&c| cluster_of(g, c).is_some_and(|k| confirmed[k]))
        .filter_map(|c| g.mate_of[c].map(|(_, d)| d))
        .collect();
    if good.is_empty() {
        return Vec::new();
    }
    good.sort_by(f64::total_cmp);
    let limit = good[((good.len() - 1) as f64 * CONFIRMED_QUANTILE).round() as usize];
    let mut weak = vec![false; clusters];
    for c in 0..shapes.chainlets.len() {
        if let (Some(k), Some((_, d))) = (cluster_of(g, c), g.mate_of[c]) {
            if !confirmed[k] && d > limit {
                weak[k] = true;
            }
        }
    }
    let mut renumber = vec![None; clusters];
    let mut next = 0;
    for k in 0..clusters {
        if !weak[k] {
            renumber[k] = Some(next);
            next += 1;
        }
    }
    let mut loose = Vec::new();
    for piece in 0..g.placed.len() {
        let Some(k) = g.placed[piece].as_ref().map(|p| p.cluster as usize) else {
            continue;
        };
        match renumber[k] {
            Some(n) => g.placed[piece].as_mut().expect("placed").cluster = n,
            None => {
                g.placed[piece] = None;
                loose.push(piece);
                for &c in &shapes.pieces[piece].chainlets {
                    g.mate_of[c] = None;
                }
            }
        }
    }
    g.junctions
        .retain_mut(|j| match renumber[j.cluster as usize] {
            Some(n) => {
                j.cluster = n;
                true
            }
            None => false,
        });
    g.clusters = next;
    let mut order: Vec<usize> = (0..g.placed.len())
        .filter(|&i| g.placed[i].is_some())
        .collect();
    order.sort_by_key(|&i| g.placed[i].as_ref().map(|p| p.sequence));
    for (k, &i) in order.iter().enumerate() {
        g.placed[i].as_mut().expect("placed").sequence = k as u32 + 1;
    }
    loose
}
