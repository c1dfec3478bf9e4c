//! Text made safe for the markup herald writes: SVG pictures, the HTML page of a mail and
//! the Atom feed. One function, so that no writer escapes less than another.

/// Text or a quoted attribute's value as XML 1.0 and HTML read it: the five markup
/// characters escaped, and the characters XML does not allow (controls other than tab,
/// newline and carriage return, and U+FFFE, U+FFFF) left out, so a stranger's name or press
/// can never become markup or make a feed unreadable.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}') => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn markup_and_forbidden_characters_never_pass() {
        assert_eq!(
            escape("<a href=\"x\">Tom & Jerry's</a>\u{0}\u{7}\u{fffe}\tok\n"),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;\tok\n"
        );
    }
}
