//! The rules of the game and nothing else: maps, variants, calendar, positions, orders, the
//! order parser and adjudication. Pure and synchronous: no I/O, no clock, no async.
//!
//! # Layout
//! - [`ids`]: the small `Copy` ids everything is keyed by.
//! - [`map`]: maps as data, their parser, lints and the built-in maps.
//! - [`calendar`]: seasons, phases, and years as shown.
//! - [`rules`]: the rule switches variants turn on.
//! - [`variant`]: map + calendar + rules, by name, read from variant files (`variants/`).
//! - [`position`]: the board between phases.
//! - [`dips`]: dip points' allowances and prices, and the standing supports they pay for.
//! - [`partners`]: which powers one player holds together.
//! - [`order`]: orders as written, their parser and canonical form.
//! - [`screen`]: orders checked against the board before adjudication.
//! - [`resolve`]: movement (Kruijswijk), retreats and adjustments.
//! - [`flood`]: scheduled map changes laid onto the board (Deluge's floods).
//! - [`turn`]: one phase played and the board moved on.

pub mod calendar;
pub mod dips;
pub mod flood;
pub mod ids;
pub mod map;
pub mod order;
pub mod partners;
pub mod position;
pub mod resolve;
pub mod rules;
pub mod screen;
pub mod turn;
pub mod variant;
