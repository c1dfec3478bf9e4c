//! A mail herald sends, and its RFC 5322 form. herald is strict in what it sends: plain
//! UTF-8 text, CRLF lines of at most 998 octets (quoted-printable or base64 when the text
//! needs it), no control characters, `Auto-Submitted: auto-replied` so that auto-responders
//! stay quiet. lettre's message builder writes the headers (encoded words, folding) and the
//! body. A mail with attachments is multipart/mixed: the text first, then each file in
//! base64 as an attachment with its file name. A picture of the board marked to be shown
//! (`Attachment::inline`) makes the text multipart/alternative: the plain text as it is,
//! and an HTML page showing the picture above the same text.

use chrono::{DateTime, Utc};
use lettre::message::header::{self, ContentTransferEncoding, Header, HeaderName, HeaderValue};
use lettre::message::{Body, Mailbox, MultiPart, SinglePart};
use lettre::Address;
use sha2::Digest;

pub use crate::envelope::{Attachment, Outgoing};

/// Why a mail cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The recipient is not one mail address.
    #[error("recipient '{0}' is not a mail address")]
    Recipient(String),
    /// herald's own address (`[judge] address`) is not a mail address.
    #[error("sender '{0}' is not a mail address")]
    Sender(String),
    /// An attachment cannot be written (its content type is not a MIME type).
    #[error("attachment '{name}' cannot be written: {why}")]
    Attachment {
        /// The attachment's file name.
        name: String,
        /// Why.
        why: String,
    },
    /// lettre refused the message.
    #[error("the mail could not be built: {0}")]
    Build(String),
    /// The mail is larger than herald sends (`[limits] send_bytes`).
    #[error(
        "the mail is {size} bytes, text and files; herald sends mails of at most {limit} bytes"
    )]
    TooLarge {
        /// Its text and files, in bytes.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// Writing the mail failed inside herald or lettre (a bug); it is not tried again.
    #[error("herald failed while writing the mail: {0}")]
    Failed(String),
}

/// `Auto-Submitted: auto-replied` (RFC 3834): every mail herald sends answers a mail or a
/// deadline, and auto-responders must not answer it in turn.
#[derive(Clone, Debug)]
struct AutoReplied;

impl Header for AutoReplied {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("Auto-Submitted")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        if s.trim().eq_ignore_ascii_case("auto-replied") {
            Ok(AutoReplied)
        } else {
            Err(format!("Auto-Submitted: {s} is not auto-replied").into())
        }
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "auto-replied".into())
    }
}

/// The Subject. lettre folds it at spaces and encodes what is not ASCII; a word too long
/// for any line (past 900 octets, nowhere to fold) makes the whole subject RFC 2047 base64
/// words instead, which may be cut anywhere and are joined again by the reader.
#[derive(Clone, Debug)]
struct Subject(String);

impl Header for Subject {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("Subject")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Subject(s.to_string()))
    }

    fn display(&self) -> HeaderValue {
        if self.0.split(' ').all(|word| word.len() <= 900) {
            return HeaderValue::new(Self::name(), self.0.clone());
        }
        let mut words = Vec::new();
        let mut rest = self.0.as_str();
        while !rest.is_empty() {
            let mut cut = rest.len().min(42);
            while !rest.is_char_boundary(cut) {
                cut -= 1;
            }
            words.push(format!("=?utf-8?b?{}?=", base64(&rest.as_bytes()[..cut])));
            rest = &rest[cut..];
        }
        HeaderValue::dangerous_new_pre_encoded(Self::name(), self.0.clone(), words.join("\r\n "))
    }
}

impl Outgoing {
    /// The mail as bytes, from `from` (`name <address>`), with a stable Message-ID so a
    /// resend is recognisable. Control characters are dropped (in the body, tab and line
    /// ends stay); a recipient that is not one well-formed address is refused, so no
    /// header can be slipped in through it.
    pub fn render(
        &self,
        from_name: &str,
        from_addr: &str,
        message_id: &str,
        date: DateTime<Utc>,
    ) -> Result<Vec<u8>, RenderError> {
        let to: Address = self
            .to
            .trim()
            .parse()
            .map_err(|_| RenderError::Recipient(self.to.clone()))?;
        let from: Address = from_addr
            .trim()
            .parse()
            .map_err(|_| RenderError::Sender(from_addr.to_string()))?;
        let name = one_line(from_name);
        let mut mail = lettre::Message::builder()
            .from(Mailbox::new((!name.is_empty()).then_some(name), from))
            .to(Mailbox::new(None, to))
            .header(Subject(one_line(&self.subject)))
            .date(date.into())
            .message_id(Some(format!("<{}>", msg_id(message_id))));
        if let Some(r) = self.in_reply_to.as_deref().map(msg_id) {
            // Only a thread hint: an id too long for one line is left out.
            if !r.is_empty() && r.len() <= 900 {
                // References too, which some clients thread by instead (RFC 5322, 3.6.4).
                mail = mail
                    .in_reply_to(format!("<{r}>"))
                    .references(format!("<{r}>"));
            }
        }
        let body = crlf_text(&self.body);
        let text = |body: String| {
            SinglePart::builder()
                .header(header::ContentType::TEXT_PLAIN)
                .body(body)
        };
        let mail = mail.header(AutoReplied);
        let mail = if self.attachments.is_empty() {
            mail.singlepart(text(body))
        } else {
            // The line end before a boundary belongs to the boundary: one more keeps the
            // text as a reader sees it in a plain mail, ending in a line end.
            // The boundaries are made from the content, so copies of one mail to several
            // people are the same bytes apart from To (nothing random tells them apart).
            let mut digest = sha2::Sha256::new();
            digest.update(body.as_bytes());
            for file in &self.attachments {
                digest.update(file.name.as_bytes());
                digest.update(&file.bytes[..]);
            }
            let hex: String = digest.finalize()[..16]
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            // The pictures marked to be shown go in the body, in order (a world's overview
            // and regions); the other files are attached after them, as before.
            let shown: Vec<&Attachment> = self
                .attachments
                .iter()
                .filter(|f| f.inline.is_some())
                .collect();
            let files = self
                .attachments
                .iter()
                .enumerate()
                .filter(|(_, f)| f.inline.is_none());
            let mixed = || {
                MultiPart::builder()
                    .kind(lettre::message::MultiPartKind::Mixed)
                    .boundary(format!("herald-{hex}"))
            };
            if shown.is_empty() {
                let mut parts = mixed().singlepart(text(body + "\r\n"));
                for (_, file) in files {
                    parts = parts.singlepart(attachment_part(file)?);
                }
                mail.multipart(parts)
            } else {
                let shown = shown_pictures(&shown, body, &hex)?;
                if files.clone().next().is_none() {
                    mail.multipart(shown)
                } else {
                    let mut parts = mixed().multipart(shown);
                    for (_, file) in files {
                        parts = parts.singlepart(attachment_part(file)?);
                    }
                    mail.multipart(parts)
                }
            }
        }
        .map_err(|e| RenderError::Build(e.to_string()))?;
        Ok(mail.formatted())
    }

    /// [`Outgoing::render`] for a mail of at most `limit` bytes (text and files, measured
    /// before anything is written); a failure inside the writing (a panic in herald or
    /// lettre) is an error too, so that a mail that cannot be written is marked failed
    /// with its reason rather than tried again at every round.
    pub fn render_within(
        &self,
        limit: usize,
        from_name: &str,
        from_addr: &str,
        message_id: &str,
        date: DateTime<Utc>,
    ) -> Result<Vec<u8>, RenderError> {
        // A picture shown in the body brings the text a second time, escaped, in HTML.
        let page = if self.attachments.iter().any(|f| f.inline.is_some()) {
            super::page::escape(&self.body).len()
        } else {
            0
        };
        let size = self.body.len()
            + page
            + self
                .attachments
                .iter()
                .map(|a| a.bytes.len())
                .sum::<usize>();
        if size > limit {
            return Err(RenderError::TooLarge { size, limit });
        }
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.render(from_name, from_addr, message_id, date)
        }))
        .unwrap_or_else(|panic| {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            Err(RenderError::Failed(why))
        })
    }
}

/// The text of a mail as lettre is to be given it: control characters dropped (tab and line
/// ends stay) and every line ended with CRLF, in one pass. lettre turns a text's bare LFs
/// into CRLF by inserting a `\r` before each into the whole string (`Body::new`,
/// `in_place_crlf_line_endings` in lettre 0.11): one move of the rest of the text per line,
/// quadratic in the size of the mail. Given CRLF already, it finds nothing to insert.
fn crlf_text(body: &str) -> String {
    let mut out = String::with_capacity(body.len() + body.len() / 16 + 2);
    for (i, line) in body.lines().enumerate() {
        if i > 0 {
            out.push_str("\r\n");
        }
        out.extend(line.chars().filter(|c| *c == '\t' || !c.is_control()));
    }
    out
}

/// One attachment as a MIME part: its type, `Content-Disposition: attachment` with the file
/// name (RFC 2231 encoded where it needs to be), and the bytes in base64, so they arrive
/// exactly as they were whatever they hold.
fn attachment_part(file: &Attachment) -> Result<SinglePart, RenderError> {
    let refused = |why: String| RenderError::Attachment {
        name: file.name.clone(),
        why,
    };
    let content_type = header::ContentType::parse(&one_line(&file.content_type))
        .map_err(|e| refused(format!("content type '{}': {e}", file.content_type)))?;
    Ok(SinglePart::builder()
        .header(content_type)
        .header(header::ContentDisposition::attachment(&file_name(file)))
        .body(file_body(file)?))
}

/// A file's name on one line, `attachment` when it has none.
fn file_name(file: &Attachment) -> String {
    let name = one_line(&file.name);
    if name.is_empty() {
        "attachment".into()
    } else {
        name
    }
}

/// A file's bytes in base64, so they arrive exactly as they were whatever they hold.
fn file_body(file: &Attachment) -> Result<Body, RenderError> {
    Body::new_with_encoding(file.bytes.to_vec(), ContentTransferEncoding::Base64).map_err(|_| {
        RenderError::Attachment {
            name: file.name.clone(),
            why: "cannot be encoded in base64".into(),
        }
    })
}

/// A text with pictures shown in its body (issue 27, point 5: "an HTML alternative with
/// the image inline ... and keeps the plain text for text-only clients"):
/// multipart/alternative of the text exactly as a mail without the pictures has it, and
/// multipart/related of an HTML page (the pictures at the top in order, each fitted to the
/// window, then the same text, escaped, in a `<pre>`) with the PNGs it names by `cid:`. Each
/// PNG part is `inline` with its file name, so a text-only client lists it as a file to
/// open or save.
fn shown_pictures(
    pictures: &[&Attachment],
    body: String,
    hex: &str,
) -> Result<MultiPart, RenderError> {
    // No boundary begins with another (`herald-`, `herald_a_`, `herald_r_`): a reader may
    // take a line that merely starts with an outer boundary for it (RFC 2046, 5.1.1).
    let cids: Vec<String> = (0..pictures.len())
        .map(|i| match i {
            0 => format!("board-{hex}@herald"),
            _ => format!("board-{hex}-{}@herald", i + 1),
        })
        .collect();
    let shown: Vec<(&str, &str)> = cids
        .iter()
        .zip(pictures)
        .map(|(cid, p)| (cid.as_str(), p.inline.as_deref().unwrap_or("")))
        .collect();
    let html = crlf_text(&super::page::page(&shown, &body));
    let mut related = MultiPart::builder()
        .kind(lettre::message::MultiPartKind::Related)
        .boundary(format!("herald_r_{hex}"))
        .singlepart(
            SinglePart::builder()
                .header(header::ContentType::TEXT_HTML)
                .body(html + "\r\n"),
        );
    for (picture, cid) in pictures.iter().zip(&cids) {
        let content_type =
            header::ContentType::parse(&one_line(&picture.content_type)).map_err(|e| {
                RenderError::Attachment {
                    name: picture.name.clone(),
                    why: format!("content type '{}': {e}", picture.content_type),
                }
            })?;
        related = related.singlepart(
            SinglePart::builder()
                .header(content_type)
                .header(header::ContentDisposition::inline_with_name(&file_name(
                    picture,
                )))
                .header(header::ContentId::from(format!("<{cid}>")))
                .body(file_body(picture)?),
        );
    }
    Ok(MultiPart::builder()
        .kind(lettre::message::MultiPartKind::Alternative)
        .boundary(format!("herald_a_{hex}"))
        .singlepart(
            SinglePart::builder()
                .header(header::ContentType::TEXT_PLAIN)
                .body(body + "\r\n"),
        )
        .multipart(related))
}

/// Header text on one line: line ends and tabs become spaces, other control characters go.
fn one_line(text: &str) -> String {
    text.chars()
        .filter_map(|c| match c {
            '\r' | '\n' | '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect::<String>()
        .trim()
        .to_string()
}

/// A Message-ID of printable ASCII, without its angle brackets.
fn msg_id(id: &str) -> String {
    id.chars()
        .filter(|c| c.is_ascii_graphic() && !matches!(c, '<' | '>'))
        .collect()
}

fn base64(bytes: &[u8]) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(TABLE[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-12-01T12:00:00Z")
            .unwrap()
            .with_timezone(&Utc)
    }

    fn mail(to: &str, subject: &str, body: &str) -> Outgoing {
        Outgoing {
            to: to.into(),
            subject: subject.into(),
            body: body.into(),
            in_reply_to: Some("<1@x>".into()),
            attachments: Vec::new(),
        }
    }

    fn render(m: &Outgoing) -> Vec<u8> {
        m.render("herald", "herald@localhost", "7.herald@localhost", date())
            .unwrap()
    }

    /// The mail as a reader sees it: (header block as written, decoded subject, decoded body).
    fn read_back(bytes: &[u8]) -> (String, String, String) {
        let text = String::from_utf8(bytes.to_vec()).unwrap();
        let head = text.split_once("\r\n\r\n").unwrap().0.to_string();
        let msg = mail_parser::MessageParser::default().parse(bytes).unwrap();
        let subject = msg.subject().unwrap_or("").to_string();
        let body = msg.body_text(0).unwrap().replace("\r\n", "\n");
        (head, subject, body)
    }

    #[test]
    fn renders_headers_and_crlf_body() {
        let text = String::from_utf8(render(&mail("a@x.org", "Re: orders", "line one\nline two")))
            .unwrap();
        assert!(
            text.starts_with(
                "From: herald <herald@localhost>\r\nTo: a@x.org\r\nSubject: Re: orders\r\n"
            ),
            "{text}"
        );
        for line in [
            "Date: Tue, 01 Dec 2026 12:00:00 +0000\r\n",
            "Message-ID: <7.herald@localhost>\r\n",
            "In-Reply-To: <1@x>\r\n",
            "References: <1@x>\r\n",
            "Auto-Submitted: auto-replied\r\n",
            "MIME-Version: 1.0\r\n",
            "Content-Type: text/plain; charset=utf-8\r\n",
            "Content-Transfer-Encoding: 7bit\r\n",
        ] {
            assert!(text.contains(line), "{line:?} missing in {text}");
        }
        assert!(text.ends_with("\r\n\r\nline one\r\nline two\r\n"), "{text}");
    }

    #[test]
    fn non_ascii_subjects_and_bodies_are_encoded_and_read_back() {
        let bytes = render(&mail("a@x.org", "Re: Ordres – été", "Müller: A Mün H\n"));
        assert!(bytes.is_ascii());
        let (head, subject, body) = read_back(&bytes);
        assert!(head.contains("Subject: Re: Ordres =?utf-8?b?"), "{head}");
        assert_eq!(subject, "Re: Ordres – été");
        assert_eq!(body, "Müller: A Mün H\n");
    }

    #[test]
    fn no_line_is_longer_than_998_octets() {
        let long = format!("{}\n{}é\nshort", "x".repeat(2500), "Ab ".repeat(700));
        let subjects = [
            format!("Re: {}", "s".repeat(1200)),
            format!("Re: {} press", "é".repeat(600)),
            format!("Re: {}", "word ".repeat(400).trim_end()),
        ];
        for subject in subjects {
            let mut m = mail("a@x.org", &subject, &long);
            m.in_reply_to = Some(format!("<{}@x>", "i".repeat(1500)));
            let bytes = render(&m);
            let text = String::from_utf8(bytes.clone()).unwrap();
            for line in text.split("\r\n") {
                assert!(line.len() <= 998, "a line of {} octets", line.len());
            }
            assert!(!text.replace("\r\n", "").contains('\n'), "a bare LF");
            let (_, read, body) = read_back(&bytes);
            assert_eq!(read, subject);
            assert_eq!(body.trim_end(), long);
        }
    }

    #[test]
    fn control_characters_never_reach_a_header_or_the_body() {
        let bytes = render(&mail(
            "a@x.org",
            "Re: x\r\nBcc: evil@y.org\0\u{1b}[31m",
            "A Par H\0\n\tF Bre\u{7} H\rX\u{85}\n\u{1b}[2J",
        ));
        let text = String::from_utf8(bytes.clone()).unwrap();
        let (head, subject, body) = read_back(&bytes);
        assert!(
            text.chars()
                .all(|c| !c.is_control() || matches!(c, '\r' | '\n' | '\t')),
            "{text:?}"
        );
        assert!(!head.contains("\r\nBcc:"), "{head}");
        assert!(!head.contains('\t'), "{head}");
        assert_eq!(subject, "Re: x  Bcc: evil@y.org[31m");
        assert_eq!(body, "A Par H\n\tF Bre HX\n[2J\n");
    }

    /// A PNG-like file (every byte value, NULs and lone CR/LF among them) and a calendar.
    fn with_files() -> Outgoing {
        let png: Vec<u8> = b"\x89PNG\r\n\x1a\n"
            .iter()
            .copied()
            .chain((0..5000u32).map(|i| (i * 7 % 256) as u8))
            .collect();
        let ics = "BEGIN:VCALENDAR\nVERSION:2.0\r\nEND:VCALENDAR\n";
        let mut m = mail("a@x.org", "Results", "Spring 1901 results\n");
        m.attachments = vec![
            Attachment::new("board.png", "image/png", png),
            Attachment::new(
                "deadline.ics",
                "text/calendar; charset=utf-8; method=PUBLISH",
                ics.as_bytes().to_vec(),
            ),
        ];
        m
    }

    #[test]
    fn attachments_make_a_mixed_mail_with_the_text_first() {
        let m = with_files();
        let bytes = render(&m);
        let text = String::from_utf8(bytes.clone()).unwrap();
        let head = text.split_once("\r\n\r\n").unwrap().0;
        assert!(head.contains("Content-Type: multipart/mixed;"), "{head}");
        assert!(head.contains("Auto-Submitted: auto-replied\r\n"), "{head}");
        for line in text.split("\r\n") {
            assert!(line.len() <= 998, "a line of {} octets", line.len());
        }
        let text_at = text.find("Content-Type: text/plain").unwrap();
        let png_at = text.find("Content-Type: image/png").unwrap();
        let ics_at = text.find("Content-Type: text/calendar").unwrap();
        assert!(text_at < png_at && png_at < ics_at, "{text}");
        for name in ["board.png", "deadline.ics"] {
            let line = format!("Content-Disposition: attachment; filename=\"{name}\"\r\n");
            assert!(text.contains(&line), "{line:?} missing in {text}");
        }
        assert_eq!(text.matches("Content-Transfer-Encoding: base64").count(), 2);

        let msg = mail_parser::MessageParser::default().parse(&bytes).unwrap();
        assert_eq!(msg.body_text(0).unwrap(), "Spring 1901 results\r\n");
        let files: Vec<_> = msg.attachments().collect();
        assert_eq!(files.len(), 2);
        for (got, sent) in files.iter().zip(&m.attachments) {
            use mail_parser::MimeHeaders;
            assert_eq!(got.attachment_name(), Some(sent.name.as_str()));
            assert!(got.content_disposition().unwrap().is_attachment());
            assert_eq!(got.contents(), &sent.bytes[..], "{}", sent.name);
        }
        use mail_parser::MimeHeaders;
        let ct = files[1].content_type().unwrap();
        assert_eq!((ct.ctype(), ct.subtype()), ("text", Some("calendar")));
        assert_eq!(ct.attribute("method"), Some("PUBLISH"));
    }

    /// A mail's MIME tree as `multipart-subtype(child,...)`, leaves as `type/subtype`.
    fn shape(msg: &mail_parser::Message, part: &mail_parser::MessagePart) -> String {
        use mail_parser::MimeHeaders;
        let ct = part.content_type().unwrap();
        match &part.body {
            mail_parser::PartType::Multipart(ids) => format!(
                "{}({})",
                ct.subtype().unwrap(),
                ids.iter()
                    .map(|i| shape(msg, &msg.parts[*i as usize]))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            _ => format!("{}/{}", ct.ctype(), ct.subtype().unwrap()),
        }
    }

    const HOSTILE: &str =
        "Press from <script>alert('x')</script> & \"Co\"\nA Par-Bur </pre><img src=x>\n";

    /// The board shown in the body, with a calendar entry attached after it.
    fn with_picture() -> Outgoing {
        let mut m = with_files();
        m.body = HOSTILE.into();
        m.attachments[0].inline = Some("Standard — war <&>: results of Spring 1901".into());
        m
    }

    /// "The results mail shows the picture in the mail body where the client can (an HTML
    /// alternative with the image inline) and keeps the plain text for text-only clients"
    /// (issue 27, point 5).
    #[test]
    fn a_shown_picture_is_an_html_alternative_with_the_png_inline() {
        use mail_parser::MimeHeaders;
        let m = with_picture();
        let bytes = render(&m);
        let text = String::from_utf8(bytes.clone()).unwrap();
        for line in text.split("\r\n") {
            assert!(line.len() <= 998, "a line of {} octets", line.len());
        }
        let msg = mail_parser::MessageParser::default().parse(&bytes).unwrap();
        assert_eq!(
            shape(&msg, msg.root_part()),
            "mixed(alternative(text/plain,related(text/html,image/png)),text/calendar)"
        );
        // The plain text is exactly what the mail without the picture shown carries.
        let mut plain = m.clone();
        plain.attachments[0].inline = None;
        let before = render(&plain);
        let before = mail_parser::MessageParser::default()
            .parse(&before)
            .unwrap();
        assert_eq!(msg.body_text(0), before.body_text(0));
        assert_eq!(msg.body_text(0).unwrap().replace("\r\n", "\n"), HOSTILE);
        // The HTML names the PNG part by its Content-ID, and shows it fitted to the window.
        let png = msg
            .parts
            .iter()
            .find(|p| p.content_type().is_some_and(|c| c.ctype() == "image"))
            .unwrap();
        let cid = png.content_id().unwrap();
        let html = msg.body_html(0).unwrap();
        assert!(html.contains(&format!("<img src=\"cid:{cid}\"")), "{html}");
        assert!(html.contains("max-width:100%"), "{html}");
        assert!(
            html.contains("alt=\"Standard — war &lt;&amp;&gt;: results of Spring 1901\""),
            "{html}"
        );
        assert_eq!(png.contents(), &m.attachments[0].bytes[..]);
        assert_eq!(png.content_disposition().unwrap().ctype(), "inline");
        assert_eq!(png.attachment_name(), Some("board.png"));
        // Nothing the text holds becomes markup: one <pre>, one <img>, no script.
        assert!(!html.contains("<script"), "{html}");
        assert_eq!(html.matches("<img").count(), 1, "{html}");
        assert_eq!(html.matches("</pre>").count(), 1, "{html}");
        assert!(html.contains(
            "Press from &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;Co&quot;"
        ));
        // A text-only client lists the picture and the calendar as files.
        let files: Vec<_> = msg
            .attachments()
            .map(|a| a.attachment_name().unwrap_or("").to_string())
            .collect();
        assert_eq!(files, ["board.png", "deadline.ics"]);
    }

    /// "the world map as an overview plus regional pictures ... The results mail shows the
    /// picture in the mail body where the client can" (issue 27, point 5): every picture
    /// marked to be shown is in the HTML page, in order, each by its own Content-ID; the
    /// calendar entry stays an attachment.
    #[test]
    fn several_shown_pictures_are_all_in_the_page_in_order() {
        use mail_parser::MimeHeaders;
        let mut m = with_picture();
        let region = Attachment {
            inline: Some("World 1880 — war: Europe, picture 2 of 2".into()),
            ..Attachment::new("board-europe.png", "image/png", b"\x89PNGeurope".to_vec())
        };
        m.attachments.insert(1, region);
        let bytes = render(&m);
        let msg = mail_parser::MessageParser::default().parse(&bytes).unwrap();
        assert_eq!(
            shape(&msg, msg.root_part()),
            "mixed(alternative(text/plain,related(text/html,image/png,image/png)),text/calendar)"
        );
        let html = msg.body_html(0).unwrap();
        let pngs: Vec<_> = msg
            .parts
            .iter()
            .filter(|p| p.content_type().is_some_and(|c| c.ctype() == "image"))
            .collect();
        assert_eq!(pngs.len(), 2);
        let at: Vec<usize> = pngs
            .iter()
            .map(|p| {
                html.find(&format!("<img src=\"cid:{}\"", p.content_id().unwrap()))
                    .unwrap()
            })
            .collect();
        assert!(at[0] < at[1], "{html}");
        assert_ne!(pngs[0].content_id(), pngs[1].content_id());
        assert_eq!(pngs[1].contents(), b"\x89PNGeurope");
        assert!(html.contains("alt=\"World 1880 — war: Europe, picture 2 of 2\""));
        let files: Vec<_> = msg
            .attachments()
            .map(|a| a.attachment_name().unwrap_or("").to_string())
            .collect();
        assert_eq!(files, ["board.png", "board-europe.png", "deadline.ics"]);
    }

    /// "The boundary delimiter MUST NOT appear inside any of the encapsulated parts" (RFC
    /// 2046, 5.1.1): no boundary of the nested parts begins with another.
    #[test]
    fn no_boundary_begins_with_another() {
        use mail_parser::MimeHeaders;
        let bytes = render(&with_picture());
        let msg = mail_parser::MessageParser::default().parse(&bytes).unwrap();
        let bounds: Vec<String> = msg
            .parts
            .iter()
            .filter_map(|p| p.content_type()?.attribute("boundary").map(String::from))
            .collect();
        assert_eq!(bounds.len(), 3, "{bounds:?}");
        for a in &bounds {
            for b in bounds.iter().filter(|b| *b != a) {
                assert!(!b.starts_with(a.as_str()), "{b} begins with {a}");
            }
        }
    }

    /// A long line of the text stays within 998 octets in the HTML copy too, and reads back.
    #[test]
    fn a_shown_picture_with_long_lines_keeps_every_line_short() {
        let mut m = with_picture();
        m.body = format!("{}\n{}é\n", "x".repeat(2_500), "&<".repeat(700));
        let bytes = render(&m);
        let text = String::from_utf8(bytes.clone()).unwrap();
        for line in text.split("\r\n") {
            assert!(line.len() <= 998, "a line of {} octets", line.len());
        }
        let msg = mail_parser::MessageParser::default().parse(&bytes).unwrap();
        let html = msg.body_html(0).unwrap().replace("\r\n", "\n");
        let escaped = format!("{}\n{}é</pre>", "x".repeat(2_500), "&amp;&lt;".repeat(700));
        assert!(html.contains(&escaped), "{html}");
    }

    #[test]
    fn a_shown_picture_alone_makes_the_mail_an_alternative() {
        let mut m = with_picture();
        m.attachments.truncate(1);
        let bytes = render(&m);
        let text = String::from_utf8(bytes.clone()).unwrap();
        let head = text.split_once("\r\n\r\n").unwrap().0;
        assert!(
            head.contains("Content-Type: multipart/alternative;"),
            "{head}"
        );
        let msg = mail_parser::MessageParser::default().parse(&bytes).unwrap();
        assert_eq!(
            shape(&msg, msg.root_part()),
            "alternative(text/plain,related(text/html,image/png))"
        );
        // Copies to two people differ in To alone.
        let mut other = m.clone();
        other.to = "b@x.org".into();
        let two = String::from_utf8(render(&other)).unwrap();
        assert_eq!(two.replace("To: b@x.org", "To: a@x.org"), text);
    }

    #[test]
    fn an_attachment_name_is_one_line_and_read_back() {
        let mut m = mail("a@x.org", "s", "b");
        m.attachments = vec![
            Attachment::new("Carte \"été\"\r\nX-Evil: 1.png", "image/png", vec![1, 2, 3]),
            Attachment::new("", "application/octet-stream", Vec::new()),
        ];
        let bytes = render(&m);
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(!text.contains("\r\nX-Evil"), "{text}");
        let msg = mail_parser::MessageParser::default().parse(&bytes).unwrap();
        let names: Vec<_> = msg
            .attachments()
            .map(|a| {
                use mail_parser::MimeHeaders;
                a.attachment_name().unwrap_or("").to_string()
            })
            .collect();
        assert_eq!(names, ["Carte \"été\"  X-Evil: 1.png", "attachment"]);
    }

    #[test]
    fn an_attachment_whose_type_is_not_a_mime_type_is_refused() {
        let mut m = mail("a@x.org", "s", "b");
        m.attachments = vec![Attachment::new("x", "not a type", vec![1])];
        let got = m.render("herald", "herald@localhost", "1@h", date());
        assert!(
            matches!(&got, Err(RenderError::Attachment { name, .. }) if name == "x"),
            "{got:?}"
        );
    }

    /// lettre inserts a `\r` before each bare LF of a text into the whole string, one move
    /// of the rest of the text per line (issue 24: 1,000 lines cost 20-37 s, a 397 MB reply
    /// hours). The text herald gives it has none: counted, lettre's insertions are zero, and
    /// lettre's own `Body::new` hands the text back unchanged.
    #[test]
    fn lettre_is_given_crlf_text_and_inserts_nothing() {
        let body = "HELP\n".repeat(1000) + "a\r\nb\rc\n\nlast";
        let text = crlf_text(&body);
        let bare_lf = text
            .as_bytes()
            .iter()
            .enumerate()
            .filter(|(i, b)| **b == b'\n' && (*i == 0 || text.as_bytes()[i - 1] != b'\r'))
            .count();
        assert_eq!(bare_lf, 0);
        assert_eq!(text.matches("\r\n").count(), 1003);
        assert!(text.ends_with("a\r\nbc\r\n\r\nlast"), "{text:?}");
        let given = Body::new(text.clone());
        assert_eq!(given.as_ref(), text.as_bytes(), "lettre changed nothing");
        // The work is linear: the text written for four times the lines is four times the
        // bytes (the mail's headers aside).
        let size = |n: usize| render(&mail("a@x.org", "s", &"A Par H\n".repeat(n))).len();
        let (one, four) = (size(2_000), size(8_000));
        assert_eq!(four - one, 3 * 2_000 * "A Par H\r\n".len());
    }

    #[test]
    fn a_mail_larger_than_herald_sends_is_refused_before_it_is_written() {
        let mut m = mail("a@x.org", "s", &"x".repeat(2_000));
        m.attachments = vec![Attachment::new("f.png", "image/png", vec![0; 1_000])];
        let got = m.render_within(2_999, "herald", "herald@localhost", "1@h", date());
        assert!(
            matches!(
                got,
                Err(RenderError::TooLarge {
                    size: 3_000,
                    limit: 2_999
                })
            ),
            "{got:?}"
        );
        assert_eq!(
            got.unwrap_err().to_string(),
            "the mail is 3000 bytes, text and files; herald sends mails of at most 2999 bytes"
        );
        assert!(m
            .render_within(3_000, "herald", "herald@localhost", "1@h", date())
            .is_ok());
    }

    /// The HTML copy of the text counts towards the size of a mail herald sends: a text
    /// of 2,000 `&` is 10,000 bytes in the page.
    #[test]
    fn the_page_of_a_shown_picture_counts_towards_the_limit() {
        let mut m = mail("a@x.org", "s", &"&".repeat(2_000));
        m.attachments = vec![Attachment::new("f.png", "image/png", vec![0; 1_000])];
        let within = |m: &Outgoing, limit| {
            m.render_within(limit, "herald", "herald@localhost", "1@h", date())
        };
        assert!(within(&m, 3_000).is_ok());
        m.attachments[0].inline = Some("war".into());
        let got = within(&m, 3_000);
        assert!(
            matches!(
                got,
                Err(RenderError::TooLarge {
                    size: 13_000,
                    limit: 3_000
                })
            ),
            "{got:?}"
        );
        assert!(within(&m, 13_000).is_ok());
    }

    #[test]
    fn a_recipient_that_is_not_one_address_is_refused() {
        for to in [
            "a@x.org\r\nBcc: evil@y.org",
            "a@x.org\nBcc: evil@y.org",
            "a@x.org\0",
            "a@x.org, b@y.org",
            "<a@x.org>@y.org",
            "",
        ] {
            let got = mail(to, "s", "b").render("herald", "herald@localhost", "1@h", date());
            assert!(
                matches!(got, Err(RenderError::Recipient(_))),
                "{to:?}: {got:?}"
            );
        }
    }
}
