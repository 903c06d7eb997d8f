//! Placing a round's accepted fits: pieces first, then one cluster, each place taken once.

use super::super::geometry::{Pose, P2};
use super::super::grow::{Growth, Placed};
use super::super::merge::move_cluster;
use super::super::shapes::Shapes;
use super::items::Item;
use super::region_fits::Fit;
use super::SAME_PLACE;

/// Places the round's accepted `fits` of `items` into `cluster`: pieces first, best first,
/// then one cluster at most (moving a cluster numbers the clusters anew), each place taken
/// once. Returns how many pieces were placed.
pub(super) fn place_fits(
    shapes: &Shapes,
    g: &mut Growth,
    cluster: u32,
    items: &[Item],
    mut fits: Vec<Fit>,
) -> usize {
    let size = shapes.median_size;
    let same_place = |a: P2, b: P2| (a - b).norm() < SAME_PLACE * size;
    fits.sort_by(|a, b| {
        let cluster_of = |f: &Fit| items[f.item].cluster.is_some();
        cluster_of(a)
            .cmp(&cluster_of(b))
            .then(a.distance.total_cmp(&b.distance))
    });
    let mut sequence = g
        .placed
        .iter()
        .flatten()
        .map(|p| p.sequence)
        .max()
        .unwrap_or(0);
    let mut placed = 0;
    let mut taken = vec![false; items.len()];
    // A cluster gives one piece a round at most, so that it keeps one (see `Items`).
    let mut left: Vec<u32> = Vec::new();
    // A region joining notches is offered whole and as each of them (see `empty_regions`):
    // two items may be the best of one place.
    let mut filled: Vec<P2> = Vec::new();
    // A cluster fitted as one is told from a piece fitted alone by its centre, which lies
    // between its pieces: a piece fitted to the place of one of them (a corner piece turned
    // into its neighbour's place, irregular 100 photos seed 55) overlapped it. The cluster's
    // shape is the stronger evidence: the piece gives way, and is fitted again next round.
    let places = |item: &Item, pose: &Pose| -> Vec<P2> {
        item.members
            .iter()
            .map(|&(i, at)| pose * at * shapes.pieces[i].centroid)
            .collect()
    };
    let claimed = fits
        .iter()
        .find(|f| items[f.item].cluster.is_some())
        .map(|f| places(&items[f.item], &f.pose))
        .unwrap_or_default();
    for Fit {
        item,
        pose,
        distance,
        tolerance,
        centre,
        ..
    } in fits
    {
        // An item is the best of one region at most (see `alone_there`), but for a perfect fit.
        if std::mem::replace(&mut taken[item], true)
            || filled.iter().any(|&c| same_place(c, centre))
        {
            continue;
        }
        let it = &items[item];
        if let Some(c) = it.cluster {
            let members = places(it, &pose);
            if members
                .iter()
                .any(|&m| filled.iter().any(|&f| same_place(f, m)))
            {
                continue;
            }
            move_cluster(g, c, cluster, &pose);
            placed += it.members.len();
            break;
        }
        if claimed.iter().any(|&m| same_place(m, centre)) {
            continue;
        }
        if let Some(c) = it.member_of {
            if left.contains(&c) {
                continue;
            }
            left.push(c);
        }
        filled.push(centre);
        let i = it.members[0].0;
        sequence += 1;
        g.placed[i] = Some(Placed {
            pose,
            sequence,
            cluster,
            supports: 1,
            merit: (distance / tolerance).min(1.0),
            spans: 0,
        });
        g.loose.retain(|&l| l != i);
        placed += 1;
    }
    placed
}
