//! ρ and σ on the situations of Lynning's Figures 3 and 4, rebuilt with concrete coordinates:
//! the region is the clockwise rectangle p1 = (0,0), p2 = (0,2), p3 = (4,2), p4 = (4,0) and
//! every piece is placed at p2 with its first side along p2→p3.

use super::geometry::{signed_area, Pt, Tol};
use super::place::{legal, place, rho, sigma, Illegal};

fn tol() -> Tol {
    Tol::new(2.0, 1e-9)
}

const RECT: [Pt; 4] = [[0., 0.], [0., 2.], [4., 2.], [4., 0.]];

/// The piece in the anchor frame from the placed coordinates (the frame at p2 is a plain
/// translation: side direction +x).
fn anchored(placed: &[Pt]) -> Vec<Pt> {
    placed.iter().map(|p| [p[0], p[1] - 2.0]).collect()
}

fn area(p: &[Pt]) -> f64 {
    -signed_area(p)
}

#[test]
fn figure_3_valid_placing_without_intersections() {
    // A triangle whose side covers p2p3 entirely: σ deletes p2 (a spike) and p3 (repeated).
    let piece = anchored(&[[0., 2.], [2., 1.], [4., 2.]]);
    let (pseudo, _) = place(&RECT, 1, &piece);
    assert_eq!(pseudo.len(), 7, "p1 q3 q1 q2 p2 p3 p4");
    let sig = sigma(&pseudo, &tol());
    assert_eq!(sig, vec![[0., 0.], [0., 2.], [2., 1.], [4., 2.], [4., 0.]]);
    let (polys, placed) = rho(&RECT, 8.0, 1, &piece, 2.0, &tol()).unwrap();
    assert_eq!(polys.len(), 1);
    assert!((area(&polys[0]) - 6.0).abs() < 1e-12);
    assert_eq!(placed[1], [2., 1.]);
}

#[test]
fn figure_4a_strong_intersection_is_invalid() {
    // The piece pokes through the bottom side.
    let piece = anchored(&[[0., 2.], [1., -1.], [2., 2.]]);
    let r = rho(&RECT, 8.0, 1, &piece, 4.5, &tol());
    assert_eq!(r.unwrap_err(), Illegal::Strong);
}

#[test]
fn figure_4b_two_weak_intersections_and_a_nil_polygon_are_valid() {
    // A trapezoid whose short side lies on the bottom side: two weak intersection points,
    // three sub-polygons, the middle one a doubled segment (nil).
    let piece = anchored(&[[0., 2.], [1., 0.], [2., 0.], [3., 2.]]);
    let (pseudo, _) = place(&RECT, 1, &piece);
    let sig = sigma(&pseudo, &tol());
    let polys = legal(&sig, 8.0, 4.0, &tol()).unwrap();
    assert_eq!(polys.len(), 2, "{polys:?}");
    let mut areas: Vec<f64> = polys.iter().map(|p| area(p)).collect();
    areas.sort_by(f64::total_cmp);
    assert!((areas[0] - 1.0).abs() < 1e-12 && (areas[1] - 3.0).abs() < 1e-12);
    assert!(polys.iter().all(|p| signed_area(p) < 0.0), "clockwise");
}

#[test]
fn figure_4c_weak_intersection_with_a_wrongly_oriented_sub_polygon_is_invalid() {
    // The piece's side passes exactly through the corner p4 and leaves the region there:
    // only weak intersections, but one sub-polygon is counter-clockwise.
    let piece = anchored(&[[0., 2.], [6., -1.], [6., 2.]]);
    let r = rho(&RECT, 8.0, 1, &piece, 9.0, &tol());
    assert_eq!(r.unwrap_err(), Illegal::WrongOrientation);
}

#[test]
fn a_piece_filling_the_polygon_leaves_the_nil_polygon() {
    let piece = anchored(&[[0., 2.], [0., 0.], [4., 0.], [4., 2.]]);
    let (polys, _) = rho(&RECT, 8.0, 1, &piece, 8.0, &tol()).unwrap();
    assert!(polys.is_empty());
}

#[test]
fn a_vertex_touching_the_far_side_splits_the_region_in_two() {
    let piece = anchored(&[[0., 2.], [1., 0.], [2., 2.]]);
    let (polys, _) = rho(&RECT, 8.0, 1, &piece, 2.0, &tol()).unwrap();
    assert_eq!(polys.len(), 2);
}

#[test]
fn sigma_merges_collinear_sides_and_drops_repeats() {
    let s = sigma(
        &[
            [0., 0.],
            [0., 1.],
            [0., 2.],
            [0., 2.],
            [4., 2.],
            [4., 0.],
            [2., 0.],
        ],
        &tol(),
    );
    assert_eq!(s, vec![[0., 0.], [0., 2.], [4., 2.], [4., 0.]]);
    // A doubled segment vanishes into the nil-polygon.
    assert!(sigma(&[[0., 0.], [1., 0.], [2., 0.], [1., 0.]], &tol()).is_empty());
}

#[test]
fn rounding_noise_far_below_the_tolerance_does_not_break_a_fit() {
    let mut piece = anchored(&[[0., 2.], [0., 0.], [4., 0.], [4., 2.]]);
    piece[2][0] += 1e-13;
    piece[1][1] -= 1e-13;
    let (polys, _) = rho(&RECT, 8.0, 1, &piece, 8.0, &tol()).unwrap();
    assert!(polys.is_empty());
}

#[test]
fn the_last_piece_fills_its_hole_despite_area_rounding_at_a_tight_tolerance() {
    // The Stomachion's last hole as the search meets it (a vertex 2e-15 off), with the
    // tolerance at 1e-9: the leftover area is ~1e-14, which must not fail the area guard.
    let tol = Tol::new(12.0, 1e-9);
    let hole = [[12.0, 0.0], [8.0, 4.0], [12.0, 6.000000000000002]];
    let hole_area = -signed_area(&hole);
    // Piece 9 of the sample, (8,4) (12,0) (12,6), anchored at (12,0) along (12,0)→(8,4).
    let d = [-4.0 / 32f64.sqrt(), 4.0 / 32f64.sqrt()];
    let local = |p: Pt| {
        let v = [p[0] - 12.0, p[1]];
        [v[0] * d[0] + v[1] * d[1], -v[0] * d[1] + v[1] * d[0]]
    };
    let piece = vec![local([12.0, 0.0]), local([12.0, 6.0]), local([8.0, 4.0])];
    let (polys, _) = rho(&hole, hole_area, 0, &piece, 12.0, &tol).unwrap();
    assert!(polys.is_empty());
}

mod sigma_properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// σ keeps the area, is idempotent, and removes exactly what was added to a convex
        /// polygon: repeated points, midpoints of sides and out-and-back spikes along a side.
        #[test]
        fn sigma_undoes_padding(
            angles in proptest::collection::btree_set(0u32..360, 3..9),
            pads in proptest::collection::vec((0usize..8, 0u8..3, 0.1f64..0.9), 0..6),
        ) {
            let mut deg: Vec<u32> = angles.into_iter().collect();
            deg.dedup_by(|a, b| *a - *b < 5);
            prop_assume!(deg.len() >= 3 && 360 - deg[deg.len() - 1] + deg[0] >= 5);
            // Clockwise: decreasing angle.
            let base: Vec<Pt> = deg
                .iter()
                .rev()
                .map(|&d| {
                    let t = (d as f64).to_radians();
                    [5.0 * t.cos(), 3.0 * t.sin()]
                })
                .collect();
            let n = base.len();
            let mut padded: Vec<Pt> = Vec::new();
            for i in 0..n {
                let (a, b) = (base[i], base[(i + 1) % n]);
                padded.push(a);
                for &(at, kind, f) in &pads {
                    if at % n != i {
                        continue;
                    }
                    let m = [a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])];
                    match kind {
                        0 => padded.push(a),
                        1 => padded.push(m),
                        _ => {
                            padded.push(m);
                            padded.push([a[0] + 0.5 * f * (b[0] - a[0]), a[1] + 0.5 * f * (b[1] - a[1])]);
                            padded.push(m);
                        }
                    }
                }
            }
            let t = tol();
            let s = sigma(&padded, &t);
            prop_assert_eq!(s.len(), n);
            prop_assert!(s.iter().all(|p| base.iter().any(|q| t.same(*p, *q))));
            prop_assert!((signed_area(&s) - signed_area(&base)).abs() < 1e-9);
            prop_assert_eq!(sigma(&s, &t), s.clone());
        }
    }
}

#[test]
fn the_pose_least_squares_pulled_onto_a_side_is_kept_as_an_alternative() {
    use super::place::poses;
    // A long thin piece at the top left corner of a 200 × 100 region, along the top side;
    // its far vertex lies 4 px above the bottom side (eps 2.5 px, contacts within 5 px).
    let region: [Pt; 4] = [[0., 0.], [0., 100.], [200., 100.], [200., 0.]];
    let tol = Tol::new(100.0, 0.025);
    let frame =
        |placed: &[Pt]| -> Vec<Pt> { placed.iter().map(|p| [p[0], p[1] - 100.0]).collect() };
    let near = frame(&[[0., 100.], [150., 4.], [20., 100.]]);
    let got = poses(&region, 1, &near, &tol, true);
    assert_eq!(got.len(), 2, "{got:?}");
    // Least squares pulled the far vertex onto the bottom side, turning the piece …
    assert!(got[0][1][1].abs() <= tol.eps, "{got:?}");
    // … and the pose PLACE gave comes second, as it was.
    assert_eq!(got[1], vec![[0., 100.], [150., 4.], [20., 100.]]);
    // A piece whose vertices are all on the region's outline or far from it: one pose.
    let clear = frame(&[[0., 100.], [150., 50.], [20., 100.]]);
    assert_eq!(poses(&region, 1, &clear, &tol, true).len(), 1);
    // Exact puzzles (no least squares): the PLACE pose only.
    assert_eq!(poses(&region, 1, &near, &tol, false).len(), 1);
}
