//! What the sign-in page says after a post: the post answers `303` to `/signin?said=…`
//! (post/redirect/get), and the page words it. The query carries a fixed word and, for a
//! refusal that ends, the time it ends; never text from the request.

use chrono::{DateTime, Utc};

use crate::judge::deadline;

/// The line that ends every refusal for guessing: the web's locks never stop the mail.
pub(super) const MAIL_WORKS: &str = "Orders by mail from your registered address still work.";

/// What the sign-in page says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Said {
    /// No such game or seat, or a wrong password.
    Wrong,
    /// The power was not one letter.
    Letter,
    /// This client gave too many wrong passwords in the game, until then.
    Client(DateTime<Utc>),
    /// The seat is refused on the web (see [`super::guesses`]), until then.
    Seat(DateTime<Utc>),
    /// This client's password checks for the hour (or the strangers') are spent.
    Busy(DateTime<Utc>),
    /// The same form was posted before.
    Sent,
    /// The seat's password changed since the session signed in.
    Changed,
}

impl Said {
    /// The query of the page that says it.
    pub fn query(self) -> String {
        let (word, until) = match self {
            Said::Wrong => ("wrong", None),
            Said::Letter => ("letter", None),
            Said::Client(t) => ("client", Some(t)),
            Said::Seat(t) => ("seat", Some(t)),
            Said::Busy(t) => ("busy", Some(t)),
            Said::Sent => ("sent", None),
            Said::Changed => ("changed", None),
        };
        match until {
            Some(t) => format!("said={word}&until={}", t.timestamp()),
            None => format!("said={word}"),
        }
    }

    /// What a query says, if it is one [`Said::query`] makes.
    pub fn parse(query: &str) -> Option<Said> {
        let mut word = None;
        let mut until = None;
        for (k, v) in query.split('&').filter_map(|kv| kv.split_once('=')) {
            match k {
                "said" => word = Some(v),
                "until" => {
                    until = v
                        .parse::<i64>()
                        .ok()
                        .and_then(|s| DateTime::from_timestamp(s, 0))
                }
                _ => {}
            }
        }
        let at = || until.unwrap_or(DateTime::UNIX_EPOCH);
        Some(match word? {
            "wrong" => Said::Wrong,
            "letter" => Said::Letter,
            "client" => Said::Client(at()),
            "seat" => Said::Seat(at()),
            "busy" => Said::Busy(at()),
            "sent" => Said::Sent,
            "changed" => Said::Changed,
            _ => return None,
        })
    }

    /// The line the page shows.
    pub fn line(self) -> String {
        let show = |t: DateTime<Utc>| deadline::show(t, chrono_tz::Tz::UTC);
        match self {
            Said::Wrong => "No such game or seat, or a wrong password.".into(),
            Said::Letter => "Give the power's letter, or M for the Master.".into(),
            Said::Client(t) => format!(
                "Too many wrong passwords from your address: sign-in here is refused until {}. {MAIL_WORKS}",
                show(t)
            ),
            Said::Seat(t) => format!(
                "Too many wrong passwords for this seat: sign-in on the web is refused until {}. {MAIL_WORKS}",
                show(t)
            ),
            Said::Busy(t) => format!(
                "Too many password checks this hour: try again after {}. {MAIL_WORKS}",
                show(t)
            ),
            Said::Sent => "That form was sent already, and nothing was done again: sign in below if you are not signed in.".into(),
            Said::Changed => "The seat's password has changed since you signed in: sign in with the new one.".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_word_reads_back() {
        let t = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        for said in [
            Said::Wrong,
            Said::Letter,
            Said::Client(t),
            Said::Seat(t),
            Said::Busy(t),
            Said::Sent,
            Said::Changed,
        ] {
            assert_eq!(Said::parse(&said.query()), Some(said));
        }
        assert_eq!(Said::parse("said=<script>"), None);
        assert_eq!(Said::parse(""), None);
    }
}
