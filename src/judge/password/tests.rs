//! Tests of the parent module.

use chrono::{DateTime, Duration, Utc};

use super::{
    sender_key, Guard, Passwords, Sender, GAME_FAILURES, LOCKOUT_MINUTES, PER_SENDER, SEAT_FAILURES,
};

fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-12-01T10:20:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

#[test]
fn a_hash_verifies_its_password_only() {
    let p = Passwords::default();
    let h = p.hash("secret");
    assert_eq!(p.used(t0()), 0, "the keeper's tools are not counted");
    assert!(h.starts_with("$argon2id$"));
    assert!(p.verify(&h, "secret"));
    assert!(p.verify(&h, "secret"), "cached");
    assert!(!p.verify(&h, "Secret"));
    assert!(!p.verify("not a hash", "secret"));
}

fn stranger(key: &str) -> Sender<'_> {
    Sender { key, holder: false }
}

#[test]
fn the_hourly_budget_refuses_checks_until_the_next_hour_but_not_remembered_ones() {
    let p = Passwords::with_budget(3);
    let now = t0();
    let h = p.hash("secret");
    assert_eq!(p.check(&h, "secret", now, stranger("b@x")), Ok(true));
    assert_eq!(p.check(&h, "wrong", now, stranger("c@x")), Ok(false));
    assert_eq!(p.check(&h, "wrong2", now, stranger("c@x")), Ok(false));
    let busy = p.check(&h, "guess", now, stranger("d@x")).unwrap_err();
    assert_eq!(busy.until.to_rfc3339(), "2026-12-01T11:00:00+00:00");
    assert!(
        p.hash_at("x", now, "e@x").is_ok(),
        "a new hash draws on its sender's own allowance"
    );
    assert_eq!(
        p.check(&h, "secret", now, stranger("d@x")),
        Ok(true),
        "remembered: no argon2 run"
    );
    // A seat's registered address checking its own seat does not draw on the
    // strangers' hour, spent or not.
    let holder = Sender {
        key: "a@x",
        holder: true,
    };
    assert_eq!(p.check(&h, "wrong", now, holder), Ok(false));
    assert_eq!(p.used(now), 5);
    assert_eq!(p.used_by(now, "e@x"), 1);
    assert!(
        p.take(now + Duration::minutes(40), stranger("d@x")).is_ok(),
        "a new hour starts from zero"
    );
}

/// "the argon2 budget is shared out per sender so no one sender can spend another's"
/// (issue 24, part 3).
#[test]
fn one_sender_spends_its_own_allowance_and_nobody_elses() {
    let p = Passwords::default();
    let now = t0();
    let mut taken = 0;
    for i in 0..1000 {
        let ok = if i % 2 == 0 {
            p.take(now, stranger("junk@x")).is_ok()
        } else {
            p.hash_at("pw", now, "junk@x").is_ok()
        };
        taken += u32::from(ok);
    }
    assert_eq!(taken, PER_SENDER);
    assert!(p.take(now, stranger("ann@x")).is_ok());
    // The same address from another host is another sender.
    let elsewhere = sender_key("junk@x", Some("192.0.2.7"));
    assert_eq!(elsewhere, "junk@x [192.0.2.7]");
    assert!(p.take(now, stranger(&elsewhere)).is_ok());
    // Strangers together spend the strangers' hour; a holder still has its own.
    let p = Passwords::with_budget(50);
    let keys: Vec<String> = (0..100).map(|i| format!("x{i}@evil")).collect();
    let ok = keys
        .iter()
        .filter(|k| p.take(now, stranger(k)).is_ok())
        .count();
    assert_eq!(ok, 50);
    let bob = Sender {
        key: "bob@x",
        holder: true,
    };
    assert!(p.take(now, bob).is_ok());
    assert!(p.take(now, stranger("bob@x")).is_err());
}

#[test]
fn a_seat_locks_once_after_its_failures_and_the_game_after_more() {
    let mut g = Guard::default();
    let now = t0();
    for i in 0..SEAT_FAILURES - 1 {
        assert!(g.fail("France", "x@y", "bob@z", now).is_empty(), "{i}");
    }
    assert!(g.locked("France", now).is_none());
    let t = g.fail("France", "w@y", "bob@z", now);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].lock.seat.as_deref(), Some("France"));
    assert_eq!(t[0].failures, SEAT_FAILURES);
    assert_eq!(t[0].from, ["x@y", "w@y"]);
    assert_eq!(t[0].holders, ["bob@z"]);
    let until = now + Duration::minutes(LOCKOUT_MINUTES);
    assert_eq!(g.locked("France", now).map(|l| l.until), Some(until));
    assert!(g.locked("Germany", now).is_none());
    assert!(
        g.fail("France", "x@y", "bob@z", now).is_empty(),
        "once per lockout"
    );
    assert!(g.locked("France", until).is_none(), "over at its end");
    // The game locks at GAME_FAILURES over all seats.
    let mut g = Guard::default();
    let mut trips = 0;
    for i in 0..GAME_FAILURES {
        let seat = format!("seat{}", i % 7);
        trips += g
            .fail(&seat, "x@y", "h@z", now)
            .iter()
            .filter(|t| t.lock.seat.is_none())
            .count();
    }
    assert_eq!(trips, 1);
    assert!(g.locked("seat6", now).is_some_and(|l| l.seat.is_none()));
    // Failures older than the window are forgotten.
    let mut g = Guard::default();
    for i in 0..SEAT_FAILURES as i64 {
        g.fail("France", "x@y", "h@z", now + Duration::minutes(61 * i));
    }
    assert!(g.locks.is_empty());
    assert_eq!(g.failures.len(), 1);
}
