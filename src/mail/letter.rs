//! An incoming mail reduced to what the judge needs: who, what about, and the text the
//! person typed (HTML-only mail is turned into text; attachments are ignored).

use mail_parser::{HeaderValue, MessageParser, MimeHeaders};
use sha2::{Digest, Sha256};

/// An incoming mail, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Letter {
    /// The Message-ID (a digest of the mail when it has none).
    pub message_id: String,
    /// A digest of the body, recorded with the Message-ID.
    pub body_hash: String,
    /// The From address, lower case.
    pub from: String,
    /// Where replies go: Reply-To, else From.
    pub reply_to: String,
    /// The subject.
    pub subject: String,
    /// The plain text of the body.
    pub body: String,
    /// Why this mail must not be answered (auto-reply, bounce, mailer daemon), if so.
    pub automatic: Option<String>,
    /// For a bounce: the address that could not be reached (its Final-Recipient).
    pub bounce_for: Option<String>,
}

/// Decodes a raw mail. Returns None when the bytes are not a mail at all.
pub fn read_letter(raw: &[u8]) -> Option<Letter> {
    let msg = MessageParser::default().parse(raw)?;
    let addr = |v: Option<&mail_parser::Address>| -> Option<String> {
        v.and_then(|a| a.first())
            .and_then(|a| a.address())
            .map(|s| s.trim().to_ascii_lowercase())
    };
    let from = addr(msg.from()).unwrap_or_default();
    let reply_to = addr(msg.reply_to()).unwrap_or_else(|| from.clone());
    let body = msg.body_text(0).map(|b| b.into_owned()).unwrap_or_default();
    let body_hash = hex(&Sha256::digest(body.as_bytes()));
    let message_id = match msg.message_id() {
        Some(id) if !id.trim().is_empty() => id.trim().to_string(),
        _ => format!("sha256:{}", hex(&Sha256::digest(raw))),
    };
    let header = |name: &str| msg.header_raw(name).map(|v| v.trim().to_ascii_lowercase());
    let mut automatic = None;
    if let Some(v) = header("Auto-Submitted") {
        if v != "no" {
            automatic = Some(format!("Auto-Submitted: {v}"));
        }
    }
    if let Some(ct) = msg.content_type() {
        if ct.ctype().eq_ignore_ascii_case("multipart")
            && ct
                .subtype()
                .is_some_and(|s| s.eq_ignore_ascii_case("report"))
        {
            automatic = Some("a delivery report (bounce)".into());
        }
    }
    let local = from.split('@').next().unwrap_or("");
    if from.is_empty() || matches!(local, "mailer-daemon" | "postmaster") {
        automatic = Some(format!("sent by '{from}'"));
    }
    if let Some(HeaderValue::Address(_)) | Some(HeaderValue::Text(_)) = msg.header("Return-Path") {
        if header("Return-Path").is_some_and(|r| r == "<>") {
            automatic = Some("a null sender (bounce)".into());
        }
    }
    if header("Precedence").is_some_and(|p| matches!(p.as_str(), "bulk" | "junk" | "list")) {
        automatic = Some("Precedence: bulk".into());
    }
    let bounce = automatic.as_deref().is_some_and(|a| {
        a.contains("bounce") || a.contains("mailer-daemon") || a.contains("postmaster")
    });
    let bounce_for = if bounce { final_recipient(raw) } else { None };
    Some(Letter {
        bounce_for,
        message_id,
        body_hash,
        from,
        reply_to,
        subject: msg.subject().unwrap_or("").trim().to_string(),
        body,
        automatic,
    })
}

/// The Final-Recipient (else Original-Recipient) of a delivery report.
fn final_recipient(raw: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(raw);
    let find = |field: &str| {
        text.lines().find_map(|line| {
            let (name, value) = line.split_once(':')?;
            if !name.trim().eq_ignore_ascii_case(field) {
                return None;
            }
            let addr = value
                .rsplit(';')
                .next()?
                .trim()
                .trim_matches(['<', '>'])
                .to_ascii_lowercase();
            addr.contains('@').then_some(addr)
        })
    };
    find("Final-Recipient").or_else(|| find("Original-Recipient"))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::read_letter;

    #[test]
    fn plain_mail_gives_sender_subject_and_text() {
        let raw = b"From: Ann Player <Ann@Example.org>\r\nTo: herald@localhost\r\nSubject: orders\r\nMessage-ID: <1@x>\r\n\r\nsignon fgame pw\r\nA Par-Bur\r\n";
        let l = read_letter(raw).unwrap();
        assert_eq!(l.from, "ann@example.org");
        assert_eq!(l.reply_to, "ann@example.org");
        assert_eq!(l.subject, "orders");
        assert_eq!(l.message_id, "1@x");
        assert!(l.body.contains("A Par-Bur"));
        assert_eq!(l.automatic, None);
    }

    #[test]
    fn reply_to_wins_and_html_only_mail_is_read_as_text() {
        let raw = b"From: a@x.org\r\nReply-To: b@y.org\r\nSubject: s\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>signon fgame pw</p><p>A Par-Bur</p>";
        let l = read_letter(raw).unwrap();
        assert_eq!(l.reply_to, "b@y.org");
        assert!(l.body.contains("A Par-Bur"), "{:?}", l.body);
    }

    #[test]
    fn auto_replies_and_bounces_are_marked() {
        let auto =
            b"From: a@x.org\r\nAuto-Submitted: auto-replied\r\nSubject: away\r\n\r\nI am away";
        assert!(read_letter(auto).unwrap().automatic.is_some());
        let daemon = b"From: MAILER-DAEMON@x.org\r\nSubject: failure\r\n\r\nundeliverable";
        assert!(read_letter(daemon).unwrap().automatic.is_some());
        let report = b"From: a@x.org\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nfailed\r\n--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.x.org\r\n\r\nFinal-Recipient: rfc822; Gone@Example.org\r\nAction: failed\r\nStatus: 5.1.1\r\n--b--\r\n";
        let l = read_letter(report).unwrap();
        assert!(l.automatic.is_some());
        assert_eq!(l.bounce_for.as_deref(), Some("gone@example.org"));
    }
}
