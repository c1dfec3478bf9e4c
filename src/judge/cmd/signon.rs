//! CREATE, SIGNON and OBSERVE: who speaks for which game in this mail.

use chrono::Duration;

use crate::game::ids::PowerId;
use crate::judge::cmd::context::{Role, Session};
use crate::judge::command::{Command, SignonAs};
use crate::judge::deadline;
use crate::judge::game::{
    Game, Member, PressPolicy, Seat, SeatState, Settings, Status, Tenure, Timing,
};
use crate::judge::privacy::Entry;

/// The subject of the notice that a newcomer took over a power (a player back from civil
/// disorder is a "Returning Player Signon").
const TAKEN_OVER: &str = "Power Taken Over";

impl Session<'_> {
    /// Applies a command of this family.
    pub(in crate::judge) fn signon_command(&mut self, line: &str, command: Command) -> bool {
        match command {
            Command::Create {
                game,
                password,
                variant,
                options,
            } => {
                if self.signed_on {
                    self.error(line, "only one SIGNON, CREATE or OBSERVE per mail");
                    return false;
                }
                self.create(line, &game, &password, variant.as_deref(), &options);
            }
            Command::Signon {
                who,
                game,
                password,
            } => {
                if self.signed_on {
                    self.error(line, "only one SIGNON, CREATE or OBSERVE per mail");
                    return false;
                }
                return self.signon(line, who, &game, &password);
            }
            Command::Observe { game, password } => {
                if self.signed_on {
                    self.error(line, "only one SIGNON, CREATE or OBSERVE per mail");
                    return false;
                }
                return self.signon(line, SignonAs::Observer, &game, &password);
            }
            _ => {}
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
        let variant_name = variant.unwrap_or("standard").to_ascii_lowercase();
        let mut rules = match self.judge.catalog.variant(&variant_name) {
            Ok(v) => v.rules.clone(),
            Err(e) => {
                self.error(line, e.to_string());
                return;
            }
        };
        for switch in options {
            if let Err(why) = rules.apply_switch(switch) {
                self.error(line, format!("{why}; the game was not created"));
                return;
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
            },
            seats: Vec::new(),
            observers: Vec::new(),
            position: None,
            orders: Default::default(),
            settings: Settings {
                nmr: false,
                press: PressPolicy::White,
                partial: true,
                zone: "UTC".into(),
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
            rules: options.to_vec(),
            dips: Default::default(),
            signon_guard: Default::default(),
            later: Vec::new(),
            pause_ends: None,
            press_volume: Default::default(),
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
        self.game = Some(key.clone());
        let from = self.letter.reply_to.clone();
        let judge = self.judge;
        match who {
            SignonAs::Master => {
                let g = self.game();
                let (stored, holder) = (g.master.password.clone(), g.master.address.clone());
                if !self.password_ok(line, "the Master", &holder, &stored, password) {
                    self.game = None;
                    return false;
                }
                self.role = Role::Master;
            }
            SignonAs::Observer => {
                let g = self.game();
                match g.observers.iter().position(|o| o.address == from) {
                    Some(i) => {
                        let stored = g.observers[i].password.clone();
                        let seat = format!("the observer at {from}");
                        if !self.password_ok(line, &seat, &from, &stored, password) {
                            self.game = None;
                            return false;
                        }
                    }
                    None => {
                        if !self.may_enter(line, Entry::Observe) {
                            self.game = None;
                            return false;
                        }
                        let Some(hash) = self.new_hash(line, password) else {
                            self.game = None;
                            return false;
                        };
                        let g = self.game_mut();
                        g.observers.push(Member {
                            address: from.clone(),
                            password: hash,
                        });
                        let key = g.name.clone();
                        self.say(format!(
                            "You now observe '{key}': you will get its results and broadcasts."
                        ));
                    }
                }
                self.role = Role::Observer;
            }
            SignonAs::Join => {
                let g = self.game();
                if g.status != Status::Forming {
                    self.error(line, format!("game '{}' has started: sign on with your power's letter, e.g. SIGNON F{}", g.name, g.name));
                    self.game = None;
                    return false;
                }
                let mine: Vec<(usize, String)> = (0..g.seats.len())
                    .filter(|&i| g.seats[i].member.address == from)
                    .map(|i| (i, g.seats[i].member.password.clone()))
                    .collect();
                let another = judge.rules(g).several_powers;
                let seat_name = format!("the player at {from}");
                let mut matching = None;
                // The seats are this address's own: no lock refuses it (issue 24); its
                // checks draw on its own allowance.
                for (i, stored) in &mine {
                    match self.check_password(line, stored, password, true) {
                        None => {
                            self.game = None;
                            return false;
                        }
                        Some(true) => {
                            matching = Some(*i);
                            break;
                        }
                        Some(false) => {}
                    }
                }
                if let Some(i) = matching {
                    self.authenticated = true;
                    self.role = Role::Joiner(i);
                } else if !mine.is_empty() && !another {
                    self.signon_failed(line, &seat_name, &from);
                    self.game = None;
                    return false;
                } else {
                    let g = self.game();
                    if !mine.is_empty() {
                        let text = format!(
                            "You already hold {} seat(s) in '{}'; this password opens another (this game lets one player hold several powers). If you meant a seat you have, its password is different: RESIGN here (it gives this seat up) and send SIGNON again with that password.",
                            mine.len(),
                            g.name
                        );
                        self.say(text);
                    }
                    let g = self.game();
                    let powers = judge.variant(g).map.powers.len();
                    if g.seats.len() >= powers {
                        self.error(line, format!("game '{}' is full", g.name));
                        self.game = None;
                        return false;
                    }
                    if !self.may_enter(line, Entry::Join) {
                        self.game = None;
                        return false;
                    }
                    let Some(hash) = self.new_hash(line, password) else {
                        self.game = None;
                        return false;
                    };
                    let seat = Seat {
                        power: None,
                        member: Member {
                            address: from.clone(),
                            password: hash,
                        },
                        preference: String::new(),
                        state: SeatState::Playing,
                        wait: false,
                        vote: Default::default(),
                        absences: Vec::new(),
                        map: false,
                        zone: None,
                    };
                    let g = self.game_mut();
                    g.seats.push(seat);
                    let (n, name) = (g.seats.len(), g.name.clone());
                    self.role = Role::Joiner(n - 1);
                    self.say(format!("You joined '{name}' as player {n} of {powers}. Powers are assigned at START."));
                    let master = self.game().master.address.clone();
                    let what = if n == powers {
                        "Ready to Start".to_string()
                    } else {
                        let left = powers - n;
                        format!(
                            "Waiting for {left} more player{}",
                            if left == 1 { "" } else { "s" }
                        )
                    };
                    let notice = judge.notice(
                        self.game(),
                        &master,
                        &what,
                        &[format!("{from} joined '{name}' ({n} of {powers}).")],
                    );
                    self.effects.mails.push(notice);
                }
            }
            SignonAs::Power(letter) => {
                let g = self.game();
                let map = judge.map_of(g);
                let Some(power) = map
                    .powers
                    .iter()
                    .position(|p| p.letter == letter.to_ascii_uppercase())
                    .map(|i| PowerId(i as u8))
                else {
                    self.error(line, "Invalid password or power ID specified.");
                    self.game = None;
                    return false;
                };
                if g.status == Status::Forming {
                    self.error(line, format!("game '{}' has not started: powers are assigned at START (sign on with SIGNON ?{} until then)", g.name, g.name));
                    self.game = None;
                    return false;
                }
                let Some(seat) = g.seat_or_dummy(power) else {
                    self.error(line, "Invalid password or power ID specified.");
                    self.game = None;
                    return false;
                };
                let pname = map.power(power).name.clone();
                match seat.state {
                    SeatState::Abandoned => {
                        // "One player holds one power unless `several_powers` is set, and a
                        // takeover from an address already in the game is refused (or, with
                        // the switch, announced to the Master as such)" (issue 24).
                        let held = self.held_elsewhere(power, &from);
                        let several = judge.rules(self.game()).several_powers;
                        if !held.is_empty() && !several {
                            let why = format!(
                                "{from} already holds {} in game '{}', and one player holds one power here (the rule switch several_powers allows more): {pname} was not taken over",
                                held.join(", "),
                                self.game().name
                            );
                            self.error(line, why);
                            self.game = None;
                            return false;
                        }
                        if !self
                            .may_enter(line, Entry::Power(&letter.to_ascii_uppercase().to_string()))
                        {
                            self.game = None;
                            return false;
                        }
                        let Some(hash) = self.new_hash(line, password) else {
                            self.game = None;
                            return false;
                        };
                        let g = self.game();
                        // A power is taken over in a started game; the opening otherwise.
                        let since = g
                            .position
                            .as_ref()
                            .map_or(judge.variant(g).calendar.start, |p| p.phase);
                        let now = self.now;
                        let gm = self.game_mut();
                        let Some(s) = gm.seat_to_take(power) else {
                            self.error(line, "Invalid password or power ID specified.");
                            self.game = None;
                            return false;
                        };
                        s.member = Member {
                            address: from.clone(),
                            password: hash,
                        };
                        s.state = SeatState::Playing;
                        gm.tenures.push(Tenure {
                            power,
                            address: from.clone(),
                            from: crate::judge::game::Since::Phase(since),
                        });
                        // A replacement gets a day at least (njudge bug 437): the deadline
                        // and grace move on if they are nearer, and the game stops waiting.
                        gm.waiting = false;
                        if gm.status == Status::Running && gm.position.is_some() {
                            let day = deadline::later(now, Duration::days(1));
                            let d = gm.deadline.map_or(day, |d| d.max(day));
                            let grace = deadline::later(d, gm.grace_length());
                            let grace = gm.grace.map_or(grace, |g| g.max(grace));
                            gm.schedule(d, Some(grace));
                        }
                        // A newcomer is no returning player: the notice says the power
                        // changed hands.
                        if held.is_empty() {
                            let notices = judge.notice_of_players(
                                self.game(),
                                TAKEN_OVER,
                                &[format!("{pname} has been taken over by a new player.")],
                            );
                            self.effects.mails.extend(notices);
                        } else {
                            // Not a new player: the players are told only that the power
                            // is played again, the Master by whom.
                            let g = self.game();
                            let mut notices = judge.notice_of_players(
                                g,
                                TAKEN_OVER,
                                &[format!("{pname} has been taken over.")],
                            );
                            let master = g.master.address.clone();
                            notices.retain(|m| !m.to.eq_ignore_ascii_case(&master));
                            notices.push(judge.notice(
                                g,
                                &master,
                                TAKEN_OVER,
                                &[format!(
                                    "{pname} has been taken over by {from}, who already holds {} in this game (several_powers allows it): not a new player.",
                                    held.join(", ")
                                )],
                            ));
                            self.effects.mails.extend(notices);
                        }
                        self.log(format!("took over {pname}"));
                        self.say(format!("You have taken over {pname}. Your password is the one you signed on with."));
                    }
                    state => {
                        let (holder, stored) = (&seat.member.address, &seat.member.password);
                        if !self.password_ok(line, &pname, holder, stored, password) {
                            self.game = None;
                            return false;
                        }
                        if seat.member.address != from {
                            // The seat's own player is told the address, even in an
                            // anonymous game: it is their second account or an intruder
                            // with their password, and only the address tells which. The
                            // notice goes to them alone.
                            let notice = judge.notice(
                                self.game(),
                                &seat.member.address,
                                "Signon From Another Address",
                                &[format!("Someone signed on as {pname} with the right password from {from}. If it was not you, change your password (SET PASSWORD).")],
                            );
                            self.effects.mails.push(notice);
                        }
                        if state == SeatState::Disorder {
                            if let Some(s) = self.game_mut().seat_of_mut(power) {
                                s.state = SeatState::Playing;
                            }
                            let notices = judge.notice_of_players(
                                self.game(),
                                "Returning Player Signon",
                                &[format!("{pname} is no longer in civil disorder.")],
                            );
                            self.effects.mails.extend(notices);
                        }
                    }
                }
                self.role = Role::Power(power);
            }
        }
        self.signed_on = true;
        true
    }
}

mod held;

#[cfg(test)]
mod tests;
