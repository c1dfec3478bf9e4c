//! The Master's privacy settings: anonymity (SET NOSHOW / SHOW, SET NOREVEAL / REVEAL,
//! SET QUIET / NOQUIET), listing (SET NOLIST / LIST, SET PRIVATE [word], SET PUBLIC) and
//! the allow and deny lists (SET ALLOW / DENY address). Their rules are in [`crate::judge::privacy`].

use super::def::{Def, Who};
use crate::judge::cmd::context::Session;
use crate::judge::game::Status;
use crate::judge::privacy::{Entry, JOIN_WORD_CASE};

/// Who may see and come into a game: the Master's privacy settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrivacyCommand {
    /// SET NOSHOW / SET ANONYMOUS (true), SET SHOW / SET NOANONYMOUS (false): whether the
    /// game hides who plays which power and every address from all but the Master.
    Anonymous(bool),
    /// SET REVEAL / SET NOREVEAL: whether an anonymous game shows its players once over.
    Reveal(bool),
    /// SET QUIET / SET NOQUIET: whether the players are told who resigns, is ejected or
    /// abandoned, falls into or leaves civil disorder, or takes over a power.
    Quiet(bool),
    /// SET LIST (true) / SET NOLIST, SET UNLISTED, SET PRIVATE (false): whether LIST shows
    /// the game to strangers.
    Listed(bool),
    /// SET PRIVATE <word>: unlisted, and newcomers must give the word.
    JoinWord(String),
    /// SET PUBLIC: listed, and no join word.
    Public,
    /// SET ALLOW / SET DENY [PLAYER] [-]address…, SET NOALLOW / SET NODENY address…: the
    /// Master's lists of who may and who may not come into the game.
    Invite {
        /// The deny list (true) or the allow list.
        deny: bool,
        /// Add (true) or remove (false) each address.
        add: bool,
        /// The addresses, lower case (a leading `-` removes that one).
        addresses: Vec<String>,
    },
}

use PrivacyCommand as C;

/// The Master's privacy settings.
pub(super) const DEFS: &[Def] = &[
    Def::line("SET NOSHOW", Who::Master, || C::Anonymous(true).into())
        .aka(&["SET ANONYMOUS", "SET ANON"]),
    Def::line("SET SHOW", Who::Master, || C::Anonymous(false).into())
        .aka(&["SET NOANONYMOUS", "SET NOANON"]),
    Def::line("SET REVEAL", Who::Master, || C::Reveal(true).into()),
    Def::line("SET NOREVEAL", Who::Master, || C::Reveal(false).into()),
    Def::line("SET QUIET", Who::Master, || C::Quiet(true).into()),
    Def::line("SET NOQUIET", Who::Master, || C::Quiet(false).into()),
    Def::line("SET LIST", Who::Master, || C::Listed(true).into()),
    Def::line("SET NOLIST", Who::Master, || C::Listed(false).into())
        .aka(&["SET UNLISTED", "SET PRIVATE"]),
    Def::args("SET PRIVATE", "SET PRIVATE <join word>", Who::Master, |w| {
        w.count(1)
            .and_then(|_| w.arg(0))
            .map(|j| C::JoinWord(j).into())
    })
    .secret(0, Some(1)),
    Def::line("SET PUBLIC", Who::Master, || C::Public.into()),
    Def::args(
        "SET ALLOW",
        "SET ALLOW <address>, e.g. SET ALLOW ann@example.org",
        Who::Master,
        |w| Some(invite(w.all(), w.all_upper())),
    ),
    Def::args(
        "SET DENY",
        "SET DENY <address>, e.g. SET DENY spam@example.org",
        Who::Master,
        |w| Some(invite(w.all(), w.all_upper())),
    ),
    Def::args("SET NOALLOW", "SET NOALLOW <address>", Who::Master, |w| {
        Some(invite(w.all(), w.all_upper()))
    })
    .aka(&["SET NO ALLOW"]),
    Def::args("SET NODENY", "SET NODENY <address>", Who::Master, |w| {
        Some(invite(w.all(), w.all_upper()))
    })
    .aka(&["SET NO DENY"]),
];

/// SET [NO] ALLOW|DENY [PLAYER] [-]address….
fn invite(all: &[&str], upper: &[String]) -> super::Command {
    let (key, mut words) = match upper.get(1..).unwrap_or(&[]) {
        [no, key, ..] if no == "NO" => (format!("NO{key}"), all.get(3..).unwrap_or(&[])),
        [key, ..] => (key.clone(), all.get(2..).unwrap_or(&[])),
        [] => (String::new(), &[][..]),
    };
    if words
        .first()
        .is_some_and(|w| w.eq_ignore_ascii_case("player"))
    {
        words = &words[1..];
    }
    let (deny, add) = match key.as_str() {
        "ALLOW" => (false, true),
        "DENY" => (true, true),
        "NOALLOW" => (false, false),
        "NODENY" => (true, false),
        _ => return super::settings::SettingsCommand::UnknownSet(all.join(" ")).into(),
    };
    let addresses: Vec<String> = words
        .iter()
        .flat_map(|w| w.split(','))
        .filter(|a| !a.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    C::Invite {
        deny,
        add,
        addresses,
    }
    .into()
}

impl Session<'_> {
    /// Applies a command of this family.
    pub(in crate::judge) fn privacy_command(
        &mut self,
        line: &str,
        command: PrivacyCommand,
    ) -> bool {
        match command {
            C::Anonymous(true) => {
                if self.game().status != Status::Forming {
                    self.error(line, "a game is made anonymous before START: the start notice has named its players already");
                    return true;
                }
                self.game_mut().settings.privacy.anonymous = true;
                self.parameter_change("This game is anonymous: nobody but the Master learns who plays which power or any address until it ends.".into());
            }
            C::Anonymous(false) => {
                self.game_mut().settings.privacy.anonymous = false;
                self.parameter_change("This game is no longer anonymous: its members may see who plays which power and their addresses.".into());
            }
            C::Reveal(on) => {
                self.game_mut().settings.privacy.reveal = on;
                let text = if on {
                    "If this game is anonymous, its players are shown when it ends."
                } else {
                    "If this game is anonymous, its players stay hidden even after it ends."
                };
                self.parameter_change(text.into());
            }
            C::Quiet(on) => {
                self.game_mut().settings.privacy.quiet = on;
                let text = if on {
                    "This game is quiet: who resigns, is ejected or abandoned, falls into or leaves civil disorder, or takes over a power is told to the Master alone."
                } else {
                    "This game is no longer quiet: everyone is told when a power changes hands or falls into or leaves civil disorder."
                };
                self.parameter_change(text.into());
            }
            C::Listed(on) => {
                self.game_mut().settings.privacy.unlisted = !on;
                let text = if on {
                    "This game is listed: LIST shows it to everyone."
                } else {
                    "This game is unlisted: LIST shows it to its members only."
                };
                self.parameter_change(text.into());
            }
            C::JoinWord(word) => {
                let Some(hash) = self.new_hash(line, &word) else {
                    return true;
                };
                let p = &mut self.game_mut().settings.privacy;
                p.unlisted = true;
                p.join_word = Some(hash);
                let name = self.game().name.clone();
                self.say(format!("Game '{name}' is private: newcomers join with SIGNON ?{name} <password> <join word>, take over a power with SIGNON <letter>{name} <password> <join word>, and observe with OBSERVE {name} <password> <join word>. The word is checked as a password is: capitals count, so give it to those you invite exactly as you wrote it."));
                self.parameter_change(
                    "This game is private: unlisted, and newcomers need its join word.".into(),
                );
            }
            C::Public => {
                let p = &mut self.game_mut().settings.privacy;
                p.unlisted = false;
                p.join_word = None;
                self.parameter_change(
                    "This game is public: listed, and no join word is needed.".into(),
                );
            }
            // Everything after BECOME is copied to that power's player: the lists of
            // addresses stay the Master's.
            // (The line is echoed without its addresses, for the same reason.)
            C::Invite { .. } if self.became.is_some() => {
                let words: Vec<&str> = line.split_whitespace().take(2).collect();
                self.error(
                    &format!("{} ****", words.join(" ")),
                    "SET ALLOW and SET DENY come before BECOME: what follows BECOME is copied to the power's player",
                )
            }
            C::Invite {
                deny,
                add,
                addresses,
            } => self.invite(line, deny, add, addresses),
        }
        true
    }

    /// Whether the sender may come into the signed-on game as a newcomer (join, take over a
    /// power, observe): not on its deny list, and invited or showing the join word after the
    /// password when the game asks for either. Said if not, with the line to send for
    /// `entry`; a wrong join word is named as such and counts as a wrong password.
    pub(in crate::judge) fn may_enter(&mut self, line: &str, entry: Entry<'_>) -> bool {
        let from = self.letter.reply_to.clone();
        let words: Vec<&str> = line.split_whitespace().collect();
        let skip = if words
            .first()
            .is_some_and(|w| w.eq_ignore_ascii_case("sign"))
        {
            4
        } else {
            3
        };
        let extra: Vec<String> = words.iter().skip(skip).map(|w| w.to_string()).collect();
        let g = self.game();
        let mut given = false;
        if let Some(stored) = g.settings.privacy.join_word.clone() {
            if g.entry_refused(&from, false, entry).is_some() && !extra.is_empty() {
                // "one join word per line, checked once" (issue 24): a line of many words
                // was a list of guesses.
                if extra.len() > 1 {
                    self.error(
                        line,
                        "write one join word after the password (the Master gives it)",
                    );
                    return false;
                }
                // Each sender has its own lock on the join word; the game's lock (all wrong
                // passwords in it) holds off guessing from many addresses.
                let seat = format!("the join word, from {}", self.sender_key());
                if self.signon_locked(line, &seat) {
                    return false;
                }
                match self.check_password(line, &stored, &extra[0], false) {
                    None => return false,
                    Some(ok) => given = ok,
                }
                if !given && self.game().entry_refused(&from, false, entry).is_some() {
                    // Named for what it is (the password of a newcomer is new, so only the
                    // word was checked), and nothing more that would help a guesser.
                    let why = format!(
                        "wrong join word for game '{}' (its Master gives the word; {JOIN_WORD_CASE})",
                        self.game().name
                    );
                    self.signon_failed_because(line, &seat, "", &why);
                    return false;
                }
            }
        }
        match self.game().entry_refused(&from, given, entry) {
            None => true,
            Some(why) => {
                self.error(line, why);
                false
            }
        }
    }

    /// SET ALLOW / DENY: the lists changed, and the Master alone told (the addresses are
    /// nobody else's business).
    fn invite(&mut self, line: &str, deny: bool, add: bool, addresses: Vec<String>) {
        let word = if deny { "DENY" } else { "ALLOW" };
        if addresses.is_empty() {
            self.error(
                line,
                format!("write SET {word} <address>, e.g. SET {word} ann@example.org"),
            );
            return;
        }
        let mut changes = Vec::new();
        for a in addresses {
            let (add, a) = match a.strip_prefix('-') {
                Some(rest) => (false, rest.to_string()),
                None => (add, a),
            };
            if !crate::envelope::is_address(&a) {
                self.error(
                    line,
                    format!("'{a}' is not a mail address: write e.g. SET {word} ann@example.org"),
                );
                return;
            }
            changes.push((add, a));
        }
        let p = &mut self.game_mut().settings.privacy;
        let has_word = p.join_word.is_some();
        let list = if deny { &mut p.deny } else { &mut p.allow };
        for (add, a) in changes {
            list.retain(|x| x != &a);
            if add {
                list.push(a);
            }
        }
        let shown = if list.is_empty() {
            "nobody".to_string()
        } else {
            list.join(", ")
        };
        let text = if deny {
            format!("Kept out of this game (SET DENY): {shown}.")
        } else if list.is_empty() {
            "No allow list: anyone may join (with the join word, if the game has one).".into()
        } else if has_word {
            format!("Invited to this game (SET ALLOW): {shown}. Nobody else may come in without the join word.")
        } else {
            format!("Invited to this game (SET ALLOW): {shown}. Nobody else may come in.")
        };
        self.say(text);
    }
}

#[cfg(test)]
mod tests {
    use crate::judge::testkit::{judge, mail, reply, start, GM};
    use crate::judge::Games;

    #[test]
    fn the_old_hands_spellings_are_read() {
        use crate::judge::cmd::{parse_command, Command, InfoCommand, PrivacyCommand};
        let invite = |deny, add, addresses: &[&str]| -> Command {
            PrivacyCommand::Invite {
                deny,
                add,
                addresses: addresses.iter().map(|a| a.to_string()).collect(),
            }
            .into()
        };
        for (line, command) in [
            ("SET NOSHOW", Command::from(PrivacyCommand::Anonymous(true))),
            (
                "set no show",
                Command::from(PrivacyCommand::Anonymous(true)),
            ),
            (
                "SET ANONYMOUS",
                Command::from(PrivacyCommand::Anonymous(true)),
            ),
            ("SET SHOW", Command::from(PrivacyCommand::Anonymous(false))),
            (
                "SET NO ANONYMOUS",
                Command::from(PrivacyCommand::Anonymous(false)),
            ),
            (
                "SET NO REVEAL",
                Command::from(PrivacyCommand::Reveal(false)),
            ),
            ("SET REVEAL", Command::from(PrivacyCommand::Reveal(true))),
            ("SET QUIET", Command::from(PrivacyCommand::Quiet(true))),
            ("SET NO QUIET", Command::from(PrivacyCommand::Quiet(false))),
            ("SET NOLIST", Command::from(PrivacyCommand::Listed(false))),
            ("SET UNLISTED", Command::from(PrivacyCommand::Listed(false))),
            ("SET PRIVATE", Command::from(PrivacyCommand::Listed(false))),
            ("SET LIST", Command::from(PrivacyCommand::Listed(true))),
            (
                "SET PRIVATE Tuesdays",
                Command::from(PrivacyCommand::JoinWord("Tuesdays".into())),
            ),
            ("SET PUBLIC", Command::from(PrivacyCommand::Public)),
            ("LIST FULL", Command::from(InfoCommand::ListFull)),
            ("list full", Command::from(InfoCommand::ListFull)),
            (
                "SET ALLOW PLAYER Ann@x.org,b@x.org",
                invite(false, true, &["ann@x.org", "b@x.org"]),
            ),
            ("SET DENY c@x.org", invite(true, true, &["c@x.org"])),
            ("SET NO DENY c@x.org", invite(true, false, &["c@x.org"])),
            ("SET NOALLOW a@x.org", invite(false, false, &["a@x.org"])),
            ("SET ALLOW -a@x.org", invite(false, true, &["-a@x.org"])),
        ] {
            assert_eq!(parse_command(line), command, "{line}");
        }
    }

    #[test]
    fn allow_and_deny_lists_change_and_refuse_what_is_no_address() {
        let j = judge();
        let mut games = Games::new();
        mail(&j, &mut games, GM, "CREATE ?g gmpass", start());
        let h = mail(
            &j,
            &mut games,
            GM,
            "SIGNON Mg gmpass\nSET ALLOW PLAYER Ann@x.org,bob@x.org\nSET DENY cat@x.org\nSET ALLOW -bob@x.org\nSET NO DENY cat@x.org\nSET ALLOW nobody",
            start(),
        );
        let text = &reply(&h, GM).body;
        assert!(
            text.contains("Invited to this game (SET ALLOW): ann@x.org, bob@x.org."),
            "{text}"
        );
        assert!(
            text.contains("Invited to this game (SET ALLOW): ann@x.org."),
            "{text}"
        );
        assert!(
            text.contains("Kept out of this game (SET DENY): nobody."),
            "{text}"
        );
        assert!(text.contains("'nobody' is not a mail address"), "{text}");
        let p = &games["g"].settings.privacy;
        assert_eq!(
            (p.allow.clone(), p.deny.len()),
            (vec!["ann@x.org".to_string()], 0)
        );
    }
}
