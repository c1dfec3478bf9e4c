//! `SET ADDRESS`: where a seat's mail goes, moved at once or held until the new address
//! confirms (see [`crate::judge::pending`]).

use crate::judge::cmd::context::{Role, Session};
use crate::judge::game::{Member, PendingAddress};
use crate::judge::pending::{request_key, waits, PENDING_DAYS};

impl Session<'_> {
    /// `SET ADDRESS addr` for the sender's seat (a power, a joined player or the Master).
    pub(in crate::judge) fn set_address(&mut self, line: &str, addr: String) {
        if !crate::envelope::is_address(&addr) {
            self.error(
                line,
                format!("'{addr}' is not a mail address: write one address, e.g. SET ADDRESS ann@example.org"),
            );
            return;
        }
        if addr.eq_ignore_ascii_case(&self.judge.address) {
            self.error(
                line,
                format!("{addr} is herald's own address: your mail cannot go there"),
            );
            return;
        }
        // After wrong passwords for the seat, its address moves only by the Master (issue
        // 36, point 5: "a `SET ADDRESS` following wrong guesses waits for the Master"): the
        // right guess of a forger must not hand him the seat.
        let guarded = match self.role {
            Role::Power(p) if self.became.is_none() => {
                Some(self.judge.map_of(self.game()).power(p).name.clone())
            }
            Role::Master => Some("the Master".to_string()),
            _ => None,
        };
        if let Some(seat) = guarded {
            if self.game().signon_guard.recently_guessed(&seat, self.now) {
                self.address_held(line, &seat, &addr);
                return;
            }
        }
        let index = match self.role {
            Role::Power(p) => self.game().seats.iter().position(|s| s.power == Some(p)),
            Role::Joiner(i) => Some(i),
            _ => None,
        };
        let key = request_key(&self.game().name, index);
        let (now, by_master) = (self.now, self.became.is_some());
        let standing = self.standing;
        let keeper = self.judge.keeper.clone();
        let confirmed = |a: &str| standing.confirmed.contains(a) || a == keeper;
        let sender = self.letter.reply_to.clone();
        let Some(member) = self.member_mut() else {
            self.error(
                line,
                "observers change their address by observing again from it",
            );
            return;
        };
        let current = member.address.clone();
        let earlier = member
            .pending
            .take()
            .filter(|p| waits(p, now))
            .map(|p| p.address);
        let said = if addr == current {
            match earlier {
                Some(p) => format!("Your mail for this game goes to {addr} already; the move to {p} is called off."),
                None => format!("Your mail for this game goes to {addr} already."),
            }
        } else if by_master || confirmed(&addr) {
            member.address = addr.clone();
            format!("Your mail for this game now goes to {addr}.")
        } else if !confirmed(&current) {
            // Nothing to keep the seat on: its own address never confirmed, so it gets no
            // game mail either way; the new one gets it once it confirms.
            member.address = addr.clone();
            format!("Your mail for this game now goes to {addr}. {current} never confirmed, so there was no confirmed address to keep it on: game mail reaches {addr} once it replies to herald's request to confirm.")
        } else {
            member.pending = Some(PendingAddress {
                address: addr.clone(),
                since: now,
            });
            let until = if addr == sender {
                format!("{addr} replies to this mail")
            } else if !standing.asked_today.contains(&key) {
                format!("{addr} replies to the mail herald just sent it")
            } else if earlier.as_deref() == Some(addr.as_str()) {
                format!("{addr} replies to the mail herald sent it earlier today")
            } else {
                format!("{addr} confirms: herald asks one new address a day for a seat and asked one today already, so {addr} gets no request now; mail herald anything from {addr} (HELP will do) and reply to the answer, or send SET ADDRESS again tomorrow")
            };
            let instead = match earlier.filter(|p| *p != addr) {
                Some(p) => format!(" It replaces the move to {p} asked for earlier."),
                None => String::new(),
            };
            format!("Your seat stays on {current} until {until}; then its mail goes to {addr}, and both addresses are told. A move not confirmed within {PENDING_DAYS} days lapses.{instead}")
        };
        self.say(said);
    }

    /// The sender's own membership: its seat's (a power, a joined player) or the Master's.
    fn member_mut(&mut self) -> Option<&mut Member> {
        match self.role {
            Role::Power(p) => self.game_mut().seat_of_mut(p).map(|s| &mut s.member),
            Role::Joiner(i) => self.game_mut().seats.get_mut(i).map(|s| &mut s.member),
            Role::Master => Some(&mut self.game_mut().master),
            _ => None,
        }
    }
}
