//! Why a press block was not sent: each reason a kind of its own, worded once.

use std::fmt;

/// Why a press block was not sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The mail signed on to no game.
    NotSignedOn,
    /// The sender is no power, Master or observer (a player who has only joined).
    NoSender,
    /// `PRESS` with no recipients.
    NoTo,
    /// A recipient letter that is nobody in the game.
    NoOne(char),
    /// Every recipient was the sender.
    NoRecipients,
    /// The game has no press between players.
    PressOff,
    /// Press between players in a retreat or adjustment phase, which the game forbids.
    NoMinorPress,
    /// Partial press in a game that allows broadcasts only.
    BroadcastOnly,
    /// An observer's press to anyone but the Master.
    ObserverToMaster,
    /// Grey press in a game without it.
    GreyOff,
    /// Grey press to someone this mail also sends something that names the sender.
    GreyBesideNamed,
    /// White press to someone who got this mail's grey press.
    NamedBesideGrey,
    /// The dip point it costs could not be paid.
    Unpaid(String),
    /// Words of the PRESS line that are no press word (as written, upper case).
    UnknownWords(Vec<String>),
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::NotSignedOn => f.write_str("sign on before sending press"),
            Refused::NoSender => f.write_str("press comes from a power, the Master or an observer"),
            Refused::NoTo => f.write_str(
                "PRESS without TO sends nothing: write PRESS TO <letters> or BROADCAST",
            ),
            Refused::NoOne(c) => write!(f, "'{c}' is no one in this game"),
            Refused::UnknownWords(words) => write!(
                f,
                "the press was not sent: {} {} no press word; a PRESS or BROADCAST line takes {}",
                words
                    .iter()
                    .map(|w| format!("'{w}'"))
                    .collect::<Vec<_>>()
                    .join(", "),
                if words.len() == 1 { "is" } else { "are" },
                super::PRESS_WORDS
            ),
            Refused::NoRecipients => f.write_str("the press has no recipients"),
            Refused::PressOff => f.write_str(
                "press is off in this game: only press to and from the Master is allowed",
            ),
            Refused::NoMinorPress => f.write_str(
                "no minor press in this game: in retreats and adjustments press goes only to and from the Master (PRESS TO M)",
            ),
            Refused::BroadcastOnly => f.write_str("only broadcast press is allowed in this game"),
            Refused::ObserverToMaster => {
                f.write_str("observers may send press to the Master only")
            }
            Refused::GreyOff => f.write_str(
                "grey press is not allowed in this game (SET PRESS GREY allows it)",
            ),
            Refused::GreyBesideNamed => f.write_str(
                "grey press was not sent: this mail also sends a recipient something that names you (white press or a notice), and both would arrive together; send grey press in a mail of its own",
            ),
            Refused::NamedBesideGrey => f.write_str(
                "this press was not sent: it goes to someone who got your grey press from this mail, and both would arrive together; send it in another mail",
            ),
            Refused::Unpaid(why) => write!(f, "{why}: the press was not sent"),
        }
    }
}
