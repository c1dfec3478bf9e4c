//! The lines of a mail that the person typed: quoted text, the previous mail a client
//! quotes below a reply ("On … wrote:", even wrapped over two or three lines; Outlook's
//! original-message and "From: … Sent: …" blocks) and everything after a signature line or
//! a mobile client's footer ("Sent from my iPhone") are dropped; `//` comment lines are
//! dropped; line numbers kept. Each line comes twice: as commands read it, with what clients
//! and phone keyboards slip into the text (byte-order marks, zero-width and no-break spaces,
//! typographic dashes and quotes, fullwidth ASCII) made plain by the table [`LOOK_ALIKES`]
//! and by `narrow`; and as written,
//! which is what press relays, verbatim (issue 25, 9). Bidirectional controls
//! ([`BIDI_CONTROLS`]) are dropped from both, so that no text herald stores and shows to
//! others (a game's comment, press, a vote's words) can be made to read otherwise than it is
//! written.

/// Characters mail clients and phone keyboards put where a player meant something plain,
/// and what herald reads instead. Invisible ones go; odd spaces become spaces; dashes and
/// the minus sign become `-` (`A Par – Bur`); curly quotes become straight ones. Command
/// lines only: press text is relayed as written ([`Typed::written`]).
pub const LOOK_ALIKES: &[(char, &str)] = &[
    ('\u{FEFF}', ""),   // byte-order mark / zero-width no-break space
    ('\u{200B}', ""),   // zero-width space
    ('\u{200C}', ""),   // zero-width non-joiner
    ('\u{200D}', ""),   // zero-width joiner
    ('\u{2060}', ""),   // word joiner
    ('\u{00AD}', ""),   // soft hyphen
    ('\u{00A0}', " "),  // no-break space
    ('\u{2007}', " "),  // figure space
    ('\u{2009}', " "),  // thin space
    ('\u{202F}', " "),  // narrow no-break space
    ('\u{2010}', "-"),  // hyphen
    ('\u{2011}', "-"),  // non-breaking hyphen
    ('\u{2012}', "-"),  // figure dash
    ('\u{2013}', "-"),  // en dash
    ('\u{2014}', "-"),  // em dash
    ('\u{2015}', "-"),  // horizontal bar
    ('\u{2212}', "-"),  // minus sign
    ('\u{2192}', "->"), // rightwards arrow (autocorrected "->")
    ('\u{2018}', "'"),  // left single quotation mark
    ('\u{2019}', "'"),  // right single quotation mark, the phone's apostrophe
    ('\u{201C}', "\""), // left double quotation mark
    ('\u{201D}', "\""), // right double quotation mark
];

/// Unicode's bidirectional formatting characters: embeddings and overrides (U+202A–U+202E),
/// isolates (U+2066–U+2069), the marks (U+200E, U+200F, U+061C) and the deprecated format
/// controls (U+206A–U+206F). U+202E in a LIST comment turns the rest of the line, and what
/// follows it in the reply, around. Every line a mail brings is read without them: this is
/// where the judge first sees text, before anything of it is stored or passed on.
pub const BIDI_CONTROLS: &[char] = &[
    '\u{061C}', '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}',
    '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}', '\u{206A}', '\u{206B}', '\u{206C}', '\u{206D}',
    '\u{206E}', '\u{206F}',
];

/// One line a person typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Typed {
    /// Its 1-based number in the body.
    pub number: usize,
    /// The line as commands read it: [`LOOK_ALIKES`] replaced, [`BIDI_CONTROLS`] dropped,
    /// space trimmed at both ends.
    pub line: String,
    /// The line as written, for press: [`BIDI_CONTROLS`] dropped and trailing space trimmed,
    /// nothing else changed (its dashes, quotes, odd spaces and indentation are the
    /// writer's).
    pub written: String,
}

/// The typed lines of a body (see the module's description). Blank lines are kept (press
/// text keeps its paragraphs).
pub fn typed(body: &str) -> Vec<Typed> {
    let written: Vec<String> = body.lines().map(without_controls).collect();
    let lines: Vec<String> = written.iter().map(|l| plain(l)).collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        if line == "--" || is_mobile_footer(trimmed) || quoted_mail_starts(&lines[i..]) {
            break;
        }
        if trimmed.starts_with('>') || trimmed.starts_with("//") {
            continue;
        }
        out.push(Typed {
            number: i + 1,
            line: trimmed.to_string(),
            written: written[i].clone(),
        });
    }
    out
}

/// The typed lines of a body as commands read them, each with its 1-based line number.
pub fn typed_lines(body: &str) -> Vec<(usize, String)> {
    typed(body)
        .into_iter()
        .map(|t| (t.number, t.line))
        .collect()
}

/// A raw line with [`BIDI_CONTROLS`] dropped and trailing space trimmed.
fn without_controls(raw: &str) -> String {
    let mut out: String = raw.chars().filter(|c| !BIDI_CONTROLS.contains(c)).collect();
    let end = out.trim_end_matches(['\r', ' ', '\t']).len();
    out.truncate(end);
    out
}

/// A line with [`LOOK_ALIKES`] replaced, fullwidth ASCII folded ([`narrow`]) and trailing
/// space trimmed.
fn plain(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        match LOOK_ALIKES.iter().find(|(from, _)| *from == c) {
            Some((_, to)) => out.push_str(to),
            None => out.push(narrow(c)),
        }
    }
    let end = out.trim_end_matches(['\r', ' ', '\t']).len();
    out.truncate(end);
    out
}

/// The ASCII form of a fullwidth character (U+FF01–U+FF5E, which an East Asian keyboard
/// types for `ＳＩＧＮＯＮ` or `Ａ Ｐａｒ－Ｂｕｒ`) and of the ideographic space (U+3000);
/// any other character as it is. Command lines only, as [`LOOK_ALIKES`].
fn narrow(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(u32::from(c) - 0xFEE0).unwrap_or(c),
        '\u{3000}' => ' ',
        c => c,
    }
}

/// Whether the quoted previous mail starts at the first of these lines: a separator line,
/// an attribution ("On … wrote:") on one line or wrapped over up to three, or Outlook's
/// "From: …" line followed by "Sent:"/"Date:".
fn quoted_mail_starts(lines: &[String]) -> bool {
    let first = lines[0].trim();
    if is_quote_header(first) {
        return true;
    }
    let lower = first.to_lowercase();
    let next = lines
        .get(1)
        .map(|l| l.trim().to_lowercase())
        .unwrap_or_default();
    let outlook = [
        ("from:", ["sent:", "date:"]),
        ("von:", ["gesendet:", "datum:"]),
    ];
    if outlook
        .iter()
        .any(|(from, sent)| lower.starts_with(from) && sent.iter().any(|s| next.starts_with(s)))
    {
        return true;
    }
    if !ATTRIBUTION_OPENERS.iter().any(|o| lower.starts_with(o)) {
        return false;
    }
    // A wrapped attribution: the opening line and one or two more, the last ending the
    // attribution. It names a date or an address, which an order or press line seldom does.
    let mut joined = first.to_string();
    for line in lines.iter().skip(1).take(2) {
        let line = line.trim();
        if line.is_empty() || line.starts_with('>') {
            return false;
        }
        joined.push(' ');
        joined.push_str(line);
        if is_quote_header(&joined) && joined.contains(|c: char| c.is_ascii_digit() || c == '@') {
            return true;
        }
    }
    false
}

/// How attributions begin, lower case: English, French, German.
const ATTRIBUTION_OPENERS: &[&str] = &["on ", "le ", "am "];

fn is_quote_header(line: &str) -> bool {
    let lower = line.to_lowercase();
    let squashed: String = lower.chars().filter(|c| !c.is_whitespace()).collect();
    squashed.starts_with("-----originalmessage-----")
        || squashed.starts_with("-----ursprünglichenachricht-----")
        || lower.starts_with("________________________________")
        || (lower.starts_with("on ") && lower.ends_with("wrote:"))
        || (lower.starts_with("le ") && lower.ends_with("a écrit :"))
        || (lower.starts_with("am ")
            && lower.contains(" schrieb ")
            && lower.ends_with(':')
            && lower.contains(|c: char| c.is_ascii_digit()))
        || lower.starts_with("-------- forwarded message")
        || lower.starts_with("---------- forwarded message")
        || lower == "begin forwarded message:"
}

/// How the footers of mobile and webmail clients begin, lower case ("Sent from my iPhone",
/// "Get Outlook for Android", "Envoyé de mon iPhone"); German's ends in "gesendet".
const FOOTERS: &[&str] = &[
    "sent from my ",
    "sent from mail for windows",
    "sent from yahoo mail",
    "sent from outlook",
    "sent from aol",
    "sent with proton mail",
    "get outlook for ",
    "envoyé de mon ",
    "envoyé depuis mon ",
    "inviato da ",
    "enviado desde mi ",
    "enviado do meu ",
    "verzonden vanaf mijn ",
    "skickat från min ",
];

/// Whether a line is a mobile client's footer: one of [`FOOTERS`] or "Von meinem … gesendet",
/// short, as a footer is.
fn is_mobile_footer(line: &str) -> bool {
    if line.chars().count() > 60 {
        return false;
    }
    let lower = line.to_lowercase();
    let lower = lower.trim_end_matches(['.', '!']);
    FOOTERS.iter().any(|f| lower.starts_with(f))
        || (lower.starts_with("von meinem ") && lower.ends_with(" gesendet"))
}

#[cfg(test)]
mod tests {
    use super::typed_lines;

    fn texts(body: &str) -> Vec<String> {
        typed_lines(body).into_iter().map(|(_, l)| l).collect()
    }

    #[test]
    fn quotes_signatures_and_comments_are_dropped() {
        let body = "signon fgame pw\n// my plan\nA Par-Bur\n> A Par-Pic\n\n-- \nAnn, who signs\nA Mar-Spa\n";
        assert_eq!(texts(body), ["signon fgame pw", "A Par-Bur", ""]);
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

    #[test]
    fn a_byte_order_mark_before_signon_is_not_read() {
        assert_eq!(texts("\u{FEFF}SIGNON Fgame pw\n"), ["SIGNON Fgame pw"]);
    }

    #[test]
    fn zero_width_and_no_break_spaces_are_made_plain() {
        let body = "A\u{00A0}Par\u{200B}-\u{200D}Bur\n\u{2060}A\u{202F}Mar\u{2007}H\u{200C}\n--\u{00A0}\nAnn";
        assert_eq!(texts(body), ["A Par-Bur", "A Mar H"]);
    }

    // Issue 37: "fold fullwidth ASCII (U+FF01–U+FF5E) to ASCII when reading command lines,
    // so it is read as SIGNON"; press keeps what was written.
    #[test]
    fn fullwidth_ascii_is_read_as_ascii() {
        let body = "\u{FF33}\u{FF29}\u{FF27}\u{FF2E}\u{FF2F}\u{FF2E}\u{3000}\u{FF26}\u{FF47} \u{FF50}\u{FF57}\u{FF26}\nＡ Ｐａｒ－Ｂｕｒ；Ａ Ｍａｒ－Ｓｐａ";
        let lines = super::typed(body);
        assert_eq!(lines[0].line, "SIGNON Fg pwF");
        assert_eq!(lines[1].line, "A Par-Bur;A Mar-Spa");
        assert_eq!(lines[1].written, "Ａ Ｐａｒ－Ｂｕｒ；Ａ Ｍａｒ－Ｓｐａ");
    }

    #[test]
    fn typographic_dashes_and_quotes_are_made_plain() {
        let body = "A Par \u{2013} Bur\nA Mar \u{2014} Spa\nA Mun \u{2212} Ruh\nF Lon \u{2192} Nth\n\u{201C}hi\u{201D} it\u{2019}s me";
        assert_eq!(
            texts(body),
            [
                "A Par - Bur",
                "A Mar - Spa",
                "A Mun - Ruh",
                "F Lon -> Nth",
                "\"hi\" it's me"
            ]
        );
    }

    // Issue 25, 9: "normalise command lines only, never what a player wrote to another."
    #[test]
    fn each_line_comes_plain_for_commands_and_as_written_for_press() {
        let body = "A Par \u{2013} Bur\n  It\u{2019}s \u{201C}ours\u{201D}\u{00A0}\u{2014} \u{200D}x\u{202E}y  \r\n> quoted";
        let lines = super::typed(body);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].line, "A Par - Bur");
        assert_eq!(lines[0].written, "A Par \u{2013} Bur");
        assert_eq!(lines[1].number, 2);
        assert_eq!(lines[1].line, "It's \"ours\" - xy");
        assert_eq!(
            lines[1].written,
            "  It\u{2019}s \u{201C}ours\u{201D}\u{00A0}\u{2014} \u{200D}xy"
        );
    }

    #[test]
    fn gmail_attribution_wrapped_over_two_lines_is_not_read() {
        let body = "A Par-Bur\n\nOn Tue, Dec 1, 2026 at 10:00 AM herald <judge@example.org>\nwrote:\n\nSIGNON Fgame pw\n";
        assert_eq!(texts(body), ["A Par-Bur", ""]);
        let split_address =
            "A Par-Bur\nOn Tue, Dec 1, 2026 at 10:00 AM A Long Name <\njudge@example.org> wrote:\nA Mar-Spa";
        assert_eq!(texts(split_address), ["A Par-Bur"]);
    }

    #[test]
    fn gmail_attribution_over_three_lines_is_not_read() {
        let body = "A Par-Bur\nOn Tue, Dec 1, 2026 at 10:00 AM herald\n<judge@example.org>\nwrote:\nA Mar-Spa\n";
        assert_eq!(texts(body), ["A Par-Bur"]);
    }

    #[test]
    fn a_press_line_starting_on_is_kept() {
        let body = "On reflection I will attack.\nHe wrote:\nA Par-Bur";
        assert_eq!(texts(body).len(), 3);
    }

    #[test]
    fn outlook_from_sent_block_is_not_read() {
        let body = "A Par-Bur\n\nFrom: herald <judge@example.org>\nSent: Tuesday, December 1, 2026 10:00 AM\nTo: Ann\nSubject: Re: game\n\nA Mar-Spa";
        assert_eq!(texts(body), ["A Par-Bur", ""]);
        let spaced = "A Par-Bur\n----- Original Message -----\nA Mar-Spa";
        assert_eq!(texts(spaced), ["A Par-Bur"]);
    }

    #[test]
    fn mobile_footers_end_the_typed_text() {
        for footer in [
            "Sent from my iPhone",
            "Sent from my iPad",
            "Sent from my Android",
            "Sent from my Samsung Galaxy smartphone.",
            "Get Outlook for Android",
            "Get Outlook for iOS",
            "Sent from Mail for Windows",
            "Sent from Yahoo Mail on Android",
            "Envoyé de mon iPhone",
            "Von meinem iPhone gesendet",
        ] {
            let body = format!("SIGNON Fgame pw\nA Par-Bur\n\n{footer}\n\nA Mar-Spa\n");
            assert_eq!(
                texts(&body),
                ["SIGNON Fgame pw", "A Par-Bur", ""],
                "{footer}"
            );
        }
    }
}
