//! The graph of mated neighbours inside one cluster. Three steps look in it for seams that alone
//! hold part of a cluster (its bridges): the re-examination takes off small parts so held
//! ([`super::reexamine`]), and parts held by poor seams only, `cut_apart` cuts the other
//! clusters at them, `rejoin` the largest; settling carries the parts no seam holds to the
//! rest ([`super::carried`]). They build it here, once, the same way: a piece's neighbours are
//! the pieces its chainlets are mated to, in the same cluster, each once.

use super::grow::Growth;
use super::reexamine::members;
use super::shapes::Shapes;
use std::cmp::Reverse;

/// One cluster's pieces as nodes `0..pieces.len()`, in the order of their piece indices, so a
/// walk over nodes visits pieces in the order a walk over piece indices would.
pub(super) struct SeamGraph {
    /// Node k is piece `pieces[k]`; ascending.
    pub pieces: Vec<usize>,
    /// Each node's mated neighbours (nodes), ascending, each once.
    pub neighbours: Vec<Vec<usize>>,
    /// Every seam between two members once, as (piece, piece, Δ), the smaller piece first.
    pub seams: Vec<(usize, usize, f64)>,
}

impl SeamGraph {
    pub fn of_cluster(shapes: &Shapes, g: &Growth, cluster: u32) -> SeamGraph {
        let pieces = members(g, cluster);
        let mut node = vec![usize::MAX; shapes.pieces.len()];
        for (k, &i) in pieces.iter().enumerate() {
            node[i] = k;
        }
        let mut seams: Vec<(usize, usize, f64)> = Vec::new();
        for &i in &pieces {
            for &c in &shapes.pieces[i].chainlets {
                if let Some((o, delta)) = g.mate_of[c] {
                    let j = shapes.chainlets[o].piece;
                    if i < j && node[j] != usize::MAX {
                        seams.push((i, j, delta));
                    }
                }
            }
        }
        // Neighbour lists rather than the seam list: the largest cluster of a 1000-piece
        // puzzle has thousands of seams, and a search over them from every piece took seconds.
        let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); pieces.len()];
        for &(i, j, _) in &seams {
            neighbours[node[i]].push(node[j]);
            neighbours[node[j]].push(node[i]);
        }
        for n in &mut neighbours {
            n.sort_unstable();
            n.dedup();
        }
        SeamGraph {
            pieces,
            neighbours,
            seams,
        }
    }

    /// The largest Δ of the seams between pieces `i` and `j`.
    pub fn poorest_seam(&self, i: usize, j: usize) -> f64 {
        let (i, j) = ordered(i, j);
        self.seams
            .iter()
            .filter(|s| (s.0, s.1) == (i, j))
            .map(|s| s.2)
            .fold(f64::MIN, f64::max)
    }

    /// The parts of at most `max` pieces that good seams (Δ within `good_seam`) hold together
    /// but only poor ones, two or more, to the rest, each as its pieces, sorted. Growth can
    /// close a junction on a piece with two poor seams, and a piece mated to it by a good one
    /// then holds it no better (irregular 100 photos seed 15 with 3 + 3 missing and
    /// extraneous: a true pair closed a junction far from its place on seams of Δ 198 and
    /// 111, hanging outside the puzzle's edge). A part held by one seam is a bridge's side.
    pub fn poorly_held_parts(&self, good_seam: f64, max: usize) -> Vec<Vec<usize>> {
        let n = self.pieces.len();
        let part_of = self.part_of(|delta| delta <= good_seam);
        let mut parts: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (a, &k) in part_of.iter().enumerate() {
            parts[k].push(a);
        }
        let holds = |k: usize, part: &[usize]| {
            part.iter()
                .flat_map(|&a| &self.neighbours[a])
                .filter(|&&b| part_of[b] != k)
                .count()
        };
        parts
            .iter()
            .enumerate()
            .filter(|(k, part)| {
                !part.is_empty() && part.len() <= max && part.len() < n && holds(*k, part) >= 2
            })
            .map(|(_, part)| part.iter().map(|&a| self.pieces[a]).collect())
            .collect()
    }

    /// The parts the seams hold together but the one of most pieces (the first of them), each
    /// as its pieces, ascending: what no seam holds to the rest of the cluster (a piece the
    /// holes step placed, a small cluster it fitted whole; see `carried`).
    pub fn loose_parts(&self) -> Vec<Vec<usize>> {
        let part_of = self.part_of(|_| true);
        let mut parts: Vec<Vec<usize>> = vec![Vec::new(); self.pieces.len()];
        for (a, &k) in part_of.iter().enumerate() {
            parts[k].push(self.pieces[a]);
        }
        parts.retain(|part| !part.is_empty());
        if let Some(body) = (0..parts.len()).max_by_key(|&k| (parts[k].len(), Reverse(k))) {
            parts.remove(body);
        }
        parts
    }

    /// Each node's part, named by its least node: union-find over the seams whose Δ `joins`
    /// takes.
    fn part_of(&self, joins: impl Fn(f64) -> bool) -> Vec<usize> {
        let node = |i: usize| self.pieces.binary_search(&i).expect("seams join members");
        let mut root: Vec<usize> = (0..self.pieces.len()).collect();
        fn find(root: &mut [usize], mut a: usize) -> usize {
            while root[a] != a {
                root[a] = root[root[a]];
                a = root[a];
            }
            a
        }
        for &(i, j, delta) in &self.seams {
            if joins(delta) {
                let (a, b) = (find(&mut root, node(i)), find(&mut root, node(j)));
                root[a.max(b)] = a.min(b);
            }
        }
        (0..root.len()).map(|a| find(&mut root, a)).collect()
    }
}

fn ordered(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

/// The edges of the graph `neighbours` (no edge twice) whose removal disconnects it, each
/// as (smaller, larger) node, ascending: Tarjan's low-link over a depth-first search, kept on
/// an explicit stack (a cluster grown along single matings is a long path).
pub(super) fn bridge_edges(neighbours: &[Vec<usize>]) -> Vec<(usize, usize)> {
    let n = neighbours.len();
    let mut order = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut found = Vec::new();
    let mut next = 0;
    for root in 0..n {
        if order[root] != usize::MAX {
            continue;
        }
        // (node, its parent, how many of its neighbours are done)
        let mut stack = vec![(root, usize::MAX, 0)];
        order[root] = next;
        low[root] = next;
        next += 1;
        while let Some(&mut (a, parent, ref mut done)) = stack.last_mut() {
            if let Some(&b) = neighbours[a].get(*done) {
                *done += 1;
                if b == parent {
                    continue;
                }
                if order[b] == usize::MAX {
                    order[b] = next;
                    low[b] = next;
                    next += 1;
                    stack.push((b, a, 0));
                } else {
                    low[a] = low[a].min(order[b]);
                }
            } else {
                stack.pop();
                if parent != usize::MAX {
                    low[parent] = low[parent].min(low[a]);
                    if low[a] > order[parent] {
                        found.push(ordered(a, parent));
                    }
                }
            }
        }
    }
    found.sort_unstable();
    found
}

/// Which nodes of `neighbours` are reached from `start` without crossing to `cut` directly.
pub(super) fn reached_without(neighbours: &[Vec<usize>], start: usize, cut: usize) -> Vec<bool> {
    let mut seen = vec![false; neighbours.len()];
    seen[start] = true;
    let mut queue = vec![start];
    while let Some(a) = queue.pop() {
        for &b in &neighbours[a] {
            let across = a == start && b == cut;
            if !seen[b] && !across {
                seen[b] = true;
                queue.push(b);
            }
        }
    }
    seen
}

/// The nodes reached from `u` without crossing to `v` directly, sorted, if they are at most
/// `max` and do not reach `v` at all: then `u`–`v` is their only hold. Stops as soon as the side
/// grows past `max`, so asking it of every seam of a large cluster stays cheap.
pub(super) fn small_side(
    neighbours: &[Vec<usize>],
    u: usize,
    v: usize,
    max: usize,
) -> Option<Vec<usize>> {
    let mut seen = vec![u];
    let mut next = 0;
    while next < seen.len() {
        let a = seen[next];
        next += 1;
        for &b in &neighbours[a] {
            if (a == u && b == v) || seen.contains(&b) {
                continue;
            }
            if b == v || seen.len() == max {
                return None;
            }
            seen.push(b);
        }
    }
    seen.sort_unstable();
    Some(seen)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Undirected neighbour lists of `n` nodes joined by `edges`.
    fn graph(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
        let mut g = vec![Vec::new(); n];
        for &(a, b) in edges {
            g[a].push(b);
            g[b].push(a);
        }
        g
    }

    #[test]
    fn the_edge_between_two_cycles_is_their_only_bridge_and_every_edge_of_a_path_is_one() {
        // Triangles 0-1-2 and 3-4-5 joined by 2-3.
        let two = graph(6, &[(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5), (5, 3)]);
        assert_eq!(bridge_edges(&two), [(2, 3)]);
        // A long path (a cluster grown along single matings) needs no deep recursion.
        let n = 20_000;
        let edges: Vec<(usize, usize)> = (1..n).map(|i| (i - 1, i)).collect();
        assert_eq!(bridge_edges(&graph(n, &edges)), edges);
        let seen = reached_without(&graph(n, &edges), 10, 11);
        assert_eq!(seen.iter().filter(|&&s| s).count(), 11);
    }

    #[test]
    fn a_small_side_is_found_only_across_a_bridge_and_up_to_its_bound() {
        // A triangle 0-1-2 with a tail 2-3-4.
        let g = graph(5, &[(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)]);
        assert_eq!(small_side(&g, 3, 2, 4), Some(vec![3, 4]));
        assert_eq!(small_side(&g, 4, 3, 1), Some(vec![4]));
        assert_eq!(
            small_side(&g, 3, 2, 1),
            None,
            "two pieces past a bound of one"
        );
        assert_eq!(small_side(&g, 1, 2, 4), None, "1 reaches 2 through 0");
    }
}
