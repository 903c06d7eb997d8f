//! Diagnosis of chirality on synthetic dissections: solves from truth masks and, for every
//! piece turned the other way than the truth, prints how far it and its neighbours are from
//! the truth. Run with `CHIRALITY=12:3,14:5 cargo test --release --lib chirality_of_solutions
//! -- --ignored --nocapture`.

use super::photo::{photo_options, photo_pieces, photo_puzzle};
use super::records::oriented;
use super::replay_tests::{corners, misfit};
use super::solution::prepare;
use super::truth_masks::traced_truth;
use crate::synth::{generate, Kind, Params, Style};

/// Solves and, for each piece turned the wrong way, prints the fit of every variant.
fn chirality(pieces: usize, seed: u64) {
    let mut params = Params::new(Kind::Polygonal, pieces, seed);
    params.style = Style::Scan;
    let truth = generate(&params).expect("generates").truth;
    let set = traced_truth(&truth);
    let photo = photo_pieces(&set).expect("straightens");
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
        let t = &truth.pieces[pl.piece];
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
            for other in &sol.placements {
                let d = misfit(
                    &other.vertices,
                    &oriented(truth.pieces[other.piece].assembled_outline.clone(), true),
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
        let (n, s) = item.split_once(':').expect("pieces:seed");
        chirality(n.parse().expect("pieces"), s.parse().expect("seed"));
    }
}
