//! The two shapes a mail takes between the edges and the judge, in a module of their own so
//! that neither side imports the other: a [`Letter`] is an incoming mail reduced to what the
//! judge reads (made by `mail`), an [`Outgoing`] a mail the judge wants sent (queued by
//! `store`, written by `mail`).

use std::sync::Arc;

/// An incoming mail, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Letter {
    /// The Message-ID (a digest of the mail when it has none).
    pub message_id: String,
    /// A digest of the body, recorded with the Message-ID.
    pub body_hash: String,
    /// The From address, lower case (well formed, except in a bounce: see [`read_letter`]).
    pub from: String,
    /// Where replies go: Reply-To when it is one well-formed address, else From.
    pub reply_to: String,
    /// The subject.
    pub subject: String,
    /// The plain text of the body.
    pub body: String,
    /// Why this mail must not be answered (auto-reply, bounce, mailer daemon), if so.
    pub automatic: Option<String>,
    /// For a bounce: the address that could not be reached (its Final-Recipient).
    pub bounce_for: Option<String>,
    /// For a bounce: the Message-IDs it refers to (In-Reply-To, References, and those of
    /// the returned mail's headers), at most a few; how herald knows it sent the mail.
    pub bounce_refs: Vec<String>,
    /// The host the mail came from, where the topmost `Received:` header (written by the
    /// server that delivered it to herald) names it: part of who is guessing passwords.
    pub host: Option<String>,
    /// The values of its `Authentication-Results` headers, topmost first, within
    /// [`crate::mail::authres`]'s bounds: what the receiving mail servers said of it.
    pub authentication: Vec<String>,
    /// The keeper's mail server (`[inbox] authserv_id`) did not pass its From address
    /// ([`crate::mail::authres::passes`]): the mail is not taken as from a seat's own
    /// address, whose wrong passwords a lock spares. Always false without an authserv_id.
    pub unauthenticated: bool,
}

/// Whether `text` is one well-formed mail address (an addr-spec such as `ann@example.org`):
/// what herald can send to. The same test the edges apply to a From or a Reply-To, so a
/// mail from an address herald could not answer is unreadable rather than answered nowhere.
pub fn is_address(text: &str) -> bool {
    // ASCII only: an internationalised address needs SMTPUTF8 end to end, which herald's
    // mail does not promise, so it could not be answered reliably.
    // A domain literal (`x@[127.0.0.1]`) parses but cannot be an envelope recipient.
    text.is_ascii()
        && text.trim() == text
        && !text.contains(['[', ']'])
        && text.parse::<lettre::Address>().is_ok()
}

impl Letter {
    /// The letter with a Reply-To that names `own` (herald's own address) set aside, so a
    /// reply goes to the From address rather than back to herald.
    pub fn without_own_reply_to(mut self, own: &str) -> Letter {
        if self.reply_to.eq_ignore_ascii_case(own.trim()) {
            self.reply_to = self.from.clone();
        }
        self
    }
}

/// What a queued mail is, where its delivery failing for good matters: an ordinary mail's
/// failure is reported to the keeper and the Masters concerned; a report of an undeliverable
/// mail is not reported in turn (so a report to a dead address cannot bring another).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MailKind {
    /// Any mail herald sends.
    #[default]
    Ordinary,
    /// A report that a mail could not be delivered.
    Undeliverable,
}

impl MailKind {
    /// The word the outbox keeps (`migrations/0007_outbox_kind.sql` allows only these).
    pub fn word(self) -> &'static str {
        match self {
            MailKind::Ordinary => "ordinary",
            MailKind::Undeliverable => "undeliverable",
        }
    }

    /// The kind of a stored word: the outbox's CHECK allows no other than these two.
    pub fn from_word(word: &str) -> MailKind {
        match word {
            "undeliverable" => MailKind::Undeliverable,
            _ => MailKind::Ordinary,
        }
    }
}

/// A mail to send.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Outgoing {
    /// The recipient.
    pub to: String,
    /// The subject.
    pub subject: String,
    /// The body text (LF line ends).
    pub body: String,
    /// The Message-ID of the mail this answers, if any.
    pub in_reply_to: Option<String>,
    /// Files sent with the text (a picture of the board, a calendar entry), in order; none
    /// makes a plain text mail.
    #[serde(default)]
    pub attachments: Vec<Attachment>,
}

/// A file sent with a mail. The bytes are shared, not copied: a picture drawn once for a
/// phase goes in every player's copy of the results (and is stored once, by its digest).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Attachment {
    /// The file name the reader sees (`board.png`).
    pub name: String,
    /// The MIME type, with any parameters (`image/png`, `text/calendar; method=PUBLISH`).
    pub content_type: String,
    /// The file.
    #[serde(with = "shared_bytes")]
    pub bytes: Arc<[u8]>,
    /// For a picture of the board shown in the mail's body (issue 27: "an HTML alternative
    /// with the image inline"), its description (the alt text, naming game and phase);
    /// `None` for a file that is only attached.
    #[serde(default)]
    pub inline: Option<String>,
}

impl Attachment {
    /// An attachment; `bytes` may be a `Vec<u8>` or an `Arc<[u8]>` already shared.
    pub fn new(
        name: impl Into<String>,
        content_type: impl Into<String>,
        bytes: impl Into<Arc<[u8]>>,
    ) -> Attachment {
        Attachment {
            name: name.into(),
            content_type: content_type.into(),
            bytes: bytes.into(),
            inline: None,
        }
    }
}

/// `Arc<[u8]>` through serde as a byte sequence (serde's `rc` feature is not enabled).
mod shared_bytes {
    use std::sync::Arc;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(bytes: &Arc<[u8]>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(bytes)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<[u8]>, D::Error> {
        Vec::<u8>::deserialize(d).map(Arc::from)
    }
}
