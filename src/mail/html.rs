//! HTML-only mail as the lines the person typed. Webmail and phone clients (Gmail, Apple
//! Mail, Outlook on the web) write each line of the text as a `<div>` (or `<p>`, or a line
//! ended by `<br>`), so every block element ends a line; a `<blockquote>` (the quoted mail of
//! a reply) comes out as `> ` lines, which the judge skips as quoted text. What is inside
//! `<head>`, `<style>`, `<script>`, `<template>` and `<title>` is no text; comments are
//! dropped; entities are decoded. One pass over the input: work and output are linear in it.

/// Elements that start and end a line of their own.
const BLOCKS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "caption",
    "center",
    "dd",
    "details",
    "dialog",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "html",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "tbody",
    "tfoot",
    "thead",
    "tr",
    "ul",
];

/// Elements whose content is not text.
const HIDDEN: &[&str] = &["head", "script", "style", "template", "title"];

/// Hidden elements whose content is raw text, with no tags in it.
const RAW_TEXT: &[&str] = &["script", "style"];

/// The text of an HTML body, one line per block (see the module doc).
pub fn html_to_text(html: &str) -> String {
    let mut out = Text::default();
    let mut rest = html;
    while let Some(at) = rest.find(['<', '&']) {
        out.words(&rest[..at]);
        rest = &rest[at..];
        if rest.starts_with('&') {
            let (decoded, used) = entity(rest);
            out.words(&decoded);
            rest = &rest[used..];
            continue;
        }
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |end| &after[end + 3..]);
            continue;
        }
        let opens_tag = rest[1..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, '/' | '!' | '?'));
        if !opens_tag {
            // A `<` that opens no tag is text.
            out.words("<");
            rest = &rest[1..];
            continue;
        }
        // A tag never closed runs to the end of the text, which is then no text: stopping
        // there keeps the work linear.
        let Some(end) = tag_end(rest) else {
            rest = "";
            break;
        };
        let raw = out.tag(&rest[1..end]);
        rest = &rest[end + 1..];
        if let Some(name) = raw {
            // Script and style hold no tags: their text runs to their end tag.
            rest = &rest[closing_tag(rest, name)..];
        }
    }
    out.words(rest);
    out.finish()
}

/// The index of the `>` that closes the tag opening `text` (which starts with `<`); a
/// `>` inside an attribute value quoted after its `=` does not close it.
fn tag_end(text: &str) -> Option<usize> {
    let mut quote = None;
    let mut after_equals = false;
    for (i, c) in text.char_indices().skip(1) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') if after_equals => quote = Some(c),
            (None, '>') => return Some(i),
            _ => {}
        }
        if !c.is_whitespace() {
            after_equals = c == '=';
        }
    }
    None
}

/// Where `</name` (any case) first starts in `text`; its length if nowhere.
fn closing_tag(text: &str, name: &str) -> usize {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(i) = text[from..].find("</") {
        let at = from + i;
        let after = &bytes[at + 2..];
        if after.len() >= name.len() && after[..name.len()].eq_ignore_ascii_case(name.as_bytes()) {
            return at;
        }
        from = at + 2;
    }
    text.len()
}

/// The character an entity at the start of `text` stands for, and the bytes it used; a
/// `&` that starts no known entity is itself.
fn entity(text: &str) -> (String, usize) {
    let body: String = text[1..]
        .chars()
        .take(32)
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '#')
        .collect();
    let used = 1 + body.len();
    let closed = text[used..].starts_with(';');
    let code = if let Some(num) = body.strip_prefix('#') {
        match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok(),
            None => num.parse().ok(),
        }
        .map(|n| {
            char::from_u32(n)
                .unwrap_or(char::REPLACEMENT_CHARACTER)
                .to_string()
        })
    } else if closed && !body.is_empty() {
        let mut s = String::new();
        mail_parser::decoders::html::add_html_token(&mut s, format!("&{body};").as_bytes(), false);
        (s != format!("&{body};")).then_some(s)
    } else {
        match body.as_str() {
            "nbsp" => Some("\u{a0}".into()),
            "amp" => Some("&".into()),
            "lt" => Some("<".into()),
            "gt" => Some(">".into()),
            _ => None,
        }
    };
    match code {
        Some(c) => (c, used + usize::from(closed)),
        None => ("&".into(), 1),
    }
}

/// The text being built.
#[derive(Default)]
struct Text {
    out: String,
    /// The current line has text (a block tag then ends it).
    in_line: bool,
    /// A space is owed before the next word on this line.
    space: bool,
    /// How deep in `<blockquote>`s: each line there starts with `> `.
    quotes: usize,
    /// How deep in hidden elements (see [`HIDDEN`]).
    hidden: usize,
    /// How deep in `<pre>`: line ends and spaces there are kept.
    pre: usize,
}

impl Text {
    fn words(&mut self, text: &str) {
        if self.hidden > 0 {
            return;
        }
        for c in text.chars() {
            if self.pre > 0 {
                match c {
                    '\n' => {
                        self.start_line();
                        self.newline();
                    }
                    '\r' => {}
                    c => {
                        self.start_line();
                        self.out.push(c);
                    }
                }
            } else if matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c') {
                // HTML's white space: a run of it is one space between words.
                self.space = self.in_line;
            } else {
                self.start_line();
                if self.space {
                    self.out.push(' ');
                    self.space = false;
                }
                self.out.push(c);
            }
        }
    }

    /// Writes the quote marks of a line about to get text.
    fn start_line(&mut self) {
        if !self.in_line {
            // One mark whatever the depth: the judge skips any quoted line, and the
            // output stays linear in the input.
            if self.quotes > 0 {
                self.out.push_str("> ");
            }
            self.in_line = true;
            self.space = false;
        }
    }

    fn newline(&mut self) {
        self.out.push('\n');
        self.in_line = false;
        self.space = false;
    }

    /// Ends the line if it has text.
    fn end_line(&mut self) {
        if self.in_line {
            self.newline();
        }
    }

    /// Takes in a tag (what is between `<` and `>`); returns the name of an element whose
    /// content is raw text (script, style) when this tag opens one.
    fn tag(&mut self, inside: &str) -> Option<&'static str> {
        if inside.starts_with(['!', '?']) {
            return None;
        }
        let (closing, inside) = match inside.strip_prefix('/') {
            Some(rest) => (true, rest),
            None => (false, inside),
        };
        let name = inside
            .split(|c: char| c.is_whitespace() || c == '/')
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let self_closing = inside.trim_end().ends_with('/');
        if HIDDEN.contains(&name.as_str()) {
            if closing {
                self.hidden = self.hidden.saturating_sub(1);
            } else if !self_closing {
                self.hidden += 1;
                return RAW_TEXT.iter().copied().find(|r| *r == name);
            }
            return None;
        }
        if name == "body" && !closing {
            // The head's end tag may be left out: the body starts the text all the same.
            self.hidden = 0;
        }
        if self.hidden > 0 {
            return None;
        }
        match name.as_str() {
            // A `<br>` ends the line even when it is empty: Gmail's blank line is
            // `<div><br></div>`.
            "br" => {
                self.start_line();
                self.newline();
            }
            "td" | "th" => {
                self.space = self.in_line;
            }
            name if BLOCKS.contains(&name) => {
                self.end_line();
                match (name, closing) {
                    ("blockquote", false) => self.quotes += 1,
                    ("blockquote", true) => self.quotes = self.quotes.saturating_sub(1),
                    ("pre", false) => self.pre += 1,
                    ("pre", true) => self.pre = self.pre.saturating_sub(1),
                    _ => {}
                }
            }
            _ => {}
        }
        None
    }

    fn finish(mut self) -> String {
        self.end_line();
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::html_to_text;

    #[test]
    fn gmail_writes_each_line_as_a_div() {
        // As Gmail's web client sends it (text/html part of a new mail).
        let html = "<div dir=\"ltr\">SIGNON Fgame secret<div>A Par-Bur</div><div>A Mar - Spa</div><div><br></div><div>F Bre H</div></div>\r\n";
        assert_eq!(
            html_to_text(html),
            "SIGNON Fgame secret\nA Par-Bur\nA Mar - Spa\n\nF Bre H\n"
        );
    }

    #[test]
    fn apple_mail_and_outlook_on_the_web() {
        // Apple Mail: a body with a style attribute, lines as divs, a `<br class=...>`.
        let apple = "<html><head><meta http-equiv=\"content-type\" content=\"text/html; charset=utf-8\"></head><body style=\"overflow-wrap: break-word; -webkit-nbsp-mode: space;\"><div>SIGNON Egame pw</div><div>F Lon&nbsp;- Nth</div><div>A Lvp H<br class=\"Apple-interchange-newline\"></div></body></html>";
        assert_eq!(
            html_to_text(apple),
            "SIGNON Egame pw\nF Lon\u{a0}- Nth\nA Lvp H\n"
        );
        // Outlook on the web: a style block, divs with inline styles, spans inside.
        let owa = "<html><head><style type=\"text/css\" style=\"display:none;\"> P {margin-top:0;margin-bottom:0;} </style></head><body dir=\"ltr\"><div class=\"elementToProof\" style=\"font-family: Aptos, Aptos_EmbeddedFont, Calibri, Helvetica, sans-serif; font-size: 12pt;\"><span>SIGNON Ggame pw</span></div><div class=\"elementToProof\" style=\"font-size: 12pt;\"><span>A Mun &#8211; Ruh</span></div><p>A Ber H</p><ul><li>F Kie H</li></ul></body></html>";
        assert_eq!(
            html_to_text(owa),
            "SIGNON Ggame pw\nA Mun \u{2013} Ruh\nA Ber H\nF Kie H\n"
        );
    }

    #[test]
    fn quoted_mail_comes_out_quoted_and_markup_is_no_text() {
        let html = "<div>A Par-Bur</div><!-- <div>not this</div> --><br><div class=\"gmail_quote\"><div dir=\"ltr\" class=\"gmail_attr\">On Tue, 1 Dec 2026 herald wrote:<br></div><blockquote class=\"gmail_quote\" style=\"margin:0px\"><div>SIGNON Fgame old</div><div>A Mar-Spa</div></blockquote></div><script>x<y</script><h1>Title</h1>a &lt;b&gt; &amp;c &bogus; 5 < 6";
        assert_eq!(
            html_to_text(html),
            "A Par-Bur\n\nOn Tue, 1 Dec 2026 herald wrote:\n> SIGNON Fgame old\n> A Mar-Spa\nTitle\na <b> &c &bogus; 5 < 6\n"
        );
    }

    #[test]
    fn pre_keeps_its_lines_and_nothing_hostile_panics() {
        assert_eq!(
            html_to_text("<pre>A Par-Bur\n  A Mar H</pre>x"),
            "A Par-Bur\n  A Mar H\nx\n"
        );
        for hostile in [
            "<",
            "<a",
            "<a href=\"",
            "&",
            "&#",
            "&#xFFFFFFFFFF;",
            "&#55296;",
            "<!--",
            "</",
            "<p/>é&é;",
        ] {
            let _ = html_to_text(hostile);
        }
        let deep = "<blockquote>".repeat(10_000) + "x";
        assert_eq!(html_to_text(&deep), "> x\n");
        // A head left open (its end tag is optional) ends at the body.
        let open_head = "<html><head><meta charset=utf-8><title>t</title><body><div>A Par H</div>";
        assert_eq!(html_to_text(open_head), "A Par H\n");
        // An attribute quote never closed: the rest is the tag's, read once.
        let open = "<a title=\"".repeat(10_000);
        assert_eq!(html_to_text(&format!("A Par H{open}")), "A Par H\n");
    }
}
