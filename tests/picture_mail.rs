//! Pictures of the board by mail (issue 16): a results mail of every variant carries the
//! board after the phase as a PNG that a mail client shows (image/png, an attachment with a
//! file name), the same bytes in every copy; GET MAP attaches the board of a variant or a
//! game (and its SVG on request); SET MAP ON attaches a picture of the player's own orders
//! to each order reply, and SET MAP OFF stops it.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use herald::game::variant::Variant;
use support::{start_game, to, SentFile, World, SEVEN};

const GM: &str = "gm@example.org";
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";

/// One player for each power of a variant: `p<i>@example.org` asking for the power's letter.
fn players(variant: &str) -> Vec<(String, char)> {
    let v = Variant::builtin(variant).unwrap();
    v.map
        .powers
        .iter()
        .enumerate()
        .map(|(i, p)| (format!("p{i}@example.org"), p.letter))
        .collect()
}

/// The pictures among a mail's files (a mail that states a deadline also has its calendar).
fn pngs(files: &[SentFile]) -> Vec<SentFile> {
    files
        .iter()
        .filter(|f| f.content_type.starts_with("image/"))
        .cloned()
        .collect()
}

/// A board picture as a reader finds it: since issue 27 (point 5) it is shown in the mail's
/// body, so it is an `inline` part with its file name, which text-only clients list as a file.
fn is_png(f: &SentFile) -> bool {
    f.content_type.starts_with("image/png")
        && f.disposition == "inline"
        && f.name.ends_with(".png")
        && f.bytes.starts_with(PNG)
        && f.bytes.len() < 300 * 1024
}

#[tokio::test]
async fn every_variants_results_carry_the_board_as_a_png() {
    for variant in ["standard", "portage", "deluge", "classical", "world1880"] {
        let mut w = World::new(&format!("pictures-{variant}")).await;
        let list = players(variant);
        let list: Vec<(&str, char)> = list.iter().map(|(a, l)| (a.as_str(), *l)).collect();
        start_game(&mut w, GM, "pic", variant, &list).await;
        let sent = w.mail(GM, "go", "SIGNON Mpic gmpass\nPROCESS!\n").await;
        let results: Vec<_> = sent
            .iter()
            .filter(|m| m.subject.contains("Results"))
            .collect();
        assert!(
            results.len() >= list.len(),
            "{variant}: {:?}",
            sent.iter().map(|m| &m.subject).collect::<Vec<_>>()
        );
        let first: Vec<_> = pngs(&results[0].attachments);
        // One picture; the world's is five, its overview and four regions (issue 27,
        // point 5: "the world map as an overview plus regional pictures").
        let count = if variant == "world1880" { 5 } else { 1 };
        let names: Vec<&str> = first.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(first.len(), count, "{variant}: {names:?}");
        for f in &first {
            assert!(is_png(f), "{variant}: {:?}", f.content_type);
            assert!(f.name.starts_with("pic-"), "{}", f.name);
        }
        // The same in every copy.
        for m in &results {
            assert_eq!(pngs(&m.attachments), first, "{variant}: {}", m.to);
        }
    }
}

#[tokio::test]
async fn get_map_attaches_the_board_and_the_svg_on_request() {
    let mut w = World::new("pictures-getmap").await;
    // x has confirmed: an answer to an address that has not carries no picture (issue 36).
    let hello = w.mail("x@example.org", "hello", "VERSION\n").await;
    w.confirm("x@example.org", &hello).await;
    let sent = w.mail("x@example.org", "map", "GET MAP deluge\n").await;
    let reply = to(&sent, "x@example.org");
    assert_eq!(reply.attachments.len(), 1, "{}", reply.body);
    assert!(is_png(&reply.attachments[0]));
    assert!(reply.body.contains("The picture of the board is attached"));

    start_game(&mut w, GM, "war", "standard", &SEVEN).await;
    let sent = w.mail("x@example.org", "map", "GET MAP war SVG\n").await;
    let files = &pngs(&to(&sent, "x@example.org").attachments);
    assert_eq!(files.len(), 2);
    assert!(is_png(&files[0]));
    assert!(files[1].content_type.starts_with("image/svg+xml"));
    let svg = String::from_utf8(files[1].bytes.clone()).unwrap();
    assert!(svg.contains(r#"id="unit-Stp""#) && svg.contains("war: Spring 1901"));
}

#[tokio::test]
async fn set_map_on_attaches_the_players_own_orders() {
    let mut w = World::new("pictures-setmap").await;
    start_game(&mut w, GM, "war", "standard", &SEVEN).await;
    let plain = w
        .mail("ann@example.org", "o", "SIGNON Ewar pwE\nA Lvp-Yor\n")
        .await;
    assert!(pngs(&to(&plain, "ann@example.org").attachments).is_empty());
    let on = w
        .mail(
            "ann@example.org",
            "o",
            "SIGNON Ewar pwE\nSET MAP ON\nF Lon-Nth\n",
        )
        .await;
    let reply = to(&on, "ann@example.org");
    let files = pngs(&reply.attachments);
    assert_eq!(files.len(), 1, "{}", reply.body);
    assert!(is_png(&files[0]));
    assert!(files[0].name.contains("England"), "{}", files[0].name);
    // Another power's replies are unchanged.
    let bob = w
        .mail("bob@example.org", "o", "SIGNON Fwar pwF\nA Par-Bur\n")
        .await;
    assert!(pngs(&to(&bob, "bob@example.org").attachments).is_empty());
    let off = w
        .mail(
            "ann@example.org",
            "o",
            "SIGNON Ewar pwE\nSET MAP OFF\nF Edi-Nwg\n",
        )
        .await;
    assert!(pngs(&to(&off, "ann@example.org").attachments).is_empty());
}

/// Every mail herald wrote to the outbox so far, whole, parsed back as a reader would.
fn written(w: &World) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for dir in ["new", "cur"] {
        let Ok(entries) = std::fs::read_dir(w.dir.join("outbox").join(dir)) else {
            continue;
        };
        for e in entries {
            out.push(std::fs::read(e.unwrap().path()).unwrap());
        }
    }
    out
}

/// The whole mails to `addr` whose subject contains `what`.
fn whole(w: &World, addr: &str, what: &str) -> Vec<Vec<u8>> {
    written(w)
        .into_iter()
        .filter(|bytes| {
            let msg = mail_parser::MessageParser::default().parse(bytes).unwrap();
            let to = msg.to().and_then(|a| a.first()).and_then(|a| a.address());
            to == Some(addr) && msg.subject().unwrap_or("").contains(what)
        })
        .collect()
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

/// The HTML text of a `<pre>` made plain again.
fn unescape(html: &str) -> String {
    html.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// What a mail with the board shown holds, checked as a reader finds it: the plain text
/// first in a multipart/alternative, then multipart/related of an HTML page and the PNG it
/// names by `cid:`; the page shows the picture (fitted, with `alt`) above the same text,
/// escaped. Returns (the PNG's bytes, the alt text, the plain text).
fn shown(bytes: &[u8]) -> (Vec<u8>, String, String) {
    use mail_parser::MimeHeaders;
    let msg = mail_parser::MessageParser::default().parse(bytes).unwrap();
    let tree = shape(&msg, msg.root_part());
    let alternative = "alternative(text/plain,related(text/html,image/png))";
    assert!(
        tree == alternative || tree == format!("mixed({alternative},text/calendar)"),
        "{tree}"
    );
    let png = msg
        .parts
        .iter()
        .find(|p| p.content_type().is_some_and(|c| c.ctype() == "image"))
        .unwrap();
    assert_eq!(png.content_disposition().unwrap().ctype(), "inline");
    assert!(png.attachment_name().unwrap().ends_with(".png"));
    let cid = png.content_id().unwrap();
    let html = msg.body_html(0).unwrap().replace("\r\n", "\n");
    let img = format!("<img src=\"cid:{cid}\" alt=\"");
    let at = html.find(&img).unwrap_or_else(|| panic!("{html}"));
    let alt = &html[at + img.len()..];
    let alt = unescape(&alt[..alt.find('"').unwrap()]);
    assert!(html.contains("max-width:100%"), "{html}");
    // The picture comes first, then the text, the same as the plain part.
    let pre = html.split_once("<pre").unwrap().1;
    let pre = pre.split_once('>').unwrap().1;
    let pre = pre.rsplit_once("</pre>").unwrap().0;
    let plain = msg.body_text(0).unwrap().replace("\r\n", "\n");
    assert!(at < html.find("<pre").unwrap());
    // (Line ends at the very end of a <pre> show nothing; mail-parser keeps the one before
    // a boundary in the plain part.)
    assert_eq!(
        unescape(pre).trim_end_matches('\n'),
        plain.trim_end_matches('\n')
    );
    assert!(!plain.contains("<pre"), "{plain}");
    (png.contents().to_vec(), alt, plain)
}

/// Rows of `SELECT COUNT(*) ...` on the judge's database, read beside the running service.
async fn count(w: &World, sql: &str, hash: &str) -> i64 {
    let mut db = crate::support::Db::open(&w.service.config.storage.database).await;
    let n = db.count(sql, hash).await;
    db.close().await;
    n
}

fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// "The results mail shows the picture in the mail body where the client can (an HTML
/// alternative with the image inline) and keeps the plain text for text-only clients"
/// (issue 27, point 5); the picture is stored once however many copies go.
#[tokio::test]
async fn the_results_mail_shows_the_board_in_its_body() {
    let mut w = World::new("pictures-inline").await;
    start_game(&mut w, GM, "war", "standard", &SEVEN).await;
    let sent = w.mail(GM, "go", "SIGNON Mwar gmpass\nPROCESS!\n").await;
    let mut pictures = Vec::new();
    for (addr, _) in SEVEN.iter().copied().chain([(GM, 'M')]) {
        let mails = whole(&w, addr, "Results");
        assert_eq!(mails.len(), 1, "{addr}");
        let (png, alt, plain) = shown(&mails[0]);
        assert!(png.starts_with(PNG));
        assert!(alt.contains("war") && alt.contains("Spring 1901"), "{alt}");
        // The plain text is the text the judge wrote, as every reader got it before.
        let reader = sent
            .iter()
            .find(|m| m.to == addr && m.subject.contains("Results"))
            .unwrap();
        assert_eq!(plain, reader.body);
        pictures.push(png);
    }
    assert!(pictures.iter().all(|p| p == &pictures[0]));
    // The same bytes as the one stored, and stored once for all eight copies.
    let hash = sha256(&pictures[0]);
    let blobs = count(
        &w,
        "SELECT COUNT(*) FROM blobs WHERE hash = $1 AND length(bytes) > 0",
        &hash,
    )
    .await;
    assert_eq!(blobs, 1);
    let links = count(
        &w,
        "SELECT COUNT(*) FROM outbox_attachments WHERE hash = $1",
        &hash,
    )
    .await;
    assert_eq!(links, 8);
}

/// "the start mail carries the opening picture" (issue 27, point 5): each player's notice
/// of the start, with their power, shows the opening board, the same picture in every copy.
#[tokio::test]
async fn the_start_mail_carries_the_opening_picture() {
    let mut w = World::new("pictures-start").await;
    let (_, started) = start_game(&mut w, GM, "war", "standard", &SEVEN).await;
    let mut pictures = Vec::new();
    for (addr, _) in SEVEN {
        let notice = started
            .iter()
            .find(|m| m.to == addr && m.subject.contains("Game Starting"))
            .unwrap_or_else(|| panic!("{addr}"));
        assert!(notice.body.contains("You play "), "{}", notice.body);
        let files = pngs(&notice.attachments);
        assert_eq!(files.len(), 1, "{addr}");
        assert!(is_png(&files[0]), "{:?}", files[0]);
        let mails = whole(&w, addr, "Game Starting");
        assert_eq!(mails.len(), 1);
        let (png, alt, plain) = shown(&mails[0]);
        assert_eq!(png, files[0].bytes);
        assert_eq!(plain, notice.body);
        assert!(alt.contains("war: Spring 1901"), "{alt}");
        pictures.push(png);
    }
    assert!(pictures.iter().all(|p| p == &pictures[0]));
}

/// A player's text never becomes markup in the HTML page: a line with `<script>` and `&`
/// comes back in the reply to SET MAP ON escaped in the page and unchanged in the text.
#[tokio::test]
async fn hostile_text_is_escaped_in_the_page() {
    let mut w = World::new("pictures-escape").await;
    start_game(&mut w, GM, "war", "standard", &SEVEN).await;
    let hostile = "<script>alert('&amp;')</script> & </pre><img src=x>";
    let sent = w
        .mail(
            "ann@example.org",
            "o",
            &format!("SIGNON Ewar pwE\nSET MAP ON\nF Lon-Nth\n{hostile}\n"),
        )
        .await;
    let reply = to(&sent, "ann@example.org");
    assert!(reply.body.contains(hostile), "{}", reply.body);
    let mails = whole(&w, "ann@example.org", &reply.subject);
    let bytes = mails.last().unwrap();
    let (_, alt, plain) = shown(bytes);
    assert_eq!(plain, reply.body);
    assert!(alt.contains("England's orders"), "{alt}");
    let msg = mail_parser::MessageParser::default().parse(bytes).unwrap();
    let html = msg.body_html(0).unwrap();
    assert!(!html.contains("<script"), "{html}");
    assert_eq!(html.matches("<img").count(), 1, "{html}");
    assert_eq!(html.matches("</pre>").count(), 1, "{html}");
    assert!(
        html.contains("&lt;script&gt;alert(&#39;&amp;amp;&#39;)&lt;/script&gt; &amp; &lt;/pre&gt;"),
        "{html}"
    );
}
