//! The chain code type through the public API.

use jigsaw::chain::{parse_chain_file, write_chain_file, ChainCode};

#[test]
fn chain_file_round_trip_through_public_api() {
    let c = ChainCode::from_digits([3, 2], "000066444422").unwrap();
    assert_eq!(parse_chain_file(&write_chain_file(&c)).unwrap(), c);
}
