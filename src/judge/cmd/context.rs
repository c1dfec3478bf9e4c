//! The context every command of a mail shares: who speaks ([`Role`]), the games loaded, the
//! reply being written. The commands of this directory take it; the mail loop that makes it
//! and dispatches into them is [`crate::judge::session`], which this file does not import, so
//! no import points back from the commands to the loop.

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};

use super::Seat;
use crate::envelope::Letter;
use crate::game::ids::PowerId;
use crate::judge::game::Game;
use crate::judge::{Effects, Games, Judge};

/// Who the sender of a mail speaks as, once signed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// Not signed on.
    Nobody,
    /// A player of a forming game, by seat index.
    Joiner(usize),
    /// A power.
    Power(PowerId),
    /// The Master.
    Master,
    /// An observer.
    Observer,
}

impl Role {
    /// The kind of seat, for the command table (none before SIGNON).
    pub(crate) fn seat(self) -> Option<Seat> {
        match self {
            Role::Nobody => None,
            Role::Joiner(_) => Some(Seat::Joiner),
            Role::Power(_) => Some(Seat::Power),
            Role::Master => Some(Seat::Master),
            Role::Observer => Some(Seat::Observer),
        }
    }
}

/// A press block being read: its recipients, colour and lines.
pub(crate) struct PressDraft {
    /// The PRESS or BROADCAST line as written, to name the press in a refusal.
    pub(crate) head: String,
    pub(crate) to: Recipients,
    pub(crate) grey: Option<bool>,
    pub(crate) lines: Vec<String>,
    /// Words of the PRESS line that are no press word: the press is refused, naming them.
    pub(crate) unknown: Vec<String>,
}

/// One mail being read: the context every command of it shares.
pub(crate) struct Session<'a> {
    pub(crate) judge: &'a Judge,
    pub(crate) letter: &'a Letter,
    pub(crate) now: DateTime<Utc>,
    pub(crate) games: &'a mut Games,
    pub(crate) game: Option<String>,
    pub(crate) role: Role,
    pub(crate) became: Option<PowerId>,
    pub(crate) signed_on: bool,
    /// SIGNONs read in this mail: each after the first ends the section of the seat signed
    /// on before it (see [`crate::judge::cmd::signon`]), up to a bound.
    pub(crate) signons: usize,
    /// CREATE or OBSERVE was read: it stands alone in its mail, with no SIGNON besides it.
    pub(crate) alone: bool,
    /// Powers the Master acted for (BECOME) in an earlier section of this mail: each
    /// player gets a copy of the reply, as the one of the last section does.
    pub(crate) acted_for: Vec<PowerId>,
    pub(crate) lines: Vec<String>,
    pub(crate) errors: bool,
    pub(crate) recognised: bool,
    /// Orders read so far, each with why it is for another phase (PHASE applies to the lines
    /// after it).
    pub(crate) orders: Vec<(String, Option<String>)>,
    pub(crate) wrong_phase: Option<String>,
    /// The later phase the last PHASE line named, if it named one: the order lines after it
    /// are filed for that phase (see [`crate::judge::later`]).
    pub(crate) later_phase: Option<crate::game::calendar::Phase>,
    /// Order lines for later phases, each with its phase, filed at the end of the mail.
    pub(crate) later_orders: Vec<(crate::game::calendar::Phase, String)>,
    pub(crate) press: Option<PressDraft>,
    /// Press blocks read from this mail so far (see [`crate::judge::volume`]).
    pub(crate) press_blocks: usize,
    pub(crate) effects: Effects,
    pub(crate) touched: BTreeSet<String>,
    /// A ROLLBACK in this mail: the orders it kept do not start early processing (the
    /// phase runs at its deadline, by PROCESS, or early after a later mail).
    pub(crate) rolled_back: bool,
    /// SIGNON checked a password and it was right.
    pub(crate) authenticated: bool,
    /// A PROCESS of this mail played a phase: a mail plays one at most.
    pub(crate) processed: bool,
    /// Addresses that got grey press from this mail: nothing else from it may name the
    /// sender to them, as it would arrive together with the press.
    pub(crate) grey_to: Vec<String>,
    /// The settings this mail changed, told to everyone in one notice when it is read.
    pub(crate) changes: Vec<String>,
    /// Powers whose orders this mail has filed already (orders are filed at its end, and
    /// before each dip purchase in a game with dip points, so that purchases are paid in
    /// line order): a later filing keeps an earlier one's refused lines marked.
    pub(crate) filed: Vec<PowerId>,
    /// Files for the reply (pictures of the board).
    pub(crate) attachments: Vec<crate::envelope::Attachment>,
    /// What the reply has used of its limits, and what was left out of it.
    pub(crate) budget: crate::judge::budget::Budget,
    /// The limits of this mail's reply: the judge's, or those of an answer to an address
    /// that has not confirmed (text only, short).
    pub(crate) limits: crate::judge::budget::ReplyLimits,
    /// What the store counted for the growth limits: CREATEs, games not listed.
    pub(crate) standing: &'a crate::judge::growth::Standing,
}

/// Who press goes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recipients {
    /// `PRESS` alone: nobody (a guard against accidental broadcasts).
    Nobody,
    /// `TO letters`.
    To(String),
    /// `TO ALL BUT letters`.
    AllBut(String),
    /// `BROADCAST`: everyone.
    All,
}

impl Session<'_> {
    /// The game signed on to. Only commands that need a sign-on call it (see
    /// [`super::def::Who`]), or CREATE and SIGNON once they have set `game`, which they set
    /// only to a game of `games` (the game of the mail's SIGNONs or its CREATE; a failed one
    /// ends the mail).
    #[allow(clippy::expect_used)]
    pub(crate) fn game(&self) -> &Game {
        &self.games[self.game.as_deref().expect("signed on")]
    }

    /// The game signed on to, marked as changed; see [`Session::game`] for why it is there.
    #[allow(clippy::expect_used)]
    pub(crate) fn game_mut(&mut self) -> &mut Game {
        let name = self.game.clone().expect("signed on");
        self.touched.insert(name.clone());
        self.games.get_mut(&name).expect("loaded")
    }
}
