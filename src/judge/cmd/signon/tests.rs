//! Tests of the parent module.

use crate::judge::game::Status;
use crate::judge::testkit::{judge, mail, reply, start, started, GM};
use crate::judge::Games;

#[test]
fn create_makes_the_sender_master_and_refuses_bad_names() {
    let j = judge();
    let mut games = Games::new();
    let h = mail(&j, &mut games, GM, "CREATE ?new pw classical", start());
    assert!(reply(&h, GM)
        .body
        .contains("Game 'new' (classical) created. You are its Master"));
    assert_eq!(games["new"].status, Status::Forming);
    assert_eq!(games["new"].master.address, GM);
    for (body, why) in [
        ("CREATE ?new pw", "there is already a game 'new'"),
        (
            "CREATE ?much_too_long_a_name pw",
            "a game name is 1 to 12 letters or digits",
        ),
        ("CREATE ?other pw nosuchvariant", "nosuchvariant"),
    ] {
        let h = mail(&j, &mut games, "b@example.org", body, start());
        let text = &reply(&h, "b@example.org").body;
        assert!(text.contains(why), "{body}: {text}");
    }
    assert_eq!(games.len(), 1);
}

#[test]
fn a_wrong_password_or_letter_signs_nobody_on() {
    let j = judge();
    let mut games = started(&j);
    for body in [
        "SIGNON Fg wrong\nA Par-Bur",
        "SIGNON Xg pwF\nA Par-Bur",
        "SIGNON Fnosuch pwF",
    ] {
        let h = mail(&j, &mut games, "bob@example.org", body, start());
        let text = &reply(&h, "bob@example.org").body;
        assert!(text.contains("***"), "{body}: {text}");
        assert!(h.authenticated.is_none());
        // A mistyped password is not mailed back (issue 19, point 8).
        assert!(
            !text.contains("wrong") && !text.contains("pwF"),
            "{body}: {text}"
        );
    }
    assert!(games["g"].orders.is_empty(), "no order was filed");
    let h = mail(&j, &mut games, "bob@example.org", "SIGNON Fg pwF", start());
    assert_eq!(h.authenticated.as_deref(), Some("g"));
}

/// A standard `several_powers` game `g` in which bob@example.org holds France (`pwF`) and
/// Germany (`pwG`).
fn bob_holds_two() -> Games {
    let mut players: Vec<(String, char)> = crate::judge::testkit::SEVEN
        .iter()
        .map(|&(a, l)| (a.to_string(), l))
        .collect();
    players[2].0 = BOB.to_string();
    crate::judge::testkit::started_as(&judge(), "g gmpass standard several_powers", &players)
}

const BOB: &str = "bob@example.org";

/// The orders on file for power `index` of game `g`, as the reply writes them.
fn filed(games: &Games, index: u8) -> Vec<String> {
    let j = judge();
    let g = &games["g"];
    g.orders
        .get(&index)
        .map(|o| o.orders.iter().map(|o| o.canonical(j.map_of(g))).collect())
        .unwrap_or_default()
}

/// Issue 37: "A player of several countries must be able to order them all in one mail
/// (njudge players send `SIGNON` per power in one mail)": each SIGNON ends the section
/// before it, and the reply lists each power's orders on file in its own block.
#[test]
fn a_player_of_two_countries_orders_both_in_one_mail() {
    let j = judge();
    let mut games = bob_holds_two();
    assert_eq!(
        games["g"]
            .seat_of(crate::game::ids::PowerId(3))
            .unwrap()
            .member
            .address,
        BOB
    );
    let h = mail(
        &j,
        &mut games,
        BOB,
        "SIGNON Fg pwF\nA Par-Bur\nSIGNON Gg pwG\nA Mun-Ruh\nA Ber-Sil",
        start(),
    );
    assert_eq!(filed(&games, 2), ["A Par - Bur"]);
    assert_eq!(filed(&games, 3), ["A Mun - Ruh", "A Ber - Sil"]);
    let text = &reply(&h, BOB).body;
    let france = text
        .find("Orders on file for France (S1901M):")
        .expect(text);
    let signon = text.find("\nSIGNON Gg ****\n").expect(text);
    let germany = text
        .find("Orders on file for Germany (S1901M):")
        .expect(text);
    assert!(france < signon && signon < germany, "{text}");
    assert!(text[france..signon].contains("  A Par - Bur\n"), "{text}");
    assert!(text[germany..].contains("  A Ber - Sil\n"), "{text}");
    assert!(!text.contains("  *** ") && !text.contains("pwG"), "{text}");
    assert_eq!(h.authenticated.as_deref(), Some("g"));
}

/// Issue 37: "the second `SIGNON` is refused and everything after it is dropped without
/// being listed". Each SIGNON is checked with its own password (France's does not open
/// Germany); what a refused one leaves unread is listed, its secrets hidden, and the
/// section before it stands.
#[test]
fn a_refused_signon_lists_the_lines_it_left_unread() {
    let j = judge();
    let mut games = bob_holds_two();
    let h = mail(
        &j,
        &mut games,
        BOB,
        "SIGNON Fg pwF\nA Par-Bur\nSIGNON Gg pwF\nA Mun-Ruh\nSET PASSWORD secret2\nSIGNOFF\nA Ber-Kie",
        start(),
    );
    assert_eq!(filed(&games, 2), ["A Par - Bur"]);
    assert!(filed(&games, 3).is_empty());
    let text = &reply(&h, BOB).body;
    assert!(
        text.contains("SIGNON Gg ****\n  *** Invalid password or power ID specified.\nNot read, as the line above was refused (send them again after a SIGNON herald accepts):\n  A Mun-Ruh\n  SET PASSWORD ****\n"),
        "{text}"
    );
    assert!(text.contains("Orders on file for France"), "{text}");
    assert!(
        !text.contains("A Ber-Kie") && !text.contains("secret2"),
        "{text}"
    );
    // The first SIGNON refused: the same.
    let h = mail(&j, &mut games, BOB, "SIGNON Fg nope\nA Par-Pic", start());
    let text = &reply(&h, BOB).body;
    assert!(text.contains("Not read, as the line above was refused (send them again after a SIGNON herald accepts):\n  A Par-Pic\n"), "{text}");
    assert_eq!(filed(&games, 2), ["A Par - Bur"]);
}

/// Issue 37: "Keep one CREATE/OBSERVE per mail and bound the number of SIGNONs per mail
/// with a clear refusal beyond"; and the sections of one mail are of one game.
#[test]
fn signons_in_one_mail_are_bounded_and_of_one_game() {
    let j = judge();
    let mut games = bob_holds_two();
    // One for each of standard's seven powers and one for the Master: eight.
    let mut body = String::new();
    for _ in 0..4 {
        body.push_str("SIGNON Fg pwF\nA Par-Bur\nSIGNON Gg pwG\nA Mun-Ruh\n");
    }
    body.push_str("SIGNON Fg pwF\nA Par-Pic\n");
    let h = mail(&j, &mut games, BOB, &body, start());
    let text = &reply(&h, BOB).body;
    assert!(
        text.contains("SIGNON Fg ****\n  *** at most 8 SIGNONs in one mail (one for each power of game 'g' and one for its Master): send the rest in another mail\nNot read, as the line above was refused (send them again after a SIGNON herald accepts):\n  A Par-Pic\n"),
        "{text}"
    );
    assert_eq!(filed(&games, 2), ["A Par - Bur"]);
    mail(
        &j,
        &mut games,
        "new@example.org",
        "CREATE ?h hpass",
        start(),
    );
    let h = mail(
        &j,
        &mut games,
        BOB,
        "SIGNON Fg pwF\nA Par-Pic\nSIGNON ?h pwX\nA Mun-Ruh",
        start(),
    );
    let text = &reply(&h, BOB).body;
    assert!(text.contains("SIGNON ?h ****\n  *** this mail has signed on to game 'g': one mail orders in one game, so send what is for 'h' in a mail of its own\n"), "{text}");
    assert!(text.contains("  A Mun-Ruh\n"), "{text}");
    assert_eq!(filed(&games, 2), ["A Par - Pic"]);
    assert!(games["h"].seats.is_empty());
    for body in [
        "SIGNON Fg pwF\nCREATE ?k kpass",
        "OBSERVE h opass\nSIGNON Fg pwF",
        "CREATE ?k kpass\nSIGNON Fg pwF",
    ] {
        let h = mail(&j, &mut games, BOB, body, start());
        let text = &reply(&h, BOB).body;
        assert!(
            text.contains("*** only one CREATE or OBSERVE per mail, and no SIGNON beside it"),
            "{body}: {text}"
        );
    }
}
