//! The Master's settings: NMR, press policy, partial and minor press, the comment LIST
//! shows, and rule switches.

use super::def::{Def, Who};
use crate::judge::cmd::context::Session;
use crate::judge::game::{PressPolicy, Status};

/// The longest comment SET COMMENT takes, in characters (one line of LIST).
pub const COMMENT_LENGTH: usize = 100;

/// The Master's settings of a game, and any SET herald does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingsCommand {
    /// `SET NMR` / `SET NONMR`
    Nmr(bool),
    /// `SET PRESS WHITE|GREY|NONE`
    PressPolicy(PressPolicy),
    /// `SET PARTIAL` / `SET NOPARTIAL`
    Partial(bool),
    /// `SET COMMENT <text>` / `SET NOCOMMENT` (`None`): the Master's comment shown in LIST.
    Comment(Option<String>),
    /// `SET MINOR PRESS` / `SET NO MINOR PRESS`: press between players in retreats and
    /// adjustments too, or then only to and from the Master.
    MinorPress(bool),
    /// SET WARNINGS ON|OFF: order replies list what looks like a mistake.
    Warnings(bool),
    /// `SET DIAS` / `SET NODIAS`: draws include all survivors, or the votes name them.
    Dias(bool),
    /// `SET CONCESSIONS` / `SET NOCONCESSIONS`: whether powers may concede.
    Concessions(bool),
    /// `SET RULE switch` (the Master, before START).
    Rule(String),
    /// A `SET` this judge does not know.
    UnknownSet(String),
}

use SettingsCommand as C;

/// The Master's settings, and the catch-all SET.
pub(super) const DEFS: &[Def] = &[
    Def::line("SET NMR", Who::Master, || C::Nmr(true).into()).aka(&["SET CD"]),
    Def::line("SET NONMR", Who::Master, || C::Nmr(false).into()).aka(&["SET NOCD"]),
    Def::line("SET PRESS WHITE", Who::Master, || {
        C::PressPolicy(PressPolicy::White).into()
    })
    .aka(&["SET WHITE"]),
    Def::line("SET PRESS GREY", Who::Master, || {
        C::PressPolicy(PressPolicy::Grey).into()
    })
    .aka(&["SET PRESS GRAY", "SET GREY", "SET GRAY"]),
    Def::line("SET PRESS NONE", Who::Master, || {
        C::PressPolicy(PressPolicy::None).into()
    })
    .aka(&["SET PRESS NO", "SET NOPRESS"]),
    Def::line("SET PARTIAL", Who::Master, || C::Partial(true).into()),
    Def::line("SET NOPARTIAL", Who::Master, || C::Partial(false).into()),
    Def::args(
        "SET COMMENT",
        "SET COMMENT <text>, e.g. SET COMMENT Gunboat league, round 2",
        Who::Master,
        |w| Some(C::Comment(Some(w.rest(0)).filter(|t| !t.is_empty())).into()),
    ),
    Def::line("SET NOCOMMENT", Who::Master, || C::Comment(None).into()),
    Def::line("SET MINOR PRESS", Who::Master, || {
        C::MinorPress(true).into()
    }),
    Def::line("SET NO MINOR PRESS", Who::Master, || {
        C::MinorPress(false).into()
    }),
    Def::line("SET WARNINGS ON", Who::Master, || C::Warnings(true).into()).aka(&["SET WARNINGS"]),
    Def::line("SET WARNINGS OFF", Who::Master, || {
        C::Warnings(false).into()
    })
    .aka(&["SET NOWARNINGS"]),
    Def::line("SET DIAS", Who::Master, || C::Dias(true).into()),
    Def::line("SET NODIAS", Who::Master, || C::Dias(false).into()),
    Def::line("SET CONCESSIONS", Who::Master, || {
        C::Concessions(true).into()
    }),
    Def::line("SET NOCONCESSIONS", Who::Master, || {
        C::Concessions(false).into()
    }),
    Def::args(
        "SET RULE",
        "SET RULE <switch>, e.g. SET RULE portage (GET master lists them)",
        Who::Master,
        |w| w.count(1).and_then(|_| w.arg(0)).map(|r| C::Rule(r).into()),
    ),
    // njudge's SET PORTAGE and DPjudge's RULE PORTAGE_CONVOY name the portage switch.
    Def::line("SET PORTAGE", Who::Master, || {
        C::Rule("portage".into()).into()
    })
    .aka(&["RULE PORTAGE_CONVOY", "SET RULE PORTAGE_CONVOY"]),
    // Any other SET: named as unknown to whoever sent it, not refused as the Master's.
    Def::args("SET", "SET <setting>", Who::Anyone, |w| {
        Some(C::UnknownSet(w.all().join(" ")).into())
    }),
];

/// The most changes one notice lists.
const MOST_CHANGES: usize = 40;

impl Session<'_> {
    /// Applies a command of this family.
    pub(in crate::judge) fn settings_command(
        &mut self,
        line: &str,
        command: SettingsCommand,
    ) -> bool {
        let _now = self.now;
        match command {
            C::Nmr(on) => {
                self.game_mut().settings.nmr = on;
                let text = if on {
                    "NMR: at the end of grace, late powers go into civil disorder."
                } else {
                    "NoNMR: at the end of grace, late powers are abandoned and the game waits."
                };
                self.parameter_change(text.to_string());
            }
            C::PressPolicy(p) => {
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
            C::Partial(on) => {
                self.game_mut().settings.partial = on;
                let text = if on {
                    "Partial press (to some powers) is allowed."
                } else {
                    "Only broadcast press is allowed."
                };
                self.parameter_change(text.to_string());
            }
            C::Warnings(on) => {
                self.game_mut().settings.warnings = on;
                let text = if on {
                    "Order replies warn of what looks like a mistake in a player's orders."
                } else {
                    "Order replies no longer warn of mistakes."
                };
                self.parameter_change(text.to_string());
            }
            C::Comment(text) => {
                let text = text.map(|t| t.trim().to_string());
                if text
                    .as_ref()
                    .is_some_and(|t| t.chars().count() > COMMENT_LENGTH)
                {
                    self.error(
                        line,
                        format!("a comment holds at most {COMMENT_LENGTH} characters: say it shorter, e.g. SET COMMENT Gunboat, 48-hour deadlines"),
                    );
                    return true;
                }
                let said = match &text {
                    Some(t) => format!("Comment set; LIST shows it with the game: {t}"),
                    None => "Comment removed.".to_string(),
                };
                self.game_mut().settings.comment = text;
                self.say(said);
            }
            C::MinorPress(on) => {
                self.game_mut().settings.minor_press = on;
                let text = if on {
                    "Minor press: players may send press in retreats and adjustments too."
                } else {
                    "No minor press: in retreats and adjustments, press goes only to and from the Master."
                };
                self.parameter_change(text.to_string());
            }
            C::Dias(on) => self.draw_rules(Some(on), None),
            C::Concessions(on) => self.draw_rules(None, Some(on)),
            C::Rule(switch) => {
                let g = self.game();
                if g.status != Status::Forming {
                    self.error(line, "rule switches are set before START");
                    return true;
                }
                match crate::game::rules::Setting::read(&switch) {
                    Ok(setting) => {
                        self.game_mut().rules.push(setting);
                        self.say(format!("Rule switch set: {switch}."));
                    }
                    Err(why) => self.error(line, why.to_string()),
                }
            }
            C::UnknownSet(text) => self.error(
                line,
                format!("'{text}' is not a setting herald knows (GET master lists them)"),
            ),
        }
        true
    }
    /// Tells everyone in the game that a setting changed.
    /// Notes a setting this mail changed, for the one notice [`Session::tell_changes`]
    /// sends when the mail is read.
    pub(in crate::judge) fn parameter_change(&mut self, text: String) {
        self.changes.push(text);
    }

    /// Tells everyone in the game the settings this mail changed, in one notice each
    /// however many lines changed them (a Master's mail of twelve SET lines is one mail to
    /// each player, not twelve).
    pub(in crate::judge) fn tell_changes(&mut self) {
        if self.changes.is_empty() || self.game.is_none() {
            return;
        }
        let mut changes = std::mem::take(&mut self.changes);
        // A line repeated, or a mail of thousands of SET lines, brings a notice of bounded
        // size: the same change once in a row, at most MOST_CHANGES lines.
        changes.dedup();
        if changes.len() > MOST_CHANGES {
            let more = changes.len() - MOST_CHANGES;
            changes.truncate(MOST_CHANGES);
            changes.push(format!(
                "… and {more} more changes (SUMMARY shows the settings as they stand)."
            ));
        }
        let notices = self
            .judge
            .notice_all(self.game(), "Parameter Change", &changes);
        self.effects.mails.extend(notices);
    }
}

#[cfg(test)]
mod tests {
    use crate::judge::game::PressPolicy;
    use crate::judge::testkit::{judge, mail, reply, start, started, GM};

    #[test]
    fn settings_change_with_a_notice_and_rules_only_before_start() {
        let j = judge();
        let mut games = started(&j);
        let h = mail(
            &j,
            &mut games,
            GM,
            "SIGNON Mg gmpass\nSET NMR\nSET PRESS GREY\nSET RULE remote_builds\nSET FROBNICATE",
            start(),
        );
        let text = &reply(&h, GM).body;
        assert!(
            text.contains("rule switches are set before START"),
            "{text}"
        );
        assert!(text.contains("is not a setting herald knows"), "{text}");
        let g = &games["g"];
        assert!(g.settings.nmr && g.settings.press == PressPolicy::Grey);
        let notices: Vec<_> = h
            .effects
            .mails
            .iter()
            .filter(|m| m.subject.contains("Parameter Change"))
            .collect();
        // A mail that changes several settings sends each player one notice naming them
        // all, not one mail per line: no one is mailed more than the change needs.
        assert_eq!(
            notices.len(),
            8,
            "two changes, in one notice to each of the seven players and the Master"
        );
        for notice in notices {
            assert!(
                notice.body.contains("NMR") && notice.body.contains("grey"),
                "{}",
                notice.body
            );
        }
    }

    /// A Master's mail of a thousand SET lines brings each member one notice of bounded
    /// size, not a thousand notices nor a thousand lines.
    #[test]
    fn a_thousand_settings_make_one_short_notice_each() {
        let j = judge();
        let mut games = started(&j);
        let mut body = String::from("SIGNON Mg gmpass\n");
        for _ in 0..500 {
            body.push_str("SET NMR\nSET NONMR\n");
        }
        let h = mail(&j, &mut games, GM, &body, start());
        let notices: Vec<_> = h
            .effects
            .mails
            .iter()
            .filter(|m| m.subject.contains("Parameter Change"))
            .collect();
        assert_eq!(
            notices.len(),
            8,
            "one to each of the seven players and the Master"
        );
        for notice in notices {
            let lines = notice.body.lines().filter(|l| l.contains("NMR")).count();
            assert!(lines <= super::MOST_CHANGES, "{lines} lines");
            assert!(notice.body.contains("more changes"), "{}", notice.body);
        }
    }

    /// Issue 24: "bidi controls (U+202E) pass into LIST comments". No text a mail brings
    /// reaches what herald stores or shows others with them: not a comment, not press.
    #[test]
    fn bidi_controls_reach_no_comment_and_no_press() {
        let j = judge();
        let mut games = started(&j);
        mail(
            &j,
            &mut games,
            GM,
            "SIGNON Mg gmpass\nSET COMMENT Friendly \u{202E}emag\u{202C} \u{2066}x\u{2069}\u{200F}",
            start(),
        );
        let comment = games["g"].settings.comment.clone().unwrap_or_default();
        assert_eq!(comment, "Friendly emag x");
        let h = mail(&j, &mut games, "x@example.org", "LIST", start());
        assert!(!reply(&h, "x@example.org").body.contains('\u{202E}'));
        let h = mail(
            &j,
            &mut games,
            "bob@example.org",
            "SIGNON Fg pwF\nPRESS TO E\nAttack \u{202E}ynamreG\nENDPRESS",
            start(),
        );
        let copy = h
            .effects
            .mails
            .iter()
            .find(|m| m.to == "ann@example.org")
            .map(|m| m.body.clone())
            .unwrap_or_default();
        assert!(copy.contains("Attack ynamreG"), "{copy}");
        let bidi = |c: char| matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
        for m in &h.effects.mails {
            assert!(!m.body.contains(bidi) && !m.subject.contains(bidi), "{m:?}");
        }
    }
}
