//! What became of one incoming mail, as the service reports it to its caller and records
//! it in the `mails` table.

use super::Work;
use crate::judge;

/// What became of one incoming mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ingested {
    /// Handled; this many mails queued, and what handling it cost.
    Handled(usize, Work),
    /// Seen before (same Message-ID): nothing changed.
    Duplicate,
    /// Not answered, and why (auto-reply, bounce, herald's own).
    Ignored(Unanswered),
    /// Kept in quarantine with the reason.
    Quarantined(String),
}

/// Why a mail was not answered (issue 26: "mail kinds as types"; this was its text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unanswered {
    /// The judge left it: an auto-reply or mailer daemon, or herald's own mail come back.
    Judge(judge::session::Ignored),
    /// A bounce of a mail herald sent to this address: recorded, the Masters told.
    Bounce(String),
    /// A bounce naming no mail herald sent to this address: nothing recorded.
    StrayBounce(String),
}

impl std::fmt::Display for Unanswered {
    /// How the mail is recorded in the `mails` table.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unanswered::Judge(why) => judge::session::Outcome::Ignored(why.clone()).fmt(f),
            Unanswered::Bounce(_) => f.write_str("ignored: a bounce"),
            Unanswered::StrayBounce(_) => {
                f.write_str("ignored: a bounce naming no mail herald sent")
            }
        }
    }
}
