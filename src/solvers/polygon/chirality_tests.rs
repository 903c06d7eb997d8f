//! Diagnosis of chirality on synthetic dissections: solves from truth masks and, for every
//! piece turned the other way than the truth, prints how far it and its neighbours are from
//! the truth. Run with `CHIRALITY=12:3,14:5 cargo test --release --lib chirality_of_solutions
//! -- --ignored --nocapture`.

use super::geometry::Pt;
use super::photo::{photo_options, photo_pieces, photo_puzzle};
use super::records::oriented;
use super::replay_tests::{corners, misfit};
use super::solution::prepare;
use super::truth_masks::traced_truth;
use crate::synth::{generate, Kind, Params, Style};

/// Solves and, for each piece turned the wrong way, prints the fit of every variant.
/// `style`: `None` for truth masks, else rendered images of that style.
fn chirality(pieces: usize, seed: u64, style: Option<Style>) {
    let (truth, photo, order) = match style {
        None => {
            let mut params = Params::new(Kind::Polygonal, pieces, seed);
            params.style = Style::Scan;
            let truth = generate(&params).expect("generates").truth;
            let set = traced_truth(&truth);
            (
                truth,
                photo_pieces(&set).expect("straightens"),
                (0..pieces).collect(),
            )
        }
        Some(style) => super::truth_masks::rendered(pieces, seed, style).expect("straightens"),
    };
    let puzzle = photo_puzzle(&photo, vec![truth.assembled.outline.clone()]);
    let options = photo_options(&photo, &puzzle);
    let prepared = prepare(&puzzle, &options).expect("prepares");
    let report = super::solve(&puzzle, &options).expect("solves");
    let Some(sol) = report.solutions.first() else {
        println!("{pieces}:{seed} no solution");
        return;
    };
    println!("== {pieces}:{seed} classes {:?}", prepared.members);
    for pl in &sol.placements {
        let t = &truth.pieces[order[pl.piece]];
        if pl.mirror != t.flipped {
            let truth_pts = oriented(t.assembled_outline.clone(), true);
            println!(
                "piece {} mirror {} but flipped {}; placed off truth by {:.1}",
                pl.piece,
                pl.mirror,
                t.flipped,
                misfit(&pl.vertices, &truth_pts)
            );
            println!("   truth {:.1?}", corners(&truth_pts));
            println!("   straightened {:.1?}", photo.polygons[pl.piece]);
            both_ways(sol, pl, &puzzle.target, 3.0 * prepared.tol.eps);
            for other in &sol.placements {
                let d = misfit(
                    &other.vertices,
                    &oriented(
                        truth.pieces[order[other.piece]].assembled_outline.clone(),
                        true,
                    ),
                );
                if d > 3.0 {
                    println!("   piece {} off truth by {d:.1}", other.piece);
                }
            }
        }
    }
}

#[test]
#[ignore = "diagnosis: CHIRALITY=pieces:seed,... with --ignored --nocapture"]
fn chirality_of_solutions() {
    let spec = std::env::var("CHIRALITY").unwrap_or_else(|_| "12:3".into());
    for item in spec.split(',') {
        let mut parts = item.split(':');
        let n = parts.next().and_then(|x| x.parse().ok()).expect("pieces");
        let s = parts.next().and_then(|x| x.parse().ok()).expect("seed");
        let style = match parts.next() {
            Some("scan") => Some(Style::Scan),
            Some("photo") => Some(Style::Photo),
            _ => None,
        };
        chirality(n, s, style);
    }
}

/// The misfit of `pl` as placed and turned over (posed by closest points onto the outlines
/// around it), as the assignment scores them.
fn both_ways(sol: &super::Solution, pl: &super::Placement, target: &[Vec<Pt>], reach: f64) {
    use super::assign::fit_pose;
    use super::contacts::{misfit as fit, pose_on_outlines, touching};
    let around: Vec<&[Pt]> = sol
        .placements
        .iter()
        .filter(|o| o.piece != pl.piece)
        .map(|o| o.vertices.as_slice())
        .chain(target.iter().map(Vec::as_slice))
        .collect();
    let touch = touching(&pl.vertices, &around, reach);
    let n = pl.vertices.len();
    // The placed vertices in the piece's own frame: undo the placement's motion.
    let (s, c) = pl.rotation.to_radians().sin_cos();
    let local: Vec<Pt> = pl
        .vertices
        .iter()
        .map(|v| {
            let d = [v[0] - pl.translation[0], v[1] - pl.translation[1]];
            [c * d[0] + s * d[1], -s * d[0] + c * d[1]]
        })
        .collect();
    for turned in [false, true] {
        let shape: Vec<Pt> = if turned {
            local.iter().rev().map(|q| [-q[0], q[1]]).collect()
        } else {
            local.clone()
        };
        let best = (0..n)
            .map(|k| {
                let from: Vec<Pt> = (0..n).map(|i| shape[(i + k) % n]).collect();
                let pose = fit_pose(&from, &pl.vertices);
                let pose = pose_on_outlines(&from, pose, &around, &touch, reach, 4);
                let v: Vec<Pt> = from.iter().map(|&q| pose.apply(q)).collect();
                fit(&v, &around, &touch, reach)
            })
            .fold(f64::MAX, f64::min);
        println!(
            "   turned over {turned}: misfit {best:.3} px² ({} touching)",
            touch.len()
        );
    }
}
