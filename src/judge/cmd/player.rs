//! A player's own settings: WAIT, MAP, PASSWORD, ADDRESS, ABSENCE, DRAW, PREFERENCE and RESIGN.

use super::def::{Def, Seat as S, Who, ANY_SEAT, POWER};
use crate::judge::absence;
use crate::judge::cmd::context::{Role, Session};
use crate::judge::game::{Seat, SeatState};
use crate::judge::preference::Preference;

/// A player's own settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerCommand {
    /// `SET WAIT` / `SET NOWAIT`
    Wait(bool),
    /// SET MAP ON|OFF (SET MAP, SET NOMAP): a picture of the player's own orders on file
    /// with each order reply.
    OrderMap(bool),
    /// SET MYZONE <zone>: the time zone a player's own mails show dates in (none: the
    /// game's).
    MyZone(Option<String>),
    /// `SET PASSWORD pw`
    Password(String),
    /// `SET ADDRESS addr`
    Address(String),
    /// `SET ABSENCE from TO to`
    Absence(String),
    /// `SET NOABSENCE`
    NoAbsence,
    /// `SET DRAW [powers]` (the powers to share it, empty for all survivors) / `SET
    /// NODRAW` (`None`).
    Draw(Option<String>),
    /// `SET CONCEDE <power>` / `SET NOCONCEDE` (`None`).
    Concede(Option<String>),
    /// `SET PREFERENCE letters` as written: `E[FG]I`, `*` (see [`crate::judge::preference`]).
    Preference(String),
    /// `RESIGN` / `WITHDRAW`
    Resign,
}

use PlayerCommand as C;

const WAIT: Who = Who::Signed(POWER, "only a power sets WAIT");
const DRAWN: Who = Who::Signed(POWER, "only a power has orders to draw");
const ZONE: Who = Who::Signed(ANY_SEAT, "only a player sets a zone of their own");
const ABSENT: Who = Who::Signed(POWER, "only a power sets absences");
const VOTE: Who = Who::Signed(POWER, "only a power votes for a draw or a concession");

/// The player's settings.
pub(super) const DEFS: &[Def] = &[
    Def::line("SET WAIT", WAIT, || C::Wait(true).into()),
    Def::line("SET NOWAIT", WAIT, || C::Wait(false).into()),
    Def::line("SET MAP ON", DRAWN, || C::OrderMap(true).into()).aka(&["SET MAP"]),
    Def::line("SET MAP OFF", DRAWN, || C::OrderMap(false).into()).aka(&["SET NOMAP"]),
    Def::args(
        "SET MYZONE",
        "SET MYZONE <zone>, e.g. SET MYZONE Europe/Paris",
        ZONE,
        |w| match w.args() {
            [zone] => Some(C::MyZone(Some(zone.to_string())).into()),
            [] => Some(C::MyZone(None).into()),
            _ => None,
        },
    )
    .aka(&["SET MYTIMEZONE", "SET MYTZ"]),
    Def::line("SET NOMYZONE", ZONE, || C::MyZone(None).into()),
    Def::args(
        "SET PASSWORD",
        "SET PASSWORD <new password>, one word",
        Who::Signed(ANY_SEAT, ""),
        |w| w.count(1).and_then(|_| w.arg(0)).map(|p| C::Password(p).into()),
    )
    .secret(0, Some(1)),
    Def::args(
        "SET ADDRESS",
        "SET ADDRESS <address>, e.g. SET ADDRESS ann@example.org",
        Who::Signed(
            &[S::Joiner, S::Power, S::Master],
            "observers change their address by observing again from it",
        ),
        |w| {
            w.count(1)?;
            Some(C::Address(w.arg(0)?.to_ascii_lowercase()).into())
        },
    ),
    Def::args(
        "SET ABSENCE",
        "SET ABSENCE <date> TO <date>, e.g. SET ABSENCE 24 Dec TO 2 Jan",
        ABSENT,
        |w| Some(C::Absence(w.rest(0)).into()),
    )
    .aka(&["SET HOLIDAY", "SET VACATION"]),
    Def::line("SET NOABSENCE", ABSENT, || C::NoAbsence.into())
        .aka(&["SET NOHOLIDAY", "SET NOVACATION"]),
    Def::args(
        "SET DRAW",
        "SET DRAW, or in a NODIAS game SET DRAW <powers>, e.g. SET DRAW AEF",
        VOTE,
        |w| Some(C::Draw(Some(w.rest(0))).into()),
    ),
    Def::line("SET NODRAW", VOTE, || C::Draw(None).into()),
    Def::args(
        "SET CONCEDE",
        "SET CONCEDE <power>, e.g. SET CONCEDE Russia",
        VOTE,
        |w| w.least(1).map(|_| C::Concede(Some(w.rest(0))).into()),
    )
    .aka(&["SET CONC"]),
    Def::line("SET NOCONCEDE", VOTE, || C::Concede(None).into()),
    Def::args(
        "SET PREFERENCE",
        "SET PREFERENCE <letters>, best first, equally good ones in brackets, * for chance, e.g. SET PREFERENCE E[FG]I",
        Who::Signed(
            &[S::Joiner],
            "preferences are set before START, after SIGNON ?<game>",
        ),
        |w| Some(C::Preference(w.rest(0)).into()),
    )
    .aka(&["SET PREFERENCES", "SET PREF"]),
    Def::line(
        "RESIGN",
        Who::Signed(
            &[S::Joiner, S::Power],
            "only a player resigns (the Master ends a game with TERMINATE)",
        ),
        || C::Resign.into(),
    )
    .aka(&["WITHDRAW"]),
];

impl Session<'_> {
    /// Applies a command of this family.
    pub(in crate::judge) fn player_command(&mut self, line: &str, command: PlayerCommand) -> bool {
        let _now = self.now;
        let role = self.role;
        match command {
            C::Wait(on) => match self.power_seat() {
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
            C::MyZone(zone) => {
                let own: Option<chrono_tz::Tz> = zone.as_deref().and_then(|n| n.parse().ok());
                if let Some(name) = zone.as_ref().filter(|_| own.is_none()) {
                    self.error(line, format!("'{name}' is not a time zone; write e.g. Europe/Paris or America/New_York, or SET MYZONE alone for the game's"));
                    return true;
                }
                let game_zone = self.game().settings.zone;
                match self.any_seat() {
                    Some(seat) => {
                        seat.zone = own;
                        self.say(match zone {
                            Some(z) => format!("SET MYZONE: dates in your mails from this game are shown in {z}."),
                            None => format!("SET MYZONE: dates in your mails are shown in the game's zone, {game_zone}."),
                        });
                    }
                    None => self.error(line, "only a player sets a zone of their own"),
                }
            }
            C::OrderMap(on) => match self.power_seat() {
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
            C::Password(pw) => {
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
            C::Address(addr) => self.set_address(line, addr),
            C::Absence(text) => self.absence(line, &text),
            C::NoAbsence => match self.power_seat() {
                Some(seat) => {
                    seat.absences.clear();
                    self.say("Your absences are cleared.");
                }
                _ => self.error(line, "only a power sets absences"),
            },
            C::Draw(with) => self.vote_draw(line, with.as_deref()),
            C::Concede(to) => self.vote_concede(line, to.as_deref()),
            C::Preference(list) => match role {
                Role::Joiner(i) => {
                    let map = self.judge.map_of(self.game());
                    match Preference::read(&list, map) {
                        Ok(p) => {
                            self.game_mut().seats[i].preference = p.code();
                            self.say(format!("Preference list set: {}.", p.code()));
                            self.say(format!("  That is: {}.", p.describe(map)));
                        }
                        Err(why) => self.error(
                            line,
                            format!("{why}; write the powers best first, by letter or name, equally good ones in brackets, * for a random power: SET PREFERENCE E[FG]I, or SET PREFERENCE England, France"),
                        ),
                    }
                }
                _ => self.error(
                    line,
                    "preferences are set before START, after SIGNON ?<game>",
                ),
            },
            C::Resign => self.resign(line),
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
    /// SET ABSENCE: an absence of whole days (or from and to the times written) for the
    /// sender's power. Absences that are over are forgotten; at most [`absence::MAX_ABSENCES`]
    /// at once, covering at most [`absence::MAX_DAYS`] calendar days together unless the
    /// Master sets it with BECOME.
    pub(in crate::judge) fn absence(&mut self, line: &str, text: &str) {
        let Role::Power(p) = self.role else {
            self.error(line, "only a power sets absences");
            return;
        };
        let (now, by_master) = (self.now, self.became.is_some());
        let tz = self.game().settings.zone;
        let span = match absence::parse(text, now, tz) {
            Ok(span) => span,
            Err(e) => {
                self.error(line, e.to_string());
                return;
            }
        };
        let Some(seat) = self.game_mut().seat_of_mut(p) else {
            self.error(line, "only a power sets absences");
            return;
        };
        // An absence that is over takes neither a place nor days.
        seat.absences.retain(|&(_, to)| to > now);
        if seat.absences.len() >= absence::MAX_ABSENCES {
            self.error(line, "at most 3 absences; clear them with SET NOABSENCE");
            return;
        }
        let mut all = seat.absences.clone();
        all.push(span);
        let days = absence::days(&all, tz).len();
        if days > absence::MAX_DAYS && !by_master {
            self.error(
                line,
                format!(
                    "your absences may cover at most {} calendar days in all, and with this one they cover {days}; ask the Master for more",
                    absence::MAX_DAYS
                ),
            );
            return;
        }
        seat.absences.push(span);
        self.say(format!(
            "Absence noted: {}. Your absences cover {days} calendar day{} in all. Future deadlines will not fall inside them: a deadline that would moves to the first day after, at its usual time.",
            absence::describe(&span, tz),
            if days == 1 { "" } else { "s" }
        ));
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
        assert!(
            text.contains("your absences may cover at most 15 calendar days in all, and with this one they cover 32"),
            "{text}"
        );
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
            .as_ref()
            .unwrap()
            .to_string()
            .starts_with("Draw among Austria, England"));
        assert_eq!(games["g"].deadline, None);
    }
}
