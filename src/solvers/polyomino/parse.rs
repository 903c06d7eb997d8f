//! Reading pieces and regions: the paper's drawings (a square is any character other than a
//! space or `.`, pieces separated by blank lines, `//` lines are comments) or JSON.
//!
//! JSON pieces file: `{"pieces": [["oo", "o", "ooo"], [[1,1,1],[0,0,1]], ...],
//! "region": ["#####", ...]}` (each piece either drawn rows or a 0-1 matrix; `region`
//! optional, same two forms, or `{"rect": [rows, cols]}`). A bare JSON array is a piece list.

use super::piece::CellMatrix;
use super::region::Region;
use serde::Deserialize;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ParseError {
    #[error("line {line}: tab character (its width is ambiguous; draw with spaces or '.')")]
    Tab { line: usize },
    #[error(
        "no pieces found (draw each piece with any non-space character, separated by blank lines)"
    )]
    NoPieces,
    #[error("the region drawing has no squares")]
    EmptyRegion,
    #[error("bad rectangle {0:?}: expected ROWSxCOLS with positive numbers, e.g. 6x10")]
    BadRect(String),
    #[error("invalid JSON: {0}")]
    Json(String),
    #[error("piece {piece}: matrix entries must be 0 or 1, found {value}")]
    BadCell { piece: usize, value: i64 },
}

/// Pieces (and possibly a region) read from one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceFile {
    pub pieces: Vec<CellMatrix>,
    pub region: Option<Region>,
}

/// Reads a pieces file in either format (JSON when it starts with `{` or `[`).
pub fn pieces_file(text: &str) -> Result<PieceFile, ParseError> {
    let file = if looks_like_json(text) {
        pieces_json(text)?
    } else {
        PieceFile {
            pieces: pieces_text(text)?,
            region: None,
        }
    };
    if file.pieces.is_empty() {
        return Err(ParseError::NoPieces);
    }
    Ok(file)
}

/// Reads a region file: a drawing (holes are spaces or `.`) or JSON (drawn rows, a 0-1
/// matrix, or `{"rect": [rows, cols]}`).
pub fn region_file(text: &str) -> Result<Region, ParseError> {
    let region = if looks_like_json(text) {
        let v: JsonShape =
            serde_json::from_str(text).map_err(|e| ParseError::Json(e.to_string()))?;
        v.into_region(0)?
    } else {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l))
            .filter(|(_, l)| !l.trim_start().starts_with("//"))
            .collect();
        Region::from_matrix(&drawing(&lines)?)
    };
    if region.area() == 0 {
        return Err(ParseError::EmptyRegion);
    }
    Ok(region)
}

/// `MxN` (also `M×N`, `M,N`): `M` rows, `N` columns.
pub fn rect(spec: &str) -> Result<Region, ParseError> {
    let bad = || ParseError::BadRect(spec.to_string());
    let parts: Vec<&str> = spec.split(['x', 'X', '×', ',']).collect();
    let [m, n] = parts.as_slice() else {
        return Err(bad());
    };
    let m: usize = m.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if m == 0 || n == 0 {
        return Err(bad());
    }
    Ok(Region::rectangle(m, n))
}

/// Pieces drawn as in the paper's figures, separated by blank lines. Each piece keeps its
/// drawn matrix trimmed to its squares, so stray leading spaces do not shift it.
pub fn pieces_text(text: &str) -> Result<Vec<CellMatrix>, ParseError> {
    let mut pieces = Vec::new();
    let mut block: Vec<(usize, &str)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        if line.trim().is_empty() {
            if !block.is_empty() {
                pieces.push(drawing(&block)?.trimmed().1);
                block.clear();
            }
        } else {
            block.push((i + 1, line));
        }
    }
    if !block.is_empty() {
        pieces.push(drawing(&block)?.trimmed().1);
    }
    Ok(pieces)
}

fn drawing(lines: &[(usize, &str)]) -> Result<CellMatrix, ParseError> {
    let mut rows = Vec::new();
    for &(n, line) in lines {
        if line.contains('\t') {
            return Err(ParseError::Tab { line: n });
        }
        rows.push(line.chars().map(|c| c != ' ' && c != '.').collect());
    }
    Ok(CellMatrix::from_rows(&rows))
}

fn looks_like_json(text: &str) -> bool {
    matches!(text.trim_start().chars().next(), Some('{') | Some('['))
}

#[derive(Deserialize)]
#[serde(untagged)]
enum JsonShape {
    Drawn(Vec<String>),
    Matrix(Vec<Vec<i64>>),
    Rect { rect: (usize, usize) },
}

impl JsonShape {
    fn into_matrix(self, piece: usize) -> Result<CellMatrix, ParseError> {
        match self {
            JsonShape::Drawn(rows) => {
                let lines: Vec<(usize, &str)> = rows
                    .iter()
                    .enumerate()
                    .map(|(i, r)| (i + 1, r.as_str()))
                    .collect();
                drawing(&lines)
            }
            JsonShape::Matrix(rows) => {
                let mut out = Vec::new();
                for row in rows {
                    let mut r = Vec::new();
                    for v in row {
                        match v {
                            0 => r.push(false),
                            1 => r.push(true),
                            value => return Err(ParseError::BadCell { piece, value }),
                        }
                    }
                    out.push(r);
                }
                Ok(CellMatrix::from_rows(&out))
            }
            JsonShape::Rect { rect: (m, n) } => {
                if m == 0 || n == 0 {
                    return Err(ParseError::BadRect(format!("{m}x{n}")));
                }
                Ok(Region::rectangle(m, n).grid)
            }
        }
    }

    fn into_region(self, piece: usize) -> Result<Region, ParseError> {
        Ok(Region::from_matrix(&self.into_matrix(piece)?))
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum JsonPieces {
    Object {
        pieces: Vec<JsonShape>,
        #[serde(default)]
        region: Option<JsonShape>,
    },
    List(Vec<JsonShape>),
}

fn pieces_json(text: &str) -> Result<PieceFile, ParseError> {
    let v: JsonPieces = serde_json::from_str(text).map_err(|e| ParseError::Json(e.to_string()))?;
    let (shapes, region) = match v {
        JsonPieces::Object { pieces, region } => (pieces, region),
        JsonPieces::List(pieces) => (pieces, None),
    };
    let pieces = shapes
        .into_iter()
        .enumerate()
        .map(|(i, s)| Ok(s.into_matrix(i + 1)?.trimmed().1))
        .collect::<Result<Vec<_>, ParseError>>()?;
    let region = region.map(|r| r.into_region(0)).transpose()?;
    Ok(PieceFile { pieces, region })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_pieces_split_on_blank_lines_and_trim() {
        let p = pieces_text("// two pieces\noo\no\nooo\n\n   \n .o\n  o\n").unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].count(), 6);
        assert_eq!((p[1].rows, p[1].cols), (2, 1));
    }

    #[test]
    fn json_pieces_in_both_forms_and_a_region() {
        let f = pieces_file(r#"{"pieces": [["oo", " o"], [[1,1,1]]], "region": {"rect": [2, 3]}}"#)
            .unwrap();
        assert_eq!(f.pieces.len(), 2);
        assert_eq!(f.pieces[1].count(), 3);
        assert_eq!(f.region.unwrap().area(), 6);
        assert_eq!(
            pieces_file("[[[1,2]]]"),
            Err(ParseError::BadCell { piece: 1, value: 2 })
        );
    }

    #[test]
    fn regions_and_rectangles() {
        let r = region_file("####\n#  #\n####\n").unwrap();
        assert_eq!(r.area(), 10);
        assert_eq!(rect("6x10").unwrap().area(), 60);
        assert!(rect("6x0").is_err());
        assert!(rect("six by ten").is_err());
        assert_eq!(region_file("\t#"), Err(ParseError::Tab { line: 1 }));
        assert_eq!(region_file(" . \n"), Err(ParseError::EmptyRegion));
    }
}
