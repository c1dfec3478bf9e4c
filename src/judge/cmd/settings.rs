//! The Master's settings: NMR, press policy, partial and minor press, the comment LIST
//! shows, and rule switches.

use crate::judge::cmd::context::Session;
use crate::judge::command::Command;
use crate::judge::game::{PressPolicy, Status};

/// The longest comment SET COMMENT takes, in characters (one line of LIST).
pub const COMMENT_LENGTH: usize = 100;

impl Session<'_> {
    /// Applies a command of this family.
    pub(in crate::judge) fn settings_command(&mut self, line: &str, command: Command) -> bool {
        let _now = self.now;
        match command {
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
            Command::Warnings(on) => {
                self.game_mut().settings.warnings = on;
                let text = if on {
                    "Order replies warn of what looks like a mistake in a player's orders."
                } else {
                    "Order replies no longer warn of mistakes."
                };
                self.parameter_change(text.to_string());
            }
            Command::Comment(text) => {
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
            Command::MinorPress(on) => {
                self.game_mut().settings.minor_press = on;
                let text = if on {
                    "Minor press: players may send press in retreats and adjustments too."
                } else {
                    "No minor press: in retreats and adjustments, press goes only to and from the Master."
                };
                self.parameter_change(text.to_string());
            }
            Command::Dias(on) => self.draw_rules(Some(on), None),
            Command::Concessions(on) => self.draw_rules(None, Some(on)),
            Command::Rule(switch) => {
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
            Command::UnknownSet(text) => self.error(
                line,
                format!("'{text}' is not a setting herald knows (GET master lists them)"),
            ),
            _ => {}
        }
        true
    }
    /// Tells everyone in the game that a setting changed.
    pub(in crate::judge) fn parameter_change(&mut self, text: String) {
        let notices = self
            .judge
            .notice_all(self.game(), "Parameter Change", &[text]);
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
        let notices = h
            .effects
            .mails
            .iter()
            .filter(|m| m.subject.contains("Parameter Change"))
            .count();
        assert_eq!(
            notices,
            2 * 8,
            "two changes, each to the seven players and the Master"
        );
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
