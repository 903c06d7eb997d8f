//! The search's caches: the subset sums behind dead-end test (1) and the key of the memo of
//! impossible regions (test 3).

use super::{Search, Visitor, MAX_SUMS};
use crate::solvers::polygon::records::RegionPolygon;
use std::hash::{DefaultHasher, Hash, Hasher};

impl<V: Visitor> Search<'_, V> {
    /// The sorted areas that some sub-multiset of the available pieces covers: a polygon
    /// of any other area cannot be filled (dead-end test 1 asks only for "at least the
    /// smallest piece").
    pub(super) fn subset_sums(&mut self, avail: &[u32]) -> &Vec<f64> {
        if !self.sums.contains_key(avail) {
            // Merge only sums equal up to rounding (merging at the area tolerance would chain
            // distinct sums together); membership is tested with the tolerance.
            let total: f64 = self.classes.iter().map(|c| c.area * c.count as f64).sum();
            let same = 1e-12 * total;
            let mut sums: Vec<f64> = vec![0.0];
            for (c, &k) in avail.iter().enumerate() {
                for _ in 0..k {
                    let a = self.classes[c].area;
                    let more: Vec<f64> = sums.iter().map(|s| s + a).collect();
                    sums.extend(more);
                    sums.sort_by(f64::total_cmp);
                    sums.dedup_by(|x, y| (*x - *y).abs() <= same);
                    if sums.len() > MAX_SUMS {
                        // Too many to be a useful filter: allow every area.
                        sums = vec![0.0, f64::INFINITY];
                        break;
                    }
                }
            }
            sums.remove(0);
            self.sums.insert(avail.to_vec(), sums);
        }
        &self.sums[avail]
    }

    /// A 128-bit hash of the region (each polygon up to translation, the polygons as a
    /// multiset) and of the multiset of available pieces. Only failures are stored, so a
    /// near-miss of the quantisation costs time, never a solution.
    pub(super) fn memo_key(&self, region: &[RegionPolygon], avail: &[u32]) -> u128 {
        let mut polys: Vec<Vec<i64>> = region
            .iter()
            .map(|poly| {
                let q: Vec<(i64, i64)> = poly
                    .v
                    .iter()
                    .map(|v| (self.tol.q(v.p[0]), self.tol.q(v.p[1])))
                    .collect();
                let start = (0..q.len()).min_by_key(|&i| q[i]).unwrap_or(0);
                let o = q[start];
                (0..q.len())
                    .flat_map(|k| {
                        let p = q[(start + k) % q.len()];
                        [p.0 - o.0, p.1 - o.1]
                    })
                    .collect()
            })
            .collect();
        polys.sort_unstable();
        let mut h1 = DefaultHasher::new();
        let mut h2 = DefaultHasher::new();
        0xA5A5_u16.hash(&mut h2);
        for h in [&mut h1, &mut h2] {
            polys.hash(h);
            avail.hash(h);
        }
        ((h1.finish() as u128) << 64) | h2.finish() as u128
    }
}
