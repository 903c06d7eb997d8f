//! The knobs the front end damaged, excused in a notch fit (`holes/knobs.rs`): a knob into a
//! sealed socket, one swallowed by the piece's own sealed socket, and one lost.

use super::*;

/// Two rows of three 40 px cells, the top middle one left out: the cell left of the notch has
/// a bump (10 px deep) on its right side, and the edge piece a socket on its left side where
/// it goes, so that the piece fits one way round only. `below` shapes the cell under the
/// notch, `bottom` the piece's lower side (from its right end to its left). The piece's
/// outline, photographed turned and elsewhere, and its pose there.
fn sealed_socket_notch(
    below: Option<Vec<P2>>,
    bottom: &[P2],
) -> (Frame, Vec<Hole>, Vec<P2>, Isometry2<f64>) {
    let (shapes, g) = cluster_of(&[(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)], |c| match c {
        (0, 0) => {
            let mut bumped = cell(0.0, 0.0);
            bumped.splice(
                2..2,
                [
                    P2::new(40.0, 14.0),
                    P2::new(50.0, 14.0),
                    P2::new(50.0, 26.0),
                    P2::new(40.0, 26.0),
                ],
            );
            Some(bumped)
        }
        (1, 1) => below.clone(),
        _ => None,
    });
    let mut corners = cell(40.0, 0.0);
    corners.splice(3..3, bottom.iter().copied());
    corners.extend([
        P2::new(40.0, 26.0),
        P2::new(50.0, 26.0),
        P2::new(50.0, 14.0),
        P2::new(40.0, 14.0),
    ]);
    let taken = Isometry2::new(Vector2::new(300.0, 120.0), 2.0);
    let outline = piece(6, &corners, taken).outline;
    let frame = cluster_frame(&shapes, &g, 0, false).unwrap();
    let regions = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, 8.0);
    (frame, regions, outline, taken)
}

/// The piece of [`sealed_socket_notch`] (`below`, `bottom` as there) fitted to its notch: found
/// as cut (the knob's sides, paired with what is left of the other side, lift it a little),
/// with a knob excused (`why` it must be), the rest of the fit within half the tolerance.
/// Returns the fit and its distance without the knob.
fn fitted_as_cut_with_a_knob_excused(
    below: Option<Vec<P2>>,
    bottom: &[P2],
    why: &str,
) -> (Found, f64) {
    let (frame, regions, outline, taken) = sealed_socket_notch(below, bottom);
    let limits = notch_limits(40.0);
    let found = fit_to_notch(&outline, None, &regions[0], &frame, limits).unwrap();
    let back = found.pose * taken;
    assert!(back.translation.vector.norm() < 2.5, "{back:?}");
    assert!(back.rotation.angle().abs() < 0.03, "{back:?}");
    let elsewhere = found.excused.expect(why);
    assert!(elsewhere < 0.5 * limits.tolerance, "{elsewhere}");
    (found, elsewhere)
}

/// [`sealed_socket_notch`] with a small knob (10 px wide, 8 deep) on the edge piece's lower
/// side, but no socket in the neighbour below: the front end sealed it. The knob cuts into
/// that neighbour at about a tenth of the outline, over the 8 % allowed, in one run no longer
/// than a knob: the fit is found, as cut, and marked sealed, the rest of the outline fitting
/// closely.
#[test]
fn a_knob_into_a_sealed_socket_is_excused_where_the_rest_fits_closely() {
    let knob = [
        P2::new(65.0, 40.0),
        P2::new(65.0, 48.0),
        P2::new(55.0, 48.0),
        P2::new(55.0, 40.0),
    ];
    let (found, elsewhere) =
        fitted_as_cut_with_a_knob_excused(None, &knob, "the knob cuts into the sealed socket");
    // The knob's points count at the cap: the fit reads looser than the rest of it.
    assert!(found.distance > elsewhere + 0.2, "{found:?}");
}

/// The mirror: the neighbour below has a knob (10 px wide, 10 high) up into the notch, and
/// the edge piece's socket for it is sealed, its lower side straight. At its true pose the
/// knob lies inside the piece, its tip over twice the tolerance from the outline, an eighth
/// of the notch's deep rim: one knob's span of rim swallowed, the fit is found as cut and
/// marked sealed.
#[test]
fn a_knob_swallowed_by_the_pieces_own_sealed_socket_is_excused() {
    let mut below = cell(40.0, 40.0);
    below.splice(
        1..1,
        [
            P2::new(55.0, 40.0),
            P2::new(55.0, 30.0),
            P2::new(65.0, 30.0),
            P2::new(65.0, 40.0),
        ],
    );
    fitted_as_cut_with_a_knob_excused(Some(below), &[], "the knob lies in the sealed socket");
}

/// Cutting into the cluster is excused for one run no longer than a knob (15 % of the
/// outline) with little elsewhere (4 %); within 8 % nothing needs excusing.
#[test]
fn only_one_knob_long_run_cutting_in_is_excused() {
    let flags = |runs: &[(usize, usize)]| {
        let mut f = vec![false; 100];
        for &(start, len) in runs {
            for k in start..start + len {
                f[k % 100] = true;
            }
        }
        f
    };
    assert_eq!(
        sealed_socket(&flags(&[(10, 8)]), 0.08),
        Some(vec![false; 100])
    );
    let excused = sealed_socket(&flags(&[(95, 12), (40, 3)]), 0.08).unwrap();
    assert_eq!(excused.iter().filter(|&&e| e).count(), 12);
    assert!(excused[95] && excused[6] && !excused[7] && !excused[40]);
    assert_eq!(sealed_socket(&flags(&[(10, 16)]), 0.08), None);
    assert_eq!(sealed_socket(&flags(&[(10, 10), (50, 5)]), 0.08), None);
}

/// A fit that excuses a knob cutting into a sealed socket counts only where the rest of its
/// outline fits within half the tolerance.
#[test]
fn a_fit_excusing_a_sealed_socket_counts_only_where_the_rest_fits_tightly() {
    let fit = |excused| Fit {
        excused,
        ..fit_of(false, 3.0, 1.0)
    };
    assert!(tight_beside_an_excused_knob(&fit(None)));
    assert!(tight_beside_an_excused_knob(&fit(Some(1.5))));
    assert!(!tight_beside_an_excused_knob(&fit(Some(2.8))));
}

/// Rim points far from a placed 40 px square are excused where they lie inside it within a
/// knob's span of one another (0.35 of the median piece, 14 px), not where they lie outside
/// it or in two places.
#[test]
fn only_rim_swallowed_in_one_place_is_excused() {
    let square: Vec<P2> = piece(1, &cell(0.0, 0.0), Isometry2::identity()).outline;
    let limits = notch_limits(40.0);
    let judge = |far: &[P2]| {
        // The far rim points given, then every other point of the square's outline (80).
        let mut deep: Vec<P2> = far.to_vec();
        deep.extend(square.iter().step_by(2).take(100 - far.len()).copied());
        let back: Vec<f64> = deep.iter().map(|q| distance_to(q, &square)).collect();
        swallowed_knob(&deep, &back, &square, limits)
    };
    let knob = |x: f64, y: f64| -> Vec<P2> {
        (0..12)
            .map(|k| P2::new(x + (k % 4) as f64 * 3.0, y + (k / 4) as f64 * 3.0))
            .collect()
    };
    let few = judge(&knob(14.0, 14.0)[..5]).expect("within the outliers allowed");
    assert!(few.iter().all(|&e| !e));
    let excused = judge(&knob(14.0, 14.0)).unwrap();
    assert_eq!(excused.iter().filter(|&&e| e).count(), 12);
    assert_eq!(judge(&knob(14.0, -20.0)), None);
    let mut two = knob(8.0, 8.0)[..6].to_vec();
    two.extend(&knob(24.0, 24.0)[6..]);
    assert_eq!(judge(&two), None);
}

/// The neighbour below has a socket (10 px wide, 10 deep) for the edge piece's knob, and the
/// front end lost that knob, the piece traced with a socket (10 deep) in its place: at the
/// true pose the traced socket lies deep inside the piece and the neighbour's socket stays
/// empty, each over twice the tolerance from the other side at more than the outliers
/// allowed. Both excused as one lost knob, the fit is found and marked, the rest fitting
/// closely.
#[test]
fn a_knob_lost_by_the_front_end_is_excused_where_the_rest_fits_closely() {
    let mut below = cell(40.0, 40.0);
    below.splice(
        1..1,
        [
            P2::new(55.0, 40.0),
            P2::new(55.0, 50.0),
            P2::new(65.0, 50.0),
            P2::new(65.0, 40.0),
        ],
    );
    let lost = [
        P2::new(65.0, 40.0),
        P2::new(65.0, 30.0),
        P2::new(55.0, 30.0),
        P2::new(55.0, 40.0),
    ];
    fitted_as_cut_with_a_knob_excused(Some(below), &lost, "the knob was lost");
}

/// A lost knob is excused where the outline's far points are one knob-long run and the rim's
/// far points one knob's span outside the outline, meeting it: not a socket against a rim
/// with nothing empty beyond it, nor an empty socket on the other side of the piece, nor
/// more of the rim left empty than a knob's share.
#[test]
fn only_a_socket_traced_where_an_empty_socket_meets_it_is_a_lost_knob() {
    // A 40 px square traced with a socket 10 px wide and 10 deep in its bottom side.
    let mut corners = cell(0.0, 0.0);
    corners.splice(
        3..3,
        [
            P2::new(25.0, 40.0),
            P2::new(25.0, 30.0),
            P2::new(15.0, 30.0),
            P2::new(15.0, 40.0),
        ],
    );
    let placed = piece(1, &corners, Isometry2::identity()).outline;
    let limits = notch_limits(40.0);
    let far = limits.far();
    // The rim: the square's sides as they should be (bottom straight), and `bowl`'s points.
    let judge = |bowl: &[P2]| {
        let square = piece(2, &cell(0.0, 0.0), Isometry2::identity()).outline;
        let mut deep: Vec<P2> = square.iter().step_by(2).copied().collect();
        deep.extend(bowl);
        let back: Vec<f64> = deep.iter().map(|q| distance_to(q, &placed)).collect();
        let deep_far: Vec<bool> = placed.iter().map(|q| distance_to(q, &deep) > far).collect();
        lost_knob(&placed, &deep_far, &deep, &back, limits)
    };
    let bowl = |x: f64, y: f64| -> Vec<P2> {
        (0..9)
            .map(|k| P2::new(x + (k % 3) as f64 * 4.0, y + (k / 3) as f64 * 4.0))
            .collect()
    };
    let (outline_mask, back_mask) = judge(&bowl(16.0, 42.0)).expect("a lost knob");
    assert!(outline_mask.iter().any(|&e| e));
    assert!(back_mask.iter().filter(|&&e| e).count() >= 6);
    assert_eq!(judge(&[]), None);
    assert_eq!(judge(&bowl(16.0, -10.0)), None);
    // More rim left empty than a knob's share, even within a knob's span: not a lost knob.
    let wide: Vec<P2> = (0..30)
        .map(|k| P2::new(14.0 + (k % 6) as f64 * 2.0, 46.0 + (k / 6) as f64 * 2.0))
        .collect();
    assert_eq!(judge(&wide), None);
}
