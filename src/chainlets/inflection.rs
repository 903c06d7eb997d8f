//! Curvature inflections: the fallback critical points Freeman & Garder use where a piece has
//! too few slope discontinuities to cut its chain into chainlets.

use super::critical::turn_deg;
use super::outline::Outline;
use crate::piece_set::{CriticalKind, CriticalPoint};

/// Smoothing of the outline before curvature is measured, as a fraction of piece size.
const SMOOTH: f64 = 0.02;
/// A bend must turn at least this much (degrees) to count, so wiggles from noise do not
/// produce inflections.
const MIN_BEND_DEG: f64 = 20.0;

/// Points where the curvature of the smoothed outline changes sign between two bends that each
/// turn at least [`MIN_BEND_DEG`].
pub fn inflections(outline: &Outline) -> Vec<CriticalPoint> {
    let n = outline.len();
    if n < 16 {
        return Vec::new();
    }
    let pts = outline.smoothed((SMOOTH * outline.size()).max(1.0));
    let dir = |i: usize| {
        let a = pts[(i + n - 1) % n];
        let b = pts[(i + 1) % n];
        [b[0] - a[0], b[1] - a[1]]
    };
    let turn: Vec<f64> = (0..n).map(|i| turn_deg(dir(i), dir((i + 1) % n))).collect();
    // Runs of one curvature sign: (first sample, total turn).
    let mut runs: Vec<(usize, f64)> = Vec::new();
    for (i, &t) in turn.iter().enumerate() {
        match runs.last_mut() {
            Some(run) if run.1.signum() == t.signum() || t == 0.0 => run.1 += t,
            _ => runs.push((i, t)),
        }
    }
    if runs.len() > 1 && runs[0].1.signum() == runs[runs.len() - 1].1.signum() {
        let (start, t) = runs.pop().expect("len > 1");
        runs[0] = (start, runs[0].1 + t);
    }
    // Absorb weak runs into their neighbours until every run is a real bend.
    while runs.len() > 1 {
        let (weakest, _) = runs
            .iter()
            .enumerate()
            .min_by(|a, b| a.1 .1.abs().total_cmp(&b.1 .1.abs()))
            .expect("non-empty");
        if runs[weakest].1.abs() >= MIN_BEND_DEG {
            break;
        }
        let m = runs.len();
        if m == 2 {
            runs.truncate(1);
            break;
        }
        let next = (weakest + 1) % m;
        let t = runs[weakest].1 + runs[next].1;
        let prev = (weakest + m - 1) % m;
        runs[prev].1 += t;
        let (hi, lo) = if next > weakest {
            (next, weakest)
        } else {
            (weakest, next)
        };
        runs.remove(hi);
        runs.remove(lo);
    }
    if runs.len() < 2 {
        return Vec::new();
    }
    let mut out: Vec<CriticalPoint> = runs
        .iter()
        .map(|&(i, _)| CriticalPoint {
            index: outline.chain_index[i],
            x: outline.points[i][0],
            y: outline.points[i][1],
            angle_deg: 0.0,
            kind: CriticalKind::Inflection,
        })
        .collect();
    out.sort_by_key(|c| c.index);
    out.dedup_by_key(|c| c.index);
    out
}
