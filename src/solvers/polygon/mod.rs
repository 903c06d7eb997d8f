//! Lynning (1973): filling a polygonal region with polygonal pieces.
