//! Fixed-length initial and terminal portions of chainlets and their subfeature vectors
//! (Freeman & Garder, "Feature determination and classification").

use super::super::geometry::P2;
use super::super::shapes::ChainletShape;
use crate::features::features_of_points;

/// Which end of a chainlet a portion starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The initial portion: from the chainlet's first critical point onward.
    Initial,
    /// The terminal portion: up to the chainlet's last critical point.
    Terminal,
}

impl End {
    /// The end a mate's portion must start from: mates run in opposite directions, so one
    /// chainlet's initium meets the other's terminus.
    pub fn opposite(self) -> End {
        match self {
            End::Initial => End::Terminal,
            End::Terminal => End::Initial,
        }
    }
}

/// Subfeatures: the features of the whole chainlet but length, which is fixed.
pub const SUBFEATURES: usize = 4;
pub type Subfeatures = [f64; SUBFEATURES];

/// The part of `c` within arc length `length` of its `end`, as a chainlet of its own (in
/// the same direction as `c`), and the outline index where it stops short of the other end.
/// `None` if `c` is shorter than `length`.
pub fn portion(c: &ChainletShape, end: End, length: f64) -> Option<(ChainletShape, usize)> {
    portion_after(c, end, 0.0, length)
}

/// The part of `c` of arc length `length` that begins `skip` along from its `end` (see
/// [`portion`]).
pub fn portion_after(
    c: &ChainletShape,
    end: End,
    skip: f64,
    length: f64,
) -> Option<(ChainletShape, usize)> {
    if c.length < skip + length || c.points.len() < 3 {
        return None;
    }
    let n = c.points.len();
    let ordered: Box<dyn Iterator<Item = usize>> = match end {
        End::Initial => Box::new(0..n),
        End::Terminal => Box::new((0..n).rev()),
    };
    let mut taken: Vec<usize> = Vec::new();
    // Arc length from the end to the current point, and from the first point taken.
    let (mut arc, mut walked) = (0.0, 0.0);
    let mut previous: Option<usize> = None;
    for k in ordered {
        let step = previous.map_or(0.0, |p| (c.points[k] - c.points[p]).norm());
        previous = Some(k);
        arc += step;
        if arc < skip - 1e-9 {
            continue;
        }
        if !taken.is_empty() {
            if walked + step > length + 0.5 {
                break;
            }
            walked += step;
        }
        taken.push(k);
    }
    if end == End::Terminal {
        taken.reverse();
    }
    let points: Vec<P2> = taken.iter().map(|&k| c.points[k]).collect();
    if points.len() < 3 {
        return None;
    }
    // The outline index of the portion's far end: the chainlet's start plus the offset.
    let far = match end {
        End::Initial => taken[taken.len() - 1],
        End::Terminal => taken[0],
    };
    let stop = c.start + far;
    let span = (c.start + taken[0], c.start + taken[taken.len() - 1]);
    let shape =
        ChainletShape::from_points(c.piece, c.label.clone(), span, points, c.features.clone());
    Some((shape, stop))
}

/// The subfeature vector of a portion.
pub fn subfeatures(p: &ChainletShape) -> Subfeatures {
    let pts: Vec<[f64; 2]> = p.points.iter().map(|q| [q.x, q.y]).collect();
    let f = features_of_points(&pts);
    [
        f.distance_vector_length,
        f.signed_area,
        f.max_perpendicular,
        f.min_perpendicular,
    ]
}

/// What the subfeatures of a mating portion must be, in the other chainlet's terms: a knob
/// mates a hole, so area and perpendicular extremes change sign and side.
pub fn complement(f: &Subfeatures) -> Subfeatures {
    [f[0], -f[1], -f[3], -f[2]]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece_set::ChainletFeatures;

    /// A chainlet along the x axis from 0 to 100, one point per pixel, starting at outline
    /// index 10.
    fn straight() -> ChainletShape {
        let points: Vec<P2> = (0..=100).map(|x| P2::new(x as f64, 0.0)).collect();
        ChainletShape::from_points(
            0,
            "1.1".into(),
            (10, 110),
            points,
            ChainletFeatures::default(),
        )
    }

    #[test]
    fn portions_are_measured_from_either_end() {
        let c = straight();
        let (p, stop) = portion(&c, End::Initial, 30.0).unwrap();
        assert_eq!((p.points[0].x, p.points[p.points.len() - 1].x), (0.0, 30.0));
        assert_eq!(stop, 40, "the far end lies 30 points after the start at 10");
        let (p, stop) = portion(&c, End::Terminal, 30.0).unwrap();
        assert_eq!(
            (p.points[0].x, p.points[p.points.len() - 1].x),
            (70.0, 100.0)
        );
        assert_eq!(stop, 80);
        let (p, stop) = portion_after(&c, End::Terminal, 20.0, 30.0).unwrap();
        assert_eq!(
            (p.points[0].x, p.points[p.points.len() - 1].x),
            (50.0, 80.0)
        );
        assert_eq!(stop, 60);
        assert!(portion(&c, End::Initial, 101.0).is_none());
        assert!(portion_after(&c, End::Initial, 80.0, 30.0).is_none());
    }

    #[test]
    fn a_bump_and_its_dent_have_complementary_subfeatures() {
        let bump: Vec<[f64; 2]> = (0..=40)
            .map(|x| {
                [
                    x as f64,
                    -10.0 * (std::f64::consts::PI * x as f64 / 40.0).sin(),
                ]
            })
            .collect();
        // The same curve traversed backwards from the other side: the mate's view.
        let dent: Vec<[f64; 2]> = bump.iter().rev().copied().collect();
        let shape = |pts: &[[f64; 2]]| {
            let points: Vec<P2> = pts.iter().map(|p| P2::new(p[0], p[1])).collect();
            ChainletShape::from_points(0, "1.1".into(), (0, 40), points, Default::default())
        };
        let (f, g) = (subfeatures(&shape(&bump)), subfeatures(&shape(&dent)));
        let c = complement(&g);
        for k in 0..SUBFEATURES {
            assert!((f[k] - c[k]).abs() < 1e-6, "{f:?} vs complement {c:?}");
        }
        assert!(f[1].abs() > 100.0, "the bump has area: {f:?}");
    }
}
