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
