//! Plane geometry shared by stages that keep their points as plain `[x, y]` arrays (the
//! polygon solver, the corner finder, the generator's truth masks).

/// Whether `p` is strictly inside the closed polygon `poly` (either orientation), by ray
/// casting (even-odd rule).
pub fn contains(poly: &[[f64; 2]], p: [f64; 2]) -> bool {
    let n = poly.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
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
