//! The vision front end: load images, segment them into pieces, trace outlines.
