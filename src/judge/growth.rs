//! Nothing grows without bound (issue 36, point 6): phases no shorter than a floor but in
//! the keeper's games, a game nobody plays paused, CREATE capped per sender a day and
//! judge-wide an hour, games whose Master never confirmed left out of LIST, and forming
//! games that lapse. The rules are pure: the service counts in the store what they need
//! ([`Standing`]) and sweeps the forming games ([`lapse`]).

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Duration, Utc};

use super::game::{Game, Status};
use super::{Action, Effects, Judge};

/// A forming game whose Master never confirmed the address lapses this long after it was
/// created (or last joined).
pub const UNCONFIRMED_KEPT: Duration = Duration::days(1);

/// The growth limits (`[limits]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The shortest NEXT a Master may set for a kind of phase (`shortest_phase_minutes`),
    /// but in the keeper's games.
    pub shortest_phase: Duration,
    /// Processed phases in a row in which no power had orders, after which a running game
    /// pauses (`idle_phases`).
    pub idle_phases: u32,
    /// CREATEs from one sender in a day (`creates_per_sender_day`).
    pub creates_per_sender_day: u32,
    /// CREATEs judge-wide in an hour (`creates_per_hour`).
    pub creates_per_hour: u32,
    /// How long a forming game nobody joins is kept (`forming_days`).
    pub forming: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            shortest_phase: Duration::hours(1),
            idle_phases: 6,
            creates_per_sender_day: 5,
            creates_per_hour: 20,
            forming: Duration::days(14),
        }
    }
}

/// What the store knows that a mail's session needs for these limits, counted by the
/// service for a batch of mails (none of it is known to a judge without a store: the
/// default counts nothing and hides nothing).
#[derive(Clone, Debug, Default)]
pub struct Standing {
    /// Games created in the last day, by sender address (lower case).
    pub created_by: HashMap<String, u32>,
    /// Games created judge-wide in the last hour.
    pub created_last_hour: u32,
    /// Games not listed: their Master never confirmed the address.
    pub unlisted: HashSet<String>,
    /// The pages of LIST the mails ask for, each the games from where it starts up to the
    /// page's end (see [`super::listed`]).
    pub pages: HashMap<super::listed::Page, Vec<super::listed::Listed>>,
    /// The first finished games, for LIST to say that LIST FULL shows them.
    pub finished: Vec<super::listed::Listed>,
    /// The senders of the games created since these were counted, in order: to be counted
    /// in the store.
    pub created_now: Vec<String>,
    /// Of the addresses `SET ADDRESS` lines of the batch name, and the Masters' and seats'
    /// addresses of the games they are sent to, those that confirmed (see
    /// [`crate::judge::pending`]): a seat moves at once to a confirmed address, and from
    /// one that never confirmed.
    pub confirmed: HashSet<String>,
    /// The keys ([`crate::judge::pending::request_key`]) of the seats of those games that
    /// had a request to confirm a new address sent in the last day: they get no other today.
    pub asked_today: HashSet<String>,
}

impl Standing {
    /// Counts a game created by `sender`.
    pub fn created(&mut self, sender: &str) {
        self.created_now.push(sender.to_string());
        *self
            .created_by
            .entry(sender.to_ascii_lowercase())
            .or_insert(0) += 1;
        self.created_last_hour += 1;
    }
}

impl Limits {
    /// The limits `[limits]` sets.
    pub fn of(limits: &crate::config::LimitsSection) -> Limits {
        Limits {
            shortest_phase: Duration::minutes(i64::from(limits.shortest_phase_minutes)),
            idle_phases: limits.idle_phases,
            creates_per_sender_day: limits.creates_per_sender_day,
            creates_per_hour: limits.creates_per_hour,
            forming: Duration::days(i64::from(limits.forming_days)),
        }
    }

    /// Why a CREATE from `sender` is refused now, if it is: a cap reached.
    pub fn create_refusal(&self, standing: &Standing, sender: &str) -> Option<String> {
        let mine = standing
            .created_by
            .get(&sender.to_ascii_lowercase())
            .copied()
            .unwrap_or(0);
        if mine >= self.creates_per_sender_day {
            return Some(format!(
                "{sender} has created {mine} games in the last 24 hours, as many as herald takes from one address in a day ([limits] creates_per_sender_day = {}): the game was not created; try again tomorrow",
                self.creates_per_sender_day
            ));
        }
        if standing.created_last_hour >= self.creates_per_hour {
            return Some(format!(
                "herald has created {} games in the last hour, as many as it creates in an hour ([limits] creates_per_hour = {}): the game was not created; try again in an hour",
                standing.created_last_hour, self.creates_per_hour
            ));
        }
        None
    }

    /// Why a Master may not set this NEXT (in minutes) in game `g`, if they may not: shorter
    /// than the floor, and the game not the keeper's.
    pub fn phase_refusal(&self, judge: &Judge, g: &Game, next: i64) -> Option<String> {
        let keepers =
            !judge.keeper.is_empty() && g.master.address.eq_ignore_ascii_case(&judge.keeper);
        if keepers || Duration::minutes(next) >= self.shortest_phase {
            return None;
        }
        Some(format!(
            "a phase of {} is shorter than {}, the shortest herald runs ([limits] shortest_phase_minutes): write NEXT {}m or longer (PROCESS, or all orders in, runs a phase sooner)",
            minutes(next),
            minutes(self.shortest_phase.num_minutes()),
            self.shortest_phase.num_minutes()
        ))
    }
}

/// A number of minutes in words: "1 minute", "90 minutes", "2 hours".
fn minutes(m: i64) -> String {
    let plural = |n: i64, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    if m > 0 && m % 60 == 0 {
        plural(m / 60, "hour")
    } else {
        plural(m, "minute")
    }
}

/// After a phase was processed: counts it as idle when powers had to act and none had
/// orders on file (`ordered`), and pauses a game that stayed idle for `idle_phases` in a
/// row, telling its Master (once: the count starts again).
pub fn after_phase(
    judge: &Judge,
    game: &mut Game,
    acted: Option<bool>,
    now: DateTime<Utc>,
) -> Effects {
    let mut effects = Effects::default();
    match acted {
        None => return effects,
        Some(true) => {
            game.idle_phases = 0;
            return effects;
        }
        Some(false) => game.idle_phases += 1,
    }
    let limit = judge.growth.idle_phases;
    if limit == 0 || game.idle_phases < limit || game.status != Status::Running {
        return effects;
    }
    game.idle_phases = 0;
    game.pause(
        format!("paused by herald: no power had orders for {limit} phases in a row"),
        now,
    );
    let lines = vec![
        format!(
            "Nobody has played '{}' for {limit} phases in a row: every power was a dummy or in civil disorder, with no orders ([limits] idle_phases = {limit}).",
            game.name
        ),
        "So that a game nobody plays does not run on by itself, herald has paused it. RESUME it when the players are back; TERMINATE ends it.".to_string(),
    ];
    effects
        .mails
        .push(judge.notice(game, &game.master.address, "Game Paused", &lines));
    effects.actions.push(Action {
        game: Some(game.name.clone()),
        actor: "herald".into(),
        what: format!("paused: no orders for {limit} phases"),
    });
    effects
}

/// Why a forming game lapses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lapse {
    /// Its Master never confirmed the address, a day after it was created (or joined).
    Unconfirmed,
    /// Nobody joined it for `[limits] forming_days`.
    NoJoin,
}

/// Whether forming game `g` lapses at `now`: a game of the keeper's never does.
pub fn lapse(judge: &Judge, g: &Game, master_confirmed: bool, now: DateTime<Utc>) -> Option<Lapse> {
    if g.status != Status::Forming || g.master.address.eq_ignore_ascii_case(&judge.keeper) {
        return None;
    }
    let quiet = now - g.formed?;
    if !master_confirmed && quiet >= UNCONFIRMED_KEPT {
        return Some(Lapse::Unconfirmed);
    }
    (quiet >= judge.growth.forming).then_some(Lapse::NoJoin)
}

/// The notice of a lapsed game, to its Master and those who joined (the gate holds it from
/// any that never confirmed), and its log line.
pub fn lapsed(judge: &Judge, g: &Game, why: Lapse) -> Effects {
    let reason = match why {
        Lapse::Unconfirmed => "its Master's address was never confirmed within a day".to_string(),
        Lapse::NoJoin => format!(
            "nobody joined it for {} days ([limits] forming_days)",
            judge.growth.forming.num_days()
        ),
    };
    let lines = vec![
        format!("Game '{}' has lapsed before it started: {reason}.", g.name),
        format!(
            "Its name is free again: CREATE ?{} <password> makes it anew.",
            g.name
        ),
    ];
    Effects {
        mails: judge.notice_all(g, "Game Lapsed", &lines),
        actions: vec![Action {
            game: Some(g.name.clone()),
            actor: "herald".into(),
            what: format!("lapsed: {reason}"),
        }],
    }
}

#[cfg(test)]
mod tests;
