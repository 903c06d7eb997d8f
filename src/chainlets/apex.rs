//! A corner placed where the straight lines of its two sides meet.

use super::critical::turn_deg;
use super::pixel_edge::to_edge;
use super::sides::fit_line;

/// Where a corner's side lines meet.
#[derive(Clone, Copy, Debug)]
pub struct Meeting {
    /// On the piece's edge (see `pixel_edge`): the corner's reported position.
    pub at: [f64; 2],
    /// In the traced outline's frame (boundary pixel centres): where to find its sample.
    pub raw: [f64; 2],
    /// Turn between the two lines, degrees, clockwise positive.
    pub turn_deg: f64,
}

/// The meeting point of the lines fitted to the smoothed outline `pts` before and after sample
/// `i`, from `near` to `far` samples away (the corner of the two sides before die wear rounded
/// or chipped it); `winding` is the outline's (see `pixel_edge`). `None` if the lines are
/// nearly parallel.
pub fn corner_meeting(
    pts: &[[f64; 2]],
    i: usize,
    near: usize,
    far: usize,
    winding: f64,
) -> Option<Meeting> {
    let (raw, u, v) = side_lines(pts, i, near, far)?;
    Some(Meeting {
        at: to_edge(raw, u, v, winding),
        raw,
        turn_deg: turn_deg(u, v),
    })
}

/// Where the straight lines fitted to the outline just before and just after sample `i` (from
/// `near` to `far` samples away) meet, with the lines' directions of travel. `None` if the
/// lines are nearly parallel.
fn side_lines(
    pts: &[[f64; 2]],
    i: usize,
    near: usize,
    far: usize,
) -> Option<([f64; 2], [f64; 2], [f64; 2])> {
    let n = pts.len() as isize;
    // Each arm's line, its direction pointing along the direction of travel.
    let line = |sign: isize| {
        let sample: Vec<[f64; 2]> = (near..=far)
            .map(|k| pts[(i as isize + sign * k as isize).rem_euclid(n) as usize])
            .collect();
        let weighted: Vec<([f64; 2], f64)> = sample.iter().map(|&p| (p, 1.0)).collect();
        let (c, mut d) = fit_line(&weighted);
        let (first, last) = (sample[0], sample[sample.len() - 1]);
        let travel = [
            (last[0] - first[0]) * sign as f64,
            (last[1] - first[1]) * sign as f64,
        ];
        if d[0] * travel[0] + d[1] * travel[1] < 0.0 {
            d = [-d[0], -d[1]];
        }
        (c, d)
    };
    let (p, u) = line(-1);
    let (q, v) = line(1);
    let cross = u[0] * v[1] - u[1] * v[0];
    if cross.abs() < 0.3 {
        return None;
    }
    // p + s·u = q + t·v
    let w = [q[0] - p[0], q[1] - p[1]];
    let s = (w[0] * v[1] - w[1] * v[0]) / cross;
    Some(([p[0] + s * u[0], p[1] + s * u[1]], u, v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chainlets::outline::Outline;

    /// A 400 px square (pixels 20..420) rasterised by pixel centres: the lines through its
    /// boundary pixel centres meet at the centre of the corner pixel, and the corner itself is
    /// half a pixel further out along each side, on the pixel edge.
    #[test]
    fn a_square_corner_is_placed_on_the_pixel_edge() {
        let mask = image::GrayImage::from_fn(440, 440, |x, y| {
            let inside = (20..420).contains(&x) && (20..420).contains(&y);
            image::Luma([if inside { 255 } else { 0 }])
        });
        let chain = crate::vision::trace_mask(&mask).unwrap();
        let outline = Outline::new(&chain);
        let pts = outline.smoothed(1.5);
        let mid = (0..pts.len())
            .min_by(|&a, &b| {
                let d = |p: [f64; 2]| (p[0] - 20.0).hypot(p[1] - 20.0);
                d(pts[a]).total_cmp(&d(pts[b]))
            })
            .unwrap();
        let winding = crate::chainlets::pixel_edge::winding(&pts);
        let m = corner_meeting(&pts, mid, 4, 40, winding).unwrap();
        let d = |p: [f64; 2], q: [f64; 2]| (p[0] - q[0]).hypot(p[1] - q[1]);
        assert!(d(m.raw, [20.0, 20.0]) < 0.1, "{m:?}");
        assert!(d(m.at, [19.5, 19.5]) < 0.1, "{m:?}");
        assert!((m.turn_deg - 90.0).abs() < 0.5, "{m:?}");
    }
}
