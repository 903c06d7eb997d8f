//! Freeman & Garder's chainlet features, measured in the frame of the distance vector.
//!
//! Put the chainlet in coordinates `(u, h)`: `u` along the distance vector from its initium,
//! `h` perpendicular, positive outward (to the left of travel, since outlines run clockwise on
//! screen). Every feature but the vector's angle is then independent of the piece's rotation.

use crate::chain::ChainCode;
use crate::piece_set::ChainletFeatures;

/// Perpendicular offsets smaller than this (pixels) count as lying on the distance vector when
/// crossings are counted, so quantisation noise along a straight side does not count as
/// crossings.
const CROSSING_BAND: f64 = 1.0;

/// The features of one chainlet given as its sub-chain.
pub fn chainlet_features(chainlet: &ChainCode) -> ChainletFeatures {
    let pts: Vec<[f64; 2]> = chainlet.points().iter().map(|p| p.map(f64::from)).collect();
    let mut f = features_of_points(&pts);
    f.chain_length = chainlet.length();
    f
}

/// The features of a polyline (chainlet points in order); `chain_length` is the polyline's
/// length.
pub fn features_of_points(pts: &[[f64; 2]]) -> ChainletFeatures {
    let (Some(first), Some(last)) = (pts.first(), pts.last()) else {
        return ChainletFeatures::default();
    };
    let d = [last[0] - first[0], last[1] - first[1]];
    let len = d[0].hypot(d[1]);
    let chain_length: f64 = pts
        .windows(2)
        .map(|w| (w[1][0] - w[0][0]).hypot(w[1][1] - w[0][1]))
        .sum();
    // Unit vectors of the frame; a closed chainlet (len 0) has no direction, measure from east.
    let (eu, eh) = if len > 1e-9 {
        let u = [d[0] / len, d[1] / len];
        (u, [u[1], -u[0]])
    } else {
        ([1.0, 0.0], [0.0, -1.0])
    };
    let frame: Vec<(f64, f64)> = pts
        .iter()
        .map(|p| {
            let r = [p[0] - first[0], p[1] - first[1]];
            (r[0] * eu[0] + r[1] * eu[1], r[0] * eh[0] + r[1] * eh[1])
        })
        .collect();
    let (mut outward, mut inward) = (0.0, 0.0);
    for w in frame.windows(2) {
        let ((u0, h0), (u1, h1)) = (w[0], w[1]);
        // Split the step where it crosses h = 0, so each part lies on one side.
        if h0 * h1 < 0.0 {
            let t = h0 / (h0 - h1);
            let um = u0 + t * (u1 - u0);
            add_trapezoid(&mut outward, &mut inward, u0, h0, um, 0.0);
            add_trapezoid(&mut outward, &mut inward, um, 0.0, u1, h1);
        } else {
            add_trapezoid(&mut outward, &mut inward, u0, h0, u1, h1);
        }
    }
    let (max_h, min_h) = frame
        .iter()
        .fold((0.0f64, 0.0f64), |(mx, mn), &(_, h)| (mx.max(h), mn.min(h)));
    let total = outward.abs() + inward.abs();
    ChainletFeatures {
        chain_length,
        distance_vector_length: len,
        distance_vector_angle_deg: (-d[1]).atan2(d[0]).to_degrees(),
        signed_area: outward - inward,
        max_perpendicular: max_h,
        min_perpendicular: min_h,
        crossings: crossings(&frame, len),
        area_ratio: if total > 1e-9 {
            outward.abs() / total
        } else {
            0.5
        },
    }
}

/// Adds `∫ h du` over one step to the side it lies on (the step does not cross h = 0).
fn add_trapezoid(outward: &mut f64, inward: &mut f64, u0: f64, h0: f64, u1: f64, h1: f64) {
    let a = (u1 - u0) * (h0 + h1) / 2.0;
    if h0 + h1 > 0.0 {
        *outward += a;
    } else {
        *inward -= a;
    }
}

/// Passages from one side of the distance vector to the other, within its extent and beyond a
/// band of [`CROSSING_BAND`] pixels (hysteresis: a wobble inside the band is not a crossing).
fn crossings(frame: &[(f64, f64)], len: f64) -> u32 {
    let mut side = 0i8;
    let mut count = 0;
    for &(u, h) in frame {
        let s = if h > CROSSING_BAND {
            1
        } else if h < -CROSSING_BAND {
            -1
        } else {
            0
        };
        if s == 0 {
            continue;
        }
        if side != 0 && s != side && (0.0..=len).contains(&u) {
            count += 1;
        }
        side = s;
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bump_outward_has_positive_area_and_no_crossing() {
        // Going east with a 4-high bump to the north (outward of a clockwise outline).
        let c = ChainCode::from_digits([0, 10], "0000222200006666000").unwrap();
        let f = chainlet_features(&c);
        assert_eq!(f.distance_vector_length, 11.0);
        assert_eq!(f.distance_vector_angle_deg, 0.0);
        assert_eq!(f.signed_area, 16.0);
        assert_eq!(f.max_perpendicular, 4.0);
        assert_eq!(f.min_perpendicular, 0.0);
        assert_eq!(f.crossings, 0);
        assert_eq!(f.area_ratio, 1.0);
        assert_eq!(f.chain_length, 19.0);
    }

    #[test]
    fn an_s_curve_crosses_once_and_splits_its_area() {
        let c = ChainCode::from_digits([0, 10], "00002222000066666666000022220000").unwrap();
        let f = chainlet_features(&c);
        assert_eq!(f.crossings, 1);
        assert!(f.signed_area.abs() < 1e-9);
        assert!((f.area_ratio - 0.5).abs() < 1e-9);
        assert_eq!(f.max_perpendicular, 4.0);
        assert_eq!(f.min_perpendicular, -4.0);
    }

    #[test]
    fn angle_counts_counter_clockwise_on_screen() {
        let up = ChainCode::from_digits([0, 0], "222").unwrap();
        assert_eq!(chainlet_features(&up).distance_vector_angle_deg, 90.0);
        let sw = ChainCode::from_digits([0, 0], "55").unwrap();
        assert_eq!(chainlet_features(&sw).distance_vector_angle_deg, -135.0);
    }
}
