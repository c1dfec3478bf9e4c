//! The receiving mail server's word on who sent a mail: its `Authentication-Results`
//! headers (RFC 8601), read for the keeper's `[inbox] authserv_id` only (issue 36, point 5:
//! "or always, when the receiving MTA's `Authentication-Results` for the keeper's
//! `authserv-id` does not pass them").
//!
//! A header names the server that wrote it (its authserv-id) first, then results:
//!
//! ```text
//! Authentication-Results: mx.example.org; dkim=pass header.d=x.example;
//!     spf=pass (sender allowed) smtp.mailfrom=f@x.example; dmarc=pass header.from=x.example
//! ```
//!
//! The From address passes when, in the headers with the keeper's authserv-id, DMARC
//! passed (for the From's domain, where the result names it), or a DKIM signature of the
//! From's domain (or a parent domain of it) passed, or SPF passed for an envelope sender of
//! that domain; and no DMARC result failed. Headers with any other authserv-id are ignored:
//! the sender may have written them. The keeper's server is expected to remove headers that
//! claim its own authserv-id from arriving mail (RFC 8601, section 5); a DMARC failure
//! outweighs any pass beside it all the same.
//!
//! The work is bounded: at most [`MOST_HEADERS`] headers, [`MOST_BYTES`] bytes of each.

use crate::envelope::Letter;

/// `Authentication-Results` headers read of one mail, topmost (latest) first: the keeper's
/// server writes one or two (one per checking program); more are the sender's.
pub const MOST_HEADERS: usize = 10;

/// Bytes read of one header's value: a real one is a few hundred.
pub const MOST_BYTES: usize = 4096;

/// One method's result: `dkim=pass header.d=x.example`.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    /// The method (`dkim`, `spf`, `dmarc`, …), lower case, without a version.
    method: String,
    /// The result (`pass`, `fail`, `none`, …), lower case.
    result: String,
    /// The properties (`header.d`, `smtp.mailfrom`, …), names lower case, values unquoted.
    properties: Vec<(String, String)>,
}

impl Outcome {
    /// The value of property `name`.
    fn property(&self, name: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A header's raw value (as in the mail, folded perhaps) as read: at most [`MOST_BYTES`]
/// bytes of it, lines unfolded.
pub fn unfolded(raw: &[u8]) -> String {
    let head = &raw[..raw.len().min(MOST_BYTES)];
    String::from_utf8_lossy(head)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether the `Authentication-Results` values `headers` (topmost first) that
/// `authserv_id` wrote pass the From address `from` (see the module's text). False when
/// there is none.
pub fn passes(headers: &[String], authserv_id: &str, from: &str) -> bool {
    let Some((_, domain)) = from.rsplit_once('@') else {
        return false;
    };
    let domain = domain.to_ascii_lowercase();
    let outcomes: Vec<Outcome> = headers
        .iter()
        .take(MOST_HEADERS)
        .filter_map(|h| read(h))
        .filter(|(id, _)| id.eq_ignore_ascii_case(authserv_id.trim()))
        .flat_map(|(_, outcomes)| outcomes)
        .collect();
    let aligned = |d: &str| {
        let d = d.rsplit('@').next().unwrap_or(d).trim_end_matches('.');
        let d = d.to_ascii_lowercase();
        !d.is_empty() && (domain == d || domain.ends_with(&format!(".{d}")))
    };
    let failed = outcomes
        .iter()
        .any(|o| o.method == "dmarc" && o.result == "fail");
    !failed
        && outcomes.iter().any(|o| {
            o.result == "pass"
                && match o.method.as_str() {
                    "dmarc" => o
                        .property("header.from")
                        .is_none_or(|d| d.eq_ignore_ascii_case(&domain)),
                    "dkim" => o
                        .property("header.d")
                        .or_else(|| o.property("header.i"))
                        .is_some_and(aligned),
                    "spf" => o.property("smtp.mailfrom").is_some_and(aligned),
                    _ => false,
                }
        })
}

/// `letter` as the keeper's mail server `authserv_id` (if one is configured) judged its
/// From address: [`Letter::unauthenticated`] set when its results do not pass it.
pub fn checked(mut letter: Letter, authserv_id: Option<&str>) -> Letter {
    if let Some(id) = authserv_id.filter(|id| !id.trim().is_empty()) {
        letter.unauthenticated = !passes(&letter.authentication, id, &letter.from);
    }
    letter
}

/// A header's value read: its authserv-id and its results (none for `none`). None when it
/// names no authserv-id.
fn read(value: &str) -> Option<(String, Vec<Outcome>)> {
    let text = without_comments(value);
    let mut parts = split_outside_quotes(&text, ';').into_iter();
    let id = parts.next()?.split_whitespace().next()?.to_string();
    let outcomes = parts.filter_map(|p| outcome(&p)).collect();
    Some((id, outcomes))
}

/// One `method=result property=value …` part, or None when it is not one (`none`).
fn outcome(part: &str) -> Option<Outcome> {
    let mut tight = String::with_capacity(part.len());
    let mut chars = part.chars().peekable();
    // "=" may have spaces around it (CFWS): "dkim = pass".
    while let Some(c) = chars.next() {
        if c == '=' {
            while tight.ends_with(' ') {
                tight.pop();
            }
            tight.push('=');
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
        } else {
            tight.push(if c.is_whitespace() { ' ' } else { c });
        }
    }
    let mut words = split_outside_quotes(&tight, ' ')
        .into_iter()
        .filter(|w| !w.is_empty());
    let (method, result) = words.next()?.split_once('=').map(|(m, r)| {
        let m = m.split('/').next().unwrap_or(m);
        (
            m.to_ascii_lowercase(),
            r.trim_matches('"').to_ascii_lowercase(),
        )
    })?;
    let properties = words
        .filter_map(|w| {
            let (n, v) = w.split_once('=')?;
            Some((n.to_ascii_lowercase(), v.trim_matches('"').to_string()))
        })
        .collect();
    Some(Outcome {
        method,
        result,
        properties,
    })
}

/// `text` with its comments (parentheses, nested, `\` escaping) made spaces; quoted
/// strings kept.
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut depth, mut quoted, mut escaped) = (0usize, false, false);
    for c in text.chars() {
        if escaped {
            escaped = false;
            if depth == 0 {
                out.push(c);
            }
            continue;
        }
        match c {
            '\\' => {
                escaped = true;
                if depth == 0 {
                    out.push(c);
                }
            }
            '"' if depth == 0 => {
                quoted = !quoted;
                out.push(c);
            }
            '(' if !quoted => {
                depth += 1;
                out.push(' ');
            }
            ')' if !quoted && depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// `text` split at each `sep` outside double quotes.
fn split_outside_quotes(text: &str, sep: char) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut quoted = false;
    for c in text.chars() {
        if c == '"' {
            quoted = !quoted;
        }
        if c == sep && !quoted {
            parts.push(String::new());
        } else if let Some(last) = parts.last_mut() {
            last.push(c);
        }
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "mx.herald.test";
    const FROM: &str = "bob@x.example";

    fn passes_with(headers: &[&str]) -> bool {
        let headers: Vec<String> = headers.iter().map(|h| unfolded(h.as_bytes())).collect();
        passes(&headers, ID, FROM)
    }

    #[test]
    fn a_passing_result_of_the_keepers_server_passes() {
        assert!(passes_with(&[
            "mx.herald.test;\r\n\tdkim=pass (2048-bit key) header.d=x.example header.s=s1;\r\n\tspf=fail smtp.mailfrom=other.example;\r\n\tdmarc=pass (p=reject) header.from=x.example"
        ]));
        assert!(passes_with(&[
            "MX.Herald.Test 1; dmarc = pass header.from=x.example"
        ]));
        // No DMARC: a DKIM signature of the From's domain, or of a parent domain, or SPF for
        // an envelope sender of that domain.
        assert!(passes_with(&[
            "mx.herald.test; dkim=pass header.i=@x.example"
        ]));
        assert!(passes(
            &["mx.herald.test; dkim=pass header.d=x.example".to_string()],
            ID,
            "bob@mail.x.example"
        ));
        assert!(passes_with(&[
            "mx.herald.test; spf=pass (mx.herald.test: domain of f@x.example designates 192.0.2.1 as permitted sender) smtp.mailfrom=\"f@x.example\""
        ]));
    }

    #[test]
    fn a_failing_or_unaligned_result_does_not_pass() {
        assert!(!passes_with(&[
            "mx.herald.test; dmarc=fail (p=none) header.from=x.example"
        ]));
        assert!(!passes_with(&["mx.herald.test; dkim=pass header.d=evil.example; spf=pass smtp.mailfrom=a@evil.example"]));
        assert!(!passes_with(&[
            "mx.herald.test; dkim=fail header.d=x.example; spf=softfail smtp.mailfrom=x.example"
        ]));
        assert!(!passes_with(&["mx.herald.test; none"]));
        assert!(!passes_with(&[
            "mx.herald.test; dmarc=pass header.from=evil.example"
        ]));
        // "x.example" is no parent of "notx.example".
        assert!(!passes(
            &["mx.herald.test; dkim=pass header.d=x.example".to_string()],
            ID,
            "bob@notx.example"
        ));
        // A DMARC failure outweighs a pass beside it (a header the sender wrote, say).
        assert!(!passes_with(&[
            "mx.herald.test; dmarc=fail header.from=x.example",
            "mx.herald.test; dmarc=pass header.from=x.example",
        ]));
    }

    #[test]
    fn results_of_another_authserv_id_are_ignored() {
        assert!(!passes_with(&[
            "evil.example; dmarc=pass header.from=x.example"
        ]));
        assert!(!passes_with(&[
            "mx.herald.test.evil.example; dkim=pass header.d=x.example"
        ]));
        // Beside the keeper's failing one, another's pass changes nothing.
        assert!(!passes_with(&[
            "mx.herald.test; spf=fail smtp.mailfrom=x.example",
            "other.example; dmarc=pass header.from=x.example",
        ]));
    }

    #[test]
    fn a_mail_without_results_does_not_pass_and_odd_headers_do_no_harm() {
        assert!(!passes_with(&[]));
        assert!(!passes(
            &["mx.herald.test; dmarc=pass".to_string()],
            ID,
            "no-at-sign"
        ));
        for odd in [
            "",
            ";;;",
            "(((",
            "mx.herald.test; (unclosed dmarc=pass",
            "mx.herald.test; \"dmarc=pass",
            "mx.herald.test; =pass; dkim=; spf",
            "mx.herald.test; dkim=pass header.d=\"",
        ] {
            assert!(!passes_with(&[odd]), "{odd}");
        }
        // Only the first MOST_HEADERS headers are read.
        let mut many = vec!["other.example; none"; MOST_HEADERS];
        many.push("mx.herald.test; dmarc=pass");
        assert!(!passes_with(&many));
        // A header longer than MOST_BYTES is read to that length only.
        let long = format!("mx.herald.test; x={}; dmarc=pass", "y".repeat(MOST_BYTES));
        assert!(!passes_with(&[&long]));
    }
}
