//! How far past the least rectangle of the cluster a fit may reach.

use super::*;
use crate::assembly::shapes::ChainletShape;

/// An L of five 40 px cells placed as cut (columns 0–2 of row 0, columns 1–2 of row 1), the
/// first cell's left side a straight chainlet, and a sixth piece left out: the cell of column
/// 0, row 1, `tall` px tall, whose left side is a straight chainlet too. The least rectangle
/// holding the cluster spans y 0–80, so the sixth reaches `tall` − 40 px past it where cut.
fn corner_bulging_past(tall: f64) -> (Shapes, Growth, Item) {
    let cells = [(0, 0), (1, 0), (2, 0), (1, 1), (2, 1)];
    let (mut shapes, mut g) = cluster_of(&cells, |_| None);
    let corner = vec![
        P2::new(0.0, 40.0),
        P2::new(40.0, 40.0),
        P2::new(40.0, 40.0 + tall),
        P2::new(0.0, 40.0 + tall),
    ];
    shapes.pieces.push(piece(6, &corner, Isometry2::identity()));
    g.placed.push(None);
    // Left sides, clockwise on screen: upwards.
    for (k, from, to) in [(0, 40.0, 0.0), (5, 40.0 + tall, 40.0)] {
        let mut c = ChainletShape::bare(k, 0, 40.0, true);
        c.points = vec![P2::new(0.0, from), P2::new(0.0, to)];
        shapes.chainlets.push(c);
        shapes.pieces[k].chainlets = vec![shapes.chainlets.len() - 1];
    }
    for p in &mut shapes.pieces {
        p.centroid = mean_point(&p.outline);
    }
    let item = Item {
        members: vec![(5, Isometry2::identity())],
        outline: shapes.pieces[5].outline.clone(),
        area: 40.0 * tall,
        centroid: shapes.pieces[5].centroid,
        cluster: None,
        member_of: None,
        key: 0,
        border: None,
    };
    (shapes, g, item)
}

/// `item` fitted at `pose`.
fn fitted(item: &Item, pose: Isometry2<f64>) -> Fit {
    Fit {
        pose,
        centre: pose * item.centroid,
        ..fit_of(true, 1.0, 1.0)
    }
}

/// A corner piece bulging 0.4 of a piece past the rectangle (irregular 20 photos seed 9 with
/// three missing and three extraneous pieces: 0.42) sticks out, unless its border side runs
/// on from its placed neighbour's.
#[test]
fn a_fit_past_the_rectangle_is_excused_only_where_its_border_side_continues_a_neighbours() {
    let (shapes, g, item) = corner_bulging_past(56.0);
    let frame = cluster_frame(&shapes, &g, 0, false).unwrap();
    let home = fitted(&item, Isometry2::identity());
    assert!(!sticks_out(&shapes, &g, 0, &item, &home, &frame));
    // 8 px to the right its left side stands off the border line.
    let off = fitted(&item, Isometry2::translation(8.0, 0.0));
    assert!(sticks_out(&shapes, &g, 0, &item, &off, &frame));
}

#[test]
fn a_fit_far_past_the_rectangle_sticks_out_though_its_border_side_continues() {
    let (shapes, g, item) = corner_bulging_past(64.0);
    let frame = cluster_frame(&shapes, &g, 0, false).unwrap();
    let home = fitted(&item, Isometry2::identity());
    assert!(sticks_out(&shapes, &g, 0, &item, &home, &frame));
}
