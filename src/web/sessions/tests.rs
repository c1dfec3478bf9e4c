//! The caps on sessions: per seat, per client, and the whole table's, which makes room from
//! the heaviest client only.

use super::*;

fn now() -> DateTime<Utc> {
    DateTime::from_timestamp(1_800_000_000, 0).unwrap()
}

fn seat(game: &str, letter: char, client: &str) -> Seat {
    Seat {
        game: game.into(),
        letter,
        password: "pw".into(),
        stored: "hash".into(),
        client: client.parse().unwrap(),
        csrf: token(),
        until: now() + lifetime(),
    }
}

#[test]
fn a_seat_and_a_client_drop_their_own_oldest() {
    let s = Sessions::with_caps(2, 3, 100);
    let first = s.open(seat("g", 'F', "192.0.2.1"), now());
    let other = s.open(seat("g", 'E', "192.0.2.9"), now());
    for _ in 0..10 {
        s.open(seat("g", 'F', "192.0.2.1"), now());
    }
    assert!(s.get(&first, now()).is_none(), "the seat's oldest went");
    assert!(s.get(&other, now()).is_some(), "another seat's stayed");
    assert_eq!(s.ids().len(), 3);
    // One client signing in as many seats keeps its newest three.
    let s = Sessions::with_caps(5, 3, 100);
    let other = s.open(seat("g", 'E', "192.0.2.9"), now());
    let ids: Vec<String> = "AEFGIRT"
        .chars()
        .map(|l| s.open(seat("g", l, "192.0.2.1"), now()))
        .collect();
    assert!(ids[..4].iter().all(|id| s.get(id, now()).is_none()));
    assert!(ids[4..].iter().all(|id| s.get(id, now()).is_some()));
    assert!(s.get(&other, now()).is_some());
}

#[test]
fn a_full_table_makes_room_from_the_heaviest_client() {
    let s = Sessions::with_caps(100, 100, 10);
    let victim = s.open(seat("g", 'R', "192.0.2.200"), now());
    for i in 0..50 {
        s.open(seat("g", 'I', &format!("192.0.2.{}", i % 3)), now());
    }
    assert!(s.get(&victim, now()).is_some(), "the light client stays");
    assert_eq!(s.ids().len(), 10);
    // A newcomer gets in, at the heaviest client's cost.
    let newcomer = s.open(seat("g", 'E', "198.51.100.1"), now());
    assert!(s.get(&newcomer, now()).is_some());
    assert!(s.get(&victim, now()).is_some());
    assert_eq!(s.ids().len(), 10);
}

#[test]
fn a_form_token_is_good_once() {
    let s = Sessions::default();
    let id = s.open(seat("g", 'F', "192.0.2.1"), now());
    let a = s.form(&id);
    let b = s.form(&id);
    assert_eq!(s.spend(&id, &a), Spend::Fresh);
    assert_eq!(s.spend(&id, &a), Spend::Spent);
    assert_eq!(s.spend(&id, "0000"), Spend::Unknown);
    assert_eq!(s.spend("nosuch", &b), Spend::Unknown);
    assert_eq!(s.spend(&id, &b), Spend::Fresh);
    assert!(s.spend_signin("t1"));
    assert!(!s.spend_signin("t1"));
    assert!(s.signin_spent("t1"));
}
