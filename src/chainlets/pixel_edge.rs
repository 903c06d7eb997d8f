//! From the traced outline's frame to the piece's edge, for corners placed by side lines.
//!
//! The chain runs through the centres of the piece's boundary pixels: those inside the piece
//! with a 4-neighbour outside it. Where a straight edge with unit direction `d` was sampled by
//! pixel centres (a mask thresholded at mid-grey), the boundary centres lie between 0 and
//! `max(|dx|, |dy|)` pixels inside the edge, uniformly over the edge's length, so a line fitted
//! to them lies on average `max(|dx|, |dy|) / 2` inside it: half a pixel for an axis-parallel
//! side, 0.35 px at 45°. Corners placed where two side lines meet are moved out by that much
//! on each line, so they are where the piece's edges meet rather than where the lines through
//! its boundary pixel centres do. (Only the reported position moves: a corner's place on the
//! chain is where the chain comes nearest the uncorrected meeting point, which lies in the
//! chain's own frame.)

/// +1 for an outline that runs clockwise on screen (y down), -1 for anticlockwise.
pub fn winding(pts: &[[f64; 2]]) -> f64 {
    let n = pts.len();
    let twice_area: f64 = (0..n)
        .map(|i| {
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum();
    if twice_area >= 0.0 {
        1.0
    } else {
        -1.0
    }
}

/// How far (pixels) a line fitted to boundary pixel centres lies inside the edge it samples,
/// on average, for a line of unit direction `d`.
pub fn centre_depth(d: [f64; 2]) -> f64 {
    0.5 * d[0].abs().max(d[1].abs())
}

/// The corner `at`, where an incoming side line of unit direction `u` meets an outgoing one of
/// direction `v` (directions of travel along an outline of the given [`winding`]), moved to
/// where the two lines meet once each is moved out to the edge by its [`centre_depth`]. Nearly
/// parallel lines leave the corner where it is.
pub fn to_edge(at: [f64; 2], u: [f64; 2], v: [f64; 2], winding: f64) -> [f64; 2] {
    // Outward normals: the piece lies to the right of the direction of travel on a clockwise
    // outline (y down).
    let nu = [winding * u[1], -winding * u[0]];
    let nv = [winding * v[1], -winding * v[0]];
    let det = nu[0] * nv[1] - nu[1] * nv[0];
    if det.abs() < 0.2 {
        return at;
    }
    // nu·δ = su and nv·δ = sv.
    let (su, sv) = (centre_depth(u), centre_depth(v));
    [
        at[0] + (su * nv[1] - sv * nu[1]) / det,
        at[1] + (nu[0] * sv - nv[0] * su) / det,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_axis_parallel_corner_moves_half_a_pixel_out_along_each_side() {
        // The top-left corner of a clockwise square: in along the left side going up, out
        // along the top going right.
        let at = to_edge([10.0, 10.0], [0.0, -1.0], [1.0, 0.0], 1.0);
        assert!(
            (at[0] - 9.5).abs() < 1e-9 && (at[1] - 9.5).abs() < 1e-9,
            "{at:?}"
        );
        // Anticlockwise, the same corner is passed the other way round.
        let at = to_edge([10.0, 10.0], [-1.0, 0.0], [0.0, 1.0], -1.0);
        assert!(
            (at[0] - 9.5).abs() < 1e-9 && (at[1] - 9.5).abs() < 1e-9,
            "{at:?}"
        );
    }

    #[test]
    fn winding_of_a_clockwise_square_is_positive() {
        let sq = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        assert_eq!(winding(&sq), 1.0);
        let mut rev = sq;
        rev.reverse();
        assert_eq!(winding(&rev), -1.0);
        assert!((centre_depth([0.6, 0.8]) - 0.4).abs() < 1e-12);
    }

    /// A square tilted by 30°, rasterised by pixel centres (a pixel is inside if its centre
    /// is): the corners found by the four-sided model lie nearer the true vertices than the
    /// uncorrected meeting points of the lines through the boundary pixel centres would.
    #[test]
    fn corners_of_a_centre_sampled_tilted_square_are_its_vertices() {
        let (c, h, t) = (200.0f64, 120.0f64, 30f64.to_radians());
        let rot = |x: f64, y: f64| [c + x * t.cos() - y * t.sin(), c + x * t.sin() + y * t.cos()];
        let vertices = [rot(-h, -h), rot(h, -h), rot(h, h), rot(-h, h)];
        let mask = image::GrayImage::from_fn(400, 400, |x, y| {
            let (dx, dy) = (f64::from(x) - c, f64::from(y) - c);
            let (u, v) = (dx * t.cos() + dy * t.sin(), -dx * t.sin() + dy * t.cos());
            image::Luma([if u.abs() <= h && v.abs() <= h { 255 } else { 0 }])
        });
        let chain = crate::vision::trace_mask(&mask).unwrap();
        let corners = super::super::critical_points(&chain, &Default::default());
        assert_eq!(corners.len(), 4, "{corners:?}");
        let mut total = 0.0;
        for v in vertices {
            let d = corners
                .iter()
                .map(|p| (p.x - v[0]).hypot(p.y - v[1]))
                .fold(f64::INFINITY, f64::min);
            total += d;
        }
        // Uncorrected, each corner would lie about 0.43·√2 ≈ 0.6 px inside its vertex.
        assert!(total / 4.0 < 0.3, "mean {:.2} px: {corners:?}", total / 4.0);
    }
}
