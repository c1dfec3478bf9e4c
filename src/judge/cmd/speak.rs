//! What a command adds to the reply and the record: a line refused with its reason (its
//! secret words hidden, by the command's row), a line of answer, a Master's action logged.

use super::context::Session;
use super::parse::without_secrets;
use crate::judge::Action;

impl Session<'_> {
    /// Refuses a line: the line as written, its secrets hidden, then why.
    pub(crate) fn error(&mut self, line: &str, why: impl Into<String>) {
        self.lines.push(without_secrets(line));
        self.lines.push(format!("  *** {}", why.into()));
        self.errors = true;
    }

    /// Adds a line to the reply.
    pub(crate) fn say(&mut self, text: impl Into<String>) {
        self.lines.push(text.into());
    }

    /// Records what was done (the Master's commands, takeovers) in the game's log.
    pub(crate) fn log(&mut self, what: impl Into<String>) {
        self.effects.actions.push(Action {
            game: self.game.clone(),
            actor: self.letter.from.clone(),
            what: what.into(),
        });
    }
}
