//! The dip-point ledger of a turn as it is kept with the game: what each power bought,
//! the interceptions and protections in force, and the messages sent (for the
//! interceptions). Data only; the rules of spending are in [`super::dips`].

use serde::{Deserialize, Serialize};

use crate::game::ids::PowerId;

/// One purchase this turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spend {
    /// The power that paid.
    pub power: PowerId,
    /// How many dips.
    pub cost: u32,
    /// What for, in words (`press to France`).
    pub what: String,
}

/// A message of this turn, kept for the interceptions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sent {
    /// Its sender.
    pub from: PowerId,
    /// The powers it went to.
    pub to: Vec<PowerId>,
    /// The message as its recipients got it (grey press: the anonymous copy).
    pub body: String,
    /// Grey press: its sender is not shown, and an interception must not tell it either.
    #[serde(default)]
    pub grey: bool,
}

/// The dip ledger of the current turn.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ledger {
    /// Purchases (press, interceptions, protection); standing supports are counted from the
    /// orders on file.
    pub spent: Vec<Spend>,
    /// Interceptions: who, and the two countries.
    pub intercepts: Vec<(PowerId, PowerId, PowerId)>,
    /// Powers whose messages are protected this turn.
    pub protected: Vec<PowerId>,
    /// Messages between powers this turn.
    pub messages: Vec<Sent>,
}
