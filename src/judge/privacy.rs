//! Who may learn what about a game's people, and who may see and enter it.
//!
//! - In an anonymous (gunboat) game nobody but the Master learns who plays which power or
//!   any address until the game ends (and not even then with SET NOREVEAL): every address
//!   but the reader's own is shown as [`HIDDEN`], as njudge shows it.
//! - In any other game addresses are shown to its members (players, the Master, observers)
//!   and never to strangers.
//! - A private game is left out of LIST for all but its members; a newcomer comes in only
//!   with its join word or on the Master's allow list, and never from an address on its
//!   deny list.
//! - In a quiet game the players are not told who resigns, is ejected or abandoned, falls
//!   into or leaves civil disorder, or takes over a power; the Master is.

use super::game::{Game, Status};
use super::Judge;
use crate::envelope::Outgoing;

/// How an address is shown to someone who may not see it (njudge's form).
pub const HIDDEN: &str = "someone@somewhere";

impl Game {
    /// Whether `address` is one of the game's members: its Master, a player (of a seat held
    /// now) or an observer.
    pub fn is_member(&self, address: &str) -> bool {
        let same = |a: &str| !address.is_empty() && a.eq_ignore_ascii_case(address);
        same(&self.master.address)
            || self
                .seats
                .iter()
                .any(|s| s.state != super::game::SeatState::Abandoned && same(&s.member.address))
            || self.observers.iter().any(|o| same(&o.address))
    }

    /// Whether the game hides its people now: an anonymous game until it ends, or for good
    /// with SET NOREVEAL.
    pub fn hides_people(&self) -> bool {
        let p = &self.settings.privacy;
        p.anonymous && (self.status != Status::Finished || !p.reveal)
    }

    /// Whether `reader` may see the addresses of the game's people (and so who plays
    /// which power): the Master always; the members unless the game hides its people;
    /// strangers never.
    pub fn shows_people_to(&self, reader: &str) -> bool {
        let master = !reader.is_empty() && reader.eq_ignore_ascii_case(&self.master.address);
        master || (!self.hides_people() && self.is_member(reader))
    }

    /// `address` as `reader` may see it: itself to its owner and to whoever may see the
    /// game's people, else [`HIDDEN`].
    pub fn address_for(&self, reader: &str, address: &str) -> String {
        if address.eq_ignore_ascii_case(reader) || self.shows_people_to(reader) {
            address.to_string()
        } else {
            HIDDEN.to_string()
        }
    }

    /// Whether LIST shows the game to `reader`: a listed game to anyone, an unlisted one to
    /// its members.
    pub fn listed_for(&self, reader: &str) -> bool {
        !self.settings.privacy.unlisted || self.is_member(reader)
    }

    /// How a newcomer signs on as `who` (a power's letter, `?` to join): with the join word
    /// after the password in a game that has one.
    pub fn newcomer_signon(&self, who: char) -> String {
        self.newcomer_form(Entry::Power(&who.to_string()))
    }

    /// The line a newcomer sends to come in as `entry`: with the join word after the
    /// password in a game that has one.
    pub fn newcomer_form(&self, entry: Entry<'_>) -> String {
        let word = if self.settings.privacy.join_word.is_some() {
            " <join word>"
        } else {
            ""
        };
        let name = &self.name;
        match entry {
            Entry::Join => format!("SIGNON ?{name} <password>{word}"),
            Entry::Power(who) => format!("SIGNON {who}{name} <password>{word}"),
            Entry::Observe => format!("OBSERVE {name} <password>{word}"),
        }
    }

    /// Why `address` may not come into the game as a newcomer (to join, take over a power
    /// or observe, as `entry` says), given whether it showed the join word: None when it
    /// may. A private game's refusal shows the line to send for `entry`.
    pub fn entry_refused(
        &self,
        address: &str,
        word_given: bool,
        entry: Entry<'_>,
    ) -> Option<String> {
        let p = &self.settings.privacy;
        let listed = |list: &[String]| list.iter().any(|a| a.eq_ignore_ascii_case(address));
        if listed(&p.deny) {
            return Some(format!(
                "the Master of '{}' does not let {address} into this game",
                self.name
            ));
        }
        let invited = listed(&p.allow);
        match (&p.join_word, p.allow.is_empty()) {
            _ if invited || word_given => None,
            (Some(_), _) => Some(format!(
                "game '{}' is private: add its join word after your password ({}); its Master gives the word; {JOIN_WORD_CASE}",
                self.name,
                self.newcomer_form(entry)
            )),
            (None, false) => Some(format!(
                "game '{}' is by invitation: its Master has not invited {address} (SET ALLOW)",
                self.name
            )),
            (None, true) => None,
        }
    }
}

/// How a private game's join word is to be written, said wherever the word is asked for:
/// it is checked as a password is, letter for letter.
pub const JOIN_WORD_CASE: &str =
    "the join word is written exactly as the Master gave it: capitals count";

/// What a newcomer comes into a game as, for the line it must send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry<'a> {
    /// A player joining a forming game: `SIGNON ?game`.
    Join,
    /// A newcomer taking over a power: `SIGNON <who>game`, `who` its letter (or a
    /// placeholder such as `<letter>`).
    Power(&'a str),
    /// An observer: `OBSERVE game`.
    Observe,
}

impl Judge {
    /// A notice that a power changed hands or fell into or left civil disorder: to everyone
    /// in the game, or in a quiet game (SET QUIET) to the Master alone.
    pub fn notice_of_players(&self, game: &Game, what: &str, lines: &[String]) -> Vec<Outgoing> {
        if game.settings.privacy.quiet {
            vec![self.notice(game, &game.master.address, what, lines)]
        } else {
            self.notice_all(game, what, lines)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::judge::game::Status;
    use crate::judge::testkit;

    #[test]
    fn anonymous_games_show_addresses_to_the_master_alone_until_they_end() {
        let mut g = testkit::running_game();
        let player = g.seats[0].member.address.clone();
        let other = g.seats[1].member.address.clone();
        let master = g.master.address.clone();
        let stranger = "x@example.net";
        assert_eq!(g.address_for(&player, &other), other, "members see members");
        assert_eq!(g.address_for(stranger, &other), super::HIDDEN);
        g.settings.privacy.anonymous = true;
        assert_eq!(g.address_for(&player, &other), super::HIDDEN);
        assert_eq!(g.address_for(&player, &player), player, "one's own");
        assert_eq!(g.address_for(&master, &other), other);
        g.status = Status::Finished;
        assert_eq!(g.address_for(&player, &other), other, "revealed at the end");
        assert_eq!(g.address_for(stranger, &other), super::HIDDEN);
        g.settings.privacy.reveal = false;
        assert_eq!(g.address_for(&player, &other), super::HIDDEN);
    }

    #[test]
    fn a_game_stored_before_privacy_loads_as_public_and_named() {
        let g = testkit::running_game();
        let mut json = serde_json::to_value(&g).unwrap();
        json["settings"]
            .as_object_mut()
            .unwrap()
            .remove("privacy")
            .unwrap();
        let old: crate::judge::Game = serde_json::from_value(json).unwrap();
        assert_eq!(old.settings.privacy, Default::default());
        assert!(old.settings.privacy.reveal && !old.hides_people());
    }

    #[test]
    fn newcomers_need_the_word_or_an_invitation_and_the_denied_stay_out() {
        let mut g = testkit::running_game();
        let join = super::Entry::Join;
        assert_eq!(g.entry_refused("a@x.org", false, join), None);
        g.settings.privacy.join_word = Some("hash".into());
        assert!(g.entry_refused("a@x.org", false, join).is_some());
        assert_eq!(g.entry_refused("a@x.org", true, join), None);
        g.settings.privacy.join_word = None;
        g.settings.privacy.allow = vec!["a@x.org".into()];
        assert_eq!(g.entry_refused("A@x.org", false, join), None);
        assert!(g.entry_refused("b@x.org", false, join).is_some());
        g.settings.privacy.deny = vec!["a@x.org".into()];
        assert!(g.entry_refused("a@x.org", true, join).is_some());
    }
}
