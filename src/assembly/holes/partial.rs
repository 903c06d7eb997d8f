//! Fitting a piece to *part* of a region two or three pieces wide: a run of border pieces
//! left out side by side leaves one notch that no single piece fills. The piece at an end of
//! the run meets the rim along two sides (its neighbour in the row and the row inside), and
//! its side facing the rest of the run meets nothing; placed, it leaves a smaller region for
//! the next round, until the last piece fills a notch of its own.

use super::super::geometry::{signed_area, P2};
use super::fit::{
    faces_outside, icp_step, mean_point, on_border, start_poses, thinned_with_deep_rim,
    NotchLimits, Rim, ICP_ITERATIONS,
};
use super::raster::Frame;
use super::regions::Hole;
use nalgebra::Isometry2;

/// Where a fit may start: inside the region, this far from its rim (fractions of the median
/// piece size), about where a piece's centre lies from its sides. A piece smaller than the
/// median starts nearer the rim in proportion to its own size, a cluster larger than it
/// farther (see [`starts`]).
const START_REACH: (f64, f64) = (0.3, 0.75);
/// Starts closer together than this fraction of the median piece size (or of a larger
/// cluster's own) are one start.
const START_SPACING: f64 = 0.3;
const MAX_STARTS: usize = 16;
/// The first ICP iterations pair outline points with rim points up to this fraction of the
/// median piece size apart (a start is a third of a piece off at most); later ones up to
/// the cap of a seam point, so the open side does not pull the piece across the region.
const FIRST_REACH: f64 = 0.3;
const FIRST_ITERATIONS: usize = 8;
/// At least this share of the outline (of what lies deep inside the hull) meets the rim: an
/// end piece meets it along two of its three deep sides, a piece in the middle of the run or
/// a corner piece at its end along one of two or three, and waits for its neighbours.
const MIN_MEETING_SHARE: f64 = 0.55;
/// … but of an item held along this many median piece sizes of the rim or more (a cluster:
/// a piece's deep outline is about two long), the border sides on the open side that face the
/// outside count neither way. In an empty corner the hull takes in, the corner block of a
/// puzzle lies deep all round, and its two border sides with the side facing the rest of the
/// region made 88 of its 154 deep points (held-out irregular 100 photos seed 20 with three
/// missing and three extraneous pieces: a cluster of six at the top right corner met the rim
/// along 66 of the 94 others, 5.9 piece sizes, at 5.2 px). Not for a piece: a border piece
/// held along 2 sizes or less then fitted wrong places of an empty corner (irregular 100
/// photos seed 10: 100 → 95.5 %).
const LONG_HOLD: f64 = 3.0;
/// … and the side facing the rest of the region, one run of the outline, is at least this
/// share of it (less is a piece that fills the region, which is [`super::fit::fit_to_notch`]'s
/// case), for a median piece; for a larger item less in proportion to its size (the root of
/// its area), its outline being longer for a side as long: three left-out pieces of a corner,
/// joined by their matings (see `loose_groups`), face a missing piece's hole along one side,
/// 13 of their 115 deep points (held-out irregular 100 photos seed 17 with three missing and
/// three extraneous pieces: they fit their place at 3.2 px, and were left out) …
const MIN_OPEN_SHARE: f64 = 0.15;
/// … but a piece of which at least [`INSIDE_SHARE`] lies deep inside the hull needs no
/// minimum: a piece inside the puzzle at the dead end of a run, held on all sides but the one
/// facing the rest of the run, which may be short (irregular 100 photos seed 59: 0.08 of a
/// piece held on five sides, its short sixth facing the two pieces above it; it was left out
/// at 0.15), or a piece held all round but for a gap to the rest of the region (irregular 100
/// photos seed 68: 0.036 once a neighbour was placed, where 0.06 was needed from session 36
/// to 41; the piece was placed turned 90° at the one pose that passed). Only there: a corner
/// piece fits the rim left by a wavy edge at the corner of the hull with an open side of two
/// points (irregular 100 photos seed 45: a quarter of its outline deep, 0.06 of that open,
/// 1.23 px, and the piece hung outside the puzzle).
const INSIDE_SHARE: f64 = 0.9;
/// Rim points within this fraction of the median piece size of the placed outline's meeting
/// part are the part of the rim the piece claims (a knob hole it leaves empty reaches a
/// quarter of a piece deep).
const CLAIM_REACH: f64 = 0.35;

/// The poses at which `outline` (source pixels) fits part of `region` (see the module doc),
/// each with the mean of its two capped means as in [`super::fit::fit_to_notch`] (the
/// outline's meeting part to the rim, the claimed rim back to it): best first, one per place
/// (placed centroids at least [`START_SPACING`] of `size` apart). `border`: the item's border
/// sides (see [`score`]).
pub(super) fn fit_partial(
    outline: &[P2],
    border: Option<&Rim>,
    region: &Hole,
    frame: &Frame,
    limits: NotchLimits,
    size: f64,
) -> Vec<(Isometry2<f64>, f64)> {
    let Some((outline, rim, deep_rim)) = thinned_with_deep_rim(outline, region, frame, limits)
    else {
        return Vec::new();
    };
    if outline.len() < 8 {
        return Vec::new();
    }
    let deep_inside = |q: &P2| frame.deeper_than(q, limits.depth);
    let area = signed_area(&outline);
    let facing = Facing {
        own_border: outline.iter().map(|q| on_border(border, q)).collect(),
        turn: area.signum(),
        own: area.abs().sqrt(),
    };
    let centroid = mean_point(&outline);
    let mut found: Vec<(Isometry2<f64>, f64, P2)> = Vec::new();
    for centre in starts(region, &rim, size, facing.own) {
        for start in start_poses(&outline, centre) {
            let pose = icp(&outline, &rim, &deep_inside, start, limits, size);
            let placed: Vec<P2> = outline.iter().map(|q| pose * q).collect();
            if let Some(d) = score(&placed, &facing, &rim, &deep_rim, frame, limits, size) {
                found.push((pose, d, pose * centroid));
            }
        }
    }
    found.sort_by(|a, b| a.1.total_cmp(&b.1));
    let mut places: Vec<(Isometry2<f64>, f64, P2)> = Vec::new();
    for f in found {
        if places
            .iter()
            .all(|p| (p.2 - f.2).norm() >= START_SPACING * size)
        {
            places.push(f);
        }
    }
    places.into_iter().map(|(pose, d, _)| (pose, d)).collect()
}

/// Iterative closest points from `pose`, pairing only the outline's points deep inside the
/// hull with rim points near them: within [`FIRST_REACH`] of the median piece size at first,
/// then the cap of a seam point, then twice the tolerance, so that neither the open side nor
/// a knob reaching into a neighbour's damaged hole pulls the piece off its place.
fn icp(
    outline: &[P2],
    rim: &Rim,
    deep_inside: &impl Fn(&P2) -> bool,
    mut pose: Isometry2<f64>,
    limits: NotchLimits,
    size: f64,
) -> Isometry2<f64> {
    for it in 0..ICP_ITERATIONS + FIRST_ITERATIONS {
        let reach = if it < FIRST_ITERATIONS {
            FIRST_REACH * size
        } else if it < 2 * FIRST_ITERATIONS {
            limits.cap
        } else {
            limits.far()
        };
        let Some((next, moved)) = icp_step(outline, rim, &pose, deep_inside, reach, 8) else {
            break;
        };
        pose = next;
        if moved < 0.01 {
            break;
        }
    }
    pose
}

/// Points inside `region` about a piece's half width from its rim, spread out: the median
/// piece's (`size`), or the item's own (`own`, the root of its area) where it is smaller (at
/// the near end) or larger (at the far end, and the spacing).
///
/// A small piece's centre lies nearer its sides: held-out irregular 100 photos seed 15 with
/// three missing and three extraneous pieces, truth 41 (0.68 of the median area, its
/// neighbours' knobs reaching in) lies 0.18 of the median size from the rim and fits its part
/// of the region there at 2.0 px (tolerance 4.4), but the starts, 0.3 or more from the rim,
/// lay 0.22–0.31 off it and no fit reached it: it was left out until session 46. Starting
/// every item from 0.2 found it too, but moved median-sized pieces to wrong places on two
/// sets of the sweep (irregular 100 photos seeds 86 and 97: 100 → 89.7 and 93.5 %).
///
/// A cluster's centre lies farther: a cluster of six pieces in an empty corner of the hull
/// has its centre more than a piece from the rim, and from starts within 0.75 of a piece
/// none of its fits reached its place (held-out irregular 100 photos seed 20 with three
/// missing and three extraneous pieces; it fits there at 3.5 px, and was left apart until
/// session 51).
fn starts(region: &Hole, rim: &Rim, size: f64, own: f64) -> Vec<P2> {
    let mut starts: Vec<P2> = Vec::new();
    let wide = own.max(size);
    for q in &region.inside {
        let d = rim.nearest(q).1;
        if d < START_REACH.0 * own.min(size) || d > START_REACH.1 * wide {
            continue;
        }
        if starts
            .iter()
            .all(|s| (s - q).norm() >= START_SPACING * wide)
        {
            starts.push(*q);
        }
        if starts.len() == MAX_STARTS {
            break;
        }
    }
    starts
}

/// Which of an item's (thinned) outline points lie on its own border sides, which way the
/// outline turns (see `fit::faces_outside`), and the item's size.
struct Facing {
    own_border: Vec<bool>,
    turn: f64,
    /// The root of the item's area: its size, which sets its starts and its open side's least
    /// share.
    own: f64,
}

/// The distance of a partial fit of the placed outline `placed` (in outline order), or `None`
/// where it is no such fit (see the constants above). A point of the item's own border side
/// off the open side that faces the outside (nearer the hull's edge than to any rim, or far
/// from the rim with nothing of the cluster before it out to the hull's edge) is not judged,
/// as in `fit::fit_to_notch`: where the puzzle's edge bows in, it lies deep in the hull and
/// far from the rim, a second side facing no piece, whose points made the fit's meeting part
/// stray (irregular 20 photos seed 8 with three pieces missing and three extraneous: a corner
/// pair at its true place, its border sides 35–40 px inside the hull and up to 180 px from
/// the rim, 29 of its 84 meeting points stray, and both pieces were left out). The shares of
/// the open side and the meeting part are still of every deep point: a border side facing
/// the strip between a wavy edge and the hull is the open side of a piece fitted to its place
/// and that strip (leaving such sides out of the deep points lost a piece on 16 sets of the
/// sweep), and judging each pose both ways, with them left out of the deep points and not,
/// let a corner piece meeting the rim along a fifth of its outline pass (irregular 100 photos
/// seed 10: placed 1,100 px off).
fn score(
    placed: &[P2],
    facing: &Facing,
    rim: &Rim,
    deep_rim: &[P2],
    frame: &Frame,
    limits: NotchLimits,
    size: f64,
) -> Option<f64> {
    let n = placed.len();
    let intruding = placed
        .iter()
        .filter(|q| frame.covers(q) && rim.nearest_within(q, limits.tolerance).is_none())
        .count();
    if intruding as f64 > limits.max_intrusion * n as f64 {
        return None;
    }
    let far = limits.far();
    let (deep, depth): (Vec<usize>, Vec<f64>) = (0..n)
        .map(|k| (k, frame.depth(&placed[k])))
        .filter(|&(_, depth)| depth > limits.depth)
        .unzip();
    if deep.len() < 8 {
        return None;
    }
    let dist: Vec<f64> = deep.iter().map(|&k| rim.nearest(&placed[k]).1).collect();
    let m = deep.len();
    let faces_out: Vec<bool> = (0..m)
        .map(|j| {
            let (k, d) = (deep[j], dist[j]);
            facing.own_border[k]
                && (depth[j] < d || d > far && faces_outside(placed, k, facing.turn, frame, limits))
        })
        .collect();
    let (open_start, open_len) = open_side(&dist, &faces_out, far)?;
    let min_open = if m as f64 >= INSIDE_SHARE * n as f64 {
        0.0
    } else {
        MIN_OPEN_SHARE * (size / facing.own).min(1.0)
    };
    let in_open = |j: usize| (j + m - open_start) % m < open_len;
    let step = |k: usize| (placed[(k + 1) % n] - placed[k]).norm();
    let held: f64 = (0..m).filter(|&j| !in_open(j)).map(|j| step(deep[j])).sum();
    let open_out = if held >= LONG_HOLD * size {
        (0..m).filter(|&j| in_open(j) && faces_out[j]).count()
    } else {
        0
    };
    if (open_len as f64) < min_open * m as f64
        || ((m - open_len) as f64) < MIN_MEETING_SHARE * (m - open_out) as f64
    {
        return None;
    }
    let judged: Vec<bool> = (0..m).map(|j| !in_open(j) && !faces_out[j]).collect();
    let meeting: Vec<f64> = (0..m).filter(|&j| judged[j]).map(|j| dist[j]).collect();
    let stray = meeting.iter().filter(|&&d| d > far).count();
    if meeting.is_empty() || stray as f64 > limits.max_outliers * meeting.len() as f64 {
        return None;
    }
    // Outline points the claim may end on: deep, off the open side and its ends. The rim
    // beyond the piece, along the rest of the region, is nearest to the outline just past
    // an end of the open side (which ends where the outline comes within `far` of the rim),
    // up to the claim's reach.
    let first_open = deep[open_start];
    let last_open = deep[(open_start + open_len - 1) % m];
    let perimeter: f64 = (0..n).map(step).sum();
    let margin = ((CLAIM_REACH * size + far) * n as f64 / perimeter.max(1.0)).ceil() as usize;
    let near_end = |k: usize| {
        [first_open, last_open].iter().any(|&e| {
            let gap = k.abs_diff(e);
            gap.min(n - gap) <= margin
        })
    };
    let mut claims = vec![false; n];
    for (j, &k) in deep.iter().enumerate() {
        claims[k] = judged[j] && !near_end(k);
    }
    let mut back = Vec::new();
    for q in deep_rim {
        let (k, d) = placed
            .iter()
            .enumerate()
            .map(|(k, p)| (k, (p - q).norm_squared()))
            .fold((0, f64::MAX), |a, b| if b.1 < a.1 { b } else { a });
        let d = d.sqrt();
        if d <= CLAIM_REACH * size && claims[k] && !across_pieces(frame, q, &placed[k], far) {
            back.push(d);
        }
    }
    if back.len() < 8 {
        return None;
    }
    let outliers = back.iter().filter(|&&d| d > far).count();
    if outliers as f64 > limits.max_outliers * back.len() as f64 {
        return None;
    }
    let mean = |d: &[f64]| d.iter().map(|d| d.min(limits.cap)).sum::<f64>() / d.len() as f64;
    Some(0.5 * (mean(&meeting) + mean(&back)))
}

/// The open side among the deep points (`dist` from the rim; `faces_out`: a border side facing
/// the outside, see [`score`]): of the runs of points far from the rim, the one with the most
/// points facing the rest of the region, not the outside, then the longest. A pair of a
/// border piece and its neighbour at the end of a run along a wavy edge lies away from the
/// rim along its border side (facing the strip between the edge and the hull) and along the
/// side facing the next piece's place; the border side, the longer, was taken for the open
/// one, and the other was judged, its points stray (irregular 100 photos seed 39: 20 of 148
/// at the true place, 12 allowed; the pair and the two pieces beside it were left out). The
/// run is taken whole: a border piece's open side runs on round its corner into its border
/// side, and without that part it was too short a share (irregular 100 photos seed 32).
fn open_side(dist: &[f64], faces_out: &[bool], far: f64) -> Option<(usize, usize)> {
    let away: Vec<bool> = dist.iter().map(|&d| d > far).collect();
    let facing_region = |&(start, len): &(usize, usize)| {
        (start..start + len)
            .filter(|&j| !faces_out[j % away.len()])
            .count()
    };
    cyclic_runs(&away)
        .into_iter()
        .fold(None, |best: Option<(usize, usize)>, run| match best {
            Some(b) if (facing_region(&run), run.1) <= (facing_region(&b), b.1) => Some(b),
            _ => Some(run),
        })
}

/// Whether the cluster's pieces lie across the segment from rim point `rim` to outline point
/// `outline` for more than `limit` pixels: that rim is not the piece's to claim but another
/// part of the region's, reached round a neighbour (irregular 100 photos seed 10 with three
/// pieces missing and three extraneous: a piece meeting a missing piece's hole along a 47 px
/// seam claimed that hole's rim behind the neighbours either side of the seam, 18 of 164
/// points 8–42 px off, and was left out). An empty knob socket lies open to the outline.
/// Measured on the held-out sets, it also let one piece through 71 px off its place, in the
/// last round's looser bar (irregular 100 photos seed 21 with three missing and three
/// extraneous pieces; docs/solve.md, session 44).
pub(super) fn across_pieces(frame: &Frame, rim: &P2, outline: &P2, limit: f64) -> bool {
    let steps = (outline - rim).norm().ceil() as usize;
    let covered = (1..steps)
        .filter(|&t| frame.covers(&(rim + (outline - rim) * (t as f64 / steps as f64))))
        .count();
    covered as f64 > limit
}

/// The longest run of `true` in the cyclic sequence `flags`: its start and length; `None`
/// when there is none or every flag is set.
pub(super) fn longest_cyclic_run(flags: &[bool]) -> Option<(usize, usize)> {
    cyclic_runs(flags)
        .into_iter()
        .fold(None, |best, r| match best {
            Some(b) if r.1 <= b.1 => Some(b),
            _ => Some(r),
        })
}

/// Every run of `true` in the cyclic sequence `flags` (start, length), in order from the first
/// `false`; none when every flag is set.
fn cyclic_runs(flags: &[bool]) -> Vec<(usize, usize)> {
    let n = flags.len();
    let Some(first_false) = flags.iter().position(|&f| !f) else {
        return Vec::new();
    };
    let mut runs = Vec::new();
    let mut run: Option<(usize, usize)> = None;
    for step in 1..=n {
        let j = (first_false + step) % n;
        if flags[j] {
            run = Some(run.map_or((j, 1), |(s, l)| (s, l + 1)));
        } else if let Some(r) = run.take() {
            runs.push(r);
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A region open at the top between walls at `left` and `right` down to `bottom`, with
    /// the points inside it every `step` pixels, from two pixels off the left wall.
    fn open_box(left: u32, right: u32, bottom: u32, step: usize) -> (Hole, Rim) {
        let px = |x: u32, y: u32| P2::new(x as f64, y as f64);
        let mut rim: Vec<P2> = (0..=bottom).map(|y| px(left, y)).collect();
        rim.extend((0..=bottom).map(|y| px(right, y)));
        rim.extend((left + 1..right).map(|x| px(x, bottom)));
        let inside: Vec<P2> = (left + 2..right)
            .step_by(step)
            .flat_map(|x| (0..bottom).step_by(step).map(move |y| px(x, y)))
            .collect();
        let region = Hole {
            rim: rim.clone(),
            centroid: px((left + right) / 2, bottom / 2),
            area: ((right - left) * bottom) as f64,
            open: true,
            inside,
        };
        (region, Rim::new(rim))
    }

    /// A slot 16 px wide and 40 deep, open at the top, where the median piece is 40 px: the
    /// place of a small piece between two neighbours, its centre 8 px (0.2) from either side.
    /// Fits of that piece start along its middle; a median piece's fits start nowhere in it.
    #[test]
    fn a_region_as_narrow_as_a_small_piece_gives_starts_along_its_middle() {
        let (slot, rim) = open_box(40, 56, 40, 2);
        assert!(
            starts(&slot, &rim, 40.0, 40.0).is_empty(),
            "a median piece's centre lies 12 px or more from its sides"
        );
        let own = (16.0f64 * 40.0).sqrt();
        let found = starts(&slot, &rim, 40.0, own);
        assert!(!found.is_empty());
        assert!(found.iter().all(|q| (q.x - 48.0).abs() <= 1.0), "{found:?}");
    }

    /// A region 200 px square, open at the top, where the median piece is 40 px: a piece
    /// starts within 30 px of the rim, a cluster 100 px across also near the middle, where
    /// its centre lies when it fills the region's far end (the starts spread out in
    /// proportion).
    #[test]
    fn a_cluster_larger_than_a_piece_starts_farther_from_the_rim() {
        let (region, rim) = open_box(0, 200, 200, 4);
        let from_rim = |found: &[P2]| found.iter().map(|q| rim.nearest(q).1).fold(0.0, f64::max);
        let piece = starts(&region, &rim, 40.0, 40.0);
        assert!(!piece.is_empty());
        assert!(from_rim(&piece) <= 30.0, "{piece:?}");
        let cluster = starts(&region, &rim, 40.0, 100.0);
        assert!(from_rim(&cluster) > 60.0, "{cluster:?}");
        for (k, a) in cluster.iter().enumerate() {
            assert!(cluster[k + 1..].iter().all(|b| (a - b).norm() >= 30.0));
        }
    }

    /// The deep points of a border piece and its neighbour at the end of a run, in order: a
    /// border side facing the strip outside the puzzle (points 0–5, the longest run away from
    /// the rim, its corner point 5 not on the border), a side meeting the rim, the side facing
    /// the next piece's place (9–12), another meeting side. The open side is the one facing
    /// the region. An open side running on round a corner into a border side (9–13) is taken
    /// whole; with no side facing the region, a piece fitted to its notch and the strip, it is
    /// the border side.
    #[test]
    fn the_open_side_faces_the_rest_of_the_region_not_the_outside() {
        let far = 10.0;
        let dist = [
            40.0, 60.0, 70.0, 60.0, 40.0, 20.0, 2.0, 1.0, 3.0, 15.0, 40.0, 35.0, 12.0, 2.0, 1.0,
        ];
        let mut faces_out = [false; 15];
        faces_out[..5].fill(true);
        assert_eq!(open_side(&dist, &faces_out, far), Some((9, 4)));
        let mut corner = dist;
        corner[13] = 50.0;
        let mut corner_out = faces_out;
        corner_out[13] = true;
        assert_eq!(open_side(&corner, &corner_out, far), Some((9, 5)));
        let mut notch = dist;
        notch[9..13].fill(3.0);
        assert_eq!(open_side(&notch, &faces_out, far), Some((0, 6)));
    }

    #[test]
    fn the_longest_run_may_wrap_round() {
        let f = [true, true, false, true, false, false, true, true, true];
        assert_eq!(longest_cyclic_run(&f), Some((6, 5)));
        assert_eq!(
            longest_cyclic_run(&[false, true, true, false]),
            Some((1, 2))
        );
        assert_eq!(longest_cyclic_run(&[true, true]), None);
        assert_eq!(longest_cyclic_run(&[false, false]), None);
    }
}
