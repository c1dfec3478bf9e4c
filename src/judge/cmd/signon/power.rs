//! `SIGNON <letter><game> password`: a power's player signs on, a newcomer takes over an
//! abandoned power, or a player comes back from civil disorder.

use chrono::Duration;

use crate::game::ids::PowerId;
use crate::judge::cmd::context::{Role, Session};
use crate::judge::deadline;
use crate::judge::game::{Member, Seat, SeatState, Since, Status, Tenure};
use crate::judge::privacy::Entry;

/// The subject of the notice that a newcomer took over a power (a player back from civil
/// disorder is a "Returning Player Signon").
const TAKEN_OVER: &str = "Power Taken Over";

/// The answer to a SIGNON whose power or password is wrong: the same for both, so that it
/// tells a guesser nothing.
const INVALID: &str = "Invalid password or power ID specified.";

impl Session<'_> {
    /// A power's SIGNON: the power by its letter in a running game, then its seat's step.
    pub(super) fn signon_power(&mut self, line: &str, letter: char, password: &str) -> bool {
        let g = self.game();
        let map = self.judge.map_of(g);
        let letter = letter.to_ascii_uppercase();
        let Some(power) = map
            .powers
            .iter()
            .position(|p| p.letter == letter)
            .map(|i| PowerId(i as u8))
        else {
            self.error(line, INVALID);
            return false;
        };
        if g.status == Status::Forming {
            self.error(line, format!("game '{}' has not started: powers are assigned at START (sign on with SIGNON ?{} until then)", g.name, g.name));
            return false;
        }
        let Some(seat) = g.seat_or_dummy(power) else {
            self.error(line, INVALID);
            return false;
        };
        let pname = map.power(power).name.clone();
        let entered = match seat.state {
            SeatState::Abandoned => self.take_over(line, power, letter, &pname, password),
            _ => self.sign_in(line, power, &seat, &pname, password),
        };
        if entered {
            self.role = Role::Power(power);
        }
        entered
    }

    /// SIGNON to a power somebody plays (or played until civil disorder): its password;
    /// its player told of a sign-on from another address, everyone of a return from civil
    /// disorder.
    fn sign_in(
        &mut self,
        line: &str,
        power: PowerId,
        seat: &Seat,
        pname: &str,
        password: &str,
    ) -> bool {
        let judge = self.judge;
        let from = self.letter.reply_to.clone();
        let (holder, stored) = (&seat.member.address, &seat.member.password);
        if !self.password_ok(line, pname, holder, stored, password) {
            return false;
        }
        if seat.member.address != from {
            // The seat's own player is told the address, even in an anonymous game: it is
            // their second account or an intruder with their password, and only the address
            // tells which. The notice goes to them alone.
            let notice = judge.notice(
                self.game(),
                &seat.member.address,
                "Signon From Another Address",
                &[format!("Someone signed on as {pname} with the right password from {from}. If it was not you, change your password (SET PASSWORD).")],
            );
            self.effects.mails.push(notice);
        }
        if seat.state == SeatState::Disorder {
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
        true
    }

    /// A newcomer takes over an abandoned power: allowed by the game's rules and lists,
    /// the seat given to the sender with a day at least to order, and everyone told.
    fn take_over(
        &mut self,
        line: &str,
        power: PowerId,
        letter: char,
        pname: &str,
        password: &str,
    ) -> bool {
        let from = self.letter.reply_to.clone();
        // "One player holds one power unless `several_powers` is set, and a takeover from
        // an address already in the game is refused (or, with the switch, announced to the
        // Master as such)" (issue 24).
        let held = self.held_elsewhere(power, &from);
        let several = self.judge.rules(self.game()).several_powers;
        if !held.is_empty() && !several {
            let why = format!(
                "{from} already holds {} in game '{}', and one player holds one power here (the rule switch several_powers allows more): {pname} was not taken over",
                held.join(", "),
                self.game().name
            );
            self.error(line, why);
            return false;
        }
        if !self.may_enter(line, Entry::Power(&letter.to_string())) {
            return false;
        }
        let Some(hash) = self.new_hash(line, password) else {
            return false;
        };
        if !self.take_seat(power, hash) {
            self.error(line, INVALID);
            return false;
        }
        self.tell_taken_over(pname, &held);
        self.log(format!("took over {pname}"));
        self.say(format!(
            "You have taken over {pname}. Your password is the one you signed on with."
        ));
        true
    }

    /// The abandoned seat given to the sender, its tenure recorded from this phase; a
    /// replacement gets a day at least (njudge bug 437): the deadline and grace move on if
    /// they are nearer, and the game stops waiting.
    fn take_seat(&mut self, power: PowerId, hash: String) -> bool {
        let from = self.letter.reply_to.clone();
        let g = self.game();
        // A power is taken over in a started game; the opening otherwise.
        let since = g
            .position
            .as_ref()
            .map_or(self.judge.variant(g).calendar.start, |p| p.phase);
        let now = self.now;
        let gm = self.game_mut();
        let Some(s) = gm.seat_to_take(power) else {
            return false;
        };
        s.member = Member {
            address: from.clone(),
            password: hash,
            pending: None,
        };
        s.state = SeatState::Playing;
        gm.tenures.push(Tenure {
            power,
            address: from,
            from: Since::Phase(since),
        });
        gm.waiting = false;
        if gm.status == Status::Running && gm.position.is_some() {
            let day = deadline::later(now, Duration::days(1));
            let d = gm.deadline.map_or(day, |d| d.max(day));
            let grace = deadline::later(d, gm.grace_length());
            let grace = gm.grace.map_or(grace, |g| g.max(grace));
            gm.schedule(d, Some(grace));
        }
        true
    }

    /// The players told that a power changed hands. A newcomer is no returning player; one
    /// who holds other powers is not a new player either: the players are told only that
    /// the power is played again, the Master by whom.
    fn tell_taken_over(&mut self, pname: &str, held: &[String]) {
        let judge = self.judge;
        let from = self.letter.reply_to.clone();
        let g = self.game();
        if held.is_empty() {
            let notices = judge.notice_of_players(
                g,
                TAKEN_OVER,
                &[format!("{pname} has been taken over by a new player.")],
            );
            self.effects.mails.extend(notices);
            return;
        }
        let mut notices =
            judge.notice_of_players(g, TAKEN_OVER, &[format!("{pname} has been taken over.")]);
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
}
