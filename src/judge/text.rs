//! The lines of a mail that the person typed: quoted text, the previous mail a client
//! quotes below a reply ("On … wrote:", Outlook's original-message block) and everything
//! after a signature line are dropped; `//` comment lines are dropped; line numbers kept.

/// The typed lines of a body, each with its 1-based line number, trimmed of trailing space.
/// Blank lines are kept (press text keeps its paragraphs).
pub fn typed_lines(body: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, raw) in body.lines().enumerate() {
        let line = raw.trim_end_matches(['\r', ' ', '\t']);
        let trimmed = line.trim_start();
        if line == "--" || line == "-- " || raw.starts_with("-- ") && raw.trim() == "--" {
            break;
        }
        if is_quote_header(trimmed) {
            break;
        }
        if trimmed.starts_with('>') || trimmed.starts_with("//") {
            continue;
        }
        out.push((i + 1, trimmed.to_string()));
    }
    out
}

fn is_quote_header(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    lower.starts_with("-----original message-----")
        || lower.starts_with("________________________________")
        || (lower.starts_with("on ") && lower.ends_with("wrote:"))
        || (lower.starts_with("le ") && lower.ends_with("a écrit :"))
        || lower.starts_with("-------- forwarded message")
        || lower.starts_with("---------- forwarded message")
}

#[cfg(test)]
mod tests {
    use super::typed_lines;

    #[test]
    fn quotes_signatures_and_comments_are_dropped() {
        let body = "signon fgame pw\n// my plan\nA Par-Bur\n> A Par-Pic\n\n-- \nAnn, who signs\nA Mar-Spa\n";
        let lines: Vec<String> = typed_lines(body).into_iter().map(|(_, l)| l).collect();
        assert_eq!(lines, ["signon fgame pw", "A Par-Bur", ""]);
    }

    #[test]
    fn the_quoted_previous_mail_is_dropped() {
        let body = "A Par-Bur\n\nOn Tue, 1 Dec 2026, herald <herald@x> wrote:\nA Mar-Spa\n";
        assert_eq!(typed_lines(body).len(), 2);
        let outlook = "A Par-Bur\n-----Original Message-----\nFrom: herald\nA Mar-Spa";
        assert_eq!(typed_lines(outlook).len(), 1);
    }

    #[test]
    fn line_numbers_are_kept() {
        let lines = typed_lines("x\n> q\ny");
        assert_eq!(lines[1], (3, "y".to_string()));
    }
}
