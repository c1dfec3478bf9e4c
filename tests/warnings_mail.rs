//! Warnings in the order reply by mail (issue 17, point 2): the reply lists, after the
//! orders on file, what looks like a mistake; the Master's SET WARNINGS OFF removes them,
//! and no order is refused for one.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

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

/// The warnings of one power's order reply, one per line.
fn warnings_in(reply: &str) -> Vec<String> {
    reply
        .split("Warnings (your orders stand as they are):")
        .nth(1)
        .map(|w| {
            w.lines()
                .skip(1)
                .take_while(|l| l.starts_with("  "))
                .map(|l| l.trim().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn each_kind_of_warning_by_mail() {
    // Issue 17, point 2: "a support for a move or hold that the supported own unit is not
    // ordered to make, a convoy for an army of one's own that is not ordered to go that
    // way, an army ordered via convoy with no own fleet ordered to carry it, a move into a
    // space one's own unit holds and does not leave, units with no order, builds left
    // unordered".
    let mut w = World::new("warnings-kinds").await;
    start_game(&mut w, GM, "kin", "standard", &SEVEN).await;
    let holds = [
        ("ann@example.org", 'E', "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor"),
        ("bob@example.org", 'F', "F Bre H\nA Par H\nA Mar H"),
        ("cat@example.org", 'G', "F Kie-Den\nA Mun H\nA Ber H"),
        ("dan@example.org", 'I', "F Nap-Ion\nA Rom-Nap\nA Ven H"),
        ("eve@example.org", 'A', "A Vie-Bud\nA Bud H\nF Tri H"),
        (
            "fay@example.org",
            'R',
            "A War S A Mos\nA Mos-Ukr\nF Sev H\nF Stp/sc H",
        ),
        ("guy@example.org", 'T', "F Ank H\nA Con H\nA Smy H"),
    ];
    for (addr, letter, orders) in holds {
        let reply = order(&mut w, "kin", addr, letter, orders).await;
        let warned = warnings_in(&reply);
        match letter {
            'A' => assert!(
                warned.contains(&"A Vie moves into Bud, where your own A Bud stays: it cannot dislodge its own unit.".to_string()),
                "{reply}"
            ),
            'R' => assert!(
                warned.contains(
                    &"A War supports A Mos to hold, but A Mos is ordered to move.".to_string()
                ),
                "{reply}"
            ),
            _ => assert!(warned.is_empty(), "{reply}"),
        }
    }
    let mut sent = w.wait(chrono::Duration::minutes(31)).await;
    assert!(
        sent.iter().any(|m| m.subject.contains("S1901M Results")),
        "{:?}",
        sent.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    // Fall: a convoy for an army of one's own that goes elsewhere.
    let reply = order(
        &mut w,
        "kin",
        "ann@example.org",
        'E',
        "F Nth C A Yor-Nwy\nA Yor H\nF Nwg H",
    )
    .await;
    assert!(
        warnings_in(&reply)
            .contains(&"F Nth convoys A Yor to Nwy, but A Yor is not ordered there.".to_string()),
        "{reply}"
    );
    // An army by convoy that no fleet of its power carries.
    let reply = order(
        &mut w,
        "kin",
        "dan@example.org",
        'I',
        "A Nap-Tun via convoy\nF Ion H\nA Ven H",
    )
    .await;
    assert!(
        warnings_in(&reply).contains(
            &"A Nap goes to Tun by convoy, but no fleet of yours is ordered to carry it."
                .to_string()
        ),
        "{reply}"
    );
    // Germany takes Denmark and, in the Winter, leaves its build unordered.
    order(
        &mut w,
        "kin",
        "cat@example.org",
        'G',
        "F Den H\nA Mun H\nA Ber H",
    )
    .await;
    let fall = [
        ("bob@example.org", 'F', "F Bre H\nA Par H\nA Mar H"),
        ("eve@example.org", 'A', "A Vie H\nA Bud H\nF Tri H"),
        (
            "fay@example.org",
            'R',
            "A War H\nA Ukr H\nF Sev H\nF Stp/sc H",
        ),
        ("guy@example.org", 'T', "F Ank H\nA Con H\nA Smy H"),
    ];
    for (addr, letter, orders) in fall {
        let reply = order(&mut w, "kin", addr, letter, orders).await;
        assert!(reply.contains("orders complete"), "{reply}");
    }
    sent = w.wait(chrono::Duration::minutes(31)).await;
    assert!(
        sent.iter().any(|m| m.subject.contains("F1901M Results")),
        "{:?}",
        sent.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    let reply = order(&mut w, "kin", "cat@example.org", 'G', "").await;
    assert!(
        warnings_in(&reply)
            .contains(&"1 build(s) left unordered: they will be waived.".to_string()),
        "{reply}"
    );
}
