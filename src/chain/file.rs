//! The `pieces/<id>.chain` dump format: a line `start X Y`, then the octal digits, 80 per line.
//! Plain text so a person can read a chain, and another program can take it in.

use super::{ChainCode, ChainError};

const DIGITS_PER_LINE: usize = 80;

pub fn write_chain_file(chain: &ChainCode) -> String {
    let digits = chain.digits();
    let mut out = format!("start {} {}\n", chain.start[0], chain.start[1]);
    for line in digits.as_bytes().chunks(DIGITS_PER_LINE) {
        out.push_str(std::str::from_utf8(line).expect("digits are ASCII"));
        out.push('\n');
    }
    out
}

pub fn parse_chain_file(text: &str) -> Result<ChainCode, ChainError> {
    let mut lines = text.lines();
    let header = lines
        .next()
        .ok_or_else(|| ChainError::File("empty file".into()))?;
    let mut words = header.split_whitespace();
    let bad_header = || ChainError::File(format!("first line must be `start X Y`, got {header:?}"));
    if words.next() != Some("start") {
        return Err(bad_header());
    }
    let mut coord = || -> Result<i32, ChainError> {
        words
            .next()
            .and_then(|w| w.parse().ok())
            .ok_or_else(bad_header)
    };
    let start = [coord()?, coord()?];
    let digits: String = lines.flat_map(|l| l.trim().chars()).collect();
    ChainCode::from_digits(start, &digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_wraps_at_80() {
        let c = ChainCode::new([5, -2], (0..200).map(|i| (i % 8) as u8).collect());
        let text = write_chain_file(&c);
        assert_eq!(text.lines().nth(1).unwrap().len(), 80);
        assert_eq!(parse_chain_file(&text).unwrap(), c);
        assert!(parse_chain_file("begin 1 2\n00").is_err());
    }
}
