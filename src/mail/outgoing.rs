//! A mail herald sends, and its RFC 5322 form. herald is strict in what it sends: plain
//! UTF-8 text, CRLF lines, `Auto-Submitted: auto-replied` so that auto-responders stay quiet.

use chrono::{DateTime, Utc};

/// A mail to send.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Outgoing {
    /// The recipient.
    pub to: String,
    /// The subject.
    pub subject: String,
    /// The body text (LF line ends).
    pub body: String,
    /// The Message-ID of the mail this answers, if any.
    pub in_reply_to: Option<String>,
}

impl Outgoing {
    /// The mail as bytes, from `from` (`name <address>`), with a stable Message-ID so a
    /// resend is recognisable.
    pub fn render(
        &self,
        from_name: &str,
        from_addr: &str,
        message_id: &str,
        date: DateTime<Utc>,
    ) -> Vec<u8> {
        let mut out = String::with_capacity(self.body.len() + 512);
        let mut header = |name: &str, value: &str| {
            out.push_str(name);
            out.push_str(": ");
            out.push_str(value);
            out.push_str("\r\n");
        };
        header("From", &format!("{from_name} <{from_addr}>"));
        header("To", &self.to);
        header("Subject", &encode_header(&self.subject));
        header("Date", &date.to_rfc2822());
        header("Message-ID", &format!("<{message_id}>"));
        if let Some(r) = &self.in_reply_to {
            let r = r.trim_matches(|c| c == '<' || c == '>');
            header("In-Reply-To", &format!("<{r}>"));
        }
        header("Auto-Submitted", "auto-replied");
        header("MIME-Version", "1.0");
        header("Content-Type", "text/plain; charset=utf-8");
        header("Content-Transfer-Encoding", "8bit");
        out.push_str("\r\n");
        for line in self.body.lines() {
            // A lone "." or very long lines are fine in 8bit over files; keep lines as typed.
            out.push_str(line);
            out.push_str("\r\n");
        }
        out.into_bytes()
    }
}

/// A header value as an RFC 2047 encoded word when it is not plain ASCII.
fn encode_header(text: &str) -> String {
    if text.is_ascii() && !text.contains(['\r', '\n']) {
        return text.to_string();
    }
    let clean: String = text.chars().filter(|c| *c != '\r' && *c != '\n').collect();
    format!("=?utf-8?b?{}?=", base64(clean.as_bytes()))
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

    #[test]
    fn renders_headers_and_crlf_body() {
        let m = Outgoing {
            to: "a@x.org".into(),
            subject: "Re: orders".into(),
            body: "line one\nline two".into(),
            in_reply_to: Some("<1@x>".into()),
        };
        let date = DateTime::parse_from_rfc3339("2026-12-01T12:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let text =
            String::from_utf8(m.render("herald", "herald@localhost", "7.herald@localhost", date))
                .unwrap();
        assert!(text.starts_with(
            "From: herald <herald@localhost>\r\nTo: a@x.org\r\nSubject: Re: orders\r\n"
        ));
        assert!(text.contains("Auto-Submitted: auto-replied\r\n"));
        assert!(text.contains("In-Reply-To: <1@x>\r\n"));
        assert!(text.ends_with("\r\n\r\nline one\r\nline two\r\n"));
    }

    #[test]
    fn non_ascii_subjects_are_encoded() {
        assert_eq!(
            encode_header("Re: Ordres – été"),
            "=?utf-8?b?UmU6IE9yZHJlcyDigJMgw6l0w6k=?="
        );
        assert_eq!(base64(b"ab"), "YWI=");
    }
}
