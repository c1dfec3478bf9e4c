//! A game's results as an Atom 1.0 feed (RFC 4287): one entry per phase processed, newest
//! first, each holding the results text every member was mailed.
//!
//! The results text names powers and units, never players or addresses, so the feed is the
//! same for an anonymous game; press is never in it. It shows the game to whoever the
//! caller serves it to: the caller must not serve a private game's feed to a stranger.

use chrono::{DateTime, SecondsFormat, Utc};

use super::{phase_title, processed_times};
use crate::judge::{Game, Judge};

/// The year in the feed's tag URIs (RFC 4151): a fixed date, so that ids never change.
const TAG_YEAR: &str = "2026";

/// The Atom feed of a game's results. `base_url` is where the judge's web pages are
/// (`https://herald.example.org`): the feed's links point there, and its host names the
/// feed's ids (`tag:herald.example.org,2026:games/war/S1901M`), which never change for a
/// phase, however often the feed is read.
pub fn atom(judge: &Judge, game: &Game, base_url: &str) -> String {
    let calendar = &judge.variant(game).calendar;
    let base = base_url.trim_end_matches('/');
    let name = path_part(&game.name);
    let id = format!("tag:{},{TAG_YEAR}:games/{name}", host(base));
    let page = format!("{base}/games/{name}");
    let times = processed_times(judge, game);
    let entries: Vec<(String, DateTime<Utc>, String, &str)> = game
        .history
        .iter()
        .zip(times)
        .rev()
        .map(|(record, at)| {
            let phase = record.phase();
            let at = at.unwrap_or(DateTime::UNIX_EPOCH);
            let title = format!("{} results", phase_title(calendar, phase));
            (calendar.code(phase), at, title, record.results.as_str())
        })
        .collect();
    let updated = entries
        .iter()
        .map(|e| e.1)
        .max()
        .unwrap_or(DateTime::UNIX_EPOCH);
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
    out.push_str("<feed xmlns=\"http://www.w3.org/2005/Atom\">\n");
    element(&mut out, 1, "id", &id);
    element(
        &mut out,
        1,
        "title",
        &format!("Results of game {} ({})", game.name, game.variant),
    );
    element(&mut out, 1, "updated", &time(updated));
    out.push_str("  <author>\n");
    element(&mut out, 2, "name", &judge.name);
    out.push_str("  </author>\n");
    element(&mut out, 1, "generator", "herald");
    link(&mut out, 1, "self", &format!("{page}/feed.atom"));
    link(&mut out, 1, "alternate", &page);
    for (code, at, title, text) in entries {
        out.push_str("  <entry>\n");
        element(&mut out, 2, "id", &format!("{id}/{}", path_part(&code)));
        element(&mut out, 2, "title", &title);
        element(&mut out, 2, "updated", &time(at));
        link(&mut out, 2, "alternate", &page);
        out.push_str("    <content type=\"text\">");
        out.push_str(&escape(text));
        out.push_str("</content>\n");
        out.push_str("  </entry>\n");
    }
    out.push_str("</feed>\n");
    out
}

/// `<name>text</name>` on a line of its own, indented by `depth`.
fn element(out: &mut String, depth: usize, name: &str, text: &str) {
    out.push_str(&"  ".repeat(depth));
    out.push_str(&format!("<{name}>{}</{name}>\n", escape(text)));
}

/// `<link rel=".." href=".."/>`.
fn link(out: &mut String, depth: usize, rel: &str, href: &str) {
    out.push_str(&"  ".repeat(depth));
    out.push_str(&format!(
        "<link rel=\"{rel}\" href=\"{}\"/>\n",
        escape(href)
    ));
}

/// An Atom date (RFC 3339, UTC).
fn time(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

pub(super) use crate::markup::escape;

/// The host of a URL (`https://user@herald.example.org:8080/x` gives `herald.example.org`),
/// for the tag URIs; `herald.invalid` when it has none.
fn host(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let authority = authority.rsplit('@').next().unwrap_or("");
    let host = authority.split(':').next().unwrap_or("");
    let clean: String = host
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'))
        .collect::<String>()
        .to_ascii_lowercase();
    if clean.is_empty() {
        "herald.invalid".into()
    } else {
        clean
    }
}

/// A word as a part of a URL path or tag: letters, digits and `-._~` as they are, every
/// other byte percent-encoded.
pub(super) fn path_part(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for b in word.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
