//! Cut curves: the knob-and-socket curve of die-cut pieces and plain wavy cuts, each drawn in
//! the frame of its chord and sampled finely enough that the polyline is the curve.

use super::geometry::{add, catmull_rom, dist, norm, scale, simplify, sub, Pt};
use super::random::Random;

/// Sampling step and the simplification tolerance of every cut, in pixels.
const STEP: f64 = 0.6;
const TOLERANCE: f64 = 0.08;

/// The shape of one knob, in units of the chord length (position along, height across).
#[derive(Clone, Copy, Debug)]
pub struct Knob {
    /// Position of the neck's centre along the chord, about 0.5.
    pub centre: f64,
    pub height: f64,
    pub neck_half_width: f64,
    pub head_radius: f64,
    /// Sideways lean of the head relative to the neck.
    pub lean: f64,
    /// +1: the knob bulges to the left of the chord direction (towards −normal in y-down
    /// screen terms it is simply one side); −1: the other side.
    pub side: f64,
}

impl Knob {
    /// A die-cut-like knob with the variation seen between edges of real puzzles.
    pub fn random(rng: &mut Random, size: f64) -> Knob {
        let neck_half_width = rng.uniform(0.045, 0.065) * size;
        Knob {
            centre: 0.5 + rng.uniform(-0.07, 0.07),
            height: rng.uniform(0.20, 0.27) * size,
            neck_half_width,
            head_radius: neck_half_width + rng.uniform(0.03, 0.05) * size,
            lean: rng.uniform(-0.03, 0.03) * size,
            side: rng.sign(),
        }
    }

    /// Farthest extent from the chord's start point, used to keep knobs apart.
    pub fn head_centre(&self, a: Pt, b: Pt) -> Pt {
        let frame = Frame::new(a, b);
        frame.to_world(
            self.centre * frame.len + self.lean,
            self.side * (self.height - self.head_radius),
        )
    }
}

/// Local frame of a chord: x along it (pixels), y across it.
struct Frame {
    origin: Pt,
    u: Pt,
    n: Pt,
    len: f64,
}

impl Frame {
    fn new(a: Pt, b: Pt) -> Frame {
        let d = sub(b, a);
        let len = norm(d);
        let u = scale(d, 1.0 / len);
        Frame {
            origin: a,
            u,
            n: [-u[1], u[0]],
            len,
        }
    }

    fn to_world(&self, x: f64, y: f64) -> Pt {
        add(self.origin, add(scale(self.u, x), scale(self.n, y)))
    }
}

/// A cut from `a` to `b` with an optional knob and gentle waviness of amplitude `wave`
/// (pixels). The ends are exactly `a` and `b`.
pub fn cut(a: Pt, b: Pt, knob: Option<Knob>, wave: [f64; 2]) -> Vec<Pt> {
    let f = Frame::new(a, b);
    let l = f.len;
    let mut ctrl: Vec<(f64, f64)> = vec![(0.0, 0.0), (0.22 * l, wave[0])];
    if let Some(k) = knob {
        let c = k.centre * l;
        let s = k.side;
        let (nw, hr, h) = (k.neck_half_width, k.head_radius, k.height);
        let hc = c + k.lean;
        let base = 0.45 * (h - hr);
        ctrl.extend([
            (c - nw - 0.07 * l, 0.0),
            (c - nw, s * base),
            (hc - hr, s * (h - hr)),
            (hc - 0.7 * hr, s * (h - 0.3 * hr)),
            (hc, s * h),
            (hc + 0.7 * hr, s * (h - 0.3 * hr)),
            (hc + hr, s * (h - hr)),
            (c + nw, s * base),
            (c + nw + 0.07 * l, 0.0),
        ]);
    } else {
        ctrl.push((0.5 * l, 0.5 * (wave[0] + wave[1])));
    }
    ctrl.extend([(0.78 * l, wave[1]), (l, 0.0)]);
    let world: Vec<Pt> = ctrl.iter().map(|&(x, y)| f.to_world(x, y)).collect();
    let mut pts = simplify(&catmull_rom(&world, STEP), TOLERANCE);
    let last = pts.len() - 1;
    pts[0] = a;
    pts[last] = b;
    debug_assert!(dist(pts[0], a) == 0.0);
    pts
}

#[cfg(test)]
mod tests {
    use super::super::geometry::signed_area;
    use super::*;

    #[test]
    fn a_knob_cut_bulges_to_its_side_by_its_height() {
        let mut rng = Random::new(1, 2);
        let mut k = Knob::random(&mut rng, 100.0);
        k.side = 1.0;
        let p = cut([0.0, 0.0], [100.0, 0.0], Some(k), [0.0, 0.0]);
        let max_y = p.iter().map(|p| p[1]).fold(f64::MIN, f64::max);
        assert!((max_y - k.height).abs() < 1.0, "{max_y} vs {}", k.height);
        // The knob region (closed by the chord) has the area of a mushroom, not a sliver.
        let mut closed = p.clone();
        closed.reverse();
        assert!(signed_area(&closed).abs() > 0.5 * k.height * k.head_radius);
        assert_eq!(p[0], [0.0, 0.0]);
        assert_eq!(*p.last().unwrap(), [100.0, 0.0]);
    }
}
