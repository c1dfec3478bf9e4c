//! One mail applied: the lines read in order, SIGNON deciding who speaks for which game,
//! orders and commands applied for that power or the Master, press delivered, and a reply
//! that echoes every order on file with each error beside the line it came from.

use std::collections::BTreeSet;

use chrono::{DateTime, Duration, Utc};

use super::command::{parse_command, Command, Recipients, SignonAs};
use super::deadline;
use super::dips;
use super::game::{
    Archived, Game, Member, PressPolicy, Seat, SeatState, Settings, Status, Tenure, Timing,
};
use super::orders;
use super::process;
use super::render::TOPICS;
use super::text::typed_lines;
use super::{Action, Effects, Games, Judge};
use crate::game::calendar::PhaseKind;
use crate::game::ids::PowerId;
use crate::envelope::{Letter, Outgoing};

/// The games a mail needs loaded: those it names, and all of them for a bare LIST.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Needs {
    /// Game names.
    pub names: Vec<String>,
    /// All games (LIST).
    pub all: bool,
}

/// Which games a mail names (lower case), so the caller can load them.
pub fn needed_games(body: &str) -> Needs {
    let mut needs = Needs::default();
    for (_, line) in typed_lines(body) {
        let name = match parse_command(&line) {
            Command::Create { game, .. }
            | Command::Signon { game, .. }
            | Command::Observe { game, .. } => game,
            Command::History(g) | Command::Summary(g) | Command::List(Some(g)) => g,
            Command::List(None) => {
                needs.all = true;
                continue;
            }
            _ => continue,
        };
        let name = name.to_ascii_lowercase();
        if !needs.names.contains(&name) {
            needs.names.push(name);
        }
    }
    needs
}

/// What handling a mail did.
#[derive(Clone, Debug, Default)]
pub struct Handled {
    /// Mails to send and actions to log.
    pub effects: Effects,
    /// Games changed (to be written back).
    pub touched: BTreeSet<String>,
    /// How the mail is recorded: handled, or ignored and why.
    pub outcome: String,
    /// The game this mail signed on to with a right password, if any. A forger who only
    /// knows an address cannot sign on, so the reply to such a mail is counted apart from
    /// the per-address reply limit (see `Service::ingest_batch`): junk mail in the
    /// player's name cannot silence the confirmation of their orders.
    pub authenticated: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Nobody,
    Joiner(usize),
    Power(PowerId),
    Master,
    Observer,
}

struct PressDraft {
    to: Recipients,
    grey: Option<bool>,
    lines: Vec<String>,
}

struct Session<'a> {
    judge: &'a Judge,
    letter: &'a Letter,
    now: DateTime<Utc>,
    games: &'a mut Games,
    game: Option<String>,
    role: Role,
    became: Option<PowerId>,
    signed_on: bool,
    lines: Vec<String>,
    errors: bool,
    recognised: bool,
    /// Orders read so far, each with why it is for another phase (PHASE applies to the lines
    /// after it).
    orders: Vec<(String, Option<String>)>,
    wrong_phase: Option<String>,
    press: Option<PressDraft>,
    effects: Effects,
    touched: BTreeSet<String>,
    /// SIGNON checked a password and it was right.
    authenticated: bool,
    /// Addresses that got grey press from this mail: nothing else from it may name the
    /// sender to them, as it would arrive together with the press.
    grey_to: Vec<String>,
}

/// Handles one mail. `games` holds the games it names (see [`needed_games`]); changed games
/// are listed in [`Handled::touched`].
pub fn handle(judge: &Judge, letter: &Letter, games: &mut Games, now: DateTime<Utc>) -> Handled {
    if let Some(why) = &letter.automatic {
        return Handled {
            outcome: format!("ignored: {why}"),
            ..Handled::default()
        };
    }
    if letter.from.eq_ignore_ascii_case(&judge.address) {
        return Handled {
            outcome: "ignored: herald's own mail".into(),
            ..Handled::default()
        };
    }
    let mut s = Session {
        judge,
        letter,
        now,
        games,
        game: None,
        role: Role::Nobody,
        became: None,
        signed_on: false,
        lines: Vec::new(),
        errors: false,
        recognised: false,
        orders: Vec::new(),
        wrong_phase: None,
        press: None,
        effects: Effects::default(),
        touched: BTreeSet::new(),
        authenticated: false,
        grey_to: Vec::new(),
    };
    s.run();
    Handled {
        authenticated: s.game.clone().filter(|_| s.authenticated),
        effects: s.effects,
        touched: s.touched,
        outcome: "handled".into(),
    }
}

impl Session<'_> {
    fn run(&mut self) {
        for (_, line) in typed_lines(&self.letter.body) {
            if self.press.is_some() {
                match parse_command(&line) {
                    Command::EndPress => {
                        self.send_press();
                        continue;
                    }
                    Command::Signoff => {
                        self.send_press();
                        break;
                    }
                    _ => {
                        self.press.as_mut().expect("open press").lines.push(line);
                        continue;
                    }
                }
            }
            if line.is_empty() {
                continue;
            }
            let command = parse_command(&line);
            if command == Command::Signoff {
                self.recognised = true;
                break;
            }
            if !self.command(&line, command) {
                break;
            }
        }
        if self.press.is_some() {
            self.send_press();
        }
        self.flush_orders();
        self.update_ready();
        self.reply();
    }

    /// Early processing: once every power that must act is ready and nobody waits, the
    /// phase runs after the configured delay; any change that breaks that cancels it.
    fn update_ready(&mut self) {
        let Some(name) = self.game.clone() else {
            return;
        };
        if !self.touched.contains(&name) {
            return;
        }
        let (judge, now) = (self.judge, self.now);
        let g = self.games.get_mut(&name).expect("loaded");
        if g.status != Status::Running {
            return;
        }
        if process::all_ready(judge, g) {
            if g.ready_at.is_none() {
                g.ready_at = Some(now + judge.durations.early_delay);
            }
        } else {
            g.ready_at = None;
        }
    }

    fn error(&mut self, line: &str, why: impl Into<String>) {
        self.lines.push(line.to_string());
        self.lines.push(format!("  *** {}", why.into()));
        self.errors = true;
    }

    fn say(&mut self, text: impl Into<String>) {
        self.lines.push(text.into());
    }

    fn game(&self) -> &Game {
        &self.games[self.game.as_deref().expect("signed on")]
    }

    fn game_mut(&mut self) -> &mut Game {
        let name = self.game.clone().expect("signed on");
        self.touched.insert(name.clone());
        self.games.get_mut(&name).expect("loaded")
    }

    fn log(&mut self, what: impl Into<String>) {
        self.effects.actions.push(Action {
            game: self.game.clone(),
            actor: self.letter.from.clone(),
            what: what.into(),
        });
    }

    /// Applies one command; false stops reading the mail.
    fn command(&mut self, line: &str, command: Command) -> bool {
        match command {
            Command::Help => {
                self.recognised = true;
                let text = self.judge.templates.render(
                    "help/index.txt",
                    minijinja::context! { judge => &self.judge.address },
                );
                self.lines.extend(text.lines().map(str::to_string));
            }
            Command::Get(topic) => {
                self.recognised = true;
                if TOPICS.contains(&topic.as_str()) {
                    let text = self.judge.templates.render(
                        &format!("help/{topic}.txt"),
                        minijinja::context! { judge => &self.judge.address },
                    );
                    self.lines.extend(text.lines().map(str::to_string));
                } else {
                    self.error(
                        line,
                        format!("no help topic '{topic}'; topics: {}", TOPICS.join(", ")),
                    );
                }
            }
            Command::Map(name) => {
                self.recognised = true;
                let name = name.unwrap_or_else(|| "standard".into());
                let judge = self.judge;
                let found = match self.games.get(&name.to_ascii_lowercase()) {
                    Some(g) => Ok((judge.variant(g), judge.map_of(g))),
                    None => judge
                        .catalog
                        .variant(&name)
                        .map(|v| (v, &v.map))
                        .map_err(|e| e.to_string()),
                };
                match found {
                    Ok((variant, map)) => {
                        self.lines.extend(super::mapinfo::describe(variant, map));
                    }
                    Err(why) => self.error(line, format!("GET MAP: {why}")),
                }
            }
            Command::Version => {
                self.recognised = true;
                self.say(format!(
                    "herald {} (a play-by-email Diplomacy judge)",
                    env!("CARGO_PKG_VERSION")
                ));
            }
            Command::List(name) => {
                self.recognised = true;
                self.list(line, name.as_deref());
            }
            Command::History(name) => {
                self.recognised = true;
                match self.games.get(&name.to_ascii_lowercase()) {
                    None => self.error(line, format!("there is no game '{name}'")),
                    Some(g) if g.archive.is_empty() => {
                        self.say(format!("Game '{}' has no history yet.", g.name))
                    }
                    Some(g) => {
                        let mut out = vec![format!("History of game '{}':", g.name)];
                        for a in &g.archive {
                            out.push(String::new());
                            out.push(format!(
                                "==== {} ({})",
                                a.subject,
                                a.at.format("%Y-%m-%d %H:%M UTC")
                            ));
                            out.extend(a.body.lines().map(str::to_string));
                        }
                        self.lines.extend(out);
                    }
                }
            }
            Command::Summary(name) => {
                self.recognised = true;
                match self.games.get(&name.to_ascii_lowercase()) {
                    None => self.error(line, format!("there is no game '{name}'")),
                    Some(g) => {
                        let text = process::summary_text(self.judge, g);
                        self.lines.extend(text);
                    }
                }
            }
            Command::Create {
                game,
                password,
                variant,
                options,
            } => {
                self.recognised = true;
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
                self.recognised = true;
                if self.signed_on {
                    self.error(line, "only one SIGNON, CREATE or OBSERVE per mail");
                    return false;
                }
                return self.signon(line, who, &game, &password);
            }
            Command::Observe { game, password } => {
                self.recognised = true;
                if self.signed_on {
                    self.error(line, "only one SIGNON, CREATE or OBSERVE per mail");
                    return false;
                }
                return self.signon(line, SignonAs::Observer, &game, &password);
            }
            other => {
                if self.role == Role::Nobody {
                    if let Command::Other(_) = other {
                        if self.recognised {
                            self.error(line, "not a command; orders and SET commands come after SIGNON <power><game> <password>");
                        }
                    } else {
                        self.recognised = true;
                        self.error(
                            line,
                            "sign on first: SIGNON <power letter><game> <password>",
                        );
                    }
                    return true;
                }
                self.recognised = true;
                self.signed_command(line, other);
            }
        }
        true
    }

    fn list(&mut self, line: &str, name: Option<&str>) {
        match name {
            None => {
                if self.games.is_empty() {
                    self.say("No games on this judge yet. Start one with CREATE ?<game> <password> [<variant>].");
                    return;
                }
                self.say(format!(
                    "{:<13}{:<11}{:<14}{:<8}deadline",
                    "game", "variant", "status", "phase"
                ));
                let rows: Vec<String> = self
                    .games
                    .values()
                    .map(|g| {
                        let phase = g
                            .position
                            .as_ref()
                            .map(|p| self.judge.variant(g).calendar.code(p.phase))
                            .unwrap_or_else(|| "-".into());
                        let dl = g
                            .deadline
                            .map(|d| deadline::show(d, deadline::zone(&g.settings.zone)))
                            .unwrap_or_else(|| "-".into());
                        let status = if g.status == Status::Forming {
                            format!(
                                "forming {}/{}",
                                g.seats.len(),
                                self.judge.variant(g).map.powers.len()
                            )
                        } else {
                            g.status.word().to_string()
                        };
                        format!(
                            "{:<13}{:<11}{:<14}{:<8}{dl}",
                            g.name, g.variant, status, phase
                        )
                    })
                    .collect();
                self.lines.extend(rows);
            }
            Some(name) => {
                let Some(g) = self.games.get(&name.to_ascii_lowercase()) else {
                    self.error(line, format!("there is no game '{name}'"));
                    return;
                };
                let judge = self.judge;
                let variant = judge.variant(g);
                let map = judge.map_of(g);
                let mut out = vec![
                    judge.header(g),
                    format!("Game '{}': {} ({}).", g.name, g.status.word(), g.variant),
                ];
                if let Some(pos) = &g.position {
                    out.push(format!("Phase: {}.", variant.calendar.show(pos.phase)));
                }
                out.push(format!(
                    "Press: {}{}. {} games.",
                    match g.settings.press {
                        PressPolicy::White => "white",
                        PressPolicy::Grey => "white and grey",
                        PressPolicy::None => "none",
                    },
                    if g.settings.partial {
                        ", partial allowed"
                    } else {
                        ", broadcast only"
                    },
                    if g.settings.nmr { "NMR" } else { "NoNMR" }
                ));
                if g.status == Status::Forming {
                    out.push(format!(
                        "Players joined: {} of {}.",
                        g.seats.len(),
                        map.powers.len()
                    ));
                } else {
                    let acting = orders::must_act(judge, g);
                    for p in map.power_ids() {
                        let state = match g.seat_of(p).map(|s| s.state) {
                            Some(SeatState::Abandoned) => {
                                "abandoned (open for takeover)".to_string()
                            }
                            Some(SeatState::Disorder) => "civil disorder".to_string(),
                            _ if !acting.contains(&p) => "no orders needed".to_string(),
                            _ if orders::ready(judge, g, p) => "orders in".to_string(),
                            _ => "orders due".to_string(),
                        };
                        let (c, u) = g
                            .position
                            .as_ref()
                            .map_or((0, 0), |pos| (pos.centre_count(p), pos.unit_count(p)));
                        out.push(format!(
                            "  {} ({}): {c} centres, {u} units, {state}",
                            map.power(p).name,
                            map.power(p).letter
                        ));
                    }
                    if let Some(pos) = &g.position {
                        out.push(String::new());
                        out.extend(super::board::describe(variant, map, pos));
                    }
                }
                self.lines.extend(out);
            }
        }
    }

    fn create(
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
                password: self.judge.passwords.hash(password),
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
            rules: options.to_vec(),
            dips: Default::default(),
            signon_guard: Default::default(),
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

    fn signon(&mut self, line: &str, who: SignonAs, name: &str, password: &str) -> bool {
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
                if !mine.is_empty() && self.signon_locked(line, &seat_name) {
                    self.game = None;
                    return false;
                }
                for (i, stored) in &mine {
                    match self.check_password(line, stored, password) {
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
                        draw: false,
                        absences: Vec::new(),
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
                        format!("Waiting for {} More Players", powers - n)
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
                let Some(seat) = g.seat_of(power).cloned() else {
                    self.error(line, "Invalid password or power ID specified.");
                    self.game = None;
                    return false;
                };
                let pname = map.power(power).name.clone();
                match seat.state {
                    SeatState::Abandoned => {
                        let Some(hash) = self.new_hash(line, password) else {
                            self.game = None;
                            return false;
                        };
                        let g = self.game();
                        let code = g
                            .position
                            .as_ref()
                            .map(|p| judge.variant(g).calendar.code(p.phase))
                            .unwrap_or_default();
                        let now = self.now;
                        let gm = self.game_mut();
                        let s = gm.seat_of_mut(power).expect("seat");
                        s.member = Member {
                            address: from.clone(),
                            password: hash,
                        };
                        s.state = SeatState::Playing;
                        gm.tenures.push(Tenure {
                            power,
                            address: from.clone(),
                            from: code,
                        });
                        // A replacement gets a day at least (njudge bug 437): the deadline
                        // and grace move on if they are nearer, and the game stops waiting.
                        gm.waiting = false;
                        if gm.status == Status::Running {
                            if let Some(kind) = gm.phase_kind() {
                                let grace = Duration::minutes(gm.timing(kind).grace);
                                let d = gm.deadline.map_or(now + Duration::days(1), |d| {
                                    d.max(now + Duration::days(1))
                                });
                                gm.deadline = Some(d);
                                gm.grace = Some(gm.grace.map_or(d + grace, |g| g.max(d + grace)));
                                gm.last_late = None;
                            }
                        }
                        let notices = judge.notice_all(
                            self.game(),
                            "Returning Player Signon",
                            &[format!("{pname} has been taken over by a new player.")],
                        );
                        self.effects.mails.extend(notices);
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
                            let notice = judge.notice(
                                self.game(),
                                &seat.member.address,
                                "Signon From Another Address",
                                &[format!("Someone signed on as {pname} with the right password from {from}. If it was not you, change your password (SET PASSWORD).")],
                            );
                            self.effects.mails.push(notice);
                        }
                        if state == SeatState::Disorder {
                            self.game_mut().seat_of_mut(power).expect("seat").state =
                                SeatState::Playing;
                            let notices = judge.notice_all(
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

    /// Checks a password for a seat of the signed-on game within the limits on guessing
    /// (see [`super::password`]): refused unchecked while the seat or game is locked or
    /// herald's hour of password checks is spent; a wrong password is recorded and may lock
    /// the seat. `seat` names it in messages, `holder` is told of a lock.
    fn password_ok(
        &mut self,
        line: &str,
        seat: &str,
        holder: &str,
        stored: &str,
        password: &str,
    ) -> bool {
        if self.signon_locked(line, seat) {
            return false;
        }
        match self.check_password(line, stored, password) {
            None => false,
            Some(true) => {
                self.authenticated = true;
                true
            }
            Some(false) => {
                self.signon_failed(line, seat, holder);
                false
            }
        }
    }

    /// Whether sign-on to `seat` of the signed-on game is locked now (said if so).
    fn signon_locked(&mut self, line: &str, seat: &str) -> bool {
        let g = self.game();
        let Some(lock) = g.signon_guard.locked(seat, self.now) else {
            return false;
        };
        let whom = match &lock.seat {
            Some(s) => format!(" for {s}"),
            None => String::new(),
        };
        let why = format!(
            "too many wrong passwords{whom} in game '{}': try again after {}",
            g.name,
            deadline::show(lock.until, deadline::zone(&g.settings.zone))
        );
        self.error(line, why);
        true
    }

    /// A password checked against a stored hash, or None (and said) when herald's password
    /// checks for this hour are spent.
    fn check_password(&mut self, line: &str, stored: &str, password: &str) -> Option<bool> {
        match self.judge.passwords.check(stored, password, self.now) {
            Ok(ok) => Some(ok),
            Err(busy) => {
                self.password_busy(line, busy);
                None
            }
        }
    }

    /// A new password's hash, or None (and said) when herald's password work for this hour
    /// is spent.
    fn new_hash(&mut self, line: &str, password: &str) -> Option<String> {
        match self.judge.passwords.hash_at(password, self.now) {
            Ok(hash) => Some(hash),
            Err(busy) => {
                self.password_busy(line, busy);
                None
            }
        }
    }

    fn password_busy(&mut self, line: &str, busy: super::password::Busy) {
        let tz = deadline::zone(&self.game().settings.zone);
        self.error(
            line,
            format!(
                "herald is busy checking passwords; try again after {}",
                deadline::show(busy.until, tz)
            ),
        );
    }

    /// A wrong password for `seat`: recorded with the game, and when it trips a lock, the
    /// seat's holder and the Master are told (once per lock).
    fn signon_failed(&mut self, line: &str, seat: &str, holder: &str) {
        use super::password::WINDOW_MINUTES;
        const SHOWN: usize = 5;
        let (judge, now) = (self.judge, self.now);
        let from = self.letter.reply_to.clone();
        let tripped = self.game_mut().signon_guard.fail(seat, &from, holder, now);
        self.error(line, "Invalid password or power ID specified.");
        let g = self.game();
        let tz = deadline::zone(&g.settings.zone);
        let mut said = Vec::new();
        let mut notices = Vec::new();
        for t in tripped {
            let until = deadline::show(t.lock.until, tz);
            let (whom, scope) = match &t.lock.seat {
                Some(s) => (format!("for {s}"), format!("as {s}")),
                None => (
                    "for its seats".to_string(),
                    "to any of its seats".to_string(),
                ),
            };
            said.push(format!(
                "  Too many wrong passwords {whom} in game '{}': sign-on {scope} is locked until {until}.",
                g.name
            ));
            let mut addresses = t.from[..t.from.len().min(SHOWN)].join(", ");
            if t.from.len() > SHOWN {
                addresses.push_str(&format!(" and {} more", t.from.len() - SHOWN));
            }
            let lines = vec![
                format!(
                    "{} wrong passwords {whom} in game '{}' within {WINDOW_MINUTES} minutes, from {addresses}.",
                    t.failures, g.name
                ),
                format!("Sign-on {scope} is refused, right password or not, until {until}."),
                "The addresses are those the mails gave, which a forger can choose. If the mails were not yours, someone is guessing: a long password (SET PASSWORD) holds out.".to_string(),
            ];
            let mut to = t.holders.clone();
            to.push(g.master.address.clone());
            let mut seen = std::collections::HashSet::new();
            to.retain(|a| seen.insert(a.to_ascii_lowercase()));
            for addr in to {
                notices.push(judge.notice(g, &addr, "Signon Locked", &lines));
            }
        }
        self.lines.extend(said);
        self.effects.mails.extend(notices);
    }

    fn signed_command(&mut self, line: &str, command: Command) {
        let judge = self.judge;
        let role = self.role;
        let is_master = role == Role::Master || self.became.is_some();
        match command {
            Command::Other(text) => match role {
                Role::Power(_) => self.orders.push((text, self.wrong_phase.clone())),
                Role::Master => self.error(
                    line,
                    "not a Master command; to order for a power, BECOME <letter> first",
                ),
                _ => self.error(line, "not a command (only players send orders)"),
            },
            Command::Clear => match role {
                Role::Power(p) => {
                    self.orders.clear();
                    self.game_mut().orders.remove(&p.0);
                    self.say("CLEAR: your orders for this phase are cleared.");
                }
                _ => self.error(line, "only a power has orders to clear"),
            },
            Command::Phase(text) => {
                let g = self.game();
                let Some(pos) = &g.position else {
                    self.error(line, "the game has not started");
                    return;
                };
                let cal = &judge.variant(g).calendar;
                match cal.parse(&text) {
                    Ok(p) if p == pos.phase => self.wrong_phase = None,
                    Ok(p) => {
                        let why = format!(
                            "these orders are for {}, but the game is at {}",
                            cal.code(p),
                            cal.code(pos.phase)
                        );
                        self.wrong_phase = Some(why);
                    }
                    Err(e) => {
                        // Orders after a PHASE line herald cannot read are not filed for a
                        // phase the player may not have meant.
                        let why = format!(
                            "the PHASE line above was not understood, so these orders are not filed (the game is at {})",
                            cal.code(pos.phase)
                        );
                        self.error(line, e.to_string());
                        self.wrong_phase = Some(why);
                    }
                }
            }
            Command::Wait(on) => match role {
                Role::Power(p) => {
                    self.game_mut().seat_of_mut(p).expect("seat").wait = on;
                    self.say(if on {
                        "WAIT set: the phase will not be processed early."
                    } else {
                        "NOWAIT: the phase may be processed early."
                    });
                }
                _ => self.error(line, "only a power sets WAIT"),
            },
            Command::Password(pw) => {
                let hash = judge.passwords.hash(&pw);
                match role {
                    Role::Power(p) => {
                        self.game_mut()
                            .seat_of_mut(p)
                            .expect("seat")
                            .member
                            .password = hash
                    }
                    Role::Joiner(i) => self.game_mut().seats[i].member.password = hash,
                    Role::Master => self.game_mut().master.password = hash,
                    Role::Observer => {
                        let from = self.letter.reply_to.clone();
                        if let Some(o) = self
                            .game_mut()
                            .observers
                            .iter_mut()
                            .find(|o| o.address == from)
                        {
                            o.password = hash;
                        }
                    }
                    Role::Nobody => {}
                }
                self.say("Password changed.");
            }
            Command::Address(addr) => {
                if !addr.contains('@') || addr.contains(char::is_whitespace) {
                    self.error(line, format!("'{addr}' is not a mail address"));
                    return;
                }
                if addr.eq_ignore_ascii_case(&judge.address) {
                    self.error(
                        line,
                        format!("{addr} is herald's own address: your mail cannot go there"),
                    );
                    return;
                }
                match role {
                    Role::Power(p) => {
                        self.game_mut().seat_of_mut(p).expect("seat").member.address = addr.clone()
                    }
                    Role::Joiner(i) => self.game_mut().seats[i].member.address = addr.clone(),
                    Role::Master => self.game_mut().master.address = addr.clone(),
                    _ => {
                        self.error(
                            line,
                            "observers change their address by observing again from it",
                        );
                        return;
                    }
                }
                self.say(format!("Your mail for this game now goes to {addr}."));
            }
            Command::Absence(text) => self.absence(line, &text),
            Command::NoAbsence => match role {
                Role::Power(p) => {
                    self.game_mut()
                        .seat_of_mut(p)
                        .expect("seat")
                        .absences
                        .clear();
                    self.say("Your absences are cleared.");
                }
                _ => self.error(line, "only a power sets absences"),
            },
            Command::Draw(on) => self.draw(line, on),
            Command::Preference(list) => match role {
                Role::Joiner(i) => {
                    self.game_mut().seats[i].preference = list.clone();
                    self.say(format!("Preference list set: {list}."));
                }
                _ => self.error(
                    line,
                    "preferences are set before START, after SIGNON ?<game>",
                ),
            },
            Command::Press { to, grey } => {
                self.press = Some(PressDraft {
                    to,
                    grey,
                    lines: Vec::new(),
                });
            }
            Command::EndPress => self.error(line, "ENDPRESS without PRESS"),
            Command::Intercept(a, b) => self.intercept(line, &a, &b),
            Command::Protect => self.protect(line),
            Command::Resign => self.resign(line),
            _ if !is_master => self.error(line, "only the Master may do this"),
            master => self.master_command(line, master),
        }
    }

    fn absence(&mut self, line: &str, text: &str) {
        let Role::Power(p) = self.role else {
            self.error(line, "only a power sets absences");
            return;
        };
        let tz = deadline::zone(&self.game().settings.zone);
        let upper = text.to_ascii_uppercase();
        let Some(i) = upper.find(" TO ") else {
            self.error(line, "write SET ABSENCE <date> TO <date>");
            return;
        };
        let (from, to) = (&text[..i], &text[i + 4..]);
        let from = deadline::parse_date(from, self.now, tz);
        let to = deadline::parse_ahead(to, self.now, tz);
        match (from, to) {
            (Ok(a), Ok(b)) if b <= a => self.error(line, "the absence ends before it starts"),
            (Ok(a), Ok(b)) if b - a > Duration::days(15) => self.error(
                line,
                "an absence is at most 15 days; ask the Master for more",
            ),
            (Ok(a), Ok(b)) => {
                let seat = self.game_mut().seat_of_mut(p).expect("seat");
                if seat.absences.len() >= 3 {
                    self.error(line, "at most 3 absences; clear them with SET NOABSENCE");
                    return;
                }
                seat.absences.push((a, b));
                self.say(format!(
                    "Absence noted: {} to {}. Future deadlines will not fall inside it.",
                    deadline::show(a, tz),
                    deadline::show(b, tz)
                ));
            }
            (Err(e), _) | (_, Err(e)) => self.error(line, e),
        }
    }

    fn draw(&mut self, line: &str, on: bool) {
        let Role::Power(p) = self.role else {
            self.error(line, "only a power votes for a draw");
            return;
        };
        self.game_mut().seat_of_mut(p).expect("seat").draw = on;
        self.say(if on {
            "Draw vote recorded for this phase."
        } else {
            "Draw vote withdrawn."
        });
        let judge = self.judge;
        let g = self.game();
        let Some(pos) = &g.position else { return };
        let map = judge.map_of(g);
        let alive: Vec<PowerId> = map
            .power_ids()
            .filter(|&q| pos.unit_count(q) > 0 || pos.centre_count(q) > 0)
            .collect();
        let all = alive.iter().all(|&q| g.seat_of(q).is_some_and(|s| s.draw));
        if on && all {
            let names: Vec<String> = alive.iter().map(|&q| map.power(q).name.clone()).collect();
            let now = self.now;
            let g = self.game_mut();
            g.status = Status::Finished;
            g.outcome = Some(format!("Draw among {}", names.join(", ")));
            g.deadline = None;
            g.grace = None;
            let mails = process::summary_mails(judge, g, now);
            self.effects.mails.extend(mails);
            self.log("game drawn by unanimous vote");
        }
    }

    /// The power this session speaks for in a game with dip points, or an error said.
    fn dip_power(&mut self, line: &str) -> Option<PowerId> {
        let judge = self.judge;
        let Role::Power(p) = self.role else {
            self.error(line, "only a power spends dip points");
            return None;
        };
        let g = self.game();
        if !dips::played(judge, g) {
            self.error(line, "dip points are not played in this game");
            return None;
        }
        if g.status != Status::Running {
            self.error(line, format!("the game is {}", g.status.word()));
            return None;
        }
        Some(p)
    }

    fn intercept(&mut self, line: &str, a: &str, b: &str) {
        let judge = self.judge;
        let Some(me) = self.dip_power(line) else {
            return;
        };
        let map = judge.map_of(self.game());
        let (Some(x), Some(y)) = (map.power_by_word(a), map.power_by_word(b)) else {
            let bad = if map.power_by_word(a).is_none() { a } else { b };
            self.error(line, format!("'{bad}' is no country of this game"));
            return;
        };
        let (nx, ny) = (map.power(x).name.clone(), map.power(y).name.clone());
        if x == y {
            self.error(line, "an interception names two different countries");
            return;
        }
        if x == me || y == me {
            self.error(line, "you already see your own messages");
            return;
        }
        if dips::same_player(self.game(), x, y) {
            // D.2: the GM tells the interceptor; nothing is bought, so nothing is paid.
            self.say(format!(
                "{nx} and {ny} are played by the same player: there is nothing between them to intercept. No dips were spent."
            ));
            return;
        }
        if self.game().dips.intercepts.contains(&(me, x, y))
            || self.game().dips.intercepts.contains(&(me, y, x))
        {
            self.error(
                line,
                format!("you already intercept {nx} and {ny} this turn"),
            );
            return;
        }
        let what = format!("INTERCEPT {nx} {ny}");
        let g = self.game_mut();
        match dips::spend(judge, g, me, dips::INTERCEPT, what) {
            Ok(()) => {
                g.dips.intercepts.push((me, x, y));
                self.say(format!(
                    "You will have copies of all messages between {nx} and {ny} this turn when it is processed."
                ));
            }
            Err(why) => self.error(line, why),
        }
    }

    fn protect(&mut self, line: &str) {
        let judge = self.judge;
        let Some(me) = self.dip_power(line) else {
            return;
        };
        if self.game().dips.protected.contains(&me) {
            self.error(line, "your messages are already protected this turn");
            return;
        }
        let g = self.game_mut();
        match dips::spend(judge, g, me, dips::PROTECT, "PROTECT".into()) {
            Ok(()) => {
                g.dips.protected.push(me);
                self.say("Your messages are protected from interception this turn.");
            }
            Err(why) => self.error(line, why),
        }
    }

    fn resign(&mut self, line: &str) {
        match self.role {
            Role::Power(p) => {
                let judge = self.judge;
                let g = self.game_mut();
                g.seat_of_mut(p).expect("seat").state = SeatState::Abandoned;
                let map = judge.map_of(g);
                let (name, letter, game) = (
                    map.power(p).name.clone(),
                    map.power(p).letter,
                    g.name.clone(),
                );
                let notices = judge.notice_all(self.game(), "Resignation", &[format!("{name} has resigned; a new player may take it over with SIGNON {letter}{game} <password>.")]);
                self.effects.mails.extend(notices);
                self.say(format!("You have resigned {name}."));
                self.role = Role::Nobody;
            }
            Role::Joiner(i) => {
                self.game_mut().seats.remove(i);
                self.say("You have left the game.");
                self.role = Role::Nobody;
            }
            _ => self.error(
                line,
                "only a player resigns (the Master ends a game with TERMINATE)",
            ),
        }
    }

    fn master_command(&mut self, line: &str, command: Command) {
        let judge = self.judge;
        let now = self.now;
        self.log(line.to_string());
        match command {
            Command::Start => self.start(line),
            Command::Process { phase, force } => {
                let g = self.game();
                if g.status != Status::Running {
                    self.error(
                        line,
                        format!("the game is {}, not running", g.status.word()),
                    );
                    return;
                }
                let cal = &judge.variant(g).calendar;
                let current = g.position.as_ref().expect("running").phase;
                if let Some(text) = phase {
                    match cal.parse(&text) {
                        Ok(p) if p == current => {}
                        Ok(_) => {
                            self.error(
                                line,
                                format!(
                                    "the game is at {}, not {}",
                                    cal.code(current),
                                    text.trim()
                                ),
                            );
                            return;
                        }
                        Err(e) => {
                            self.error(line, e.to_string());
                            return;
                        }
                    }
                }
                self.flush_orders();
                let g = self.game();
                let late = process::late_powers(judge, g);
                if !force && !late.is_empty() {
                    let names: Vec<String> = late
                        .iter()
                        .map(|&p| judge.variant(g).map.power(p).name.clone())
                        .collect();
                    self.error(line, format!("orders are missing or have errors from: {} (PROCESS! processes with default orders)", names.join(", ")));
                    return;
                }
                let effects = process::process(judge, self.game_mut(), now);
                self.effects.mails.extend(effects.mails);
                self.say("Processed.");
            }
            Command::Preview => {
                if self.game().position.is_none() {
                    self.error(line, "the game has not started");
                    return;
                }
                self.flush_orders();
                let mail = process::preview(judge, self.game());
                self.effects.mails.push(mail);
                self.say("A preview of the adjudication is on its way to you.");
            }
            Command::Pause => {
                let g = self.game_mut();
                if g.status != Status::Running {
                    self.error(line, "only a running game can be paused");
                    return;
                }
                g.status = Status::Paused;
                g.pause_reason = Some("paused by the Master".into());
                g.paused_left = g.deadline.map(|d| (d - now).num_seconds().max(3600));
                let notices = judge.notice_all(
                    self.game(),
                    "Game Paused",
                    &["The Master has paused the game: deadlines are stopped.".to_string()],
                );
                self.effects.mails.extend(notices);
            }
            Command::Resume => {
                let g = self.game_mut();
                if g.status != Status::Paused {
                    self.error(line, "the game is not paused");
                    return;
                }
                g.status = Status::Running;
                g.pause_reason = None;
                let left = g.paused_left.take().unwrap_or(86_400);
                let d = deadline::later(
                    now,
                    Duration::try_seconds(left).unwrap_or(Duration::days(1)),
                );
                let kind = g.phase_kind().expect("started");
                let grace = deadline::minutes(g.timing(kind).grace);
                g.deadline = Some(d);
                g.grace = Some(deadline::later(d, grace));
                let tz = deadline::zone(&g.settings.zone);
                let text = format!(
                    "The Master has resumed the game. The deadline is {}.",
                    deadline::show(d, tz)
                );
                let notices = judge.notice_all(self.game(), "Game Resumed", &[text]);
                self.effects.mails.extend(notices);
            }
            Command::Deadline(text) | Command::Grace(text) | Command::StartAfter(text)
                if self.game().position.is_none() =>
            {
                let _ = text;
                self.error(line, "the game has not started");
            }
            Command::Deadline(text) => {
                let tz = deadline::zone(&self.game().settings.zone);
                match deadline::parse_ahead(&text, now, tz) {
                    Err(e) => self.error(line, e),
                    Ok(d) => {
                        let g = self.game_mut();
                        let kind = g.phase_kind().expect("started");
                        let grace_end = deadline::later(d, deadline::minutes(g.timing(kind).grace));
                        g.deadline = Some(d);
                        if g.grace.is_none_or(|gr| gr < grace_end) {
                            g.grace = Some(grace_end);
                        }
                        g.reminded = false;
                        g.last_late = None;
                        g.waiting = false;
                        let text = format!(
                            "The deadline is now {}; grace ends {}.",
                            deadline::show(d, tz),
                            deadline::show(g.grace.expect("set"), tz)
                        );
                        let notices = judge.notice_all(self.game(), "Deadline Adjustment", &[text]);
                        self.effects.mails.extend(notices);
                    }
                }
            }
            Command::Grace(text) => {
                let tz = deadline::zone(&self.game().settings.zone);
                match deadline::parse_ahead(&text, now, tz) {
                    Err(e) => self.error(line, e),
                    Ok(d) if self.game().deadline.is_some_and(|dl| d < dl) => {
                        self.error(line, "grace cannot end before the deadline")
                    }
                    Ok(d) => {
                        self.game_mut().grace = Some(d);
                        let notices = judge.notice_all(
                            self.game(),
                            "Grace Adjustment",
                            &[format!("Grace now ends {}.", deadline::show(d, tz))],
                        );
                        self.effects.mails.extend(notices);
                    }
                }
            }
            Command::StartAfter(text) => {
                let tz = deadline::zone(&self.game().settings.zone);
                match deadline::parse_ahead(&text, now, tz) {
                    Err(e) => self.error(line, e),
                    Ok(d) => {
                        let g = self.game_mut();
                        g.start_after = Some(d);
                        if g.deadline.is_some_and(|dl| dl < d) {
                            g.deadline = Some(d);
                        }
                        self.say(format!(
                            "This phase will not be processed before {}.",
                            deadline::show(d, tz)
                        ));
                    }
                }
            }
            Command::Timing(kind, words) => {
                let words: Vec<&str> = words.iter().map(String::as_str).collect();
                let g = self.game_mut();
                let i = match kind {
                    PhaseKind::Movement => 0,
                    PhaseKind::Retreat => 1,
                    PhaseKind::Adjustment => 2,
                };
                let mut t = g.settings.timing[i].clone();
                match deadline::parse_timing(&words, &mut t) {
                    Ok(()) => {
                        g.settings.timing[i] = t;
                        self.say(format!(
                            "Timing for {} phases changed; it applies from the next such phase.",
                            kind.name().to_lowercase()
                        ));
                    }
                    Err(e) => self.error(line, e),
                }
            }
            Command::Nmr(on) => {
                self.game_mut().settings.nmr = on;
                let text = if on {
                    "NMR: at the end of grace, late powers go into civil disorder."
                } else {
                    "NoNMR: at the end of grace, late powers are abandoned and the game waits."
                };
                self.parameter_change(text.to_string());
            }
            Command::PressPolicy(p) => {
                self.game_mut().settings.press = p;
                let text = format!(
                    "Press is now {}.",
                    match p {
                        PressPolicy::White => "white only",
                        PressPolicy::Grey => "white and grey",
                        PressPolicy::None => "off (only to and from the Master)",
                    }
                );
                self.parameter_change(text);
            }
            Command::Partial(on) => {
                self.game_mut().settings.partial = on;
                let text = if on {
                    "Partial press (to some powers) is allowed."
                } else {
                    "Only broadcast press is allowed."
                };
                self.parameter_change(text.to_string());
            }
            Command::Zone(name) => {
                if name.parse::<chrono_tz::Tz>().is_err() {
                    self.error(line, format!("'{name}' is not a time zone; write e.g. Europe/London or America/New_York"));
                    return;
                }
                self.game_mut().settings.zone = name.clone();
                self.say(format!("Dates in this game are now shown in {name}."));
            }
            Command::Become(letter) => {
                let g = self.game();
                let map = judge.map_of(g);
                match map
                    .powers
                    .iter()
                    .position(|p| p.letter == letter)
                    .map(|i| PowerId(i as u8))
                {
                    Some(p) if g.seat_of(p).is_some() => {
                        self.flush_orders();
                        self.role = Role::Power(p);
                        self.became = Some(p);
                        self.say(format!(
                            "You act as {} for the rest of this mail; the player gets a copy.",
                            map.power(p).name
                        ));
                    }
                    _ => self.error(line, format!("no power with letter {letter} in this game")),
                }
            }
            Command::Eject(letter) => {
                let g = self.game();
                let map = judge.map_of(g);
                match map
                    .powers
                    .iter()
                    .position(|p| p.letter == letter)
                    .map(|i| PowerId(i as u8))
                {
                    Some(p) if g.seat_of(p).is_some() => {
                        let name = map.power(p).name.clone();
                        let old = g.seat_of(p).expect("seat").member.address.clone();
                        let game = g.name.clone();
                        self.game_mut().seat_of_mut(p).expect("seat").state = SeatState::Abandoned;
                        let notice = judge.notice(
                            self.game(),
                            &old,
                            "Ejected",
                            &[format!(
                                "The Master has removed you from {name} in '{game}'."
                            )],
                        );
                        self.effects.mails.push(notice);
                        let notices = judge.notice_all(
                            self.game(),
                            "Player Ejected",
                            &[format!(
                                "{name} is open for takeover: SIGNON {letter}{game} <password>."
                            )],
                        );
                        self.effects.mails.extend(notices);
                    }
                    _ => self.error(line, format!("no player for letter {letter} in this game")),
                }
            }
            Command::Rollback(text) => {
                let g = self.game();
                let cal = &judge.variant(g).calendar;
                let code = match cal.parse(&text) {
                    Ok(p) => cal.code(p),
                    Err(e) => {
                        self.error(line, e.to_string());
                        return;
                    }
                };
                let Some(i) = g.history.iter().position(|h| h.code == code) else {
                    self.error(line, format!("{code} is not a phase this game has played"));
                    return;
                };
                let g = self.game_mut();
                g.position = Some(g.history[i].before.clone());
                g.history.truncate(i);
                g.centre_counts.retain(|(_, _, played)| *played <= i);
                g.orders.clear();
                // The turn is played again from its full allowance (press already sent stays
                // sent).
                g.dips = Default::default();
                g.status = Status::Running;
                g.outcome = None;
                g.ready_at = None;
                g.reminded = false;
                g.last_late = None;
                g.waiting = false;
                process::set_deadline(judge, g, now);
                let notices = judge.notice_all(self.game(), &format!("Rollback to {code}"), &[format!("The Master has rolled the game back to {code}. Orders for it are needed again.")]);
                self.effects.mails.extend(notices);
            }
            Command::Terminate => {
                let g = self.game_mut();
                g.status = Status::Finished;
                g.outcome = Some("Terminated by the Master".into());
                g.deadline = None;
                g.grace = None;
                let mails = process::summary_mails(judge, g, now);
                self.effects.mails.extend(mails);
                self.say("The game is terminated.");
            }
            Command::Rule(switch) => {
                let g = self.game();
                if g.status != Status::Forming {
                    self.error(line, "rule switches are set before START");
                    return;
                }
                let mut rules = judge.rules(g);
                match rules.apply_switch(&switch) {
                    Ok(()) => {
                        self.game_mut().rules.push(switch.clone());
                        self.say(format!("Rule switch set: {switch}."));
                    }
                    Err(why) => self.error(line, why),
                }
            }
            Command::UnknownSet(text) => self.error(
                line,
                format!("'{text}' is not a setting herald knows (GET master lists them)"),
            ),
            other => self.error(line, format!("{other:?} is not allowed here")),
        }
    }

    /// Tells everyone in the game that a setting changed.
    fn parameter_change(&mut self, text: String) {
        let notices = self
            .judge
            .notice_all(self.game(), "Parameter Change", &[text]);
        self.effects.mails.extend(notices);
    }

    fn start(&mut self, line: &str) {
        let judge = self.judge;
        let now = self.now;
        let g = self.game();
        if g.status != Status::Forming {
            self.error(line, "the game has already started");
            return;
        }
        let variant = judge.variant(g);
        let map = &variant.map;
        let n = map.powers.len();
        if g.seats.len() < n {
            self.error(
                line,
                format!(
                    "{} of {n} players have joined; START needs all of them",
                    g.seats.len()
                ),
            );
            return;
        }
        let mut free: Vec<PowerId> = map.power_ids().collect();
        let mut assigned = vec![None; g.seats.len()];
        for (i, seat) in g.seats.iter().enumerate() {
            for c in seat.preference.chars() {
                if let Some(k) = free.iter().position(|&p| map.power(p).letter == c) {
                    assigned[i] = Some(free.remove(k));
                    break;
                }
            }
        }
        let mut seed = g
            .name
            .bytes()
            .fold(now.timestamp() as u64 ^ 0x9e37_79b9_7f4a_7c15, |h, b| {
                h.rotate_left(5) ^ b as u64
            });
        for a in assigned.iter_mut().filter(|a| a.is_none()) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let k = (seed % free.len() as u64) as usize;
            *a = Some(free.remove(k));
        }
        let position = variant.opening();
        let code = variant.calendar.code(position.phase);
        let g = self.game_mut();
        for (seat, power) in g.seats.iter_mut().zip(assigned) {
            seat.power = power;
        }
        g.tenures = g
            .seats
            .iter()
            .map(|s| Tenure {
                power: s.power.expect("assigned"),
                address: s.member.address.clone(),
                from: code.clone(),
            })
            .collect();
        g.position = Some(position);
        g.status = Status::Running;
        process::set_deadline(judge, g, now);
        let g = self.game();
        let tz = deadline::zone(&g.settings.zone);
        let mut lines = vec![
            format!(
                "Game '{}' has started: {}.",
                g.name,
                variant
                    .calendar
                    .show(g.position.as_ref().expect("set").phase)
            ),
            String::new(),
            "The powers are played by:".to_string(),
        ];
        for p in map.power_ids() {
            let who = g
                .seat_of(p)
                .map(|s| s.member.address.clone())
                .unwrap_or_default();
            lines.push(format!(
                "  {:<10} ({}) {who}",
                map.power(p).name,
                map.power(p).letter
            ));
        }
        lines.push(String::new());
        lines.push(format!(
            "The deadline for orders is {}.",
            deadline::show(g.deadline.expect("set"), tz)
        ));
        lines.push(format!(
            "Sign on with SIGNON <letter>{} <your password>.",
            g.name
        ));
        let notices = judge.notice_all(g, "Game Starting", &lines);
        self.effects.mails.extend(notices);
        self.say("The game has started.");
    }

    fn send_press(&mut self) {
        let Some(draft) = self.press.take() else {
            return;
        };
        let judge = self.judge;
        let Some(name) = self.game.clone() else {
            self.error("PRESS", "sign on before sending press");
            return;
        };
        let g = &self.games[&name];
        let map = judge.map_of(g);
        let sender_master = self.role == Role::Master && self.became.is_none();
        let sender = match self.role {
            Role::Power(p) => map.power(p).name.clone(),
            Role::Master => "the Master".to_string(),
            Role::Observer => "an observer".to_string(),
            _ => {
                self.error(
                    "PRESS",
                    "press comes from a power, the Master or an observer",
                );
                return;
            }
        };
        let me = match self.role {
            Role::Power(p) => Some(map.power(p).letter),
            Role::Master => Some('M'),
            _ => None,
        };
        // Everyone who could receive press: power letters, M, O.
        let mut all: Vec<char> = g
            .seats
            .iter()
            .filter(|s| s.state != SeatState::Abandoned)
            .filter_map(|s| s.power.map(|p| map.power(p).letter))
            .collect();
        all.push('M');
        if !g.observers.is_empty() {
            all.push('O');
        }
        let wanted: Vec<char> = match &draft.to {
            Recipients::Nobody => {
                self.error(
                    "PRESS",
                    "PRESS without TO sends nothing: write PRESS TO <letters> or BROADCAST",
                );
                return;
            }
            Recipients::All => all.clone(),
            Recipients::To(letters) => letters.chars().collect(),
            Recipients::AllBut(letters) => all
                .iter()
                .copied()
                .filter(|c| !letters.contains(*c))
                .collect(),
        };
        let mut recipients: Vec<char> = Vec::new();
        for c in wanted {
            if Some(c) == me || recipients.contains(&c) {
                continue;
            }
            if !all.contains(&c) {
                self.error(
                    &format!("PRESS TO {c}"),
                    format!("'{c}' is no one in this game"),
                );
                return;
            }
            recipients.push(c);
        }
        if recipients.is_empty() {
            self.error("PRESS", "the press has no recipients");
            return;
        }
        let broadcast = recipients.len() == all.iter().filter(|&&c| Some(c) != me).count();
        let only_master = recipients == ['M'];
        if !sender_master && !only_master {
            if g.settings.press == PressPolicy::None {
                self.error(
                    "PRESS",
                    "press is off in this game: only press to and from the Master is allowed",
                );
                return;
            }
            if !broadcast && !g.settings.partial {
                self.error("PRESS", "only broadcast press is allowed in this game");
                return;
            }
            if self.role == Role::Observer {
                self.error("PRESS", "observers may send press to the Master only");
                return;
            }
        }
        let grey = draft.grey.unwrap_or(false) && !sender_master;
        if grey && g.settings.press != PressPolicy::Grey {
            self.error(
                "PRESS",
                "grey press is not allowed in this game (SET PRESS GREY allows it)",
            );
            return;
        }
        let names: Vec<String> = recipients
            .iter()
            .map(|&c| match c {
                'M' => "the Master".to_string(),
                'O' => "the observers".to_string(),
                _ => map
                    .powers
                    .iter()
                    .find(|p| p.letter == c)
                    .map(|p| p.name.clone())
                    .unwrap_or_default(),
            })
            .collect();
        let to_text = if broadcast {
            "everyone".to_string()
        } else {
            names.join(", ")
        };
        // Grey press names neither its sender nor its other recipients (with seven powers and
        // six named recipients the seventh is the sender): every recipient's copy is the same
        // whoever sent it. Only the Master's copy names the sender.
        let anonymous = if self.role == Role::Observer {
            "an anonymous observer"
        } else {
            "an anonymous power"
        };
        let intro = match (grey, broadcast) {
            (true, true) => format!("Anonymous broadcast in '{}':", g.name),
            (true, false) => format!("Message from {anonymous} in '{}':", g.name),
            (false, true) => format!("Broadcast message from {sender} in '{}':", g.name),
            (false, false) => format!("Message from {sender} to {to_text} in '{}':", g.name),
        };
        let what = match (grey, broadcast) {
            (true, true) => "Broadcast".to_string(),
            (true, false) => "Press".to_string(),
            (false, true) => format!("Broadcast from {}", me.unwrap_or('?')),
            (false, false) => format!("Press from {}", me.unwrap_or('?')),
        };
        let subject = judge.subject(g, &what);
        let mut text = draft.lines;
        while text.last().is_some_and(|l| l.is_empty()) {
            text.pop();
        }
        let render = |intro: &str| {
            judge.templates.render(
                "press.txt",
                minijinja::context! { header => judge.header(g), intro => intro, lines => &text },
            )
        };
        let body = render(&intro);
        let mut addresses: Vec<String> = Vec::new();
        for &c in &recipients {
            match c {
                'M' => addresses.push(g.master.address.clone()),
                'O' => addresses.extend(g.observers.iter().map(|o| o.address.clone())),
                _ => addresses.extend(
                    g.seats
                        .iter()
                        .filter(|s| {
                            s.state != SeatState::Abandoned
                                && s.power.is_some_and(|p| map.power(p).letter == c)
                        })
                        .map(|s| s.member.address.clone()),
                ),
            }
        }
        // A fixed order, whoever sends: by address.
        addresses.sort();
        addresses.dedup();
        // The Master's own copy of grey press names the sender, unless the Master's address
        // also holds a seat in the game (a Master who plays reads what players read).
        let master_copy = (grey
            && recipients.contains(&'M')
            && !g
                .seats
                .iter()
                .any(|s| s.member.address.eq_ignore_ascii_case(&g.master.address)))
        .then(|| {
            render(&format!(
                "Grey press from {sender} to {to_text} in '{}' (only the Master's copy names the sender):",
                g.name
            ))
        });
        let master_address = g.master.address.clone();
        // Mails from one incoming mail arrive together: grey press may not share a recipient
        // with anything else from this mail that names the sender (white press, a notice of
        // a return from civil disorder), nor white press follow grey press to one.
        // (The Master, whose copy names the sender anyway, excepted.)
        let players: Vec<&String> = addresses
            .iter()
            .filter(|a| master_copy.is_none() || **a != master_address)
            .collect();
        if grey {
            let named = players.iter().any(|a| {
                let sent = self.effects.mails.iter().filter(|m| &m.to == *a).count();
                sent > self.grey_to.iter().filter(|t| t == a).count()
            });
            if named {
                self.error(
                    "PRESS",
                    "grey press was not sent: this mail also sends a recipient something that names you (white press or a notice), and both would arrive together; send grey press in a mail of its own",
                );
                return;
            }
        } else if players.iter().any(|a| self.grey_to.contains(a)) {
            self.error(
                "PRESS",
                "this press was not sent: it goes to someone who got your grey press from this mail, and both would arrive together; send it in another mail",
            );
            return;
        }
        // Dip points: press costs 1 to any number of countries; to or from the Master it is
        // free. It is paid before it goes, or it does not go.
        let to_powers: Vec<PowerId> = recipients
            .iter()
            .filter_map(|c| map.powers.iter().position(|p| p.letter == *c))
            .map(|i| PowerId(i as u8))
            .collect();
        if let (Role::Power(p), true) = (self.role, dips::played(judge, g) && !only_master) {
            let what = format!("press to {to_text}");
            let g = self.game_mut();
            if let Err(why) = dips::spend(judge, g, p, dips::PRESS, what) {
                self.error("PRESS", format!("{why}: the press was not sent"));
                return;
            }
            g.dips.messages.push(dips::Sent {
                from: p,
                to: to_powers,
                body: format!("{intro}\n\n{}", text.join("\n")),
                grey,
            });
        }
        for to in addresses {
            let body = match &master_copy {
                Some(named) if to == master_address => named.clone(),
                _ => {
                    if grey {
                        self.grey_to.push(to.clone());
                    }
                    body.clone()
                }
            };
            self.effects.mails.push(Outgoing {
                to,
                subject: subject.clone(),
                body,
                in_reply_to: None,
            });
        }
        if recipients.contains(&'O') || broadcast {
            let (at, subject, body) = (self.now, subject.clone(), body.clone());
            self.game_mut().archive.push(Archived { at, subject, body });
        }
        let how = match (grey, master_copy.is_some()) {
            (false, _) => "",
            (true, false) => " (grey: each copy reads as from an anonymous power and lists no recipients)",
            (true, true) => " (grey: each copy reads as from an anonymous power and lists no recipients; the Master's copy names you)",
        };
        self.say(format!("Press sent to {to_text}{how}."));
    }

    fn flush_orders(&mut self) {
        if self.orders.is_empty() {
            return;
        }
        let Role::Power(p) = self.role else {
            self.orders.clear();
            return;
        };
        let texts = std::mem::take(&mut self.orders);
        let judge = self.judge;
        let g = self.game_mut();
        if g.status != Status::Running {
            let why = format!("the game is {}: no orders now", g.status.word());
            for (t, _) in texts {
                self.error(&t, why.clone());
            }
            return;
        }
        let (lines, errors) = orders::submit(judge, g, p, &texts);
        self.lines.push("Orders received:".into());
        self.lines
            .extend(lines.into_iter().map(|l| format!("  {l}")));
        self.errors |= errors;
    }

    fn reply(&mut self) {
        let judge = self.judge;
        let subject_base = if self.letter.subject.is_empty() {
            "your mail".to_string()
        } else {
            self.letter.subject.clone()
        };
        let mut subject = if subject_base.to_ascii_lowercase().starts_with("re:") {
            subject_base
        } else {
            format!("Re: {subject_base}")
        };
        if self.errors {
            subject.push_str(" [Error Flag]");
        }
        if !self.recognised {
            self.effects.mails.push(Outgoing {
                to: self.letter.reply_to.clone(),
                subject,
                body: judge.templates.render(
                    "unknown.txt",
                    minijinja::context! { judge => &judge.address },
                ),
                in_reply_to: Some(self.letter.message_id.clone()),
            });
            return;
        }
        let dip_lines = match (
            self.game.as_ref().and_then(|n| self.games.get(n)),
            self.role,
        ) {
            (Some(g), role) if dips::played(judge, g) && g.status == Status::Running => {
                match role {
                    Role::Power(p) => vec![String::new(), dips::status_line(judge, g, p)],
                    Role::Master => {
                        let mut v = vec![String::new()];
                        v.extend(dips::master_lines(judge, g));
                        v
                    }
                    _ => Vec::new(),
                }
            }
            _ => Vec::new(),
        };
        self.lines.extend(dip_lines);
        let game = self.game.as_ref().and_then(|n| self.games.get(n));
        let header = game.map_or_else(
            || format!(":: Judge: {}", judge.address),
            |g| judge.header(g),
        );
        let mut ctx_orders: Vec<String> = Vec::new();
        let mut status = String::new();
        let mut power_name = String::new();
        let mut phase = String::new();
        let (mut dl, mut gr, mut to_dl, mut to_gr) = (None, None, None, None);
        if let Some(g) = game {
            if let (Role::Power(p), Some(pos)) = (self.role, &g.position) {
                if g.status == Status::Running || g.status == Status::Paused {
                    let (lines, st) = orders::echo(judge, g, p);
                    ctx_orders = lines;
                    status = st;
                    power_name = judge.variant(g).map.power(p).name.clone();
                    phase = judge.variant(g).calendar.code(pos.phase);
                }
            }
            if let (Some(d), Some(grace)) = (g.deadline, g.grace) {
                if g.status == Status::Running {
                    let tz = deadline::zone(&g.settings.zone);
                    dl = Some(deadline::show(d, tz));
                    gr = Some(deadline::show(grace, tz));
                    to_dl = Some(deadline::left(self.now, d));
                    to_gr = Some(deadline::left(self.now, grace));
                }
            }
        }
        let body = judge.templates.render(
            "reply.txt",
            minijinja::context! {
                header => header, lines => &self.lines, orders => &ctx_orders, status => status, power => power_name,
                phase => phase, deadline => dl, grace => gr, to_deadline => to_dl, to_grace => to_gr,
            },
        );
        if let (Some(p), Some(g)) = (self.became, game) {
            if let Some(seat) = g.seat_of(p) {
                self.effects.mails.push(Outgoing {
                    to: seat.member.address.clone(),
                    subject: judge.subject(g, "Orders Entered By The Master"),
                    body: format!("The Master acted for your power with this mail. Herald's reply to the Master follows.\n\n{body}"),
                    in_reply_to: None,
                });
            }
        }
        self.effects.mails.push(Outgoing {
            to: self.letter.reply_to.clone(),
            subject,
            body,
            in_reply_to: Some(self.letter.message_id.clone()),
        });
    }
}
