//! Pictures for people: overlays of traced outlines and solution images.
