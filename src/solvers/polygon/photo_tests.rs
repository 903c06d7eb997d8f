use super::*;
use crate::chain::ChainCode;
use crate::solvers::polygon::{solve, Options, Placement};

/// Traces `poly` (image pixels) the way the photo path sees a piece: the pixels whose centre is
/// inside form the mask, the real tracer gives the chain.
fn traced(poly: &[Pt]) -> Piece {
    let inside = |x: u32, y: u32| {
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
    let w = poly.iter().map(|p| p[0]).fold(0.0, f64::max).ceil() as u32 + 3;
    let h = poly.iter().map(|p| p[1]).fold(0.0, f64::max).ceil() as u32 + 3;
    let mask = image::GrayImage::from_fn(w, h, |x, y| image::Luma([255 * u8::from(inside(x, y))]));
    let region = crate::vision::PieceRegion::from_mask(mask);
    let mut opts = crate::vision::DescribeOptions::default();
    opts.critical.four_sided = false;
    crate::vision::describe_piece(1, "a.png", &region, &opts).expect("traces")
}

/// Each vertex of `truth` has a straightened vertex within `px`, and there are no others.
fn assert_vertices(s: &Straightened, truth: &[Pt], px: f64) {
    assert_eq!(s.polygon.len(), truth.len(), "{:?}", s.polygon);
    for t in truth {
        let d = s
            .polygon
            .iter()
            .map(|p| dist(*p, *t))
            .fold(f64::MAX, f64::min);
        assert!(d < px, "vertex {t:?} off by {d}: {:?}", s.polygon);
    }
}

#[test]
fn straightening_recovers_a_tilted_triangle_to_subpixel() {
    let truth = [[20.3, 15.2], [140.7, 40.1], [60.2, 130.9]];
    let s = straighten(&traced(&truth)).expect("straightens");
    assert_vertices(&s, &truth, 0.5);
    let (a, b) = (signed_area(&s.polygon).abs(), signed_area(&truth).abs());
    assert!((a - b).abs() / b < 0.005, "area {a} vs {b}");
    assert!(s.residual < 0.6, "residual {}", s.residual);
}

#[test]
fn a_flat_corner_is_kept_and_a_sharp_tip_is_one_vertex() {
    // A 6° bend in the middle of a long side (3.7 px off the chord), and an 18° tip.
    let truth = [
        [10.0, 10.0],
        [80.0, 13.7],
        [150.0, 10.0],
        [120.0, 120.0],
        [20.4, 40.2],
    ];
    let s = straighten(&traced(&truth)).expect("straightens");
    assert_vertices(&s, &truth, 1.0);
    let sharp = [[10.0, 100.0], [160.0, 73.5], [150.0, 120.0]];
    let s = straighten(&traced(&sharp)).expect("straightens");
    assert_vertices(&s, &sharp, 1.5);
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
        faint_sides: vec![Vec::new(); 2],
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
                chain_unit: 1.0,
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

#[test]
fn gaps_in_a_snapped_outline_are_bridged_on_the_chord() {
    // A square's outline, 1 px apart, with 7 px of its bottom side lost.
    let mut points: Vec<Pt> = (0..40).map(|i| [i as f64, 0.0]).collect();
    points.extend((0..40).map(|i| [40.0, i as f64]));
    points.extend(
        (0..40)
            .map(|i| [40.0 - i as f64, 40.0])
            .filter(|p| !(20.0..27.0).contains(&p[0])),
    );
    points.extend((0..40).map(|i| [0.0, 40.0 - i as f64]));
    let out = bridged(&points);
    assert_eq!(out.len(), 160);
    let gap = out.windows(2).map(|w| dist(w[0], w[1])).fold(0.0, f64::max);
    assert!(gap <= GAP_PX, "{gap}");
    assert!(out
        .iter()
        .filter(|p| p[1] == 40.0)
        .all(|p| (0.0..=40.0).contains(&p[0])));
    // Nothing to bridge: the same points.
    let whole: Vec<Pt> = (0..40)
        .map(|i| [i as f64, 0.0])
        .chain((0..40).map(|i| [40.0, i as f64]))
        .chain((0..40).map(|i| [40.0 - i as f64, 40.0]))
        .chain((0..40).map(|i| [0.0, 40.0 - i as f64]))
        .collect();
    assert_eq!(bridged(&whole), whole);
}

/// A 40 px square and a pentagon with one 8 px side, fit noise 0.5 px: the length tolerance
/// wanted is 1.5 + 4 × 0.5 = 3.5 px (the target is large enough for no relative clamp), and the short side caps it at 8 / 4 = 2 px unless the
/// photograph showed that side faint; recorded before the edge calibration moved the
/// pentagon's sides outwards by 1 px, it is still recognised.
#[test]
fn a_faint_short_side_does_not_cap_the_tolerance() {
    let pentagon = vec![
        [100.0, 0.0],
        [132.0, 0.0],
        [137.66, 5.66],
        [137.66, 40.0],
        [100.0, 40.0],
    ];
    let mut pieces = PhotoPieces {
        polygons: vec![
            vec![[0.0, 0.0], [40.0, 0.0], [40.0, 40.0], [0.0, 40.0]],
            pentagon.clone(),
        ],
        ids: vec![1, 2],
        noise_px: 0.5,
        area: 3000.0,
        faint_sides: vec![Vec::new(); 2],
    };
    let target = vec![vec![[0.0, 0.0], [400.0, 0.0], [400.0, 300.0], [0.0, 300.0]]];
    let eps_px = |pieces: &PhotoPieces| {
        let puzzle = photo_puzzle(pieces, target.clone());
        photo_options(pieces, &puzzle).tolerance * crate::solvers::polygon::puzzle_scale(&puzzle)
    };
    assert!((eps_px(&pieces) - 0.25 * dist(pentagon[1], pentagon[2])).abs() < 1e-9);
    pieces.faint_sides[1] = vec![(pentagon[1], pentagon[2])];
    pieces.polygons[1] = vec![
        [100.0, -1.0],
        [132.41, -1.0],
        [138.66, 5.25],
        [138.66, 40.0],
        [100.0, 40.0],
    ];
    assert!((eps_px(&pieces) - 3.5).abs() < 1e-9, "{}", eps_px(&pieces));
    // A faint side elsewhere on the piece leaves the short side counted.
    pieces.faint_sides[1] = vec![(pentagon[3], pentagon[4])];
    assert!(eps_px(&pieces) < 2.5, "{}", eps_px(&pieces));
}

/// An 80 × 40 rectangle whose top side has a dent of two short sides (6.4 and 9.4 px, 5 px
/// deep) that comes back onto its line: the dent is no side of the piece and does not cap
/// the tolerance; a real short side between two corners (the pentagon's) still does.
#[test]
fn a_dent_in_a_straight_side_does_not_cap_the_tolerance() {
    let dented = vec![
        [0.0, 0.0],
        [40.0, 0.0],
        [44.0, 5.0],
        [52.0, 0.0],
        [80.0, 0.0],
        [80.0, 40.0],
        [0.0, 40.0],
    ];
    assert_eq!(puzzle::detour_sides(&dented), vec![1, 2]);
    let square = vec![[0.0, 0.0], [40.0, 0.0], [40.0, 40.0], [0.0, 40.0]];
    assert_eq!(puzzle::detour_sides(&square), Vec::<usize>::new());
    let pentagon = vec![
        [100.0, 0.0],
        [132.0, 0.0],
        [137.66, 5.66],
        [137.66, 40.0],
        [100.0, 40.0],
    ];
    assert_eq!(puzzle::detour_sides(&pentagon), Vec::<usize>::new());
    let target = vec![vec![[0.0, 0.0], [400.0, 0.0], [400.0, 300.0], [0.0, 300.0]]];
    let eps_px = |polygons: Vec<Vec<Pt>>| {
        let pieces = PhotoPieces {
            faint_sides: vec![Vec::new(); polygons.len()],
            polygons,
            ids: vec![1, 2],
            noise_px: 0.5,
            area: 3000.0,
        };
        let puzzle = photo_puzzle(&pieces, target.clone());
        photo_options(&pieces, &puzzle).tolerance * crate::solvers::polygon::puzzle_scale(&puzzle)
    };
    assert!((eps_px(vec![dented.clone(), square.clone()]) - 3.5).abs() < 1e-9);
    assert!(
        (eps_px(vec![dented, pentagon.clone()]) - 0.25 * dist(pentagon[1], pentagon[2])).abs()
            < 1e-9
    );
}
