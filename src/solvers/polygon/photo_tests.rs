use super::*;
use crate::chain::ChainCode;
use crate::solvers::polygon::{solve, Options, Placement};

/// The boundary pixels of a filled polygon (pixel centres inside it), in any order.
fn boundary_pixels(poly: &[Pt], w: i32, h: i32) -> Vec<Pt> {
    let inside = |x: i32, y: i32| {
        let p = [x as f64 + 0.5, y as f64 + 0.5];
        let mut odd = false;
        for k in 0..poly.len() {
            let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
            if (a[1] > p[1]) != (b[1] > p[1])
                && p[0] < a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0])
            {
                odd = !odd;
            }
        }
        odd
    };
    let mut out = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if inside(x, y)
                && [(1, 0), (-1, 0), (0, 1), (0, -1)]
                    .iter()
                    .any(|(dx, dy)| !inside(x + dx, y + dy))
            {
                out.push([x as f64 + 0.5, y as f64 + 0.5]);
            }
        }
    }
    out
}

#[test]
fn assembly_transform_maps_pieces_onto_placements_even_mirrored() {
    let pieces = PhotoPieces {
        polygons: vec![
            vec![[0.0, 0.0], [30.0, 0.0], [0.0, 40.0]],
            vec![[100.0, 100.0], [140.0, 100.0], [140.0, 130.0]],
        ],
        ids: vec![1, 2],
        noise_px: 0.0,
        area: 1200.0,
    };
    let target = vec![vec![[0.0, 0.0], [30.0, 0.0], [30.0, 40.0], [0.0, 40.0]]];
    let puzzle = photo_puzzle(&pieces, target);
    let report = solve(&puzzle, &Options::default()).expect("solves");
    let solution = &report.solutions[0];
    let set = PieceSet {
        images: Vec::new(),
        pieces: (1..=2)
            .map(|id| Piece {
                id,
                image: "a.png".into(),
                bbox: [0, 0, 1, 1],
                centroid: [0.0, 0.0],
                area: 1.0,
                chain: ChainCode::new([0, 0], Vec::new()),
                critical_points: Vec::new(),
                chainlets: Vec::new(),
                polygon: Vec::new(),
            })
            .collect(),
    };
    let asm = photo_assembly(&set, &pieces, solution);
    assert_eq!(asm.pieces.len(), 2);
    let mirrored = solution.placements.iter().filter(|p| p.mirror).count();
    let mut negative = 0;
    for pl in &solution.placements {
        let Placement {
            piece, vertices, ..
        } = pl;
        let t = asm
            .pieces
            .iter()
            .find(|p| p.id == pieces.ids[*piece])
            .unwrap()
            .transform;
        let det = t[0][0] * t[1][1] - t[0][1] * t[1][0];
        assert!((det.abs() - 1.0).abs() < 1e-9);
        if det < 0.0 {
            negative += 1;
        }
        for (q, v) in pieces.polygons[*piece].iter().zip(vertices) {
            let m = [
                t[0][0] * q[0] + t[0][1] * q[1] + t[0][2],
                t[1][0] * q[0] + t[1][1] * q[1] + t[1][2],
            ];
            assert!(dist(m, *v) < 1e-6, "{m:?} vs {v:?}");
        }
    }
    assert_eq!(negative, mirrored);
}
