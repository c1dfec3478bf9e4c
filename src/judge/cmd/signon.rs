//! CREATE, SIGNON and OBSERVE: who speaks for which game in this mail. A mail may hold
//! several SIGNONs to one game, each starting a section of its own (`section.rs`); CREATE
//! and OBSERVE stand alone.

use chrono::Duration;

use super::def::{Def, Names, Who, Words};
use crate::judge::cmd::context::{Role, Session};
use crate::judge::game::{Game, Member, PressPolicy, Settings, Status, Timing};
use crate::judge::privacy::Entry;

/// Who a SIGNON is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SignonAs {
    /// `SIGNON ?game pw`: join a forming game.
    Join,
    /// `SIGNON Fgame pw`: a power by letter.
    Power(char),
    /// `SIGNON Mgame pw`: the Master.
    Master,
    /// `SIGNON Ogame pw`: an observer.
    Observer,
}

/// Who speaks for which game in this mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SignonCommand {
    /// `CREATE ?game password [variant] [switches]`
    Create {
        /// Game name.
        game: String,
        /// Master's password.
        password: String,
        /// Variant, standard if absent.
        variant: Option<String>,
        /// Rule switches after the variant (`remote_builds`, `victory=20`).
        options: Vec<String>,
    },
    /// `SIGNON <who><game> <password> [join word]`
    Signon {
        /// Who.
        who: SignonAs,
        /// Game name.
        game: String,
        /// Password.
        password: String,
    },
    /// `OBSERVE game password`
    Observe {
        /// Game name.
        game: String,
        /// Password.
        password: String,
    },
}

use SignonCommand as C;

/// The refusal of a CREATE or OBSERVE after a sign-on, or of a SIGNON after either: each
/// stands alone in its mail.
const ALONE: &str =
    "only one CREATE or OBSERVE per mail, and no SIGNON beside it: send this line in a mail of its own";

/// CREATE, SIGNON and OBSERVE.
pub(super) const DEFS: &[Def] = &[
    Def::args(
        "CREATE",
        "CREATE ?<game> <password> [<variant>], e.g. CREATE ?war secret standard",
        Who::Anyone,
        |w| {
            w.least(2)?;
            let a = w.args();
            // The variant is optional: a switch (a word with `=`) after the password means
            // the default variant (`CREATE ?g pw last_year=1901`).
            let named = a.get(2).is_some_and(|v| !v.contains('='));
            Some(
                C::Create {
                    game: a[0].trim_start_matches('?').to_string(),
                    password: a[1].to_string(),
                    variant: w.arg(2).filter(|_| named),
                    options: a
                        .get(if named { 3 } else { 2 }..)
                        .unwrap_or(&[])
                        .iter()
                        .map(|s| s.to_string())
                        .collect(),
                }
                .into(),
            )
        },
    )
    .secret(1, Some(2)),
    Def::args(
        "OBSERVE",
        "OBSERVE <game> <password>, e.g. OBSERVE war secret",
        Who::Anyone,
        |w| {
            w.least(2)?;
            Some(
                C::Observe {
                    game: w.arg(0)?,
                    password: w.arg(1)?,
                }
                .into(),
            )
        },
    )
    .aka(&["WATCH"])
    .secret(1, None),
    Def::args(
        "SIGNON",
        "SIGNON <power letter><game> <password>, e.g. SIGNON Fwar secret (SIGNON ?war secret joins, SIGNON Mwar secret as its Master)",
        Who::Anyone,
        signon,
    )
    .aka(&["SIGN ON"])
    .secret(1, None),
];

/// SIGNON's two words: who and the game run together (`Fwar`), and the password.
fn signon(w: &Words) -> Option<super::Command> {
    w.least(2)?;
    let (who_game, password) = (w.args()[0], w.args()[1]);
    let mut chars = who_game.chars();
    let first = chars.next()?;
    let game: String = chars.collect();
    let who = match first.to_ascii_uppercase() {
        '?' => SignonAs::Join,
        'M' => SignonAs::Master,
        'O' => SignonAs::Observer,
        c => SignonAs::Power(c),
    };
    Some(
        C::Signon {
            who,
            game,
            password: password.to_string(),
        }
        .into(),
    )
}

impl SignonCommand {
    /// The game the command names, to be loaded before the mail is read.
    pub fn names(&self) -> Names {
        match self {
            C::Create { game, .. } | C::Signon { game, .. } | C::Observe { game, .. } => {
                Names::Game(game.clone())
            }
        }
    }
}

impl Session<'_> {
    /// Applies a command of this family.
    pub(in crate::judge) fn signon_command(&mut self, line: &str, command: SignonCommand) -> bool {
        match command {
            C::Create {
                game,
                password,
                variant,
                options,
            } => {
                if self.signed_on {
                    self.error(line, ALONE);
                    return false;
                }
                self.create(line, &game, &password, variant.as_deref(), &options);
                self.alone = self.signed_on;
            }
            C::Signon {
                who,
                game,
                password,
            } => {
                if self.alone {
                    self.error(line, ALONE);
                    return false;
                }
                if self.signed_on {
                    return self.next_section(line, who, &game, &password);
                }
                self.signons = 1;
                return self.signon(line, who, &game, &password);
            }
            C::Observe { game, password } => {
                if self.signed_on {
                    self.error(line, ALONE);
                    return false;
                }
                let entered = self.signon(line, SignonAs::Observer, &game, &password);
                self.alone = entered;
                return entered;
            }
        }
        true
    }
    pub(in crate::judge) fn create(
        &mut self,
        line: &str,
        name: &str,
        password: &str,
        variant: Option<&str>,
        options: &[String],
    ) {
        let key = name.to_ascii_lowercase();
        if key.is_empty() || key.len() > 12 || !key.chars().all(|c| c.is_ascii_alphanumeric()) {
            self.error(line, "a game name is 1 to 12 letters or digits");
            return;
        }
        if self.games.contains_key(&key) {
            self.error(line, format!("there is already a game '{key}'"));
            return;
        }
        // Issue 36: "CREATE capped per sender per day and judge-wide per hour in the
        // store".
        let capped = self
            .judge
            .growth
            .create_refusal(self.standing, &self.letter.from);
        if let Some(why) = capped {
            self.error(line, why);
            return;
        }
        let variant_name = variant.unwrap_or("standard").to_ascii_lowercase();
        if let Err(e) = self.judge.catalog.variant(&variant_name) {
            self.error(line, e.to_string());
            return;
        }
        let mut settings = Vec::new();
        for switch in options {
            match crate::game::rules::Setting::read(switch) {
                Ok(setting) => settings.push(setting),
                Err(why) => {
                    self.error(line, format!("{why}; the game was not created"));
                    return;
                }
            }
        }
        // A new game's password is an argon2 run of its sender's (issue 24).
        let Some(master_password) = self.new_hash(line, password) else {
            return;
        };
        let d = self.judge.durations;
        let timing = |(next, grace): (Duration, Duration)| Timing {
            next: next.num_minutes(),
            grace: grace.num_minutes(),
            at: None,
            days: [true; 7],
        };
        let game = Game {
            name: key.clone(),
            variant: variant_name.clone(),
            status: Status::Forming,
            master: Member {
                address: self.letter.reply_to.clone(),
                password: master_password,
                pending: None,
            },
            seats: Vec::new(),
            observers: Vec::new(),
            position: None,
            orders: Default::default(),
            settings: Settings {
                nmr: false,
                press: PressPolicy::White,
                partial: true,
                zone: chrono_tz::Tz::UTC,
                timing: [
                    timing(d.phases[0]),
                    timing(d.phases[1]),
                    timing(d.phases[2]),
                ],
                warnings: true,
                privacy: Default::default(),
                draws: Default::default(),
                comment: None,
                minor_press: true,
            },
            deadline: None,
            grace: None,
            start_after: None,
            ready_at: None,
            reminded: false,
            last_late: None,
            paused_left: None,
            pause_reason: None,
            history: Vec::new(),
            archive: Vec::new(),
            tenures: Vec::new(),
            centre_counts: Vec::new(),
            outcome: None,
            waiting: false,
            calendar_seq: 0,
            rules: settings,
            dips: Default::default(),
            signon_guard: Default::default(),
            later: Vec::new(),
            pause_ends: None,
            press_volume: Default::default(),
            idle_phases: 0,
            formed: Some(self.now),
        };
        self.games.insert(key.clone(), game);
        self.game = Some(key.clone());
        self.touched.insert(key.clone());
        self.role = Role::Master;
        self.signed_on = true;
        self.log(format!("created game {key} ({variant_name})"));
        self.say(format!(
            "Game '{key}' ({variant_name}) created. You are its Master, signed on as M{key}."
        ));
        if !options.is_empty() {
            self.say(format!("Rule switches: {}.", options.join(", ")));
        }
        self.say(format!(
            "Players join with SIGNON ?{key} <password>; START it when all have joined."
        ));
    }
    /// SIGNON (and OBSERVE): the game named, then the seat's own step; a failed one names
    /// no game for the rest of the mail, which is then not read.
    pub(in crate::judge) fn signon(
        &mut self,
        line: &str,
        who: SignonAs,
        name: &str,
        password: &str,
    ) -> bool {
        let key = name.to_ascii_lowercase();
        if !self.games.contains_key(&key) {
            self.error(
                line,
                format!("there is no game '{name}' (LIST shows the games)"),
            );
            return false;
        }
        self.game = Some(key);
        let entered = match who {
            SignonAs::Master => self.signon_master(line, password),
            SignonAs::Observer => self.signon_observer(line, password),
            SignonAs::Join => self.signon_joiner(line, password),
            SignonAs::Power(letter) => self.signon_power(line, letter, password),
        };
        if !entered {
            self.game = None;
            return false;
        }
        self.signed_on = true;
        true
    }

    /// The Master's SIGNON: the password.
    fn signon_master(&mut self, line: &str, password: &str) -> bool {
        let g = self.game();
        let (stored, holder) = (g.master.password.clone(), g.master.address.clone());
        if !self.password_ok(line, "the Master", &holder, &stored, password) {
            return false;
        }
        self.role = Role::Master;
        true
    }

    /// An observer's SIGNON or OBSERVE: its password, or a newcomer let in.
    fn signon_observer(&mut self, line: &str, password: &str) -> bool {
        let from = self.letter.reply_to.clone();
        let g = self.game();
        match g.observers.iter().position(|o| o.address == from) {
            Some(i) => {
                let stored = g.observers[i].password.clone();
                let seat = format!("the observer at {from}");
                if !self.password_ok(line, &seat, &from, &stored, password) {
                    return false;
                }
            }
            None => {
                if !self.may_enter(line, Entry::Observe) {
                    return false;
                }
                let Some(hash) = self.new_hash(line, password) else {
                    return false;
                };
                let g = self.game_mut();
                g.observers.push(Member {
                    address: from.clone(),
                    password: hash,
                    pending: None,
                });
                let key = g.name.clone();
                self.say(format!(
                    "You now observe '{key}': you will get its results and broadcasts."
                ));
            }
        }
        self.role = Role::Observer;
        true
    }
}

mod held;
mod join;
mod power;
mod section;

#[cfg(test)]
mod tests;
