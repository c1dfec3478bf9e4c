//! herald: a play-by-email Diplomacy judge.
//!
//! # Layout
//! - [`game`]: the rules — maps, variants, orders and adjudication; pure and synchronous.
//! - [`catalog`]: the variants a judge can play: built in, or map files in a directory.
//! - [`cases`]: the adjudication case runner (`herald datc`), reading jDip's DATC format.

pub mod cases;
pub mod catalog;
pub mod game;
