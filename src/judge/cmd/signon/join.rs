//! `SIGNON ?game password`: a player joins a forming game, or signs on to a seat of it
//! already taken from the same address.

use crate::judge::cmd::context::{Role, Session};
use crate::judge::game::{Member, Seat, SeatState, Status};
use crate::judge::privacy::Entry;

impl Session<'_> {
    /// A joiner's SIGNON: a seat of this address whose password matches, or a new seat.
    pub(super) fn signon_joiner(&mut self, line: &str, password: &str) -> bool {
        let from = self.letter.reply_to.clone();
        let g = self.game();
        if g.status != Status::Forming {
            self.error(
                line,
                format!(
                    "game '{}' has started: sign on with your power's letter, e.g. SIGNON F{}",
                    g.name, g.name
                ),
            );
            return false;
        }
        let mine: Vec<(usize, String)> = (0..g.seats.len())
            .filter(|&i| g.seats[i].member.address == from)
            .map(|i| (i, g.seats[i].member.password.clone()))
            .collect();
        let another = self.judge.rules(g).several_powers;
        // The seats are this address's own: no lock refuses it (issue 24); its checks draw
        // on its own allowance.
        for (i, stored) in &mine {
            match self.check_password(line, stored, password, true) {
                None => return false,
                Some(true) => {
                    self.authenticated = true;
                    self.role = Role::Joiner(*i);
                    return true;
                }
                Some(false) => {}
            }
        }
        if !mine.is_empty() && !another {
            self.signon_failed(line, &format!("the player at {from}"), &from);
            return false;
        }
        if !mine.is_empty() {
            let text = format!(
                "You already hold {} seat(s) in '{}'; this password opens another (this game lets one player hold several powers). If you meant a seat you have, its password is different: RESIGN here (it gives this seat up) and send SIGNON again with that password.",
                mine.len(),
                self.game().name
            );
            self.say(text);
        }
        self.join_new_seat(line, password)
    }

    /// A new seat in a forming game: room for it, the sender let in, the password hashed;
    /// the Master is told how many seats are left.
    fn join_new_seat(&mut self, line: &str, password: &str) -> bool {
        let judge = self.judge;
        let from = self.letter.reply_to.clone();
        let g = self.game();
        let powers = judge.variant(g).map.powers.len();
        if g.seats.len() >= powers {
            self.error(line, format!("game '{}' is full", g.name));
            return false;
        }
        if !self.may_enter(line, Entry::Join) {
            return false;
        }
        let Some(hash) = self.new_hash(line, password) else {
            return false;
        };
        let seat = Seat {
            power: None,
            member: Member {
                address: from.clone(),
                password: hash,
                pending: None,
            },
            preference: String::new(),
            state: SeatState::Playing,
            wait: false,
            vote: Default::default(),
            absences: Vec::new(),
            map: false,
            zone: None,
        };
        let now = self.now;
        let g = self.game_mut();
        g.seats.push(seat);
        g.formed = Some(now);
        let (n, name) = (g.seats.len(), g.name.clone());
        self.role = Role::Joiner(n - 1);
        self.say(format!(
            "You joined '{name}' as player {n} of {powers}. Powers are assigned at START."
        ));
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
        true
    }
}
