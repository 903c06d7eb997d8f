use super::*;

/// The offset of the edge [`edge_at`] finds.
fn edge_offset(at: Pt, normal: Pt, img: &RgbImage, reach: Reach) -> Option<f64> {
    edge_at(at, normal, img, reach).map(|e| e.offset)
}

/// An image of the scene `f` (colour at a point): each pixel the mean over 8 × 8 points of
/// its square (anti-aliased), then blurred by [1 2 1]/4 along both axes (the softness of a
/// phone lens, as the generator draws it).
fn blurred(w: u32, h: u32, f: impl Fn(f64, f64) -> [f64; 3]) -> RgbImage {
    let pixel = |x: f64, y: f64| {
        let mut sum = [0.0; 3];
        for i in 0..64 {
            let c = f(
                x + ((i % 8) as f64 + 0.5) / 8.0,
                y + ((i / 8) as f64 + 0.5) / 8.0,
            );
            (0..3).for_each(|k| sum[k] += c[k] / 64.0);
        }
        sum
    };
    let mut v: Vec<[f64; 3]> = (0..w * h)
        .map(|i| pixel((i % w) as f64, (i / w) as f64))
        .collect();
    let (wu, hu) = (w as usize, h as usize);
    for (dx, dy) in [(1usize, 0usize), (0, 1)] {
        let src = v.clone();
        for y in dy..hu - dy {
            for x in dx..wu - dx {
                let at = |xx: usize, yy: usize| src[yy * wu + xx];
                let (a, b, c) = (at(x - dx, y - dy), at(x, y), at(x + dx, y + dy));
                v[y * wu + x] = [0, 1, 2].map(|k| 0.25 * a[k] + 0.5 * b[k] + 0.25 * c[k]);
            }
        }
    }
    RgbImage::from_fn(w, h, |x, y| {
        let c = v[(y * w + x) as usize];
        image::Rgb(c.map(|k| k.round().clamp(0.0, 255.0) as u8))
    })
}

/// `left` before `cut`, `right` from it on.
fn split(x: f64, cut: f64, left: [f64; 3], right: [f64; 3]) -> [f64; 3] {
    if x < cut {
        left
    } else {
        right
    }
}

const BLUE: [f64; 3] = [44.0, 70.0, 128.0];

#[test]
fn a_blurred_edge_is_found_at_its_cut_whatever_its_contrast() {
    // A pale and a saturated face against the same background: a threshold on the colour
    // difference puts their mask edges a pixel apart, the gradient does not.
    for face in [[70.0, 90.0, 130.0], [200.0, 220.0, 60.0]] {
        let img = blurred(40, 20, |x, _| split(x, 20.3, face, BLUE));
        let t = edge_offset([17.5, 10.5], [1.0, 0.0], &img, SYMMETRIC_REACH).expect("an edge");
        assert!(
            (17.5 + t - 20.3).abs() < 0.15,
            "face {face:?}: edge at {}",
            17.5 + t
        );
    }
}

#[test]
fn the_cut_is_the_outer_step_of_a_light_rim() {
    // A dark face close to the background in colour, edged by a 1 px light cardboard rim:
    // two steps of similar height; the cut is the outer one.
    let (face, rim) = ([53.0, 92.0, 52.0], [196.0, 188.0, 170.0]);
    let img = blurred(40, 20, |x, _| {
        split(x, 20.0, split(x, 19.0, face, rim), BLUE)
    });
    // The blur merges the two steps; the outer one's peak still lies within half a pixel of
    // the cut (a bias common to every side, which the area calibration removes), the inner
    // one's a pixel further in.
    let t = edge_offset([16.5, 10.5], [1.0, 0.0], &img, SYMMETRIC_REACH).expect("an edge");
    assert!((16.5 + t - 20.0).abs() < 0.5, "edge at {}", 16.5 + t);
}

#[test]
fn a_shadow_beyond_the_cut_is_not_taken_for_it() {
    // A pale face on light paper, its drop shadow darkening the paper by up to 35 % right
    // outside the cut and fading over 10 px: the shadow's outer edge is a slow ramp.
    let (face, paper) = ([160.0, 219.0, 201.0], [236.0, 236.0, 230.0]);
    let img = blurred(50, 20, |x, _| {
        let fade = ((x - 20.0) / 10.0).clamp(0.0, 1.0);
        let shade = paper.map(|p| p * (0.65 + 0.35 * fade));
        split(x, 20.0, face, shade)
    });
    for from in [16.5, 20.5, 23.5] {
        let t = edge_offset([from, 10.5], [1.0, 0.0], &img, SYMMETRIC_REACH).expect("an edge");
        assert!(
            (from + t - 20.0).abs() < 0.3,
            "from {from}: edge at {}",
            from + t
        );
    }
}

#[test]
fn a_fat_outline_snaps_onto_the_square_it_surrounds() {
    // A 40 px square cut at [20, 60)², its outline traced 2 px too far out (the boundary
    // pixel centres of [18, 62)², counter-clockwise on screen as the tracer's polygons are not:
    // orientation must not matter).
    let face = [200.0, 220.0, 60.0];
    let inside = |v: f64| (20.0..60.0).contains(&v);
    let img = blurred(
        80,
        80,
        |x, y| if inside(x) && inside(y) { face } else { BLUE },
    );
    let mut outline = Vec::new();
    for k in 0..43 {
        outline.push([18.5 + k as f64, 18.5]);
    }
    for k in 0..43 {
        outline.push([61.5, 18.5 + k as f64]);
    }
    for k in 0..43 {
        outline.push([61.5 - k as f64, 61.5]);
    }
    for k in 0..43 {
        outline.push([18.5, 61.5 - k as f64]);
    }
    for points in [outline.clone(), outline.into_iter().rev().collect()] {
        let snapped = snap_outline(&points, &img, SYMMETRIC_REACH).expect("snaps");
        assert!(snapped.len() > 120, "{} points kept", snapped.len());
        // Away from the rounded corners every point lies on the square's boundary.
        let off: Vec<f64> = snapped
            .iter()
            .filter(|p| (24.0..56.0).contains(&p[0]) || (24.0..56.0).contains(&p[1]))
            .map(|p| {
                let d = [p[0] - 20.0, 60.0 - p[0], p[1] - 20.0, 60.0 - p[1]];
                d.iter().map(|v| v.abs()).fold(f64::MAX, f64::min)
            })
            .collect();
        let worst = off.iter().copied().fold(0.0, f64::max);
        assert!(worst < 0.3, "worst distance from the cut {worst:.2} px");
    }
}

#[test]
fn an_outline_off_the_image_is_left_alone() {
    let img = blurred(30, 30, |x, _| split(x, 15.0, [200.0, 220.0, 60.0], BLUE));
    let outside: Vec<Pt> = (0..40).map(|k| [100.0 + k as f64, 100.0]).collect();
    assert_eq!(snap_outline(&outside, &img, SYMMETRIC_REACH), None);
}

#[test]
fn a_short_outward_reach_keeps_a_steep_shadow_ramp_out() {
    // Yellow face, a 1 px dark cardboard rim, then the deepest part of the drop shadow on
    // light paper rising to the paper over 4 px (the rim makes the ramp's foot sharp): seen
    // from a mask point 2 px outside the cut, the ramp lies 2–6 px further out.
    let (face, rim, paper) = (
        [192.0, 204.0, 94.0],
        [160.0, 156.0, 150.0],
        [236.0, 236.0, 230.0],
    );
    let img = blurred(60, 20, |x, _| {
        let rise = ((x - 31.0) / 4.0).clamp(0.0, 1.0);
        let shade = paper.map(|p| p * (0.68 + 0.32 * rise));
        split(x, 30.0, split(x, 29.0, face, rim), shade)
    });
    let short = Reach {
        inward: 8.0,
        outward: 2.0,
        past_shadow_ramps: false,
    };
    let t = edge_offset([31.5, 10.5], [1.0, 0.0], &img, short).expect("an edge");
    // 29.25: the rim bias (the module documentation), 0.75 px inside the cut.
    assert!(
        (31.5 + t - 30.0).abs() < 1.2,
        "edge at {} (cut at 30)",
        31.5 + t
    );
    // The polygon path's 6 px outwards takes the ramp's foot for the cut.
    let far = edge_offset([31.5, 10.5], [1.0, 0.0], &img, SYMMETRIC_REACH).expect("an edge");
    assert!(31.5 + far > 32.0, "edge at {} with 6 px out", 31.5 + far);
}

#[test]
fn a_shadow_ramp_is_passed_over_for_the_cut_within_it() {
    // An orange face cut at x = 20, then a drop shadow on light paper: deepest (0.7 of the
    // paper) for 2 px, rising to the paper over 4 px, as at polygon photo 7:67. The mask took
    // in the shadow up to x = 24, so the outline point is there, 4 px out from the cut, and the
    // shadow's far edge lies within the 2 px outward reach.
    let (face, paper) = ([215.0, 172.0, 127.0], [236.0, 236.0, 230.0]);
    let img = blurred(50, 20, |x, _| {
        let rise = ((x - 22.0) / 4.0).clamp(0.0, 1.0);
        split(x, 20.0, face, paper.map(|p| p * (0.7 + 0.3 * rise)))
    });
    let mut reach = Reach {
        inward: 6.0,
        outward: 2.0,
        past_shadow_ramps: false,
    };
    let at = [24.5, 10.5];
    let outer = edge_offset(at, [1.0, 0.0], &img, reach).expect("an edge");
    assert!(
        at[0] + outer > 22.0,
        "without the rule: edge at {}",
        at[0] + outer
    );
    reach.past_shadow_ramps = true;
    let cut = edge_offset(at, [1.0, 0.0], &img, reach).expect("an edge");
    assert!(
        (at[0] + cut - 20.0).abs() < 0.6,
        "edge at {} (cut at 20)",
        at[0] + cut
    );
    // A grey face's cut brightens outwards too, but with no colour step further in it stays.
    let grey = [150.0, 150.0, 146.0];
    let img = blurred(50, 20, |x, _| split(x, 20.0, grey, paper));
    let t = edge_offset([20.5, 10.5], [1.0, 0.0], &img, reach).expect("an edge");
    assert!(
        (20.5 + t - 20.0).abs() < 0.6,
        "grey face: edge at {}",
        20.5 + t
    );
}

#[test]
fn a_rim_between_white_and_white_is_a_line_at_the_cut() {
    // A white face on white paper, edged by a 1 px rim a shade darker than both (a rendered
    // photo's luma 242 between 253 and 254): each flank of the rim is a weak step, the rim
    // itself a line; its outer flank is the cut.
    let (white, rim, paper) = (
        [250.0, 250.0, 247.0],
        [236.0, 232.0, 222.0],
        [252.0, 252.0, 250.0],
    );
    let img = blurred(40, 20, |x, _| {
        split(x, 20.0, split(x, 19.0, white, rim), paper)
    });
    let line = rim_line([19.5, 10.5], [1.0, 0.0], &img, 1.2).expect("a line");
    assert!(
        (19.5 + line.offset - 20.0).abs() < 0.5,
        "flank at {}",
        19.5 + line.offset
    );
    let steepest = gradient_profile([19.5, 10.5], [1.0, 0.0], &img, SYMMETRIC_REACH)
        .expect("a profile")
        .iter()
        .fold(0.0, |m: f64, g| m.max(g.1));
    assert!(
        line.strength > 1.5 * steepest,
        "{line:?} against flanks of {steepest:.1}"
    );
    // A step, however strong, is not a line: its two sides differ by all of it.
    let step = blurred(40, 20, |x, _| split(x, 20.0, BLUE, paper));
    assert_eq!(rim_line([19.5, 10.5], [1.0, 0.0], &step, 1.2), None);
    // Nor is flat paper.
    let flat = blurred(40, 20, |_, _| paper);
    assert_eq!(rim_line([19.5, 10.5], [1.0, 0.0], &flat, 1.2), None);
}
