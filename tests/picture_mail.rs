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

fn is_png(f: &SentFile) -> bool {
    f.content_type.starts_with("image/png")
        && f.disposition == "attachment"
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
        assert_eq!(first.len(), 1, "{variant}: {first:?}");
        assert!(is_png(&first[0]), "{variant}: {:?}", first[0].content_type);
        assert!(first[0].name.starts_with("pic-"), "{}", first[0].name);
        // One picture, the same in every copy.
        for m in &results {
            assert_eq!(pngs(&m.attachments), first, "{variant}: {}", m.to);
        }
    }
}

#[tokio::test]
async fn get_map_attaches_the_board_and_the_svg_on_request() {
    let mut w = World::new("pictures-getmap").await;
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
