//! A closed chain resampled at unit arc-length spacing, so that scales and windows measured
//! in pixels of arc are plain index offsets (a chain step is 1 or √2 pixels long).

use crate::chain::ChainCode;

/// Points every 1 px of arc along a closed chain, each remembering the chain index it lies on.
pub struct Outline {
    pub points: Vec<[f64; 2]>,
    /// Chain index (point reached after that many codes) nearest each sample.
    pub chain_index: Vec<usize>,
    /// Area enclosed by the chain (shoelace over pixel centres).
    pub area: f64,
}

impl Outline {
    pub fn new(chain: &ChainCode) -> Self {
        let pts = chain.points();
        let n = chain.len();
        let area = shoelace(&pts).abs();
        let mut points = Vec::new();
        let mut chain_index = Vec::new();
        let mut carry = 0.0; // arc already walked past the last sample
        for i in 0..n {
            let (a, b) = (pts[i], pts[i + 1]);
            let len = if chain.codes[i] % 2 == 1 {
                std::f64::consts::SQRT_2
            } else {
                1.0
            };
            let mut t = carry;
            while t < len {
                let f = t / len;
                points.push([
                    f64::from(a[0]) + f * f64::from(b[0] - a[0]),
                    f64::from(a[1]) + f * f64::from(b[1] - a[1]),
                ]);
                chain_index.push(if f < 0.5 { i } else { (i + 1) % n });
                t += 1.0;
            }
            carry = t - len;
        }
        if points.is_empty() {
            points.push(pts[0].map(f64::from));
            chain_index.push(0);
        }
        Outline {
            points,
            chain_index,
            area,
        }
    }

    pub fn len(&self) -> usize {
        self.points.len()
    }

    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The sample `i + offset`, wrapping round the closed outline.
    pub fn at(&self, i: usize, offset: isize) -> [f64; 2] {
        let n = self.points.len() as isize;
        self.points[(i as isize + offset).rem_euclid(n) as usize]
    }

    /// A size for the piece that scales with it (√area), so detection windows are the same
    /// fraction of a piece whatever the photo's resolution.
    pub fn size(&self) -> f64 {
        self.area.sqrt().max(1.0)
    }

    /// Gaussian smoothing of the coordinates along the closed outline.
    pub fn smoothed(&self, sigma: f64) -> Vec<[f64; 2]> {
        let n = self.points.len();
        if sigma <= 0.0 || n < 3 {
            return self.points.clone();
        }
        let radius = ((3.0 * sigma).ceil() as isize).min(n as isize / 2);
        let weights: Vec<f64> = (-radius..=radius)
            .map(|k| (-(k * k) as f64 / (2.0 * sigma * sigma)).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        (0..n)
            .map(|i| {
                let mut acc = [0.0, 0.0];
                for (w, k) in weights.iter().zip(-radius..=radius) {
                    let p = self.at(i, k);
                    acc[0] += w * p[0];
                    acc[1] += w * p[1];
                }
                [acc[0] / total, acc[1] / total]
            })
            .collect()
    }
}

/// Shoelace sum over a closed list of points (the last may repeat the first); positive for a
/// clockwise-on-screen loop in y-down coordinates.
pub fn shoelace(pts: &[[i32; 2]]) -> f64 {
    let n = pts.len();
    let mut s = 0i64;
    for i in 0..n {
        let (a, b) = (pts[i], pts[(i + 1) % n]);
        s += i64::from(a[0]) * i64::from(b[1]) - i64::from(b[0]) * i64::from(a[1]);
    }
    s as f64 / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_spacing_and_area() {
        let c = ChainCode::from_digits([0, 0], "000066444422").unwrap();
        let o = Outline::new(&c);
        assert_eq!(o.len(), 12);
        assert_eq!(o.area, 8.0);
        let d = ChainCode::from_digits([0, 0], "7531").unwrap();
        let o = Outline::new(&d);
        assert_eq!(o.len(), 6); // 4·√2 ≈ 5.66 px of arc
        assert!(o.chain_index.iter().all(|&i| i < 4));
    }
}
