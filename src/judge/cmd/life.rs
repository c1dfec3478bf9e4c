//! The Master's hand in a game's life: START, PROCESS, PREVIEW, BECOME, EJECT, ROLLBACK and TERMINATE.

use super::def::{Def, Who, Words};
use crate::game::ids::PowerId;
use crate::judge::cmd::context::{Role, Session};
use crate::judge::game::{SeatState, Since, Status, Tenure};
use crate::judge::preference::Preference;
use crate::judge::privacy::{Entry, JOIN_WORD_CASE};
use crate::judge::{deadline, pictures, process};

/// A game's life, in the Master's hands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LifeCommand {
    /// `START`
    Start,
    /// `FORCE BEGIN`: START with fewer players than powers; the powers nobody took are
    /// dummies in civil disorder (see [`crate::judge::dummies`]).
    ForceBegin,
    /// `PROCESS [phase]`, `PROCESS!`
    Process {
        /// The phase named, if any.
        phase: Option<String>,
        /// `PROCESS!`: with default orders for missing ones.
        force: bool,
    },
    /// `PREVIEW` (also njudge's `PREDICT`)
    Preview,
    /// `BECOME letter`
    Become(char),
    /// `EJECT letter`
    Eject(char),
    /// `ROLLBACK phase [AFRESH]`
    Rollback(String),
    /// `TERMINATE`
    Terminate,
}

use LifeCommand as C;

/// START, PROCESS, PREVIEW, BECOME, EJECT, ROLLBACK and TERMINATE.
pub(super) const DEFS: &[Def] = &[
    Def::line("START", Who::Master, || C::Start.into()),
    Def::line("FORCE BEGIN", Who::Master, || C::ForceBegin.into()).aka(&["FORCE START"]),
    Def::line("PROCESS!", Who::Master, || {
        C::Process {
            phase: None,
            force: true,
        }
        .into()
    }),
    Def::args(
        "PROCESS",
        "PROCESS [<phase>], e.g. PROCESS S1901M",
        Who::Master,
        |w| {
            Some(
                C::Process {
                    phase: w.least(1).map(|_| w.rest(0)),
                    force: false,
                }
                .into(),
            )
        },
    ),
    Def::line("PREVIEW", Who::Master, || C::Preview.into()).aka(&["PREDICT"]),
    Def::args(
        "BECOME",
        "BECOME <power letter>, e.g. BECOME F",
        Who::Master,
        |w| letter(w).map(|c| C::Become(c).into()),
    ),
    Def::args(
        "EJECT",
        "EJECT <power letter>, e.g. EJECT F",
        Who::Master,
        |w| letter(w).map(|c| C::Eject(c).into()),
    ),
    Def::args(
        "ROLLBACK",
        "ROLLBACK <phase> [AFRESH], e.g. ROLLBACK S1902M",
        Who::Master,
        |w| w.least(1).map(|_| C::Rollback(w.rest(0)).into()),
    ),
    Def::line("TERMINATE", Who::Master, || C::Terminate.into()),
];

/// BECOME and EJECT: one power letter.
fn letter(w: &Words) -> Option<char> {
    match w.args() {
        [one] if one.len() == 1 => one.chars().next().map(|c| c.to_ascii_uppercase()),
        _ => None,
    }
}

impl Session<'_> {
    /// Applies a command of this family.
    pub(in crate::judge) fn life_command(&mut self, line: &str, command: LifeCommand) -> bool {
        let judge = self.judge;
        let now = self.now;
        let _role = self.role;
        match command {
            C::Start => self.start(line, false),
            C::ForceBegin => self.start(line, true),
            C::Process { phase, force } => {
                // One phase a mail: its results go to every member once, so a mail's work
                // stays bounded (issue 24: "results to each power of a game").
                if self.processed {
                    self.error(
                        line,
                        "one phase is processed a mail: send PROCESS again in a mail of its own",
                    );
                    return true;
                }
                let g = self.game();
                if g.status != Status::Running {
                    self.error(
                        line,
                        format!("the game is {}, not running", g.status.word()),
                    );
                    return true;
                }
                let Some(current) = g.position.as_ref().map(|p| p.phase) else {
                    self.error(line, "the game has not started");
                    return true;
                };
                let cal = &judge.variant(g).calendar;
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
                            return true;
                        }
                        Err(e) => {
                            self.error(line, e.to_string());
                            return true;
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
                    return true;
                }
                let effects = process::process(judge, self.game_mut(), now);
                self.effects.mails.extend(effects.mails);
                self.processed = true;
                self.say("Processed.");
            }
            C::Preview => {
                if self.game().position.is_none() {
                    self.error(line, "the game has not started");
                    return true;
                }
                self.flush_orders();
                let mail = process::preview(judge, self.game());
                self.effects.mails.extend(mail);
                self.say("A preview of the adjudication is on its way to you.");
            }
            C::Become(letter) => {
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
                    // A dummy (FORCE BEGIN) holds unless the Master orders for it.
                    Some(p) if g.dummies(map).contains(&p) => {
                        self.flush_orders();
                        self.role = Role::Power(p);
                        self.became = Some(p);
                        self.say(format!(
                            "You act as {}, which nobody plays, for the rest of this mail: the orders you give it are used instead of its default ones.",
                            map.power(p).name
                        ));
                    }
                    _ => self.error(line, format!("no power with letter {letter} in this game")),
                }
            }
            C::Eject(letter) => {
                let g = self.game();
                let map = judge.map_of(g);
                match map
                    .powers
                    .iter()
                    .position(|p| p.letter == letter)
                    .map(|i| PowerId(i as u8))
                    .and_then(|p| Some((p, g.seat_of(p)?.member.address.clone())))
                {
                    Some((p, old)) => {
                        let name = map.power(p).name.clone();
                        let game = g.name.clone();
                        let form = g.newcomer_signon(letter);
                        if let Some(seat) = self.game_mut().seat_of_mut(p) {
                            seat.state = SeatState::Abandoned;
                        }
                        let notice = judge.notice(
                            self.game(),
                            &old,
                            "Ejected",
                            &[format!(
                                "The Master has removed you from {name} in '{game}'."
                            )],
                        );
                        self.effects.mails.push(notice);
                        let notices = judge.notice_of_players(
                            self.game(),
                            "Player Ejected",
                            &[format!("{name} is open for takeover: {form}.")],
                        );
                        self.effects.mails.extend(notices);
                    }
                    _ => self.error(line, format!("no player for letter {letter} in this game")),
                }
            }
            C::Rollback(text) => self.rollback(line, &text),
            C::Terminate => {
                let g = self.game_mut();
                g.finish(crate::judge::ending::Ending::Terminated);
                let mails = crate::judge::summary::summary_mails(judge, g, now);
                self.effects.mails.extend(mails);
                self.say("The game is terminated.");
            }
        }
        true
    }
    /// START, or FORCE BEGIN (`force`): with fewer players than powers, the rest dummies.
    pub(in crate::judge) fn start(&mut self, line: &str, force: bool) {
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
        if force && g.seats.is_empty() {
            self.error(
                line,
                "nobody has joined yet: FORCE BEGIN needs one player at least",
            );
            return;
        }
        if g.seats.len() < n && !force {
            self.error(
                line,
                format!(
                    "{} of {n} players have joined; START needs all of them (FORCE BEGIN starts with the powers nobody took in civil disorder)",
                    g.seats.len()
                ),
            );
            return;
        }
        let mut seed = g
            .name
            .bytes()
            .fold(now.timestamp() as u64 ^ 0x9e37_79b9_7f4a_7c15, |h, b| {
                h.rotate_left(5) ^ b as u64
            });
        let mut pick = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n.max(1) as u64) as usize
        };
        let letters: Vec<char> = map.powers.iter().map(|p| p.letter).collect();
        let mut free: Vec<PowerId> = map.power_ids().collect();
        let mut assigned = vec![None; g.seats.len()];
        for (i, seat) in g.seats.iter().enumerate() {
            // Letters in brackets are equally good: chance orders them.
            let wanted = Preference::parse(&seat.preference, &letters)
                .map(|p| p.order(&mut pick))
                .unwrap_or_default();
            for c in wanted {
                if let Some(k) = free.iter().position(|&p| map.power(p).letter == c) {
                    assigned[i] = Some(free.remove(k));
                    break;
                }
            }
        }
        for a in assigned.iter_mut().filter(|a| a.is_none()) {
            let k = pick(free.len());
            *a = Some(free.remove(k));
        }
        let position = variant.opening();
        let phase = position.phase;
        let g = self.game_mut();
        for (seat, power) in g.seats.iter_mut().zip(assigned) {
            seat.power = power;
        }
        g.tenures = g
            .seats
            .iter()
            .filter_map(|s| {
                Some(Tenure {
                    power: s.power?,
                    address: s.member.address.clone(),
                    from: Since::Phase(phase),
                })
            })
            .collect();
        g.position = Some(position);
        g.status = Status::Running;
        g.formed = None;
        let moved = process::set_deadline(judge, g, now);
        self.effects.mails.extend(moved);
        let g = self.game();
        let tz = g.settings.zone;
        let mut lines = vec![
            format!(
                "Game '{}' has started: {}.",
                g.name,
                variant.calendar.show(phase)
            ),
            String::new(),
            "The powers are played by:".to_string(),
        ];
        // Each reader's copy shows the addresses that reader may see (none but their own in
        // an anonymous game, but the Master's).
        let table = |to: &str| -> Vec<String> {
            map.power_ids()
                .map(|p| {
                    let who = g
                        .seat_of(p)
                        .map(|s| g.address_for(to, &s.member.address))
                        .unwrap_or_else(|| "nobody (civil disorder)".into());
                    format!(
                        "  {:<10} ({}) {who}",
                        map.power(p).name,
                        map.power(p).letter
                    )
                })
                .collect()
        };
        let head = lines.len();
        lines.push(String::new());
        let dummies: Vec<String> = g
            .dummies(map)
            .iter()
            .map(|&p| format!("{} ({})", map.power(p).name, map.power(p).letter))
            .collect();
        if !dummies.is_empty() {
            lines.push(format!(
                "Nobody took {}: they are dummies in civil disorder (their units hold, retreats disband, builds are waived) and open for takeover with {}.",
                dummies.join(", "),
                g.newcomer_form(Entry::Power("<letter>"))
            ));
            lines.push(String::new());
        }
        // "the start notice of a private game invites takeovers without mentioning the
        // word" (issue 25): it says a newcomer needs it, and how it is written.
        if g.settings.privacy.join_word.is_some() {
            lines.push(format!(
                "This game is private: a newcomer who takes over a power or observes needs its join word after the password ({}); {JOIN_WORD_CASE}.",
                g.newcomer_form(Entry::Power("<letter>"))
            ));
            lines.push(String::new());
        }
        if let Some(d) = g.deadline {
            lines.push(format!(
                "The deadline for orders is {}.",
                deadline::show(d, tz)
            ));
        }
        lines.push(format!(
            "Sign on with SIGNON <letter>{} <your password>.",
            g.name
        ));
        // "the start mail carries the opening picture" (issue 27, point 5): drawn once, the
        // same bytes in every copy.
        let opening = pictures::game_picture(judge, g, false);
        let notices: Vec<_> = judge
            .everyone(g)
            .iter()
            .map(|to| {
                let mut mine = lines.clone();
                mine.splice(head..head, table(to));
                // Each player's copy says first which power is theirs.
                let own = g
                    .seats
                    .iter()
                    .filter(|s| s.member.address.eq_ignore_ascii_case(to))
                    .find_map(|s| s.power);
                if let Some(p) = own {
                    let (name, letter) = (&map.power(p).name, map.power(p).letter);
                    mine.splice(
                        1..1,
                        [
                            String::new(),
                            format!(
                                "You play {name} ({letter}): sign on with SIGNON {letter}{} <your password>.",
                                g.name
                            ),
                        ],
                    );
                }
                let mut notice = judge.notice(g, to, "Game Starting", &mine);
                notice.attachments = opening.clone();
                notice
            })
            .collect();
        self.effects.mails.extend(notices);
        self.say("The game has started.");
    }
}

#[cfg(test)]
mod tests {
    use crate::judge::game::Status;
    use crate::judge::testkit::{judge, mail, reply, start, started, GM};
    use crate::judge::Games;

    #[test]
    fn start_needs_every_player_and_the_master() {
        let j = judge();
        let mut games = Games::new();
        mail(&j, &mut games, GM, "CREATE ?g gmpass", start());
        mail(
            &j,
            &mut games,
            "a@example.org",
            "SIGNON ?g pw\nSTART",
            start(),
        );
        assert_eq!(games["g"].status, Status::Forming);
        let h = mail(&j, &mut games, GM, "SIGNON Mg gmpass\nSTART", start());
        assert!(reply(&h, GM)
            .body
            .contains("1 of 7 players have joined; START needs all of them"));
    }

    #[test]
    fn process_plays_the_phase_and_terminate_ends_the_game() {
        let j = judge();
        let mut games = started(&j);
        let h = mail(&j, &mut games, GM, "SIGNON Mg gmpass\nPROCESS", start());
        assert!(reply(&h, GM)
            .body
            .contains("orders are missing or have errors from: Austria"));
        let h = mail(&j, &mut games, GM, "SIGNON Mg gmpass\nPROCESS!", start());
        assert!(h
            .effects
            .mails
            .iter()
            .any(|m| m.subject.contains("S1901M Results")));
        assert_eq!(games["g"].history.len(), 1);
        mail(
            &j,
            &mut games,
            GM,
            "SIGNON Mg gmpass\nROLLBACK S1901M",
            start(),
        );
        assert!(
            games["g"].history.is_empty(),
            "played again from Spring 1901"
        );
        mail(&j, &mut games, GM, "SIGNON Mg gmpass\nTERMINATE", start());
        let g = &games["g"];
        assert_eq!((g.status, g.deadline), (Status::Finished, None));
        assert_eq!(g.outcome, Some(crate::judge::ending::Ending::Terminated));
    }
}
