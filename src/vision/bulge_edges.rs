//! Which of the edges found along a wobbling outline to trust, for irregular pieces.
//!
//! Where segmentation took 4–8 px of a deep drop shadow into a pale piece's mask (light paper,
//! the shadow darkest in a hole's mouth or along a concave side), the mask's edge is a chord
//! across the cut. Along it the edge locator ([`super::edge_snap`]) finds the cut where it lies
//! within reach, and elsewhere the faint outer edge of the shadow at the mask itself: a slow
//! ramp whose gradient is a fifth of the cut's, but the only peak in the profile, so the
//! locator takes it. A run of such points agrees with itself, passes the outlier test and
//! pins the snapped outline to the bulge (irregular photo seed 1, piece 5: edges at +0.5 px
//! of strength 4–6 where the piece's cut elsewhere is 12–20, with the cut 4–6 px inside).
//! Here an edge much fainter than the piece's typical one is not trusted at all; the outline
//! then runs from the trusted points on either side.

use super::edge_snap::{without_outliers, EdgeOffset};

/// An edge whose [`EdgeOffset::strength`] is under this fraction of the median over the
/// outline is a shadow's ramp or print, not the cut. Measured on irregular photo seed 1: the
/// cut's steps 12–35 (RGB difference over half a pixel), the shadow's outer edge 3–6.
/// Irregular 20 photos, seeds 1–10, mean neighbour accuracy by fraction: 0.2: 68.8 %, 0.25:
/// 70.1 %, 0.3: 70.1 %, 0.4: 69.0 %, 0.5: 67.3 % (62.5 % without the test).
const FAINT_FRACTION: f64 = 0.3;
/// A kept point needs this many other kept points among the [`COMPANION_SPAN`] on either
/// side (see [`without_strays`]).
const MIN_COMPANIONS: usize = 2;
const COMPANION_SPAN: usize = 5;

/// The edges of `found` (every outline point's, before any test) that the snap may use:
/// without faint edges ([`without_faint`]), then without outliers
/// ([`without_outliers`], the four-sided path's test) and strays ([`without_strays`]).
pub fn trusted_edges(found: &[Option<EdgeOffset>]) -> Vec<Option<EdgeOffset>> {
    without_strays(without_outliers(&without_faint(found)))
}

/// `found` without the edges fainter than [`FAINT_FRACTION`] of the median edge's strength.
fn without_faint(found: &[Option<EdgeOffset>]) -> Vec<Option<EdgeOffset>> {
    let mut strengths: Vec<f64> = found.iter().flatten().map(|o| o.strength).collect();
    if strengths.is_empty() {
        return found.to_vec();
    }
    let mid = strengths.len() / 2;
    let floor = FAINT_FRACTION * *strengths.select_nth_unstable_by(mid, f64::total_cmp).1;
    found
        .iter()
        .map(|o| o.filter(|o| o.strength >= floor))
        .collect()
}

/// `offsets` with every found point dropped that has fewer than [`MIN_COMPANIONS`] found
/// points among the [`COMPANION_SPAN`] on either side. In a bulge deeper than a few pixels
/// the locator's edges disagree (shadow's edge, cut, print) and the tests above drop most
/// of them; a lone survivor has no neighbours to be tested against and may sit on the
/// shadow's outer edge, so the redrawn outline kept a spike out to it (irregular photo seed 1,
/// piece 1: one point 1.7 px outwards in a run of 28 dropped ones, with the cut 4–6 px
/// inside). Without it the outline runs straight across the gap. Not on the four-sided path:
/// on classic 100 light-paper photos it cost 1–2 points on seeds 10, 13, 17 and 21 (the
/// four-sided model does not mind the spike; the lost points were right).
fn without_strays(offsets: Vec<Option<EdgeOffset>>) -> Vec<Option<EdgeOffset>> {
    let n = offsets.len();
    (0..n)
        .map(|i| {
            let here = offsets[i]?;
            let companions = (1..=COMPANION_SPAN)
                .flat_map(|k| [(i + k) % n, (i + n - k) % n])
                .filter(|&j| offsets[j].is_some())
                .count();
            (companions >= MIN_COMPANIONS).then_some(here)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(offset: f64, strength: f64) -> Option<EdgeOffset> {
        Some(EdgeOffset {
            offset,
            normal: [1.0, 0.0],
            strength,
        })
    }

    #[test]
    fn a_run_of_faint_shadow_edges_is_not_trusted() {
        // A cut 0.5 px inside the outline at strength 20, except for six points in a row that
        // found only the shadow's faint outer edge at the mask (+0.5 px, strength 5): they
        // agree with one another, so the outlier test alone keeps the run.
        let found: Vec<Option<EdgeOffset>> = (0..60)
            .map(|i| {
                if (20..26).contains(&i) {
                    edge(0.5, 5.0)
                } else {
                    edge(-0.5, 20.0)
                }
            })
            .collect();
        assert!(without_outliers(&found)[20..26].iter().all(Option::is_some));
        let trusted = trusted_edges(&found);
        assert!(trusted[20..26].iter().all(Option::is_none));
        assert_eq!(trusted.iter().flatten().count(), 54);
        assert!(trusted.iter().flatten().all(|o| o.offset == -0.5));
    }

    #[test]
    fn edges_of_even_strength_are_all_kept_and_a_lone_one_is_not() {
        let mut found: Vec<Option<EdgeOffset>> = (0..40)
            .map(|i| edge(-0.3 + 0.01 * i as f64, 15.0))
            .collect();
        assert_eq!(trusted_edges(&found), found);
        // A single found point among 11 missing ones has no companions.
        for (i, f) in found.iter_mut().enumerate().take(31).skip(20) {
            if i != 25 {
                *f = None;
            }
        }
        assert!(trusted_edges(&found)[25].is_none());
    }
}
