//! The assignment of members and chiralities to placings.

use super::*;

#[test]
fn the_pose_is_recovered_from_corresponding_points() {
    let from = [[0.0, 0.0], [4.0, 0.0], [1.0, 3.0]];
    let want = Pose {
        theta: 0.7,
        t: [5.0, -2.0],
    };
    let to: Vec<Pt> = from.iter().map(|&q| want.apply(q)).collect();
    let got = fit_pose(&from, &to);
    assert!((got.theta - 0.7).abs() < 1e-12 && dist(got.t, want.t) < 1e-12);
}

#[test]
fn a_near_symmetric_piece_is_turned_the_way_its_neighbours_say() {
    // A kite almost symmetric about the x axis (the tip is 0.3 off it), so that its mirror
    // image is the same shape within the tolerance. The search placed it face up; the
    // corners around it are those of the kite reflected about its axis.
    let kite = vec![[0.0, 0.0], [6.0, -2.0], [10.0, 0.3], [6.0, 2.0]];
    let tol = Tol::new(10.0, 0.1);
    let pose = Pose {
        theta: 0.3,
        t: [20.0, 10.0],
    };
    let local = anchors(&kite, true, &tol)[0].local.clone();
    let placed_pts: Vec<Pt> = kite.iter().map(|&q| pose.apply(q)).collect();
    let around: Vec<Pt> = kite.iter().map(|&q| pose.apply([q[0], -q[1]])).collect();
    let placed = [Placed {
        class: 0,
        local: &local,
        vertices: &placed_pts,
    }];
    let got = assign(
        &placed,
        &[vec![0]],
        std::slice::from_ref(&kite),
        std::slice::from_ref(&kite),
        true,
        &[around],
        &tol,
    );
    assert!(got[0].1.mirror, "{:?}", got[0].1);
    assert!(got[0].1.cost < 1e-6, "{:?}", got[0].1);
    // Face up it fits its own placed outline, and the neighbours only to 0.6 at the tip.
    let up = assign(
        &placed,
        &[vec![0]],
        std::slice::from_ref(&kite),
        std::slice::from_ref(&kite),
        false,
        std::slice::from_ref(&placed_pts),
        &tol,
    );
    assert!(!up[0].1.mirror && up[0].1.cost < 1e-6);
}

#[test]
fn congruent_copies_go_where_they_fit() {
    // Two squares, one 0.2 larger: the search hands out copies in order, the fit swaps
    // them when the surrounding corners say so.
    let small = vec![[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]];
    let large = vec![[0.0, 0.0], [4.2, 0.0], [4.2, 4.2], [0.0, 4.2]];
    let tol = Tol::new(10.0, 0.05);
    let local = anchors(&small, true, &tol)[0].local.clone();
    let a: Vec<Pt> = large.clone();
    let b: Vec<Pt> = small.iter().map(|q| [q[0] + 10.0, q[1]]).collect();
    let around = vec![a.clone(), b.clone()];
    let placed = [
        Placed {
            class: 0,
            local: &local,
            vertices: &a,
        },
        Placed {
            class: 0,
            local: &local,
            vertices: &b,
        },
    ];
    let got = assign(
        &placed,
        &[vec![0, 1]],
        &[small.clone(), large.clone()],
        &[small, large],
        false,
        &around,
        &tol,
    );
    assert_eq!((got[0].0, got[1].0), (1, 0));
}
