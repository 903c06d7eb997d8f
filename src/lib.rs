//! `jigsaw`: solve jigsaw puzzles from photographs.
//!
//! The pipeline follows Freeman & Garder (1964), one folder per stage, each stage a plain
//! function from one serde type to the next so any stage can be dumped and reloaded:
//!
//! 1. [`vision`]: load photos and scans, segment them into pieces, trace each outline into a
//!    Freeman [`chain::ChainCode`].
//! 2. [`chainlets`]: find critical points on each chain and split it into chainlets `piece.k`.
//! 3. [`features`]: orientation-invariant chainlet features and polygonal approximations.
//!    Stages 1–3 produce a [`piece_set::PieceSet`], the typed intermediate representation that
//!    everything downstream reads.
//! 4. [`assembly`]: mating candidates, contour comparison, outward-spiral junction closure.
//! 5. [`render`]: solution images and overlays drawn from the photos' own pixels.
//!
//! Beside it stand the classic solvers of the same literature, each usable on its own
//! ([`solvers`]), the synthetic puzzle generator ([`synth`]) and the scorer ([`score`]).

pub mod assembly;
pub mod chain;
pub mod chainlets;
pub mod cli;
pub mod features;
pub mod files;
pub mod piece_set;
pub mod plane;
pub mod render;
pub mod score;
pub mod solvers;
pub mod synth;
pub mod vision;
