//! Volume limits on press (issue 24: "Outgoing volume is bounded per game and per sender
//! (press blocks per mail, broadcasts and results per hour), with the Master told when a
//! limit bites"): at most [`Limits::press_per_mail`] press blocks in one mail, and at most
//! [`Limits::press_per_hour`] from one address in one game in an hour. A block past either
//! is refused in the sender's reply, with its text; the Master is told once an hour per game
//! when another sender's press is refused for it.

use chrono::Duration;

use crate::envelope::Outgoing;
use crate::judge::cmd::context::{PressDraft, Role, Session};

/// The limits on press (`[limits] press_per_mail`, `press_per_hour`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Press and broadcast blocks read from one mail; later ones are refused.
    pub press_per_mail: usize,
    /// Press and broadcast blocks from one address in one game in an hour.
    pub press_per_hour: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            press_per_mail: 10,
            press_per_hour: 30,
        }
    }
}

impl Session<'_> {
    /// Whether this press block may go under the limits; if not, it is refused in the reply
    /// (with its text, so it can be sent again later) and the Master told, once an hour.
    /// Counts the block either way.
    pub(in crate::judge) fn press_within_limits(&mut self, draft: &PressDraft) -> bool {
        let limits = self.judge.press_limits;
        self.press_blocks += 1;
        if self.press_blocks > limits.press_per_mail {
            let why = format!(
                "at most {} press blocks are read from one mail: this one was not sent",
                limits.press_per_mail
            );
            self.refuse_for_volume(draft, why);
            return false;
        }
        if self.game.is_none() {
            // Refused for that by `send_press`.
            return true;
        }
        let now = self.now;
        let from = self.letter.from.clone();
        let is_master = self.role == Role::Master;
        let volume = &mut self.game_mut().press_volume;
        volume.sent.retain(|(at, _)| now - *at < Duration::hours(1));
        let mine = volume.sent.iter().filter(|(_, by)| *by == from).count();
        if mine < limits.press_per_hour {
            volume.sent.push((now, from));
            return true;
        }
        let tell = !is_master && volume.told.is_none_or(|at| now - at >= Duration::hours(1));
        if tell {
            volume.told = Some(now);
        }
        let why = format!(
            "at most {} press blocks an hour are sent from one address in a game: this one was not sent",
            limits.press_per_hour
        );
        self.refuse_for_volume(draft, why);
        if tell {
            self.tell_master_of_press_limit(&from, limits.press_per_hour);
        }
        false
    }

    /// Refuses a press block for a limit: its first line with the reason, then its text.
    fn refuse_for_volume(&mut self, draft: &PressDraft, why: String) {
        self.error(&draft.head, why);
        self.lines
            .extend(draft.lines.iter().map(|l| format!("  | {l}")));
    }

    /// The Master's notice that the hourly press limit refused someone's press.
    fn tell_master_of_press_limit(&mut self, from: &str, limit: usize) {
        let judge = self.judge;
        let g = self.game();
        let lines = [
            format!(
                "{from} has sent {limit} press blocks in '{}' in the last hour, as many as herald sends from one address in a game in an hour ([limits] press_per_hour).",
                g.name
            ),
            "Their further press is refused (they are told in their replies) until fewer than that went out in the last hour.".to_string(),
            "This notice comes at most once an hour for this game.".to_string(),
        ];
        let mail = Outgoing {
            to: g.master.address.clone(),
            subject: judge.subject(g, "Press limit reached"),
            body: judge.templates.render(
                "notice.txt",
                minijinja::context! { header => judge.header(g), lines => lines },
            ),
            in_reply_to: None,
            attachments: Vec::new(),
        };
        self.effects.mails.push(mail);
    }
}
