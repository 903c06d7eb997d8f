//! Plane geometry shared by stages that keep their points as plain `[x, y]` arrays (the
//! polygon solver, the corner finder, the generator's truth masks).

/// A plane point, whichever type the stage keeps it in (plain arrays, or nalgebra points in
/// the assembly), so the geometry below is written once.
pub trait Xy: Copy {
    fn xy(self) -> [f64; 2];
}

impl Xy for [f64; 2] {
    fn xy(self) -> [f64; 2] {
        self
    }
}

impl Xy for nalgebra::Point2<f64> {
    fn xy(self) -> [f64; 2] {
        [self.x, self.y]
    }
}

/// Whether `p` is strictly inside the closed polygon `poly` (either orientation), by ray
/// casting (even-odd rule).
pub fn contains<T: Xy>(poly: &[T], p: T) -> bool {
    let p = p.xy();
    let n = poly.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (poly[i].xy(), poly[(i + 1) % n].xy());
        if (a[1] > p[1]) != (b[1] > p[1]) {
            let x = a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
            if x > p[0] {
                inside = !inside;
            }
        }
    }
    inside
}

/// Euclidean distance between two points.
pub fn dist(a: &[f64; 2], b: &[f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}
