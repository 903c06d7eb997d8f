//! Fitting the end pieces of a run of border pieces left out side by side to part of the
//! notch they leave (see `partial`).

use super::*;

/// Two rows of four 40 px cells, the middle two of the top row left out: one notch of two
/// pieces' area, which no single piece fills. The left one of the run has a knob on its
/// lower side; its left and lower sides meet the rim, its right side faces the other empty
/// cell. It is fitted to that part of the notch and brought back as it was cut. The right
/// end of the notch has a knob of its neighbour reaching in: neither piece fits there.
/// A plain square fits neither end (at the left one, the knob's hole would be left
/// empty).
#[test]
fn the_end_piece_of_a_run_left_out_is_fitted_to_part_of_the_notch() {
    let cells = [(0, 0), (3, 0), (0, 1), (1, 1), (2, 1), (3, 1)];
    let (shapes, g) = cluster_of(&cells, |c| match c {
        (1, 1) => Some(cell_with_hole_on_top()),
        // A knob into the right end, on its left side.
        (3, 0) => {
            let mut corners = cell(120.0, 0.0);
            corners.extend([
                P2::new(120.0, 30.0),
                P2::new(105.0, 30.0),
                P2::new(105.0, 15.0),
                P2::new(120.0, 15.0),
            ]);
            Some(corners)
        }
        _ => None,
    });
    let end = edge_with_knob_below();
    let taken = Isometry2::new(Vector2::new(300.0, 120.0), 2.0);
    let knobbed = piece(7, &end, taken).outline;
    let plain = piece(8, &cell(40.0, 0.0), taken).outline;
    let (frame, notch) = the_notch_of_a_run(&shapes, &g, 1600.0 + 400.0);
    let bar = fitted_home_to_part(&knobbed, &notch, &frame, taken);
    let squares = fit_partial(&plain, None, &notch, &frame, notch_limits(40.0), 40.0);
    assert!(squares.iter().all(|&(_, d)| d > bar), "{squares:?}");
}

/// Three rows of seven 40 px cells with seven left out together: columns 1–4 of the top row
/// and 2–4 of the middle row, one notch of over five pieces' area (a cluster of five that
/// belongs there, and two pieces at its ends, irregular 100 photos seed 97). No piece fills
/// it whole, and until session 35 no piece was fitted to part of it either (only regions of
/// up to four and a half pieces' area were). Now it is filled from its ends while a cluster of
/// half its area or more waits for it, and only then: the strips between an irregular edge and
/// the hull are as wide, and fitting every piece to parts of them costs much for nothing.
#[test]
fn a_wide_notch_is_filled_from_its_ends_only_while_a_cluster_waits_for_it() {
    let left_out = [(1, 0), (2, 0), (3, 0), (4, 0), (2, 1), (3, 1), (4, 1)];
    let (shapes, g) = cluster_of(&grid_cells(7, 3, &left_out), |_| None);
    let frame = cluster_frame(&shapes, &g, 0, false).unwrap();
    let regions = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, 8.0);
    let notch = regions
        .iter()
        .max_by(|a, b| a.area.total_cmp(&b.area))
        .expect("the notch");
    assert!(notch.open);
    let area = 1600.0;
    assert!(
        notch.area > 4.5 * area && !fits_area(notch, area),
        "{}",
        notch.area
    );
    let cluster = |pieces: f64| Item {
        members: Vec::new(),
        outline: Vec::new(),
        area: pieces * area,
        centroid: P2::origin(),
        cluster: Some(1),
        member_of: None,
        key: 0,
        border: None,
    };
    assert!(!holds_a_run(notch, area, run_area(notch, &[])));
    assert!(!holds_a_run(notch, area, run_area(notch, &[cluster(2.0)])));
    assert!(holds_a_run(notch, area, run_area(notch, &[cluster(5.0)])));
    // A single piece is an item too, but waits for nothing.
    let piece = Item {
        cluster: None,
        ..cluster(5.0)
    };
    assert!(!holds_a_run(notch, area, run_area(notch, &[piece])));
}

/// Three rows of three 40 px cells, the middle column's top two left out: a notch one piece
/// wide and two deep. The piece at its dead end has knobs into its left and right
/// neighbours (their sockets 1 px wider all round, so that no corner of the raster's rim cuts
/// in), so that it meets the rim along all but its top side, which faces the rest of the run:
/// 29 of its 240 px, an eighth (irregular 100 photos seed 59: 0.08, a piece held on five sides
/// whose short sixth faced the two pieces above it). Until session 36 an open side of less
/// than 15 % was taken for a piece filling the region, and the piece fitted no part of it; then
/// 6 % did for a piece lying deep inside the hull all round, and since session 41 any open
/// side does.
#[test]
fn the_piece_at_the_dead_end_of_a_run_left_out_is_fitted_though_its_open_side_is_short() {
    let left_out = [(1, 0), (1, 1)];
    let cells = grid_cells(3, 3, &left_out);
    let (shapes, g) = cluster_of(&cells, |c| match c.1 {
        1 => sockets_beside_a_dead_end(c, 40.0),
        _ => None,
    });
    let dead_end = dead_end_at(40.0);
    let taken = Isometry2::new(Vector2::new(300.0, 120.0), 2.0);
    let knobbed = piece(20, &dead_end, taken).outline;
    let plain = piece(21, &cell(40.0, 40.0), taken).outline;
    let (frame, notch) = the_notch_of_a_run(&shapes, &g, 1600.0 + 2.0 * 400.0);
    let bar = fitted_home_to_part(&knobbed, &notch, &frame, taken);
    // A plain square leaves the two knob holes empty: it fits the notch's other end, by the
    // puzzle's edge, but not the dead end.
    let squares = fit_partial(&plain, None, &notch, &frame, notch_limits(40.0), 40.0);
    let middle = taken * P2::new(60.0, 60.0);
    assert!(
        squares
            .iter()
            .all(|&(pose, d)| d > bar || (pose * middle).y < 40.0),
        "{squares:?}"
    );
}

/// The cells beside the dead end of a run in the middle column, at row top `y`: sockets, 1 px
/// wider all round than the dead end's knobs, in their sides facing it.
fn sockets_beside_a_dead_end(c: (i32, i32), y: f64) -> Option<Vec<P2>> {
    let p = |x: f64, dy: f64| P2::new(x, y + dy);
    match c.0 {
        0 => Some(vec![
            p(0.0, 0.0),
            p(40.0, 0.0),
            p(40.0, 9.0),
            p(19.0, 9.0),
            p(19.0, 31.0),
            p(40.0, 31.0),
            p(40.0, 40.0),
            p(0.0, 40.0),
        ]),
        2 => Some(vec![
            p(80.0, 0.0),
            p(120.0, 0.0),
            p(120.0, 40.0),
            p(80.0, 40.0),
            p(80.0, 31.0),
            p(101.0, 31.0),
            p(101.0, 9.0),
            p(80.0, 9.0),
        ]),
        _ => None,
    }
}

/// The piece at the dead end, the middle cell of the row at `y`, with knobs into its left and
/// right neighbours.
fn dead_end_at(y: f64) -> Vec<P2> {
    [
        (40.0, 0.0),
        (80.0, 0.0),
        (80.0, 10.0),
        (100.0, 10.0),
        (100.0, 30.0),
        (80.0, 30.0),
        (80.0, 40.0),
        (40.0, 40.0),
        (40.0, 30.0),
        (20.0, 30.0),
        (20.0, 10.0),
        (40.0, 10.0),
    ]
    .iter()
    .map(|&(x, dy)| P2::new(x, y + dy))
    .collect()
}

/// The one region of a cluster of 40 px cells: an open notch too large for an item of `area`
/// whole but holding a run of them.
fn the_notch_of_a_run(shapes: &Shapes, g: &Growth, area: f64) -> (Frame, Hole) {
    let frame = cluster_frame(shapes, g, 0, false).unwrap();
    let mut regions = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, 8.0);
    assert_eq!(regions.len(), 1);
    let notch = regions.remove(0);
    assert!(notch.open);
    assert!(
        !fits_area(&notch, area) && holds_a_run(&notch, area, run_area(&notch, &[])),
        "{}",
        notch.area
    );
    (frame, notch)
}

/// `outline`'s best fit to part of `notch`: within the bar of such fits, bringing it back as it
/// was cut (undoing `taken`), and nowhere else nearly as well. Returns the bar.
fn fitted_home_to_part(outline: &[P2], notch: &Hole, frame: &Frame, taken: Isometry2<f64>) -> f64 {
    let limits = notch_limits(40.0);
    let bar = PARTIAL_TOLERANCE * limits.tolerance;
    let places = fit_partial(outline, None, notch, frame, limits, 40.0);
    let &(pose, d) = places.first().expect("a fit to part of the notch");
    assert!(d < bar, "{d}");
    let back = pose * taken;
    assert!(back.translation.vector.norm() < 1.5, "{back:?}");
    assert!(back.rotation.angle().abs() < 0.03, "{back:?}");
    assert!(
        places[1..].iter().all(|&(_, other)| other >= AMBIGUITY * d),
        "{places:?}"
    );
    bar
}

/// As above, a row deeper, and the two pieces above the dead end each reach 10 px into the
/// middle column along their lower side: the piece at the dead end meets the rim along all
/// of its outline but a gap of 20 px (10 px of it farther from the rim than twice the
/// tolerance, 4 % of the outline; irregular 100 photos seed 68: 0.036,
/// once a neighbour was placed). It is still a fit to part of the region, which reaches on
/// through the gap: a piece deep inside the hull all round needs no open side of any length.
#[test]
fn a_piece_held_all_round_but_for_a_narrow_gap_fits_part_of_the_region() {
    let left_out = [(1, 0), (1, 1), (1, 2)];
    let cells = grid_cells(3, 4, &left_out);
    let p = |x: f64, y: f64| P2::new(x, y);
    let (shapes, g) = cluster_of(&cells, |c| match c {
        (0, 1) => Some(vec![
            p(0.0, 40.0),
            p(40.0, 40.0),
            p(40.0, 72.0),
            p(50.0, 72.0),
            p(50.0, 80.0),
            p(0.0, 80.0),
        ]),
        (2, 1) => Some(vec![
            p(80.0, 40.0),
            p(120.0, 40.0),
            p(120.0, 80.0),
            p(70.0, 80.0),
            p(70.0, 72.0),
            p(80.0, 72.0),
        ]),
        (_, 2) => sockets_beside_a_dead_end(c, 80.0),
        _ => None,
    });
    let dead_end = dead_end_at(80.0);
    let taken = Isometry2::new(Vector2::new(300.0, 120.0), 2.0);
    let knobbed = piece(20, &dead_end, taken).outline;
    let (frame, notch) = the_notch_of_a_run(&shapes, &g, 1600.0 + 2.0 * 400.0);
    fitted_home_to_part(&knobbed, &notch, &frame, taken);
}

/// A rim point is the piece's to claim only where nothing placed lies between it and the
/// outline: the segment across a 40 px cell is covered along its whole width, the one that
/// clips a cell's corner for about 14 px only under a larger limit, one beside the cells
/// not at all.
#[test]
fn rim_behind_a_placed_piece_is_told_by_the_pieces_across_the_segment() {
    let (shapes, g) = cluster_of(&[(0, 0), (1, 0), (2, 0)], |_| None);
    let frame = cluster_frame(&shapes, &g, 0, false).unwrap();
    let p = |x: f64, y: f64| P2::new(x, y);
    assert!(across_pieces(&frame, &p(60.0, -20.0), &p(60.0, 60.0), 8.0));
    assert!(across_pieces(&frame, &p(-10.0, 20.0), &p(20.0, -10.0), 8.0));
    assert!(!across_pieces(
        &frame,
        &p(-10.0, 20.0),
        &p(20.0, -10.0),
        20.0
    ));
    assert!(!across_pieces(
        &frame,
        &p(0.0, -20.0),
        &p(120.0, -20.0),
        0.0
    ));
}
