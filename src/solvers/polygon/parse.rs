//! Puzzle files: the JSON contract, and a friendlier line-based text format.
//!
//! ```text
//! # the 1 × 32 rectangle (comments start with #)
//! flip: yes
//! target: 0 0, 32 0, 32 1, 0 1
//! piece big-1: 0 0, 4 0, 0 4
//! piece: 0 0, 2 0, 2 2, 0 2
//! ```
//!
//! Vertices are separated by commas, the two coordinates by spaces. A coordinate is a number,
//! or a sum of terms where a term may carry the suffix `r2` (times √2): `3r2`, `1+r2`, `-0.5r2`.
//! Several `target:` lines make a target of several polygons.

use super::geometry::Pt;
use super::Puzzle;
use serde::Deserialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PuzzleFormat {
    Json,
    Text,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ParseError {
    #[error("invalid JSON puzzle: {0}")]
    Json(String),
    #[error("line {line}: {reason}")]
    Text { line: usize, reason: String },
}

#[derive(Deserialize)]
#[serde(untagged)]
enum TargetSpec {
    Many(Vec<Vec<Pt>>),
    One(Vec<Pt>),
}

#[derive(Deserialize)]
struct JsonPuzzle {
    pieces: Vec<Vec<Pt>>,
    target: TargetSpec,
    #[serde(default)]
    flip: Option<bool>,
    #[serde(default)]
    names: Vec<String>,
}

/// Which format `text` is in: JSON when it starts with `{`.
pub fn detect(text: &str) -> PuzzleFormat {
    if text.trim_start().starts_with('{') {
        PuzzleFormat::Json
    } else {
        PuzzleFormat::Text
    }
}

/// Parses either format.
pub fn parse_puzzle(text: &str) -> Result<Puzzle, ParseError> {
    match detect(text) {
        PuzzleFormat::Json => parse_json(text),
        PuzzleFormat::Text => parse_text(text),
    }
}

pub fn parse_json(text: &str) -> Result<Puzzle, ParseError> {
    let j: JsonPuzzle = serde_json::from_str(text).map_err(|e| ParseError::Json(e.to_string()))?;
    Ok(Puzzle {
        pieces: j.pieces,
        target: match j.target {
            TargetSpec::Many(t) => t,
            TargetSpec::One(t) => vec![t],
        },
        flip: j.flip.unwrap_or(true),
        names: j.names,
    })
}

pub fn parse_text(text: &str) -> Result<Puzzle, ParseError> {
    let mut p = Puzzle {
        pieces: Vec::new(),
        target: Vec::new(),
        flip: true,
        names: Vec::new(),
    };
    let mut any_name = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let err = |reason: String| ParseError::Text { line, reason };
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let Some((head, rest)) = body.split_once(':') else {
            return Err(err(format!(
                "expected `flip:`, `target:` or `piece [NAME]:`, found {body:?}"
            )));
        };
        let mut words = head.split_whitespace();
        let keyword = words.next().unwrap_or("").to_ascii_lowercase();
        let name = words.collect::<Vec<_>>().join(" ");
        match keyword.as_str() {
            "flip" => {
                p.flip = match rest.trim().to_ascii_lowercase().as_str() {
                    "yes" | "true" | "1" => true,
                    "no" | "false" | "0" => false,
                    other => return Err(err(format!("flip must be yes or no, not {other:?}"))),
                }
            }
            "target" => p.target.push(vertices(rest).map_err(err)?),
            "piece" => {
                p.pieces.push(vertices(rest).map_err(err)?);
                any_name |= !name.is_empty();
                p.names.push(if name.is_empty() {
                    format!("{}", p.pieces.len() - 1)
                } else {
                    name
                });
            }
            other => return Err(err(format!("unknown keyword {other:?}"))),
        }
    }
    if !any_name {
        p.names.clear();
    }
    Ok(p)
}

fn vertices(list: &str) -> Result<Vec<Pt>, String> {
    list.split(',')
        .map(|v| {
            let xy: Vec<&str> = v.split_whitespace().collect();
            match xy.as_slice() {
                [x, y] => Ok([number(x)?, number(y)?]),
                _ => Err(format!("a vertex needs two coordinates `x y`, found {v:?}")),
            }
        })
        .collect()
}

/// A number, or a sum of terms with optional `r2` (× √2) suffixes.
fn number(tok: &str) -> Result<f64, String> {
    let bad = || format!("{tok:?} is not a number");
    let mut terms: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev: Option<char> = None;
    for ch in tok.chars() {
        let exponent_sign = matches!(prev, Some('e' | 'E')) && !cur.ends_with("r2");
        if (ch == '+' || ch == '-') && !cur.is_empty() && !exponent_sign {
            terms.push(std::mem::take(&mut cur));
        }
        cur.push(ch);
        prev = Some(ch);
    }
    terms.push(cur);
    let mut sum = 0.0;
    for t in terms {
        let (coef, root) = match t.strip_suffix("r2") {
            Some(c) => (c, std::f64::consts::SQRT_2),
            None => (t.as_str(), 1.0),
        };
        let c = match coef {
            "" | "+" => 1.0,
            "-" => -1.0,
            c => c.parse::<f64>().map_err(|_| bad())?,
        };
        sum += c * root;
    }
    if sum.is_finite() {
        Ok(sum)
    } else {
        Err(bad())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_json_give_the_same_puzzle() {
        let t = parse_puzzle("flip: no\ntarget: 0 0, 2 0, 2 1, 0 1 # box\npiece: 0 0,1 0,1 1,0 1\npiece: 0 0, 1 0, 1 1, 0 1\n").unwrap();
        let j = parse_puzzle(r#"{"pieces": [[[0,0],[1,0],[1,1],[0,1]], [[0,0],[1,0],[1,1],[0,1]]], "target": [[[0,0],[2,0],[2,1],[0,1]]], "flip": false}"#).unwrap();
        assert_eq!(t, j);
    }

    #[test]
    fn root_two_terms() {
        assert!((number("1+2r2").unwrap() - (1.0 + 2.0 * 2f64.sqrt())).abs() < 1e-15);
        assert!((number("-r2").unwrap() + 2f64.sqrt()).abs() < 1e-15);
        assert_eq!(number("1e-3").unwrap(), 1e-3);
        assert!(number("x").is_err());
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse_puzzle("target: 0 0, 1\n").unwrap_err();
        assert!(matches!(e, ParseError::Text { line: 1, .. }), "{e}");
        let e = parse_puzzle("\n\nbogus: 1 2\n").unwrap_err();
        assert!(matches!(e, ParseError::Text { line: 3, .. }), "{e}");
    }

    #[test]
    fn a_single_target_polygon_is_accepted_in_json() {
        let j = parse_puzzle(r#"{"pieces": [[[0,0],[1,0],[0,1]]], "target": [[0,0],[1,0],[0,1]]}"#)
            .unwrap();
        assert_eq!(j.target.len(), 1);
        assert!(j.flip);
    }
}
