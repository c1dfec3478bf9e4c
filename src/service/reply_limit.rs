//! The per-hour reply limit's own mail: the one notice an address gets when the limit
//! leaves its replies out (`[limits] replies_per_hour`).

use super::Service;
use crate::mail::Outgoing;

/// Under this key, the notices to an address whose replies passed the hourly limit are
/// counted (one an hour).
pub(super) fn told_key(address: &str) -> String {
    format!("{address} told of the reply limit")
}

impl Service {
    /// The notice to an address whose replies passed `[limits] replies_per_hour`.
    pub(super) fn limit_notice(&self, to: &str, limit: i64) -> Outgoing {
        let lines = [
            format!(
                "herald has answered {limit} of your mails in the last hour, as many as it \
                 answers to one address in an hour."
            ),
            format!(
                "Your mails are still read and what they say is done, but they get no reply \
                 until fewer than {limit} replies went to you in the last hour."
            ),
            "This notice comes at most once an hour.".to_string(),
        ];
        Outgoing {
            to: to.to_string(),
            subject: format!("Reply limit reached ({limit} an hour)"),
            body: self.judge.templates.render(
                "notice.txt",
                minijinja::context! {
                    header => format!(":: Judge: {}", self.judge.address),
                    lines => lines,
                },
            ),
            in_reply_to: None,
            attachments: Vec::new(),
        }
    }
}
