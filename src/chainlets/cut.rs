//! Whether a set of pieces comes from an irregular cut, so that `--corners auto` picks the
//! irregular corner model without the user having to know that it exists.
//!
//! A grid cut's pieces meet four at each corner, so the corners the four-sided model picks
//! turn by close to a right angle (die-cut rounding, perspective and noise take them 5–10°
//! away). An irregular cut's pieces meet three or more at junctions of any angle, and the four
//! "corners" the model picks on such a piece are junctions turning 40–80° or 100–140°.

use crate::piece_set::{CriticalKind, Piece};

/// A corner whose turn lies further than this from 90° is off square.
const OFF_SQUARE_DEG: f64 = 30.0;
/// Share of off-square corners from which a cut is irregular. Measured with the four-sided
/// model (`jigsaw trace --corners quad`): generated classic 100 photos and scans (46 sets) at
/// most 0.020, the bundled classic 12 and 30 samples 0.000 and 0.008; real pikachu-100 0.010,
/// white-1000 0.049, svalat real-1 0.000, gathanase's 144-piece scan 0.009; generated
/// irregular 20 and 100 photos and scans (106 sets) 0.087–0.400. A classic set taken for
/// irregular costs little (classic 100 photos seed 1 with `--corners irregular`: 98.9 %
/// against 100 %), an irregular set taken for classic much (20 % and less).
const MIN_OFF_SQUARE_SHARE: f64 = 0.07;
/// Fewer four-cornered pieces than this say nothing about the cut.
const MIN_PIECES: usize = 3;

/// The share of off-square corners over the pieces with exactly four slope discontinuities
/// (the four-sided model's corners), and how many such pieces there are.
pub fn off_square_share(pieces: &[Piece]) -> (f64, usize) {
    let (mut off, mut corners, mut quads) = (0usize, 0usize, 0usize);
    for p in pieces {
        let turns: Vec<f64> = p
            .critical_points
            .iter()
            .filter(|c| c.kind == CriticalKind::Discontinuity)
            .map(|c| c.angle_deg)
            .collect();
        if turns.len() != 4 {
            continue;
        }
        quads += 1;
        corners += 4;
        off += turns
            .iter()
            .filter(|t| (*t - 90.0).abs() > OFF_SQUARE_DEG)
            .count();
    }
    let share = if corners == 0 {
        0.0
    } else {
        off as f64 / corners as f64
    };
    (share, quads)
}

/// Whether `pieces`, traced with the four-sided corner model, come from an irregular cut.
pub fn looks_irregular(pieces: &[Piece]) -> bool {
    let (share, quads) = off_square_share(pieces);
    quads >= MIN_PIECES && share >= MIN_OFF_SQUARE_SHARE
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::ChainCode;
    use crate::piece_set::CriticalPoint;

    fn piece(turns: &[f64]) -> Piece {
        let critical_points = turns
            .iter()
            .enumerate()
            .map(|(i, &t)| CriticalPoint {
                index: i * 10,
                x: 0.0,
                y: 0.0,
                angle_deg: t,
                kind: CriticalKind::Discontinuity,
            })
            .collect();
        Piece {
            id: 1,
            image: String::new(),
            bbox: [0, 0, 2, 2],
            centroid: [0.5, 0.5],
            area: 1.0,
            chain: ChainCode::new([0, 0], vec![0, 6, 4, 2]),
            chain_unit: 1.0,
            critical_points,
            chainlets: Vec::new(),
            polygon: Vec::new(),
        }
    }

    #[test]
    fn square_corners_are_a_grid_cut_and_junction_angles_an_irregular_one() {
        let grid: Vec<Piece> = (0..10).map(|_| piece(&[88.0, 95.0, 84.0, 92.0])).collect();
        assert!(!looks_irregular(&grid));
        let mut irregular: Vec<Piece> = (0..8).map(|_| piece(&[88.0, 95.0, 84.0, 92.0])).collect();
        irregular.extend((0..4).map(|_| piece(&[50.0, 130.0, 95.0, 85.0])));
        // 8 of 48 corners off square: 0.17.
        assert!((off_square_share(&irregular).0 - 8.0 / 48.0).abs() < 1e-9);
        assert!(looks_irregular(&irregular));
        // Pieces with other than four corners do not count, nor do too few pieces.
        let odd: Vec<Piece> = (0..10).map(|_| piece(&[50.0, 130.0, 50.0])).collect();
        assert!(!looks_irregular(&odd));
        assert!(!looks_irregular(&irregular[8..10]));
    }
}
