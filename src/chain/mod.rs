//! Freeman's 8-direction chain code.
//!
//! Code `d` is the step `(dx, dy)` in image coordinates (x right, y down):
//! 0 (1,0), 1 (1,-1), 2 (0,-1), 3 (-1,-1), 4 (-1,0), 5 (-1,1), 6 (0,1), 7 (1,1).
//! So 0 is east and 2 is up on screen, counting counter-clockwise as in Freeman's figure.
//! Piece outlines are traced clockwise as seen on screen, starting at the topmost, then
//! leftmost boundary pixel.

mod file;

pub use file::{parse_chain_file, write_chain_file};

use serde::{Deserialize, Serialize};
use std::fmt;

/// The step of each code, in image coordinates (y down).
pub const STEPS: [(i32, i32); 8] = [
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The code of a unit step, if `(dx, dy)` is one of the eight neighbours.
pub fn code_of_step(dx: i32, dy: i32) -> Option<u8> {
    STEPS.iter().position(|&s| s == (dx, dy)).map(|i| i as u8)
}

/// Why a string or point list is not a chain code.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ChainError {
    #[error("chain code character {0:?} at position {1} is not an octal digit 0-7")]
    BadDigit(char, usize),
    #[error("points {0} and {1} of the outline are not 8-neighbours")]
    NotNeighbours(usize, usize),
    #[error("sub-chain {from}..{to} is out of range for a chain of {len} codes")]
    OutOfRange { from: usize, to: usize, len: usize },
    #[error("chain file: {0}")]
    File(String),
}

/// A Freeman chain: a start pixel and the codes of the unit steps from it.
///
/// Serialised as `{"start": [x, y], "codes": "0707…"}` so dumps stay readable and compact.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainCode {
    pub start: [i32; 2],
    #[serde(with = "codes_as_digits")]
    pub codes: Vec<u8>,
}

impl ChainCode {
    pub fn new(start: [i32; 2], codes: Vec<u8>) -> Self {
        debug_assert!(codes.iter().all(|&c| c < 8));
        ChainCode { start, codes }
    }

    /// Parses the octal digits of a chain, e.g. `"000066444422"`.
    pub fn from_digits(start: [i32; 2], digits: &str) -> Result<Self, ChainError> {
        let codes = digits
            .chars()
            .enumerate()
            .map(|(i, c)| match c {
                '0'..='7' => Ok(c as u8 - b'0'),
                _ => Err(ChainError::BadDigit(c, i)),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ChainCode { start, codes })
    }

    /// Encodes a path of 8-connected pixels; a closed outline repeats no point at the end.
    pub fn from_points(points: &[[i32; 2]], closed: bool) -> Result<Self, ChainError> {
        let n = points.len();
        let Some(&start) = points.first() else {
            return Ok(ChainCode::new([0, 0], Vec::new()));
        };
        let steps = if closed && n > 1 {
            n
        } else {
            n.saturating_sub(1)
        };
        let mut codes = Vec::with_capacity(steps);
        for i in 0..steps {
            let (a, b) = (points[i], points[(i + 1) % n]);
            let code = code_of_step(b[0] - a[0], b[1] - a[1])
                .ok_or(ChainError::NotNeighbours(i, (i + 1) % n))?;
            codes.push(code);
        }
        Ok(ChainCode { start, codes })
    }

    pub fn len(&self) -> usize {
        self.codes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// The pixel positions visited: the start, then one point after each code (`len() + 1`
    /// points; a closed chain ends where it started).
    pub fn points(&self) -> Vec<[i32; 2]> {
        let mut p = self.start;
        let mut out = Vec::with_capacity(self.codes.len() + 1);
        out.push(p);
        for &c in &self.codes {
            let (dx, dy) = STEPS[c as usize];
            p = [p[0] + dx, p[1] + dy];
            out.push(p);
        }
        out
    }

    /// Arc length: even codes count 1, odd (diagonal) codes √2.
    pub fn length(&self) -> f64 {
        let odd = self.codes.iter().filter(|&&c| c % 2 == 1).count();
        (self.codes.len() - odd) as f64 + odd as f64 * std::f64::consts::SQRT_2
    }

    /// Net displacement from the first point to the last.
    pub fn displacement(&self) -> (i32, i32) {
        self.codes.iter().fold((0, 0), |(x, y), &c| {
            let (dx, dy) = STEPS[c as usize];
            (x + dx, y + dy)
        })
    }

    pub fn is_closed(&self) -> bool {
        !self.codes.is_empty() && self.displacement() == (0, 0)
    }

    pub fn end(&self) -> [i32; 2] {
        let (dx, dy) = self.displacement();
        [self.start[0] + dx, self.start[1] + dy]
    }

    /// The same path walked backwards: codes reversed, each turned by 4 (180°). This is
    /// Freeman & Garder's inversion, used to compare a chainlet with its mate.
    pub fn inverted(&self) -> ChainCode {
        ChainCode {
            start: self.end(),
            codes: self.codes.iter().rev().map(|&c| (c + 4) % 8).collect(),
        }
    }

    /// Every code turned by `k`·45° counter-clockwise (as seen on screen), about the start.
    pub fn rotated(&self, k: i32) -> ChainCode {
        let k = k.rem_euclid(8) as u8;
        ChainCode {
            start: self.start,
            codes: self.codes.iter().map(|&c| (c + k) % 8).collect(),
        }
    }

    /// The codes from index `from` up to (not including) `to`. On a closed chain `to < from`
    /// wraps past the end, so a chainlet that spans the chain start is one sub-chain.
    pub fn sub_chain(&self, from: usize, to: usize) -> Result<ChainCode, ChainError> {
        let len = self.codes.len();
        let range_err = ChainError::OutOfRange { from, to, len };
        if from > len || to > len {
            return Err(range_err);
        }
        let start = self.point_at(from);
        let codes = if from <= to {
            self.codes[from..to].to_vec()
        } else if self.is_closed() {
            let mut c = self.codes[from..].to_vec();
            c.extend_from_slice(&self.codes[..to]);
            c
        } else {
            return Err(range_err);
        };
        Ok(ChainCode { start, codes })
    }

    /// The point reached after the first `index` codes.
    pub fn point_at(&self, index: usize) -> [i32; 2] {
        let (x, y) = self.codes[..index.min(self.codes.len())].iter().fold(
            (self.start[0], self.start[1]),
            |(x, y), &c| {
                let (dx, dy) = STEPS[c as usize];
                (x + dx, y + dy)
            },
        );
        [x, y]
    }

    /// The codes as octal digits.
    pub fn digits(&self) -> String {
        self.codes.iter().map(|&c| (b'0' + c) as char).collect()
    }
}

impl fmt::Display for ChainCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "({}, {}) {}",
            self.start[0],
            self.start[1],
            self.digits()
        )
    }
}

mod codes_as_digits {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(codes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        let text: String = codes.iter().map(|&c| (b'0' + c) as char).collect();
        s.serialize_str(&text)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let text = String::deserialize(d)?;
        super::ChainCode::from_digits([0, 0], &text)
            .map(|c| c.codes)
            .map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rectangle_from_issue() {
        // A 5×3 filled rectangle with top-left pixel (3,2), traced clockwise on screen.
        let c = ChainCode::from_digits([3, 2], "000066444422").unwrap();
        assert!(c.is_closed());
        assert_eq!(c.points()[4], [7, 2]);
        assert_eq!(c.points()[6], [7, 4]);
        assert_eq!(c.length(), 12.0);
    }

    #[test]
    fn inversion_is_an_involution_and_reverses_points() {
        let c = ChainCode::from_digits([1, 1], "0171654").unwrap();
        assert_eq!(c.inverted().inverted(), c);
        let mut p = c.points();
        p.reverse();
        assert_eq!(c.inverted().points(), p);
    }

    #[test]
    fn rotation_by_eight_steps_is_identity() {
        let c = ChainCode::from_digits([0, 0], "0123456777").unwrap();
        assert_eq!(c.rotated(8), c);
        assert_eq!(c.rotated(3).rotated(5), c);
        assert_eq!(c.rotated(-1).codes[0], 7);
    }

    #[test]
    fn sub_chain_wraps_on_closed_chains() {
        let c = ChainCode::from_digits([3, 2], "000066444422").unwrap();
        let s = c.sub_chain(10, 2).unwrap();
        assert_eq!(s.digits(), "2200");
        assert_eq!(s.start, [3, 4]);
        assert!(c.sub_chain(3, 20).is_err());
    }

    #[test]
    fn from_points_round_trips() {
        let c = ChainCode::from_digits([3, 2], "000066444422").unwrap();
        let mut pts = c.points();
        pts.pop();
        assert_eq!(ChainCode::from_points(&pts, true).unwrap(), c);
        assert!(ChainCode::from_points(&[[0, 0], [2, 0]], false).is_err());
    }

    #[test]
    fn serde_uses_digit_strings() {
        let c = ChainCode::from_digits([3, 2], "0066").unwrap();
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(json, r#"{"start":[3,2],"codes":"0066"}"#);
        assert_eq!(serde_json::from_str::<ChainCode>(&json).unwrap(), c);
        assert!(serde_json::from_str::<ChainCode>(r#"{"start":[0,0],"codes":"08"}"#).is_err());
    }
}
