//! Loading and segmentation on the real sets in `../shared/data/real` and on bad inputs,
//! through the library.

mod inputs;
mod real_sets;
mod sealed_sockets;
