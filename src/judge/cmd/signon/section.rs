//! A second (third, …) SIGNON in one mail: the seat signed on so far has its section ended
//! (its orders filed and echoed, as at the end of a mail) and the named seat starts the next
//! one, its password checked under the same limits on guessing as the first (issue 37: "A
//! player of several countries must be able to order them all in one mail").
//!
//! The sections of one mail are of one game: a SIGNON to another game is refused, and so is
//! one beyond [`most_signons`], each with the rest of the mail listed as not read.

use super::SignonAs;
use crate::judge::cmd::context::{Role, Session};
use crate::judge::cmd::parse::without_secrets;

/// The most SIGNONs one mail holds for a game whose map has `powers` powers: one for each
/// power and one for its Master (8 in a standard game).
pub(crate) fn most_signons(powers: usize) -> usize {
    powers + 1
}

impl Session<'_> {
    /// A SIGNON after the mail signed on: the section before it ended and the new seat
    /// signed on, or the line refused (false: the rest of the mail is not read).
    pub(in crate::judge) fn next_section(
        &mut self,
        line: &str,
        who: SignonAs,
        name: &str,
        password: &str,
    ) -> bool {
        let key = name.to_ascii_lowercase();
        let here = self.game.clone().unwrap_or_default();
        if key != here {
            self.error(
                line,
                format!("this mail has signed on to game '{here}': one mail orders in one game, so send what is for '{name}' in a mail of its own"),
            );
            return false;
        }
        let most = most_signons(self.judge.map_of(self.game()).powers.len());
        if self.signons >= most {
            self.error(
                line,
                format!("at most {most} SIGNONs in one mail (one for each power of game '{here}' and one for its Master): send the rest in another mail"),
            );
            return false;
        }
        self.signons += 1;
        self.end_section();
        self.lines.push(String::new());
        let shown = self.lines.len();
        self.lines.push(without_secrets(line));
        if self.signon(line, who, name, password) {
            return true;
        }
        // The refusal shows the line itself; the game stays the one of the sections before.
        self.lines.remove(shown);
        self.game = Some(here);
        false
    }

    /// Ends the section of the seat signed on: its orders filed and echoed with what is on
    /// file for it, as the reply's end does for the last section.
    fn end_section(&mut self) {
        self.flush_orders();
        self.section_close();
        if let Some(p) = self.became.take() {
            self.acted_for.push(p);
        }
        self.role = Role::Nobody;
        self.wrong_phase = None;
        self.later_phase = None;
    }
}
