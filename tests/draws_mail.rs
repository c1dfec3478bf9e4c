//! Draws and concessions by mail (issue 18, point 3), as njudge's players know them: `SET
//! DRAW` for a draw of all survivors (DIAS), `SET DRAW AEF` naming who shares it in a game
//! the Master set NODIAS, `SET CONCEDE <power>` to the largest power where concessions are
//! allowed, and a power in civil disorder agreeing instead of blocking every draw. The
//! summary that ends the game names the draw's members.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use chrono::Duration;
use support::{holds, reply, start_game, Sent, World, SEVEN};

const GM: &str = "gm@example.org";

/// Each of `who` (letters) mails `line` to game `game`; returns everything sent.
async fn all_send(w: &mut World, game: &str, who: &str, line: &str) -> Vec<Sent> {
    let mut sent = Vec::new();
    for (addr, letter) in SEVEN.iter().filter(|(_, l)| who.contains(*l)) {
        let mail = format!("SIGNON {letter}{game} pw{letter}\n{line}\n");
        sent.extend(w.mail(addr, "vote", &mail).await);
    }
    sent
}

/// The game's one line in the Master's `LIST <game>`.
async fn status(w: &mut World, game: &str) -> String {
    let sent = w.mail(GM, "list", &format!("LIST {game}\n")).await;
    reply(&sent, GM).body.clone()
}

#[tokio::test]
async fn a_dias_draw_needs_every_survivor_and_a_power_in_disorder_agrees() {
    let mut w = World::new("draw-dias").await;
    start_game(&mut w, GM, "dd", "standard", &SEVEN).await;
    w.mail(GM, "nmr", "SIGNON Mdd gmpass\nSET NMR\n").await;
    // Everyone but Turkey orders; at the end of grace Turkey goes into civil disorder.
    for (addr, letter) in SEVEN.iter().filter(|(_, l)| *l != 'T') {
        support::order(&mut w, "dd", addr, *letter, holds(*letter)).await;
    }
    let deadline = w.now + Duration::days(9) + Duration::hours(1);
    let sent = w.wait_until(deadline).await;
    assert!(
        sent.iter().any(|m| m.subject.contains("S1901M Results")),
        "{:?}",
        sent.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    assert!(status(&mut w, "dd").await.contains("civil disorder"));
    // A list in a DIAS game is refused, saying what to send instead.
    let sent = w
        .mail("ann@example.org", "v", "SIGNON Edd pwE\nSET DRAW AEF\n")
        .await;
    let body = &reply(&sent, "ann@example.org").body;
    assert!(
        body.contains("this game's draws include all survivors (DIAS): vote with SET DRAW alone"),
        "{body}"
    );
    // Five vote; France has not: no draw yet.
    all_send(&mut w, "dd", "EGIAR", "SET DRAW").await;
    assert!(!status(&mut w, "dd").await.contains("finished"));
    // France votes too: Turkey, in disorder, agrees, and the game is drawn among all seven.
    let sent = all_send(&mut w, "dd", "F", "SET DRAW").await;
    let bob = reply(&sent, "bob@example.org");
    assert!(
        bob.body
            .contains("Draw vote recorded for this phase: a draw among Austria, England, France"),
        "{}",
        bob.body
    );
    let summary = sent
        .iter()
        .find(|m| m.to == "guy@example.org" && m.subject.contains("Summary"))
        .unwrap_or_else(|| panic!("{sent:#?}"));
    assert!(
        summary
            .body
            .contains("Draw among Austria, England, France, Germany, Italy, Russia, Turkey"),
        "{}",
        summary.body
    );
}

#[tokio::test]
async fn a_nodias_draw_passes_when_every_vote_names_the_same_powers() {
    let mut w = World::new("draw-nodias").await;
    start_game(&mut w, GM, "nd", "standard", &SEVEN).await;
    let sent = w
        .mail(GM, "nodias", "SIGNON Mnd gmpass\nSET NODIAS\n")
        .await;
    let told = sent
        .iter()
        .find(|m| m.to == "ann@example.org" && m.subject.contains("Parameter Change"))
        .unwrap_or_else(|| panic!("{sent:#?}"));
    assert!(
        told.body.contains("NoDIAS: a draw vote names the powers"),
        "{}",
        told.body
    );
    // Six name England, France and Austria; Germany wants in.
    all_send(&mut w, "nd", "EFIART", "SET DRAW AEF").await;
    let sent = all_send(&mut w, "nd", "G", "SET DRAW AEFG").await;
    assert!(
        reply(&sent, "cat@example.org")
            .body
            .contains("a draw among Austria, England, France, Germany."),
        "{}",
        reply(&sent, "cat@example.org").body
    );
    assert!(!status(&mut w, "nd").await.contains("finished"));
    // A power out of the game, or a letter that is no power, is refused by name.
    let sent = all_send(&mut w, "nd", "G", "SET DRAW AEX").await;
    assert!(
        reply(&sent, "cat@example.org")
            .body
            .contains("'X' is no power's letter"),
        "{}",
        reply(&sent, "cat@example.org").body
    );
    // Germany gives in: the three share the draw, named in the summary.
    let sent = all_send(&mut w, "nd", "G", "SET DRAW England, France, Austria").await;
    let summary = sent
        .iter()
        .find(|m| m.to == "cat@example.org" && m.subject.contains("Summary"))
        .unwrap_or_else(|| panic!("{sent:#?}"));
    assert!(
        summary.body.contains("Draw among Austria, England, France"),
        "{}",
        summary.body
    );
    assert!(!summary
        .body
        .contains("Draw among Austria, England, France, "));
}

#[tokio::test]
async fn a_game_is_conceded_to_the_largest_power_where_the_master_allows() {
    let mut w = World::new("concede").await;
    start_game(&mut w, GM, "cc", "standard", &SEVEN).await;
    // Russia starts with four centres, the others with three.
    let sent = all_send(&mut w, "cc", "E", "SET CONCEDE France").await;
    let body = &reply(&sent, "ann@example.org").body;
    assert!(
        body.contains(
            "a game is conceded to the largest power, and France has 3 centres: concede to Russia"
        ),
        "{body}"
    );
    w.mail(GM, "no", "SIGNON Mcc gmpass\nSET NOCONCESSIONS\n")
        .await;
    let sent = all_send(&mut w, "cc", "E", "SET CONCEDE R").await;
    let body = &reply(&sent, "ann@example.org").body;
    assert!(body.contains("does not allow concessions"), "{body}");
    w.mail(GM, "yes", "SIGNON Mcc gmpass\nSET CONCESSIONS\n")
        .await;
    all_send(&mut w, "cc", "EFGIA", "SET CONCEDE R").await;
    assert!(!status(&mut w, "cc").await.contains("finished"));
    let sent = all_send(&mut w, "cc", "T", "SET CONC R").await;
    let summary = sent
        .iter()
        .find(|m| m.to == "fay@example.org" && m.subject.contains("Summary"))
        .unwrap_or_else(|| panic!("{sent:#?}"));
    assert!(
        summary.body.contains("Conceded to Russia"),
        "{}",
        summary.body
    );
}

// Issue 25, point 17: "`SET DRAW all` misread": it is a draw of every survivor.
#[tokio::test]
async fn set_draw_all_is_a_draw_of_every_survivor() {
    let mut w = World::new("draw-all").await;
    start_game(&mut w, GM, "da", "standard", &SEVEN).await;
    for line in [
        "SET DRAW all",
        "SET DRAW ALL SURVIVORS",
        "SET DRAW everyone",
    ] {
        let sent = all_send(&mut w, "da", "E", line).await;
        let r = &reply(&sent, "ann@example.org").body;
        assert!(
            r.contains("Draw vote recorded for this phase: a draw among Austria, England, France, Germany, Italy, Russia, Turkey."),
            "{line}: {r}"
        );
    }
    // Every survivor voting so ends the game in a draw, as SET DRAW alone does.
    let sent = all_send(&mut w, "da", "AFGIRT", "SET DRAW All").await;
    let summary = sent
        .iter()
        .find(|m| m.to == "guy@example.org" && m.subject.contains("Summary"))
        .unwrap_or_else(|| panic!("{sent:#?}"));
    assert!(
        summary
            .body
            .contains("Draw among Austria, England, France, Germany, Italy, Russia, Turkey"),
        "{}",
        summary.body
    );
}
