//! Pose refinement of a growing cluster: each piece fitted to all its mated neighbours, so
//! the small errors of single matings do not add up along the spiral.

use super::geometry::{fit_rigid, Pose};
use super::grow::Growth;
use super::shapes::{Shapes, SAMPLES};

/// Gauss–Seidel relaxation: each member (the seed stays fixed) moved to the pose that best
/// fits all its mated chainlets to their mates as they are now placed.
pub fn relax(shapes: &Shapes, g: &mut Growth, members: &[usize], sweeps: usize) {
    for _ in 0..sweeps {
        for &m in members.iter().skip(1) {
            let mut from = Vec::new();
            let mut to = Vec::new();
            for &a in &shapes.pieces[m].chainlets {
                let Some((b, _)) = g.mate_of[a] else { continue };
                let cb = &shapes.chainlets[b];
                let Some(q) = g.placed[cb.piece].as_ref().map(|p| p.pose) else {
                    continue;
                };
                from.extend(shapes.chainlets[a].samples.iter().copied());
                to.extend(cb.samples.iter().rev().map(|p| q * p));
            }
            if from.len() >= 2 * SAMPLES {
                let pose = fit_rigid(&from, &to).0;
                if let Some(p) = g.placed[m].as_mut() {
                    p.pose = pose;
                }
            }
        }
    }
}

/// The pose that fits all the closed chainlets at once (least squares on arc-length
/// correspondences): a piece closing a junction is held by two or more neighbours, and fitting
/// to all of them stops small pose errors from accumulating along the spiral.
pub fn joint_fit(
    shapes: &Shapes,
    g: &Growth,
    closed: &[(usize, usize, f64)],
    start: &Pose,
) -> Pose {
    let mut from = Vec::new();
    let mut to = Vec::new();
    for &(a, b, _) in closed {
        let (ca, cb) = (&shapes.chainlets[a], &shapes.chainlets[b]);
        let Some(q) = g.placed[ca.piece].as_ref().map(|p| p.pose) else {
            continue;
        };
        from.extend(cb.samples.iter().rev().copied());
        to.extend(ca.samples.iter().map(|p| q * p));
    }
    if from.len() < 3 {
        return *start;
    }
    fit_rigid(&from, &to).0
}
