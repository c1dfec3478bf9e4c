//! Password guessing by mail is limited (issue 13, point 3): five wrong passwords lock a
//! seat for an hour and twenty lock the game, the right password included, with one notice
//! to the holder and the Master; herald's hourly budget of password checks refuses further
//! sign-ons as busy; and junk mail in a player's name cannot use up the replies to them.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

mod support;

use chrono::Duration;
use herald::judge::password::{GAME_FAILURES, LOCKOUT_MINUTES, SEAT_FAILURES, WINDOW_MINUTES};
use support::{find, start_game, to, World, SEVEN};

const GM: &str = "gm@example.org";
const BOB: &str = "bob@example.org"; // France
const CAT: &str = "cat@example.org"; // Germany

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_passwords_lock_a_seat_then_the_game_and_tell_the_holder_and_the_master() {
    assert_eq!((SEAT_FAILURES, GAME_FAILURES), (5, 20));
    assert_eq!((WINDOW_MINUTES, LOCKOUT_MINUTES), (60, 60));
    let mut w = World::new("signon-lock").await;
    start_game(&mut w, GM, "lock", "standard", &SEVEN).await;
    w.wait(Duration::minutes(5)).await;

    // Four wrong guesses for France from four addresses: refused, nobody told yet.
    for i in 0..4 {
        let from = format!("x{i}@evil.example");
        let sent = w
            .mail(&from, "guess", &format!("SIGNON Flock guess{i}\nA Par H\n"))
            .await;
        assert_eq!(sent.len(), 1, "{sent:#?}");
        assert!(to(&sent, &from)
            .body
            .contains("Invalid password or power ID specified."));
    }

    // The fifth locks France for an hour; Bob and the Master are told once.
    let sent = w
        .mail("x4@evil.example", "guess", "SIGNON Flock guess4\n")
        .await;
    let reply = &to(&sent, "x4@evil.example").body;
    assert!(
        reply.contains("Too many wrong passwords for France in game 'lock': sign-on as France is locked until Tue Dec 01 2026 11:05 UTC."),
        "{reply}"
    );
    for who in [BOB, GM] {
        let notice = find(&sent, who, "Signon Locked");
        assert_eq!(notice.len(), 1, "{who}: {sent:#?}");
        let body = &notice[0].body;
        assert!(
            body.contains("5 wrong passwords for France in game 'lock' within 60 minutes, from x0@evil.example, x1@evil.example, x2@evil.example, x3@evil.example, x4@evil.example."),
            "{body}"
        );
        assert!(
            body.contains("Sign-on as France is refused, right password or not, until Tue Dec 01 2026 11:05 UTC."),
            "{body}"
        );
    }
    assert_eq!(sent.len(), 3, "{sent:#?}");

    // While locked even the right password is refused, unchecked, and nobody is told again.
    let passwords = &w.service.judge.passwords;
    let checks = passwords.used(w.now);
    let sent = w.mail(BOB, "orders", "SIGNON Flock pwF\nA Par-Bur\n").await;
    assert_eq!(sent.len(), 1, "{sent:#?}");
    let reply = &to(&sent, BOB).body;
    assert!(
        reply.contains("too many wrong passwords for France in game 'lock': try again after Tue Dec 01 2026 11:05 UTC"),
        "{reply}"
    );
    assert!(!reply.contains("Orders received"), "{reply}");
    assert_eq!(
        w.service.judge.passwords.used(w.now),
        checks,
        "no password check while locked"
    );

    // Germany is not locked.
    let sent = w.mail(CAT, "orders", "SIGNON Glock pwG\nA Mun H\n").await;
    assert!(to(&sent, CAT).body.contains("Orders received"));

    // Fifteen more wrong guesses over other seats (four at most each, so no seat locks)
    // make twenty for the game: the whole game locks, the Master and the holders are told.
    let mut sent_all = Vec::new();
    for (k, letter) in ['E', 'G', 'I', 'A'].iter().enumerate() {
        let n = if k < 3 { 4 } else { 3 };
        for i in 0..n {
            let sent = w
                .mail(
                    "y@evil.example",
                    "guess",
                    &format!("SIGNON {letter}lock nope{i}\n"),
                )
                .await;
            sent_all.extend(sent);
        }
    }
    let game_notices: Vec<_> = sent_all
        .iter()
        .filter(|s| s.subject.contains("Signon Locked"))
        .collect();
    let to_gm: Vec<_> = game_notices.iter().filter(|s| s.to == GM).collect();
    assert_eq!(to_gm.len(), 1, "{game_notices:#?}");
    assert!(
        to_gm[0].body.contains("20 wrong passwords for its seats in game 'lock' within 60 minutes, from x0@evil.example, x1@evil.example, x2@evil.example, x3@evil.example, x4@evil.example and 1 more."),
        "{}",
        to_gm[0].body
    );
    for holder in [
        BOB,
        "ann@example.org",
        CAT,
        "dan@example.org",
        "eve@example.org",
    ] {
        assert_eq!(
            game_notices.iter().filter(|s| s.to == holder).count(),
            1,
            "{holder}: {game_notices:#?}"
        );
    }
    let sent = w.mail(GM, "gm", "SIGNON Mlock gmpass\nPAUSE\n").await;
    let reply = &to(&sent, GM).body;
    assert!(
        reply.contains(
            "too many wrong passwords in game 'lock': try again after Tue Dec 01 2026 11:05 UTC"
        ),
        "{reply}"
    );

    // An hour after it tripped, the lock is over and France signs on again.
    w.wait(Duration::minutes(60)).await;
    let sent = w.mail(BOB, "orders", "SIGNON Flock pwF\nA Par-Bur\n").await;
    let reply = &to(&sent, BOB).body;
    assert!(reply.contains("Orders received"), "{reply}");
    assert!(reply.contains("A Par - Bur"), "{reply}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spent_hour_of_password_checks_refuses_new_checks_but_not_remembered_ones() {
    let mut w = World::new("signon-busy").await;
    start_game(&mut w, GM, "hour", "standard", &SEVEN).await;
    // The Master's password was checked at START; Bob has not signed on as France yet.
    let now = w.now;
    while w.service.judge.passwords.take(now).is_ok() {}

    let sent = w.mail(BOB, "orders", "SIGNON Fhour pwF\nA Par-Bur\n").await;
    let reply = &to(&sent, BOB).body;
    assert!(
        reply.contains(
            "herald is busy checking passwords; try again after Tue Dec 01 2026 11:00 UTC"
        ),
        "{reply}"
    );
    assert!(!reply.contains("Orders received"), "{reply}");
    // Not a wrong password: nothing recorded, nobody told.
    assert_eq!(sent.len(), 1, "{sent:#?}");

    // A new observer's password needs hashing: refused too.
    let sent = w
        .mail("obs@example.org", "watch", "OBSERVE hour watchpw\n")
        .await;
    assert!(to(&sent, "obs@example.org")
        .body
        .contains("herald is busy checking passwords"));

    // A password that signed on before needs no new check.
    let sent = w.mail(GM, "gm", "SIGNON Mhour gmpass\n").await;
    assert!(
        !to(&sent, GM).body.contains("busy"),
        "{}",
        to(&sent, GM).body
    );

    // The next hour has checks again.
    w.wait(Duration::minutes(60)).await;
    let sent = w.mail(BOB, "orders", "SIGNON Fhour pwF\nA Par-Bur\n").await;
    assert!(to(&sent, BOB).body.contains("Orders received"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn junk_mail_in_a_players_name_does_not_silence_their_order_confirmations() {
    let mut w = World::new("signon-replies").await;
    start_game(&mut w, GM, "junk", "standard", &SEVEN).await;
    // 70 forged mails from Bob's address in one hour: unknown commands, games that do not
    // exist, and two wrong passwords. Only 58 are answered: with the replies to his join
    // and to his reply confirming his address (see `start_game`), that is the 60 replies
    // an address gets an hour. One notice says so.
    let mut junk: Vec<(&str, &str, String)> = Vec::new();
    for i in 0..70 {
        let body = match i % 3 {
            0 => "Buy cheap watches".to_string(),
            1 => format!("SIGNON Fnogame{i} x\n"),
            _ if i < 6 => format!("SIGNON Fjunk wrong{i}\n"),
            _ => "HELLO\n".to_string(),
        };
        junk.push((BOB, "junk", body));
    }
    let batch: Vec<(&str, &str, &str)> =
        junk.iter().map(|(a, s, b)| (*a, *s, b.as_str())).collect();
    let sent = w.mails(&batch).await;
    let to_bob: Vec<_> = sent.iter().filter(|s| s.to == BOB).collect();
    let notices = to_bob
        .iter()
        .filter(|s| s.subject == "Reply limit reached (60 an hour)")
        .count();
    assert_eq!(notices, 1);
    assert_eq!(to_bob.len(), 58 + 1);

    // Bob's real orders still get their confirmation.
    w.wait(Duration::minutes(10)).await;
    let sent = w.mail(BOB, "orders", "SIGNON Fjunk pwF\nA Par-Bur\n").await;
    let reply = &to(&sent, BOB).body;
    assert!(reply.contains("Orders received"), "{reply}");
    assert!(reply.contains("A Par - Bur"), "{reply}");

    // Junk is still not answered, and the confirmation did not count against it.
    let sent = w.mail(BOB, "junk", "Buy cheap watches").await;
    assert!(sent.iter().all(|s| s.to != BOB), "{sent:#?}");
    for i in 0..3 {
        let sent = w
            .mail(
                BOB,
                "orders",
                &format!("SIGNON Fjunk pwF\nA Mar H\n// {i}\n"),
            )
            .await;
        assert!(to(&sent, BOB).body.contains("Orders received"));
    }
}
