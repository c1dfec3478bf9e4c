//! A game as the judge keeps it: who plays, the board, orders on file, timing, press policy,
//! and its history (for HISTORY, SUMMARY and ROLLBACK). Stored as JSON, its history and
//! archive one item a row (the store's `played` rows), so that a save rewrites only the rest.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::game::calendar::{Phase, PhaseKind};
use crate::game::ids::PowerId;
use crate::game::order::Order;
use crate::game::position::Position;

pub use super::played::{CentreCount, Since};

/// Where a game is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// Taking players; not started.
    Forming,
    /// Deadlines run.
    Running,
    /// Deadlines stopped by the Master.
    Paused,
    /// Over: victory, draw or terminated.
    Finished,
}

impl Status {
    /// The word stored and shown.
    pub fn word(self) -> &'static str {
        match self {
            Status::Forming => "forming",
            Status::Running => "running",
            Status::Paused => "paused",
            Status::Finished => "finished",
        }
    }
}

/// Someone with a password in a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// Where their mail goes.
    pub address: String,
    /// The argon2 hash of their password.
    pub password: String,
    /// The address `SET ADDRESS` asked for, until it confirms (issue 36, point 4: "the seat
    /// stays on its confirmed address until the new one confirms"); see
    /// [`crate::judge::pending`]. Absent in games stored before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<PendingAddress>,
}

/// A new address asked for a seat, waiting for it to confirm.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PendingAddress {
    /// The address asked for (lower case).
    pub address: String,
    /// When it was asked for: it lapses [`crate::judge::pending::PENDING_DAYS`] later.
    pub since: DateTime<Utc>,
}

/// How a seat stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatState {
    /// Played.
    Playing,
    /// Nobody plays it: open for takeover (resigned, ejected, or late past grace).
    Abandoned,
    /// In civil disorder: default orders (NMR games).
    Disorder,
}

/// A player's place in a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// The power, once assigned at START.
    pub power: Option<PowerId>,
    /// The player.
    pub member: Member,
    /// Power preference letters, best first.
    pub preference: String,
    /// State of the seat.
    pub state: SeatState,
    /// WAIT set for this phase.
    pub wait: bool,
    /// Vote for a draw or concession this phase (SET DRAW, SET CONCEDE).
    #[serde(default)]
    pub vote: super::votes::Vote,
    /// Absences (from, to), at most 3.
    pub absences: Vec<(DateTime<Utc>, DateTime<Utc>)>,
    /// SET MAP ON: each order reply carries a picture of this player's orders on file.
    #[serde(default)]
    pub map: bool,
    /// SET MYZONE: the time zone this player's mails show dates in (the game's if none).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "super::zone_name::option"
    )]
    pub zone: Option<chrono_tz::Tz>,
}

/// A power's orders for the current phase.
///
/// Orders are kept as they were read when they came, by the ids of the board they are for
/// (as [`Position`] keeps its units), so that nothing reads their text again (issue 26:
/// "stored orders ... as types (text only at the serde boundary)"). A game stored before
/// that has canonical text (`lines`) instead, read where it is used (see
/// [`super::filed`]) until the judge next writes the power's orders.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PowerOrders {
    /// Orders on file, in the order given (the last for a unit wins).
    #[serde(default)]
    pub orders: Vec<Order>,
    /// Orders as a herald before December 2026 stored them: canonical text, read against
    /// the map where they are used; empty once the judge has written this power's orders.
    #[serde(default, rename = "lines", skip_serializing_if = "Vec::is_empty")]
    pub legacy: Vec<String>,
    /// Whether the last mail that ordered had errors (error status until a clean set).
    pub errors: bool,
}

impl PowerOrders {
    /// Whether nothing is on file (neither orders nor lines kept from before).
    pub fn is_empty(&self) -> bool {
        self.orders.is_empty() && self.legacy.is_empty()
    }
}

/// Press policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PressPolicy {
    /// White press only.
    White,
    /// White and grey.
    Grey,
    /// No press between players (press to and from the Master is always allowed).
    None,
}

/// Timing for one kind of phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timing {
    /// Minutes from the start of the phase to its deadline.
    pub next: i64,
    /// Minutes of grace after the deadline.
    pub grace: i64,
    /// Deadline at this local time (minutes after midnight), if set.
    pub at: Option<u32>,
    /// Days a deadline may fall on, Sunday first.
    pub days: [bool; 7],
}

/// The game's settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// At grace, late powers go into civil disorder (true) or are abandoned and the game waits.
    pub nmr: bool,
    /// Press policy.
    pub press: PressPolicy,
    /// Press to some powers only is allowed.
    pub partial: bool,
    /// The time zone every date is shown in (stored as its IANA name).
    #[serde(with = "super::zone_name")]
    pub zone: chrono_tz::Tz,
    /// Timing per phase kind: movement, retreat, adjustment.
    pub timing: [Timing; 3],
    /// Order replies list what looks like a mistake in the player's own orders (SET
    /// WARNINGS ON|OFF; on unless the Master turned it off).
    #[serde(default = "on")]
    pub warnings: bool,
    /// Who may learn who plays and who may see or join the game (anonymous and private
    /// games); a game stored before these settings existed is neither.
    #[serde(default)]
    pub privacy: Privacy,
    /// Which endings by agreement are allowed (SET DIAS / NODIAS, SET CONCESSIONS).
    #[serde(default)]
    pub draws: super::votes::DrawRules,
    /// The Master's comment shown with the game in LIST (SET COMMENT), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// Press between players in retreats and adjustments too (SET MINOR PRESS, the
    /// default); off (SET NO MINOR PRESS), only press to and from the Master then.
    #[serde(default = "on")]
    pub minor_press: bool,
}

/// Who may learn who plays a game, and who may see and join it. Its rules are in
/// [`super::privacy`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Privacy {
    /// An anonymous (gunboat) game: nobody but the Master learns who plays which power or
    /// any address (SET NOSHOW, SET ANONYMOUS; njudge's NoShow).
    #[serde(default)]
    pub anonymous: bool,
    /// Whether an anonymous game's players are shown once it ends (SET REVEAL, the
    /// default; SET NOREVEAL keeps them hidden for good).
    #[serde(default = "on")]
    pub reveal: bool,
    /// A quiet game (SET QUIET): who resigns, is ejected, is abandoned, falls into or leaves
    /// civil disorder, or takes over a power is told to the Master alone, not the players.
    #[serde(default)]
    pub quiet: bool,
    /// Left out of LIST for all but its members (SET NOLIST, SET PRIVATE).
    #[serde(default)]
    pub unlisted: bool,
    /// The argon2 hash of the word a newcomer must give to join, take over or observe
    /// (SET PRIVATE <word>), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub join_word: Option<String>,
    /// Addresses invited by the Master (SET ALLOW), lower case: when there are any, only
    /// they (or whoever has the join word) may come in.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow: Vec<String>,
    /// Addresses the Master keeps out (SET DENY), lower case.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deny: Vec<String>,
}

impl Default for Privacy {
    fn default() -> Privacy {
        Privacy {
            anonymous: false,
            reveal: true,
            quiet: false,
            unlisted: false,
            join_word: None,
            allow: Vec::new(),
            deny: Vec::new(),
        }
    }
}

/// The default of a setting that is on unless turned off.
fn on() -> bool {
    true
}

/// One played phase, kept for HISTORY, SUMMARY and ROLLBACK. The phase is the one of the
/// board before it ([`PhaseRecord::phase`]); the code text a herald before December 2026
/// stored beside it (`code`) is left unread.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseRecord {
    /// The board before the phase.
    pub before: Position,
    /// The results text mailed.
    pub results: String,
    /// For a movement phase of a game with dip points: the dip ledger of the turn that phase
    /// closed, as it stood when it was processed, so that a ROLLBACK into that turn gives it
    /// back (see [`super::dips::after_rollback`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dips: Option<super::ledger::Ledger>,
    /// The orders the players had on file when the phase was processed, by power, so that a
    /// ROLLBACK to it keeps them (none for phases played before herald kept them).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub orders: BTreeMap<u8, PowerOrders>,
    /// The phase's deadline and end of grace when it was processed, so that a ROLLBACK to it
    /// keeps a deadline that still lies ahead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<(DateTime<Utc>, DateTime<Utc>)>,
}

impl PhaseRecord {
    /// The phase played.
    pub fn phase(&self) -> Phase {
        self.before.phase
    }
}

/// Something observers could read, kept for HISTORY.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Archived {
    /// When.
    pub at: DateTime<Utc>,
    /// The subject.
    pub subject: String,
    /// The text.
    pub body: String,
}

/// Orders a power filed for a later phase (`PHASE F1901M` while S1901M is current), checked
/// and put on file when that phase comes (see [`super::later`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaterOrders {
    /// The phase they are for.
    pub phase: crate::game::calendar::Phase,
    /// The power.
    pub power: PowerId,
    /// The lines as the player wrote them, in order.
    pub lines: Vec<String>,
}

/// Who held a power when (for SUMMARY).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tenure {
    /// The power.
    pub power: PowerId,
    /// The player's address.
    pub address: String,
    /// From this phase.
    pub from: Since,
}

/// A game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    /// Its name.
    pub name: String,
    /// Its variant's name.
    pub variant: String,
    /// Its life stage.
    pub status: Status,
    /// The Master.
    pub master: Member,
    /// The players.
    pub seats: Vec<Seat>,
    /// The observers.
    pub observers: Vec<Member>,
    /// The board (from START on).
    pub position: Option<Position>,
    /// Orders on file for the current phase, by power index.
    pub orders: BTreeMap<u8, PowerOrders>,
    /// Settings.
    pub settings: Settings,
    /// This phase's deadline.
    pub deadline: Option<DateTime<Utc>>,
    /// The end of this phase's grace.
    pub grace: Option<DateTime<Utc>>,
    /// No processing before this time.
    pub start_after: Option<DateTime<Utc>>,
    /// Process early at this time (all orders in, nobody waiting).
    pub ready_at: Option<DateTime<Utc>>,
    /// The reminder for this phase went out.
    pub reminded: bool,
    /// The last late notice for this phase.
    pub last_late: Option<DateTime<Utc>>,
    /// Time left to the deadline when paused, in seconds.
    pub paused_left: Option<i64>,
    /// Why a paused game is paused: by its Master, or set aside by herald after a fault
    /// (what failed, for the Master and the keeper).
    #[serde(default)]
    pub pause_reason: Option<String>,
    /// Played phases.
    pub history: Vec<PhaseRecord>,
    /// Results and broadcasts, for HISTORY.
    pub archive: Vec<Archived>,
    /// Who held which power when.
    pub tenures: Vec<Tenure>,
    /// Centre counts at the end of each year.
    pub centre_counts: Vec<CentreCount>,
    /// How the game ended (stored as its words).
    pub outcome: Option<super::ending::Ending>,
    /// Past grace in a NONMR game with abandoned late powers: the game waits for a
    /// replacement or the Master, and the clock has nothing to do.
    #[serde(default)]
    pub waiting: bool,
    /// How often the deadline or grace was set or moved: the SEQUENCE of the calendar
    /// events mailed with the deadline.
    #[serde(default)]
    pub calendar_seq: u32,
    /// Rule switches the Master chose at creation (`CREATE ?g pw standard remote_builds`)
    /// or with SET RULE, read and checked there; stored as their text.
    #[serde(default)]
    pub rules: Vec<crate::game::rules::Setting>,
    /// The dip-point ledger of the current turn (games with dip points).
    #[serde(default)]
    pub dips: super::ledger::Ledger,
    /// Recent wrong passwords at sign-on and the locks they set (see [`super::password`]).
    #[serde(default)]
    pub signon_guard: super::password::Guard,
    /// Orders filed for later phases, applied when each phase comes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub later: Vec<LaterOrders>,
    /// When a Master's PAUSE ends by itself (the keeper's `[timing] longest_pause` after it
    /// began); none for a game set aside by herald or not paused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pause_ends: Option<DateTime<Utc>>,
    /// Recent press, for the hourly press limit (see [`super::volume`]).
    #[serde(default, skip_serializing_if = "PressVolume::is_empty")]
    pub press_volume: PressVolume,
    /// Processed phases in a row in which no power had orders (see [`super::growth`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub idle_phases: u32,
    /// While forming: when it was created or last joined, from which it lapses (see
    /// [`super::growth::lapse`]); none in a game older than that rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formed: Option<DateTime<Utc>>,
}

/// Whether a count is zero (not written with the game).
fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A game's recent press, for the hourly press limit (see [`super::volume`]): who sent a block when (the last hour only),
/// and when its Master was last told that the limit refused press.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PressVolume {
    /// Each press block of the last hour: when, and from which address.
    #[serde(default)]
    pub sent: Vec<(DateTime<Utc>, String)>,
    /// When the Master was last told of press refused for the limit.
    #[serde(default)]
    pub told: Option<DateTime<Utc>>,
}

impl PressVolume {
    /// Nothing recorded (not written with the game).
    pub fn is_empty(&self) -> bool {
        self.sent.is_empty() && self.told.is_none()
    }
}

impl Game {
    /// The seat playing a power.
    pub fn seat_of(&self, power: PowerId) -> Option<&Seat> {
        self.seats.iter().find(|s| s.power == Some(power))
    }

    /// The seat playing a power, mutable.
    pub fn seat_of_mut(&mut self, power: PowerId) -> Option<&mut Seat> {
        self.seats.iter_mut().find(|s| s.power == Some(power))
    }

    /// The year a centre count was taken in: that of the last phase played before it.
    pub fn year_of(&self, count: &CentreCount) -> Option<i32> {
        let last = count.played.checked_sub(1)?;
        self.history.get(last).map(|h| h.phase().year)
    }

    /// The phase kind now being played.
    pub fn phase_kind(&self) -> Option<PhaseKind> {
        self.position.as_ref().map(|p| p.phase.kind)
    }

    /// The timing of a phase kind.
    pub fn timing(&self, kind: PhaseKind) -> &Timing {
        &self.settings.timing[match kind {
            PhaseKind::Movement => 0,
            PhaseKind::Retreat => 1,
            PhaseKind::Adjustment => 2,
        }]
    }
}
