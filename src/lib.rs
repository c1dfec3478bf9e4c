//! herald: a play-by-email Diplomacy judge.
//!
//! # Layout
//! - [`game`]: the rules — maps, variants, orders and adjudication; pure and synchronous.
//! - [`cases`]: the adjudication case runner (`herald datc`), reading jDip's DATC format.

pub mod cases;
pub mod game;
