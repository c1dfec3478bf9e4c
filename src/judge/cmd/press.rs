//! PRESS and BROADCAST: white and grey press, to whom it may go and what each copy says.

use super::def::{Def, Who, ANY_SEAT};
use crate::judge::cmd::context::{PressDraft, Recipients, Session};

/// Press: a block of lines from PRESS or BROADCAST to ENDPRESS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PressCommand {
    /// `PRESS …` / `BROADCAST …`: starts a press block.
    Press {
        /// Recipients.
        to: Recipients,
        /// GREY (true), WHITE (false), or the game's default.
        grey: Option<bool>,
        /// Words of the line that are none of these, as written upper case: the press is
        /// refused, naming them ([`PRESS_WORDS`]).
        unknown: Vec<String>,
    },
    /// `ENDPRESS` / `ENDBROADCAST`
    EndPress,
}

use PressCommand as C;

/// PRESS, BROADCAST and ENDPRESS.
pub(super) const DEFS: &[Def] = &[
    Def::args(
        "PRESS",
        "PRESS TO <letters>, the text, then ENDPRESS",
        Who::Signed(ANY_SEAT, ""),
        |w| Some(press(w.all_upper())),
    ),
    Def::args(
        "BROADCAST",
        "BROADCAST, the text, then ENDPRESS",
        Who::Signed(ANY_SEAT, ""),
        |w| Some(press(w.all_upper())),
    ),
    Def::line("ENDPRESS", Who::Signed(ANY_SEAT, ""), || C::EndPress.into())
        .aka(&["ENDBROADCAST", "ENDP"]),
];

/// The words a PRESS or BROADCAST line takes, as a refusal names them.
pub(in crate::judge) const PRESS_WORDS: &str = "TO <letters> (run together: PRESS TO EF), TO ALL, TO ALL BUT <letters>, +<letters>, -<letters>, GREY (or ANONYMOUS) and WHITE (or UNANONYMOUS)";

/// A press line's words: BROADCAST or PRESS, the recipients (`TO EF`, `TO ALL BUT R`,
/// `+EF`, `-R`) and GREY or WHITE; any other word is kept to be refused.
fn press(upper: &[String]) -> super::Command {
    let broadcast = upper.first().is_some_and(|w| w == "BROADCAST");
    let mut to = if broadcast {
        Recipients::All
    } else {
        Recipients::Nobody
    };
    let mut grey = None;
    let mut unknown = Vec::new();
    let mut i = 1;
    while i < upper.len() {
        match upper[i].as_str() {
            "GREY" | "GRAY" | "ANONYMOUS" => grey = Some(true),
            "WHITE" | "UNANONYMOUS" => grey = Some(false),
            "TO" if upper.get(i + 1).map(String::as_str) == Some("ALL")
                && upper.get(i + 2).map(String::as_str) == Some("BUT") =>
            {
                to = Recipients::AllBut(upper.get(i + 3).cloned().unwrap_or_default());
                i += 3;
            }
            "TO" if upper.get(i + 1).map(String::as_str) == Some("ALL") => {
                to = Recipients::All;
                i += 1;
            }
            "TO" => {
                to = Recipients::To(upper.get(i + 1).cloned().unwrap_or_default());
                i += 1;
            }
            w if w.starts_with('+') => to = Recipients::To(w[1..].to_string()),
            w if w.starts_with('-') => to = Recipients::AllBut(w[1..].to_string()),
            w => unknown.push(w.to_string()),
        }
        i += 1;
    }
    C::Press { to, grey, unknown }.into()
}

impl Session<'_> {
    /// Refuses a press block: its first line as written with the reason, then its text, so
    /// the sender sees which press did not go and can send it again.
    fn refuse_press(&mut self, draft: &PressDraft, why: impl Into<String>) {
        self.error(&draft.head, why);
        self.lines
            .extend(draft.lines.iter().map(|l| format!("  | {l}")));
    }

    /// Applies a command of this family.
    pub(in crate::judge) fn press_command(&mut self, line: &str, command: PressCommand) -> bool {
        match command {
            C::Press { to, grey, unknown } => {
                // A line with a word it does not know still opens the press, so its text
                // is held (and refused with it), never read as orders.
                self.press = Some(PressDraft {
                    head: line.trim().to_string(),
                    to,
                    grey,
                    lines: Vec::new(),
                    unknown,
                });
            }
            C::EndPress => self.error(line, "ENDPRESS without PRESS"),
        }
        true
    }
}

mod refused;
mod send;

#[cfg(test)]
mod tests;
