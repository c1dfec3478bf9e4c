//! Warnings in the order reply by mail (issue 17, point 2): the reply lists, after the
//! orders on file, what looks like a mistake; the Master's SET WARNINGS OFF removes them,
//! and no order is refused for one.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

mod support;

use support::{order, start_game, World, SEVEN};

const GM: &str = "gm@example.org";

#[tokio::test]
async fn the_order_reply_warns_and_the_master_can_turn_it_off() {
    let mut w = World::new("warnings").await;
    start_game(&mut w, GM, "war", "standard", &SEVEN).await;
    let reply = order(
        &mut w,
        "war",
        "ann@example.org",
        'E',
        "F Edi S A Lvp-Yor\nA Lvp-Wal",
    )
    .await;
    let warned = reply
        .split("Warnings (your orders stand as they are):")
        .nth(1);
    let warned = warned.unwrap_or_else(|| panic!("{reply}"));
    assert!(
        warned.contains("F Edi supports A Lvp to Yor, but A Lvp is not ordered there."),
        "{reply}"
    );
    assert!(
        warned.contains("F Lon has no order: it will hold."),
        "{reply}"
    );
    assert!(
        reply.contains("F Edinburgh SUPPORT")
            || reply.contains("F Edi S A Lvp - Yor")
            || reply.contains("Edi"),
        "{reply}"
    );
    assert!(!reply.contains("***"), "nothing refused: {reply}");
    let sent = w
        .mail(GM, "off", "SIGNON Mwar gmpass\nSET WARNINGS OFF\n")
        .await;
    let told = sent.iter().find(|m| m.to == "ann@example.org").unwrap();
    assert!(told.body.contains("no longer warn"), "{}", told.body);
    let reply = order(&mut w, "war", "ann@example.org", 'E', "F Lon H").await;
    assert!(!reply.contains("Warnings"), "{reply}");
}
