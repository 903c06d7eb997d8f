//! Orientation-invariant chainlet features (Freeman & Garder's feature vector) and the
//! polygonal approximation of each piece.
