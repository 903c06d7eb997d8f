//! Loading and segmentation on the real sets in `../shared/data/real`, on generated sets and
//! on bad inputs, through the library.

mod inputs;
mod large_pieces;
mod real_sets;
mod sealed_sockets;
