//! An incoming mail reduced to what the judge needs: who, what about, and the text the
//! person typed (HTML-only mail is turned into text, a line per block: see [`super::html`];
//! attachments are ignored).

use mail_parser::{HeaderValue, MessageParser, MimeHeaders, PartType};
use sha2::{Digest, Sha256};

pub use crate::envelope::Letter;

/// Decodes a raw mail. Returns None when the bytes are not a mail at all, and when its From
/// is not exactly one well-formed address (`<a@b>@c`, two addresses, none), so that no
/// reply goes to a made-up address; a bounce naming the address that failed is read all the
/// same (`<MAILER-DAEMON>` without a domain is common there), as it is never answered. A
/// Reply-To that is not exactly one well-formed address is set aside for the From.
pub fn read_letter(raw: &[u8]) -> Option<Letter> {
    let msg = MessageParser::default().parse(raw)?;
    let from_ok = one_address(msg.from());
    let from = from_ok.clone().unwrap_or_else(|| {
        msg.from()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .map(|s| s.trim().to_ascii_lowercase())
            .unwrap_or_default()
    });
    let reply_to = one_address(msg.reply_to()).unwrap_or_else(|| from.clone());
    // The digest is of the text as mail-parser gives it (HTML flattened to one line), as
    // herald has always recorded it: a mail redelivered across an upgrade is still known.
    let flat = msg.body_text(0).map(|b| b.into_owned()).unwrap_or_default();
    let body_hash = hex(&Sha256::digest(flat.as_bytes()));
    let body = match msg.text_part(0).map(|part| &part.body) {
        Some(PartType::Html(html)) => super::html::html_to_text(html),
        _ => flat,
    };
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
    if let Some(p) = header("Precedence")
        .filter(|p| matches!(p.as_str(), "bulk" | "junk" | "list" | "auto_reply"))
    {
        automatic = Some(format!("Precedence: {p}"));
    }
    // Set by vacation responders that write no Auto-Submitted (whatever the value).
    for name in ["X-Autoreply", "X-Autorespond"] {
        if let Some(v) = header(name) {
            automatic = Some(format!("{name}: {}", clip(&v)));
        }
    }
    let subject = msg.subject().unwrap_or("").trim().to_string();
    if auto_reply_subject(&subject) {
        automatic = Some(format!("an auto-reply ('{}')", clip(&subject)));
    }
    let bounce = automatic.as_deref().is_some_and(|a| {
        a.contains("bounce") || a.contains("mailer-daemon") || a.contains("postmaster")
    });
    let bounce_for = if bounce {
        final_recipient(raw).or_else(|| failed_recipient(&body))
    } else {
        None
    };
    let bounce_refs = if bounce_for.is_some() {
        referred_ids(&msg, raw)
    } else {
        Vec::new()
    };
    // The topmost Received header: the one the server that delivered the mail wrote.
    let host = msg
        .headers()
        .iter()
        .find(|h| h.name().eq_ignore_ascii_case("Received"))
        .and_then(|h| raw.get(h.offset_start() as usize..h.offset_end() as usize))
        .and_then(|v| received_from(&String::from_utf8_lossy(v)));
    let authentication = msg
        .headers()
        .iter()
        .filter(|h| h.name().eq_ignore_ascii_case("Authentication-Results"))
        .take(super::authres::MOST_HEADERS)
        .filter_map(|h| raw.get(h.offset_start() as usize..h.offset_end() as usize))
        .map(super::authres::unfolded)
        .collect();
    if from_ok.is_none() && bounce_for.is_none() {
        return None;
    }
    Some(Letter {
        bounce_for,
        bounce_refs,
        host,
        authentication,
        unauthenticated: false,
        message_id,
        body_hash,
        from,
        reply_to,
        subject,
        body,
        automatic,
    })
}

/// Message-IDs a bounce refers to, at most this many.
const MOST_REFS: usize = 8;

/// The Message-IDs a bounce refers to, without angle brackets: its In-Reply-To and
/// References, the Message-ID of a returned mail attached whole (message/rfc822), and each
/// `Message-ID:` line below the bounce's own header (a text/rfc822-headers part, or the copy
/// a plain-text bounce quotes). At most [`MOST_REFS`], each once.
fn referred_ids(msg: &mail_parser::Message, raw: &[u8]) -> Vec<String> {
    let own = msg.message_id().unwrap_or("").trim().to_string();
    let mut ids: Vec<String> = Vec::new();
    let mut add = |id: &str| {
        let id = id
            .trim()
            .trim_start_matches('<')
            .trim_end_matches('>')
            .trim();
        if !id.is_empty() && id != own && ids.len() < MOST_REFS && !ids.iter().any(|i| i == id) {
            ids.push(id.to_string());
        }
    };
    for value in [msg.in_reply_to(), msg.references()] {
        if let Some(list) = value.as_text_list() {
            list.iter().for_each(|id| add(id));
        } else if let Some(id) = value.as_text() {
            add(id);
        }
    }
    for part in &msg.parts {
        if let mail_parser::PartType::Message(inner) = &part.body {
            if let Some(id) = inner.message_id() {
                add(id);
            }
        }
    }
    let text = String::from_utf8_lossy(raw);
    let below = text
        .find("\r\n\r\n")
        .or_else(|| text.find("\n\n"))
        .map_or("", |at| &text[at..]);
    for line in below.lines() {
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("message-id") {
                add(value);
            }
        }
    }
    ids
}

/// The sending host named by a `Received:` header (`from helo (name [192.0.2.7]) by …`): the
/// address in brackets of its `from` clause, when it is an IP address.
fn received_from(value: &str) -> Option<String> {
    let flat = value.split_whitespace().collect::<Vec<_>>().join(" ");
    let clause = flat.strip_prefix("from ")?.split(" by ").next()?;
    let (_, rest) = clause.split_once('[')?;
    let (inside, _) = rest.split_once(']')?;
    let ip = inside.trim().trim_start_matches("IPv6:");
    ip.parse::<std::net::IpAddr>().ok().map(|ip| ip.to_string())
}

/// How the subjects of out-of-office and vacation replies begin, lower case: Outlook's
/// "Automatic reply:" (and its German and French forms), "Out of Office", "Autoreply",
/// "Auto-Reply", German "Abwesenheitsnotiz". A person's subject seldom begins so.
const AUTO_REPLY_SUBJECTS: &[&str] = &[
    "automatic reply",
    "auto-reply",
    "auto reply",
    "autoreply",
    "out of office",
    "out of the office",
    "abwesenheitsnotiz",
    "automatische antwort",
    "réponse automatique",
];

/// Whether a subject is an auto-reply's (see [`AUTO_REPLY_SUBJECTS`]).
fn auto_reply_subject(subject: &str) -> bool {
    let lower = subject.to_lowercase();
    AUTO_REPLY_SUBJECTS.iter().any(|s| lower.starts_with(s))
}

/// At most 40 characters of a text, for a log line.
fn clip(text: &str) -> String {
    text.chars().take(40).collect()
}

/// The address in `field` when it holds exactly one, well formed; lower case.
fn one_address(field: Option<&mail_parser::Address>) -> Option<String> {
    let mut all = field?.iter();
    let first = all.next()?;
    if all.next().is_some() {
        return None;
    }
    let addr = first.address()?.trim();
    crate::envelope::is_address(addr).then(|| addr.to_ascii_lowercase())
}

/// The failed recipient of a bounce that is not a delivery report, read from its text:
/// qmail ("This is the qmail-send program", then `<addr>:` lines), Postfix ("This is the
/// mail system at host", then `<addr>: why`), Exim ("The following address(es) failed:",
/// then the address on an indented line) and sendmail ("The following addresses had
/// permanent fatal errors", then `<addr>`). The copy of the returned mail below is not read.
fn failed_recipient(body: &str) -> Option<String> {
    let mut lines = body.lines();
    let mut form = None;
    for line in lines.by_ref() {
        let l = line.trim();
        form = if l.starts_with("Hi. This is the qmail-send program")
            || l.starts_with("This is the mail system at host")
            || l.starts_with("This is the Postfix program at host")
        {
            Some(Form::AngleColon)
        } else if l.contains("following address(es) failed:") {
            Some(Form::Indented)
        } else if l.contains("following addresses had permanent fatal errors") {
            Some(Form::NextLine)
        } else {
            None
        };
        if form.is_some() {
            break;
        }
    }
    let form = form?;
    let address = |text: &str| -> Option<String> {
        let text = text.trim().trim_start_matches('<').trim_end_matches('>');
        text.parse::<lettre::Address>()
            .ok()
            .map(|_| text.to_ascii_lowercase())
    };
    for line in lines {
        if line.starts_with("---") {
            return None;
        }
        let found = match form {
            Form::AngleColon => line
                .strip_prefix('<')
                .and_then(|rest| rest.split_once(">:"))
                .and_then(|(addr, _)| address(addr)),
            Form::Indented => line
                .starts_with([' ', '\t'])
                .then(|| address(line))
                .flatten(),
            Form::NextLine if !line.trim().is_empty() => {
                return address(line.split_whitespace().next()?)
            }
            Form::NextLine => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// How a non-report bounce lists the failed address.
#[derive(Clone, Copy)]
enum Form {
    /// `<addr>:` at the start of a line (qmail, Postfix).
    AngleColon,
    /// The address alone on an indented line (Exim).
    Indented,
    /// The address on the first line after the heading (sendmail).
    NextLine,
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
    use super::{read_letter, Letter};

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

    /// Issue 24: "HTML-only mail with one `<div>` per line (Gmail, Apple Mail, Outlook on the
    /// web) becomes one line, so the sign-on fails". Each line stays a line.
    #[test]
    fn html_only_mail_keeps_its_lines() {
        let gmail = "From: Bob <bob@example.org>\r\nSubject: orders\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=\"UTF-8\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<div dir=3D\"ltr\">SIGNON Fgame pw<div>A Par-Bur</div><div>A Mar-Spa</div></div>=\r\n\r\n";
        let l = read_letter(gmail.as_bytes()).unwrap();
        let lines: Vec<&str> = l.body.lines().collect();
        assert_eq!(
            lines,
            ["SIGNON Fgame pw", "A Par-Bur", "A Mar-Spa"],
            "{:?}",
            l.body
        );
        // A multipart/alternative mail is read from its text part, as before.
        let both = "From: a@x.org\r\nSubject: s\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nplain text\r\n--b\r\nContent-Type: text/html\r\n\r\n<div>html</div>\r\n--b--\r\n";
        assert_eq!(
            read_letter(both.as_bytes()).unwrap().body.trim(),
            "plain text"
        );
    }

    /// Issue 24: "auto-replies marked only by `X-Autoreply`, `X-Autorespond`, `Precedence:
    /// auto_reply` or an "Out of Office" subject are answered".
    #[test]
    fn auto_replies_without_auto_submitted_are_marked() {
        for head in [
            "X-Autoreply: yes\nSubject: Re: orders",
            "X-Autorespond: Re: orders\nSubject: Re: orders",
            "Precedence: auto_reply\nSubject: Re: orders",
            "Subject: Out of Office: Re: orders",
            "Subject: Automatic reply: Re: orders",
            "Subject: AutoReply: I am away",
            "Subject: Abwesenheitsnotiz: Re: orders",
        ] {
            let l = letter(&format!(
                "From: a@x.org\n{head}\n\nI am away until Monday.\n"
            ))
            .unwrap();
            assert!(l.automatic.is_some(), "{head}");
        }
        let person =
            letter("From: a@x.org\nSubject: Re: out of office next week\n\nA Par H\n").unwrap();
        assert_eq!(person.automatic, None);
    }

    fn letter(raw: &str) -> Option<Letter> {
        read_letter(raw.replace('\n', "\r\n").as_bytes())
    }

    #[test]
    fn a_from_that_is_not_one_address_is_unreadable() {
        for from in [
            "<gm@master.example>@evil.example",
            "gm@master.example@evil.example",
            "a@x.org, b@y.org",
            "Ann",
            "undisclosed-recipients:;",
        ] {
            let raw = format!("From: {from}\nSubject: orders\n\nsignon fgame pw\n");
            assert_eq!(letter(&raw), None, "From: {from}");
        }
        let none = "Subject: orders\n\nsignon fgame pw\n";
        assert_eq!(letter(none), None);
        let named = letter("From: \"Ann, GM\" <Ann@X.org>\nSubject: s\n\nhi\n").unwrap();
        assert_eq!(named.from, "ann@x.org");
    }

    #[test]
    fn a_bounce_with_an_unqualified_sender_is_still_read() {
        let raw = "From: Mail Delivery Subsystem <MAILER-DAEMON>\nSubject: Returned mail\nContent-Type: multipart/report; report-type=delivery-status; boundary=b\n\n--b\nContent-Type: text/plain\n\nfailed\n--b\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.x.org\n\nFinal-Recipient: rfc822; gone@example.org\nAction: failed\nStatus: 5.1.1\n--b--\n";
        let l = letter(raw).unwrap();
        assert!(l.automatic.is_some());
        assert_eq!(l.bounce_for.as_deref(), Some("gone@example.org"));
    }

    #[test]
    fn a_bad_reply_to_falls_back_to_from() {
        for reply_to in [
            "<gm@master.example>@evil.example",
            "a@x.org, b@y.org",
            "nobody",
        ] {
            let raw = format!("From: ann@x.org\nReply-To: {reply_to}\nSubject: s\n\nhi\n");
            let l = letter(&raw).unwrap();
            assert_eq!(l.reply_to, "ann@x.org", "Reply-To: {reply_to}");
        }
    }

    #[test]
    fn a_reply_to_naming_herald_itself_is_set_aside() {
        let raw = "From: ann@x.org\nReply-To: Herald <Judge@Herald.test>\nSubject: s\n\nhi\n";
        let l = letter(raw).unwrap();
        assert_eq!(l.reply_to, "judge@herald.test");
        let l = l.without_own_reply_to("judge@herald.test");
        assert_eq!(l.reply_to, "ann@x.org");
        let other = letter("From: ann@x.org\nReply-To: b@y.org\nSubject: s\n\nhi\n").unwrap();
        assert_eq!(
            other.without_own_reply_to("judge@herald.test").reply_to,
            "b@y.org"
        );
    }

    #[test]
    fn a_qmail_bounce_names_the_failed_address() {
        let raw = "Return-Path: <>
From: MAILER-DAEMON@mail.example.net
To: judge@herald.test
Subject: failure notice
Date: 1 Dec 2026 12:00:05 -0000
Message-ID: <20261201120005.12345.qmail@mail.example.net>

Hi. This is the qmail-send program at mail.example.net.
I'm afraid I wasn't able to deliver your message to the following addresses.
This is a permanent error; I've given up. Sorry it didn't work out.

<Gone@Example.org>:
192.0.2.7 does not like recipient.
Remote host said: 550 5.1.1 <gone@example.org>: Recipient address rejected: User unknown
Giving up on 192.0.2.7.

--- Below this line is a copy of the message.

Return-Path: <judge@herald.test>
From: herald <judge@herald.test>
To: gone@example.org
Subject: Re: orders
Message-ID: <outbox-7.abc@herald.test>

<other@example.org>: is not an address that failed
";
        let l = letter(raw).unwrap();
        assert!(l.automatic.is_some());
        assert_eq!(l.bounce_for.as_deref(), Some("gone@example.org"));
        // The copy's Message-ID is what ties the bounce to herald's mail (issue 24).
        assert_eq!(l.bounce_refs, ["outbox-7.abc@herald.test"]);
    }

    #[test]
    fn a_bounce_names_the_message_ids_it_refers_to_and_a_mail_its_sending_host() {
        let raw = "Received: from mx.example.net (mx.example.net [192.0.2.7])\r\n\tby herald.test with ESMTP id 1; Tue, 1 Dec 2026 10:00:00 +0000\r\nReceived: from forged (forged [198.51.100.9]) by mx.example.net\r\nFrom: MAILER-DAEMON@example.net\r\nMessage-ID: <own@example.net>\r\nIn-Reply-To: <outbox-3.abc@herald.test>\r\nReferences: <a@x> <outbox-3.abc@herald.test>\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=b\r\n\r\n--b\r\nContent-Type: message/delivery-status\r\n\r\nFinal-Recipient: rfc822; gone@example.org\r\n--b\r\nContent-Type: message/rfc822\r\n\r\nFrom: judge@herald.test\r\nMessage-ID: <outbox-4.abc@herald.test>\r\n\r\nhi\r\n--b--\r\n";
        let l = read_letter(raw.as_bytes()).unwrap();
        assert_eq!(l.bounce_for.as_deref(), Some("gone@example.org"));
        assert_eq!(
            l.bounce_refs,
            [
                "outbox-3.abc@herald.test",
                "a@x",
                "outbox-4.abc@herald.test"
            ]
        );
        // The topmost Received header, written by the server that delivered it.
        assert_eq!(l.host.as_deref(), Some("192.0.2.7"));
        let plain = read_letter(b"From: a@x.org\r\nSubject: s\r\n\r\nhi\r\n").unwrap();
        assert_eq!(plain.host, None);
        assert!(plain.bounce_refs.is_empty());
    }

    #[test]
    fn a_postfix_plain_bounce_names_the_failed_address() {
        let raw = "From: MAILER-DAEMON@mx.example.org (Mail Delivery System)
Subject: Undelivered Mail Returned to Sender
To: judge@herald.test
Message-Id: <20261201120005.ABC123@mx.example.org>

This is the mail system at host mx.example.org.

I'm sorry to have to inform you that your message could not
be delivered to one or more recipients. It's attached below.

For further assistance, please send mail to postmaster.

If you do so, please include this problem report. You can
delete your own text from the attached returned message.

                   The mail system

<gone@example.org>: host mx2.example.org[192.0.2.9] said: 550 5.1.1
    <gone@example.org>: Recipient address rejected: User unknown in local
    recipient table (in reply to RCPT TO command)
";
        let l = letter(raw).unwrap();
        assert_eq!(l.bounce_for.as_deref(), Some("gone@example.org"));
    }

    #[test]
    fn an_exim_bounce_names_the_failed_address() {
        let raw = "Return-path: <>
From: Mail Delivery System <Mailer-Daemon@mx.example.net>
To: judge@herald.test
Subject: Mail delivery failed: returning message to sender
Auto-Submitted: auto-replied
Message-Id: <E1tAbCd-000123-4x@mx.example.net>

This message was created automatically by mail delivery software.

A message that you sent could not be delivered to one or more of its
recipients. This is a permanent error. The following address(es) failed:

  gone@example.org
    host mx.example.org [192.0.2.1]
    SMTP error from remote mail server after RCPT TO:<gone@example.org>:
    550 5.1.1 <gone@example.org>: Recipient address rejected: User unknown

------ This is a copy of the message, including all the headers. ------

From: herald <judge@herald.test>
To: gone@example.org
";
        let l = letter(raw).unwrap();
        assert!(l.automatic.is_some());
        assert_eq!(l.bounce_for.as_deref(), Some("gone@example.org"));
    }

    #[test]
    fn a_sendmail_plain_bounce_names_the_failed_address() {
        let raw = "From: Mail Delivery Subsystem <MAILER-DAEMON@mx.example.com>
To: judge@herald.test
Subject: Returned mail: see transcript for details
Auto-Submitted: auto-generated (failure)

The original message was received at Tue, 1 Dec 2026 12:00:00 GMT
from herald.test [192.0.2.3]

   ----- The following addresses had permanent fatal errors -----
<gone@example.org>
    (reason: 550 5.1.1 <gone@example.org>... User unknown)

   ----- Transcript of session follows -----
... while talking to mx.example.org.:
>>> RCPT To:<gone@example.org>
<<< 550 5.1.1 <gone@example.org>... User unknown
";
        let l = letter(raw).unwrap();
        assert_eq!(l.bounce_for.as_deref(), Some("gone@example.org"));
    }

    #[test]
    fn a_delay_warning_names_no_failed_address() {
        let raw = "From: Mail Delivery System <Mailer-Daemon@mx.example.net>
To: judge@herald.test
Subject: Warning: message 1tAbCd-000123-4x delayed 24 hours

This message was created automatically by mail delivery software.
A message that you sent has not yet been delivered to one or more of its
recipients after more than 24 hours on the queue on mx.example.net.

The address to which the message has not yet been delivered is:

  slow@example.org
    Delay reason: SMTP error from remote mail server after RCPT TO:<slow@example.org>
";
        let l = letter(raw).unwrap();
        assert!(l.automatic.is_some());
        assert_eq!(l.bounce_for, None);
    }
}
