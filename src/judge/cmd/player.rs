//! A player's own settings: WAIT, MAP, PASSWORD, ADDRESS, ABSENCE, DRAW, PREFERENCE and RESIGN.

use chrono::Duration;

use crate::judge::cmd::context::{Role, Session};
use crate::judge::command::Command;
use crate::judge::deadline;
use crate::judge::game::{Seat, SeatState};
use crate::judge::preference::Preference;

impl Session<'_> {
    /// Applies a command of this family.
    pub(in crate::judge) fn player_command(&mut self, line: &str, command: Command) -> bool {
        let judge = self.judge;
        let _now = self.now;
        let role = self.role;
        match command {
            Command::Wait(on) => match self.power_seat() {
                Some(seat) => {
                    seat.wait = on;
                    self.say(if on {
                        "WAIT set: the phase will not be processed early."
                    } else {
                        "NOWAIT: the phase may be processed early."
                    });
                }
                _ => self.error(line, "only a power sets WAIT"),
            },
            Command::MyZone(zone) => {
                if let Some(name) = zone
                    .as_ref()
                    .filter(|n| n.parse::<chrono_tz::Tz>().is_err())
                {
                    self.error(line, format!("'{name}' is not a time zone; write e.g. Europe/Paris or America/New_York, or SET MYZONE alone for the game's"));
                    return true;
                }
                let game_zone = self.game().settings.zone.clone();
                match self.any_seat() {
                    Some(seat) => {
                        seat.zone = zone.clone();
                        self.say(match zone {
                            Some(z) => format!("SET MYZONE: dates in your mails from this game are shown in {z}."),
                            None => format!("SET MYZONE: dates in your mails are shown in the game's zone, {game_zone}."),
                        });
                    }
                    None => self.error(line, "only a player sets a zone of their own"),
                }
            }
            Command::OrderMap(on) => match self.power_seat() {
                Some(seat) => {
                    seat.map = on;
                    self.say(if on {
                        "SET MAP ON: each reply to your orders carries a picture of them."
                    } else {
                        "SET MAP OFF: no picture of your orders with the replies."
                    });
                }
                _ => self.error(line, "only a power has orders to draw"),
            },
            Command::Password(pw) => {
                // From the sender's own allowance of argon2 runs, like every hash a mail asks.
                let Some(hash) = self.new_hash(line, &pw) else {
                    return true;
                };
                match role {
                    Role::Power(p) => {
                        if let Some(seat) = self.game_mut().seat_of_mut(p) {
                            seat.member.password = hash;
                        }
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
                if !crate::envelope::is_address(&addr) {
                    self.error(
                        line,
                        format!("'{addr}' is not a mail address: write one address, e.g. SET ADDRESS ann@example.org"),
                    );
                    return true;
                }
                if addr.eq_ignore_ascii_case(&judge.address) {
                    self.error(
                        line,
                        format!("{addr} is herald's own address: your mail cannot go there"),
                    );
                    return true;
                }
                match role {
                    Role::Power(p) => {
                        if let Some(seat) = self.game_mut().seat_of_mut(p) {
                            seat.member.address = addr.clone();
                        }
                    }
                    Role::Joiner(i) => self.game_mut().seats[i].member.address = addr.clone(),
                    Role::Master => self.game_mut().master.address = addr.clone(),
                    _ => {
                        self.error(
                            line,
                            "observers change their address by observing again from it",
                        );
                        return true;
                    }
                }
                self.say(format!("Your mail for this game now goes to {addr}."));
            }
            Command::Absence(text) => self.absence(line, &text),
            Command::NoAbsence => match self.power_seat() {
                Some(seat) => {
                    seat.absences.clear();
                    self.say("Your absences are cleared.");
                }
                _ => self.error(line, "only a power sets absences"),
            },
            Command::Draw(with) => self.vote_draw(line, with.as_deref()),
            Command::Concede(to) => self.vote_concede(line, to.as_deref()),
            Command::Preference(list) => match role {
                Role::Joiner(i) => {
                    let map = self.judge.map_of(self.game());
                    let letters: Vec<char> = map.powers.iter().map(|p| p.letter).collect();
                    match Preference::parse(&list, &letters) {
                        Ok(p) => {
                            self.game_mut().seats[i].preference = p.code();
                            self.say(format!("Preference list set: {}.", p.code()));
                            self.say(format!("  That is: {}.", p.describe()));
                        }
                        Err(why) => self.error(
                            line,
                            format!("{why}; write the power letters best first, equally good ones in brackets, * for a random power: SET PREFERENCE E[FG]I"),
                        ),
                    }
                }
                _ => self.error(
                    line,
                    "preferences are set before START, after SIGNON ?<game>",
                ),
            },
            Command::Resign => self.resign(line),
            _ => {}
        }
        true
    }
    /// The sender's seat: the power it plays, or its place in a forming game.
    fn any_seat(&mut self) -> Option<&mut Seat> {
        match self.role {
            Role::Power(_) => self.power_seat(),
            Role::Joiner(i) => self.game_mut().seats.get_mut(i),
            _ => None,
        }
    }

    /// The seat of the power the sender plays, if the sender plays one.
    fn power_seat(&mut self) -> Option<&mut Seat> {
        let Role::Power(p) = self.role else {
            return None;
        };
        self.game_mut().seat_of_mut(p)
    }
    pub(in crate::judge) fn absence(&mut self, line: &str, text: &str) {
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
                let Some(seat) = self.game_mut().seat_of_mut(p) else {
                    self.error(line, "only a power sets absences");
                    return;
                };
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
    pub(in crate::judge) fn resign(&mut self, line: &str) {
        match self.role {
            Role::Power(p) => {
                let judge = self.judge;
                let g = self.game_mut();
                if let Some(seat) = g.seat_of_mut(p) {
                    seat.state = SeatState::Abandoned;
                }
                let map = judge.map_of(g);
                let (name, form) = (
                    map.power(p).name.clone(),
                    g.newcomer_signon(map.power(p).letter),
                );
                let notices = judge.notice_of_players(
                    self.game(),
                    "Resignation",
                    &[format!(
                        "{name} has resigned; a new player may take it over with {form}."
                    )],
                );
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
}

#[cfg(test)]
mod tests {
    use crate::judge::game::Status;
    use crate::judge::testkit::{judge, mail, reply, start, started, SEVEN};

    const BOB: &str = "bob@example.org"; // France

    #[test]
    fn a_players_own_settings() {
        let j = judge();
        let mut games = started(&j);
        let h = mail(
            &j,
            &mut games,
            BOB,
            "SIGNON Fg pwF\nSET WAIT\nSET ADDRESS judge@herald.test\nSET ABSENCE 2026-12-10 TO 2027-01-10\nSET PREFERENCE EFG\nSET ADDRESS bob@new.example",
            start(),
        );
        let text = &reply(&h, BOB).body;
        assert!(text.contains("WAIT set"), "{text}");
        assert!(text.contains("is herald's own address"), "{text}");
        for bad in [
            "x@",
            "x@example.org,y@example.org",
            "<x@example.org>",
            "x@[127.0.0.1]",
        ] {
            let h = mail(
                &j,
                &mut games,
                BOB,
                &format!("SIGNON Fg pwF\nSET ADDRESS {bad}"),
                start(),
            );
            assert!(
                reply(&h, BOB).body.contains("is not a mail address"),
                "{bad}"
            );
        }
        assert!(text.contains("an absence is at most 15 days"), "{text}");
        assert!(text.contains("preferences are set before START"), "{text}");
        assert!(
            text.contains("Your mail for this game now goes to bob@new.example."),
            "{text}"
        );
        let seat = &games["g"].seats[1];
        assert!(seat.wait && seat.member.address == "bob@new.example");
    }

    #[test]
    fn a_unanimous_draw_ends_the_game_and_a_resignation_frees_the_seat() {
        let j = judge();
        let mut games = started(&j);
        mail(&j, &mut games, BOB, "SIGNON Fg pwF\nRESIGN", start());
        assert_eq!(
            games["g"].seats[1].state,
            crate::judge::game::SeatState::Abandoned
        );
        // The seat is free: a newcomer takes France over.
        mail(
            &j,
            &mut games,
            "new@example.org",
            "SIGNON Fg newpw",
            start(),
        );
        for (addr, letter) in SEVEN.iter().filter(|(_, l)| *l != 'F') {
            mail(
                &j,
                &mut games,
                addr,
                &format!("SIGNON {letter}g pw{letter}\nSET DRAW"),
                start(),
            );
        }
        assert_eq!(games["g"].status, Status::Running, "France has not voted");
        mail(
            &j,
            &mut games,
            "new@example.org",
            "SIGNON Fg newpw\nSET DRAW",
            start(),
        );
        assert_eq!(games["g"].status, Status::Finished);
        assert!(games["g"]
            .outcome
            .as_deref()
            .unwrap()
            .starts_with("Draw among Austria, England"));
        assert_eq!(games["g"].deadline, None);
    }
}
