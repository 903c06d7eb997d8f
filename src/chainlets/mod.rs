//! Critical points (slope discontinuities, or curvature inflections as the fallback) and the
//! chainlets `piece.k` between them.
