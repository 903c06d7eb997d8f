//! Fitting a left-out piece or a small cluster to a hole or a notch, and the regions offered
//! (fits to part of a region: `runs.rs`; knobs the front end damaged: `knobs.rs`).

use super::*;

/// A 3 × 3 grid of 40 px cells: the eight round the middle placed where they belong, the
/// middle one (a cell with a knob, photographed turned and elsewhere) left out, with a
/// smaller piece.
#[test]
fn a_piece_left_out_of_a_closed_hole_is_fitted_to_its_rim() {
    let mut shapes = Shapes {
        median_size: 40.0,
        ..Shapes::default()
    };
    let mut g = Growth {
        placed: vec![None; 10],
        clusters: 1,
        ..Growth::default()
    };
    for (k, (i, j)) in (0..3)
        .flat_map(|i| (0..3).map(move |j| (i, j)))
        .filter(|&c| c != (1, 1))
        .enumerate()
    {
        shapes.pieces.push(piece(
            k as u32 + 1,
            &cell(40.0 * i as f64, 40.0 * j as f64),
            Isometry2::identity(),
        ));
        g.placed[k] = Some(Placed::as_cut(k, Isometry2::identity()));
    }
    // The middle cell's left side bulges into a hole of its neighbour: a piece that fits
    // one way round only.
    let mut middle = cell(40.0, 40.0);
    middle.splice(
        3..3,
        [
            P2::new(40.0, 70.0),
            P2::new(30.0, 70.0),
            P2::new(30.0, 50.0),
            P2::new(40.0, 50.0),
        ],
    );
    let left = &mut shapes.pieces[1];
    *left = piece(2, &cell(0.0, 40.0), Isometry2::identity());
    let mut notched = cell(0.0, 40.0);
    notched.splice(
        2..2,
        [
            P2::new(40.0, 50.0),
            P2::new(30.0, 50.0),
            P2::new(30.0, 70.0),
            P2::new(40.0, 70.0),
        ],
    );
    notched.reverse();
    *left = piece(2, &notched, Isometry2::identity());
    let taken = Isometry2::new(Vector2::new(300.0, 120.0), 2.0);
    shapes.pieces.push(piece(9, &middle, taken));
    shapes
        .pieces
        .push(piece(10, &cell(0.0, 0.0)[..3], Isometry2::identity()));
    let frame = cluster_frame(&shapes, &g, 0, false).unwrap();
    let holes = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, 8.0);
    assert_eq!(holes.len(), 1);
    assert!(!holes[0].open);
    assert!((holes[0].area - 1800.0).abs() < 60.0, "{}", holes[0].area);
    let (pose, d) = fit_to_rim(&shapes.pieces[8].outline, &holes[0]);
    assert!(d < 2.0, "{d}");
    // Fitted as it was cut: its pose undoes the photograph's.
    let back = pose * taken;
    assert!(back.translation.vector.norm() < 1.5, "{back:?}");
    assert!(back.rotation.angle().abs() < 0.03, "{back:?}");
    // Without the picture a look-alike could not be told from it: nothing is placed.
    assert_eq!(
        fill_holes(
            &shapes,
            &SeamColours::default(),
            &mut g,
            &FitCache::default()
        ),
        0
    );
    assert!(g.placed[8].is_none());
    assert!(g.placed[9].is_none());
}

/// Two rows of three 40 px cells, the top middle one left out: an edge piece, its top side
/// straight and a knob on its lower side, photographed turned and elsewhere. The hull
/// closes the notch it leaves; its three shaped sides fit the notch's rim and bring it back
/// as it was cut, while a plain square of its size fits worse than the tolerance.
#[test]
fn an_edge_piece_left_out_of_a_notch_is_fitted_to_its_rim() {
    let (shapes, g) = cluster_of(&[(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)], |c| {
        (c == (1, 1)).then(cell_with_hole_on_top)
    });
    let edge = edge_with_knob_below();
    let taken = Isometry2::new(Vector2::new(300.0, 120.0), 2.0);
    let knobbed = piece(6, &edge, taken).outline;
    let plain = piece(7, &cell(40.0, 0.0), taken).outline;
    let frame = cluster_frame(&shapes, &g, 0, false).unwrap();
    let regions = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, 8.0);
    assert_eq!(regions.len(), 1);
    let notch = &regions[0];
    assert!(notch.open);
    assert!(fits_area(notch, 2000.0), "{}", notch.area);
    let limits = notch_limits(40.0);
    let tolerance = limits.tolerance;
    let found = fit_to_notch(&knobbed, None, notch, &frame, limits).unwrap();
    let d = found.distance;
    assert!(d < 1.5, "{d}");
    assert!(found.excused.is_none());
    let back = found.pose * taken;
    assert!(back.translation.vector.norm() < 1.5, "{back:?}");
    assert!(back.rotation.angle().abs() < 0.03, "{back:?}");
    let square = fit_to_notch(&plain, None, notch, &frame, limits);
    assert!(square.is_none_or(|f| f.distance > tolerance), "{square:?}");
}

/// Two rows of three 40 px cells, the top middle one left out and its neighbours 10 px
/// taller (a wavy puzzle edge): the hull's chord runs 10 px above where the edge piece's top
/// side goes, and that side lies deep in the hull (the notch depth is 8 px), up to 20 px from
/// the rim. Compared, 29 of its 40 points lie over twice the tolerance (5.6 px) from the rim
/// and the fit is refused at home; as the item's border side, its points nearer the hull's
/// edge than the rim face the outside and are left out, and the piece fits as it was cut.
/// (Without them, since the notch fit's last stage pairs only points within twice the
/// tolerance, a pose turned 7.5° passes at 2.06 px: it lifts part of that side above the
/// notch depth, where it is not compared.)
#[test]
fn an_item_border_side_deep_in_the_hull_is_left_out_of_the_notch_fit() {
    let (shapes, g) = edge_notch_between_taller_neighbours(10.0);
    let taken = Isometry2::new(Vector2::new(300.0, 120.0), 2.0);
    let knobbed = piece(6, &edge_with_knob_below(), taken).outline;
    // The outline starts with its top side, (40, 0) to (80, 0), one point a pixel.
    let border = Rim::new(knobbed[..40].to_vec());
    let frame = cluster_frame(&shapes, &g, 0, false).unwrap();
    let regions = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, 8.0);
    assert_eq!(regions.len(), 1);
    let notch = &regions[0];
    let limits = notch_limits(40.0);
    let home = |fit: Option<Found>| {
        fit.is_some_and(|f| {
            let back = f.pose * taken;
            back.translation.vector.norm() < 1.5 && back.rotation.angle().abs() < 0.03
        })
    };
    assert!(!home(fit_to_notch(&knobbed, None, notch, &frame, limits)));
    let found = fit_to_notch(&knobbed, Some(&border), notch, &frame, limits).unwrap();
    let d = found.distance;
    assert!(d < 1.5, "{d}");
    let back = found.pose * taken;
    assert!(back.translation.vector.norm() < 1.5, "{back:?}");
    assert!(back.rotation.angle().abs() < 0.03, "{back:?}");
}

/// Two rows of five 40 px cells, the second and fourth of the top row left out, the first
/// and last 6 px taller: the hull's chord runs 6 px above the middle cell, and the strip
/// under it joins the two notches into one region. Each is also a region of its own, since
/// only what lies deeper than the notch depth (8 px) inside the hull separates them; without
/// that depth the strip makes them one only.
#[test]
fn notches_joined_by_the_strip_under_the_hull_are_regions_of_their_own() {
    let (shapes, g) = two_rows_with_tall_ends(5, &[1, 3]);
    let frame = cluster_frame(&shapes, &g, 0, false).unwrap();
    let joined = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, f64::INFINITY);
    assert_eq!(joined.len(), 1);
    assert!(joined[0].area > 3400.0, "{}", joined[0].area);
    let mut regions = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, 8.0);
    assert_eq!(regions.len(), 3);
    regions.sort_by(|a, b| a.area.total_cmp(&b.area));
    assert!((regions[2].area - joined[0].area).abs() < 1.0);
    assert_eq!(regions[2].rim.len(), joined[0].rim.len());
    regions.truncate(2);
    regions.sort_by(|a, b| a.centroid.x.total_cmp(&b.centroid.x));
    for (notch, x) in regions.iter().zip([60.0, 140.0]) {
        assert!(notch.open);
        assert!((notch.centroid.x - x).abs() < 3.0, "{:?}", notch.centroid);
        assert!((1500.0..2200.0).contains(&notch.area), "{}", notch.area);
    }
}

/// Two rows of seven 40 px cells, the second of the top row left out, the first and last
/// 6 px taller: the notch's region runs on along the strip under the hull's chord to the far
/// end. It is offered whole and, without that wing, as the notch alone.
#[test]
fn a_notch_with_a_long_wing_is_also_offered_without_it() {
    let (shapes, g) = two_rows_with_tall_ends(7, &[1]);
    let frame = cluster_frame(&shapes, &g, 0, false).unwrap();
    let whole = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, f64::INFINITY);
    assert_eq!(whole.len(), 1);
    let mut regions = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, 8.0);
    assert_eq!(regions.len(), 2);
    regions.sort_by(|a, b| a.area.total_cmp(&b.area));
    assert!((regions[1].area - whole[0].area).abs() < 1.0);
    let notch = &regions[0];
    assert!(
        notch.area < 0.9 * whole[0].area,
        "{} {}",
        notch.area,
        whole[0].area
    );
    assert!(
        (notch.centroid.x - 60.0).abs() < 4.0,
        "{:?}",
        notch.centroid
    );
}

/// A 3 × 3 grid of 40 px cells without its top left corner: the hull's chord between the
/// corner's neighbours cuts the corner notch in half (800 px², under 0.4 of a cell with the
/// seams' band), and the least rectangle's corner, taken into the hull, gives it whole.
#[test]
fn a_missing_corner_piece_leaves_a_whole_notch_when_the_corner_is_taken_in() {
    let (shapes, g) = cluster_of(&grid_cells(3, 3, &[(0, 0)]), |_| None);
    let notch_area = |corners: bool| {
        let frame = cluster_frame(&shapes, &g, 0, corners).unwrap();
        let regions = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, 8.0);
        let area = regions.iter().map(|h| h.area).sum::<f64>();
        (frame.corners_taken_in, area)
    };
    let (taken, cut) = notch_area(false);
    assert!(taken.is_empty());
    assert!(cut < 0.6 * 1600.0, "{cut}");
    let (taken, whole) = notch_area(true);
    // The grid's top left corner, (0, 0), within the seams' few pixels.
    assert_eq!(taken.len(), 1);
    assert!(taken[0].coords.norm() < 3.0, "{:?}", taken[0]);
    assert!((whole - 1600.0).abs() < 0.1 * 1600.0, "{whole}");
    // With the corner piece in place no corner is empty.
    let (shapes, g) = cluster_of(&[(0, 0), (1, 0), (0, 1), (1, 1)], |_| None);
    let frame = cluster_frame(&shapes, &g, 0, true).unwrap();
    assert!(frame.corners_taken_in.is_empty());
}

/// A 3 × 3 grid of 40 px cells without its top left corner and the piece beside it: the notch
/// the hull's chord leaves lies in the empty corner (part of the corner's region once that is
/// taken in). Without the top middle piece alone no corner is empty, and its notch lies in
/// none.
#[test]
fn a_notch_under_the_chord_across_an_empty_corner_lies_in_it() {
    let notches = |left_out: &[(i32, i32)]| {
        let (shapes, g) = cluster_of(&grid_cells(3, 3, left_out), |_| None);
        let frame = cluster_frame(&shapes, &g, 0, false).unwrap();
        let regions = empty_regions(&frame, 40.0 * 40.0 / 3.0, 5, 8.0);
        assert_eq!(regions.len(), 1, "{left_out:?}");
        frame.in_an_empty_corner(&regions[0].inside, 40.0)
    };
    assert!(notches(&[(0, 0), (1, 0)]));
    assert!(!notches(&[(1, 0)]));
}

/// Two rows of three 40 px cells, the top middle one left out and its neighbours 30 px taller
/// (the puzzle's edge bows in there): the edge piece placed home, the middle of its top side
/// lies 30 px deep in the hull but only 20 px from the rim, and faces the bay under the
/// hull's chord and the outside beyond it; its left side faces its neighbour, as does the
/// top side of a piece placed upside down in that notch.
#[test]
fn a_border_side_under_a_bay_faces_the_outside_and_a_side_by_a_neighbour_does_not() {
    let (shapes, g) = edge_notch_between_taller_neighbours(30.0);
    let frame = cluster_frame(&shapes, &g, 0, false).unwrap();
    let limits = notch_limits(40.0);
    // From (40, 0) clockwise: the top side's middle is point 20, the left side's point 180.
    let home = piece(6, &edge_with_knob_below(), Isometry2::identity()).outline;
    assert_eq!(
        (home[20], home[180]),
        (P2::new(60.0, 0.0), P2::new(40.0, 20.0))
    );
    assert!(frame.depth(&home[20]) > 25.0);
    assert!(faces_outside(&home, 20, 1.0, &frame, limits));
    assert!(!faces_outside(&home, 180, 1.0, &frame, limits));
    let upside_down = Isometry2::new(Vector2::new(120.0, 40.0), std::f64::consts::PI);
    let turned = piece(7, &edge_with_knob_below(), upside_down).outline;
    assert!(!faces_outside(&turned, 20, 1.0, &frame, limits));
}

/// A V-shaped notch and the triangle that fills it, 100 px wide: its top side lies deep inside
/// the hull (the puzzle's edge bows in there) and faces no rim. Paired to the end, that side's
/// points pull towards the V's sides and take the triangle 11 px off its place (translation
/// plus 50 px per radian; irregular 100 photos seed 72: 10 px, and its notch piece was left
/// out); trimmed to pairs within the cap, then within twice the tolerance, it settles within
/// 1.5 (the side's ends, within reach of the V's sides, still pull a little).
#[test]
fn a_notch_fit_is_not_pulled_off_by_a_side_that_faces_no_rim() {
    let along = |a: P2, b: P2| -> Vec<P2> {
        let n = (b - a).norm().round() as usize;
        (0..n)
            .map(|k| a + (b - a) * (k as f64 / n as f64))
            .collect()
    };
    let [left, right, bottom] = [P2::new(0.0, 0.0), P2::new(100.0, 0.0), P2::new(40.0, 60.0)];
    let top = along(left, right);
    let sides = [along(right, bottom), along(bottom, left)].concat();
    let outline = [top.clone(), sides.clone()].concat();
    let rim = Rim::new(sides.clone());
    let start = mean_point(&outline) + Vector2::new(3.0, -4.0);
    let fit = |stages: &[(f64, usize)]| {
        let score = |pose: &Isometry2<f64>| {
            sides
                .iter()
                .map(|q| rim.nearest(&(pose * q)).1)
                .sum::<f64>()
                / sides.len() as f64
        };
        let (pose, _) = best_icp(&outline, &rim, start, |_| true, stages, score);
        pose.translation.vector.norm() + 50.0 * pose.rotation.angle().abs()
    };
    let paired_to_the_end = fit(&[(f64::INFINITY, ICP_ITERATIONS)]);
    assert!(paired_to_the_end > 5.0, "{paired_to_the_end}");
    let trimmed = fit(&notch_stages(notch_limits(100.0)));
    assert!(trimmed < 2.0, "{trimmed}");
}

/// Two rows of three 40 px cells, the top middle one left out (its place under the hole in the
/// top side of the cell below, see [`edge_with_knob_below`]) and its neighbours `taller` px
/// taller than the cut: the puzzle's edge bows in there.
fn edge_notch_between_taller_neighbours(taller: f64) -> (Shapes, Growth) {
    cluster_of(&[(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)], |c| match c {
        (1, 1) => Some(cell_with_hole_on_top()),
        (i, 0) => {
            let x = 40.0 * i as f64;
            Some(vec![
                P2::new(x, -taller),
                P2::new(x + 40.0, -taller),
                P2::new(x + 40.0, 40.0),
                P2::new(x, 40.0),
            ])
        }
        _ => None,
    })
}
