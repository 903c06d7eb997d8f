//! A faint chord's end slid out along its neighbour to a corner lost beyond it.
//!
//! Why: where a pale corner is lost on light paper and the mask crosses the face from a real
//! corner of the piece, the straightened polygon has one side too few there, and no side
//! drop can add the lost vertex back (12-piece photo seed 149). The geometry of the slides is
//! `photo_edits::corner_slides`; which of them the image supports is decided here, and the
//! one kept is judged like a completed corner (`Support::edits`).

use super::edits::{corner_slides, CornerSlide};
use super::{sides, Support};

impl Support<'_> {
    /// For every faint side of `poly` that does not carry a cut itself, not even a weak one,
    /// the slides of each of its ends whose extension and re-drawn chord both carry a cut:
    /// the middle of the longest run of consecutive lengths. Why not a side that carries a
    /// weak cut: a real side of a pale piece is faint too, and the re-drawn chord a few
    /// degrees off it still runs along its edges (a corner slid past its end; a spurious
    /// vertex crept along a straight side; rendered photos seeds 1–40: pieces straightened
    /// exactly 1,509 → 1,494 without this). Why the middle: the cut is found within the
    /// tolerance either side of the lost corner, so those slides make a run around it (the
    /// shortest leaves the least boundary unsupported, and the re-drawn chord's drift is too
    /// noisy to tell a pixel, measured); a stray length that passes elsewhere is not part of
    /// it.
    pub(super) fn chord_slides(&self, poly: &[super::Pt]) -> Vec<CornerSlide> {
        let mut out = Vec::new();
        for (k, (a, b)) in sides(poly).enumerate() {
            if !self.faint_side(a, b) || self.continues_cut(a, b) {
                continue;
            }
            let mut carried: [Vec<(usize, CornerSlide)>; 2] = [Vec::new(), Vec::new()];
            for (i, s) in corner_slides(poly, k).into_iter().enumerate() {
                if s.segments.iter().all(|&(a, b)| self.continues_cut(a, b)) {
                    carried[i % 2].push((i / 2, s));
                }
            }
            out.extend(carried.into_iter().filter_map(middle_of_longest_run));
        }
        out
    }
}

/// Of `(step, item)` pairs in increasing step order, the item in the middle of the longest
/// run of consecutive steps (the first such run on a tie).
pub(super) fn middle_of_longest_run<T>(passed: Vec<(usize, T)>) -> Option<T> {
    let mut best = 0..0;
    let mut start = 0;
    for i in 0..passed.len() {
        if i > 0 && passed[i].0 != passed[i - 1].0 + 1 {
            start = i;
        }
        if i + 1 - start > best.len() {
            best = start..i + 1;
        }
    }
    passed
        .into_iter()
        .nth(best.start + best.len() / 2)
        .map(|(_, s)| s)
}
