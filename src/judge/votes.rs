//! What a game stores of draws and concessions: the rules the Master set and each seat's
//! standing vote. Apart from [`super::draws`], which reads the game, so that the game may
//! hold them without the two importing each other.

use crate::game::ids::PowerId;
use serde::{Deserialize, Serialize};

/// Which endings by agreement a game allows (SET DIAS / NODIAS, SET CONCESSIONS /
/// NOCONCESSIONS).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRules {
    /// Draws include all survivors (true), or the voters name who shares it.
    pub dias: bool,
    /// Powers may concede the game to the largest power.
    pub concessions: bool,
}

impl Default for DrawRules {
    fn default() -> DrawRules {
        DrawRules {
            dias: true,
            concessions: true,
        }
    }
}

/// A power's standing vote for an ending, kept on its seat until the phase ends.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Vote {
    /// No vote.
    #[default]
    None,
    /// A draw shared by these powers (in map order).
    Draw(Vec<PowerId>),
    /// The game conceded to this power.
    Concede(PowerId),
}
