//! No mail to anyone who did not ask (issue 24, part 2): "An address receives game mail
//! (notices, results, press, broadcasts) only after it has confirmed that it wants it, by
//! answering a confirmation mail with a token from that address ... The only mail an
//! unconfirmed address gets is the one answer to a mail sent in its name. Outgoing volume is
//! bounded per game and per sender (press blocks per mail, broadcasts and results per
//! hour), with the Master told when a limit bites".

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use chrono::Duration;
use support::*;

const GM: &str = "gm@example.org";
const VICTIM: &str = "victim@example.org";
const ANN: &str = "ann@example.org";
const BOB: &str = "bob@example.org";

/// A standard game `g`, all seven seats taken and confirmed, started.
async fn running(w: &mut World) -> Vec<Sent> {
    let (_, started) = start_game(w, GM, "g", "standard", &SEVEN).await;
    assert!(
        reply(&started, GM).body.contains("The game has started."),
        "{started:#?}"
    );
    started
}

/// A forged OBSERVE in a victim's name gets the victim exactly one mail, the answer, which
/// asks for confirmation; nothing after, however many results and broadcasts follow. What
/// was held back is counted.
#[tokio::test]
async fn a_forged_observer_gets_one_answer_and_nothing_after() {
    let mut w = World::new("asked-forged").await;
    running(&mut w).await;
    // Late powers go into civil disorder: the game goes on without orders.
    w.mail(GM, "nmr", "SIGNON Mg gmpass\nSET NMR\n").await;
    let sent = w.mail(VICTIM, "watch", "OBSERVE g anything\n").await;
    let answer = to(&sent, VICTIM);
    assert!(
        answer.subject.starts_with("Re: watch [confirm-"),
        "{answer:#?}"
    );
    assert!(
        answer
            .body
            .contains("from herald. Until it does, it gets only a short answer to each mail"),
        "{}",
        answer.body
    );
    let mut after = Vec::new();
    for _ in 0..5 {
        after.extend(
            w.mail(
                GM,
                "b",
                "SIGNON Mg gmpass\nBROADCAST\nhello all\nENDPRESS\n",
            )
            .await,
        );
    }
    // Three deadlines pass (results each time).
    for _ in 0..3 {
        let later = w.now + Duration::days(10);
        after.extend(w.wait_until(later).await);
    }
    assert!(
        after
            .iter()
            .any(|m| m.to == ANN && m.subject.contains("Broadcast")),
        "the players get the broadcasts: {after:#?}"
    );
    assert!(
        after
            .iter()
            .any(|m| m.to == ANN && m.subject.contains("Results")),
        "the players get the results: {:#?}",
        after
            .iter()
            .map(|m| (&m.to, &m.subject))
            .collect::<Vec<_>>()
    );
    let to_victim: Vec<_> = after.iter().filter(|m| m.to == VICTIM).collect();
    assert!(to_victim.is_empty(), "{to_victim:#?}");
    assert!(w.service.store.held_count(VICTIM).await.unwrap() >= 8);
}

/// A plain reply to herald's answer (Re: subject, In-Reply-To, the text quoted, nothing
/// typed) confirms the address: from then on it gets game mail.
#[tokio::test]
async fn a_plain_reply_confirms_the_address() {
    let mut w = World::new("asked-reply").await;
    running(&mut w).await;
    let sent = w.mail(VICTIM, "watch", "OBSERVE g watchpw\n").await;
    let answer = to(&sent, VICTIM).clone();
    assert!(!w.service.store.is_confirmed(VICTIM).await.unwrap());
    let confirmed = w.reply_to(VICTIM, &answer, "").await;
    assert!(w.service.store.is_confirmed(VICTIM).await.unwrap());
    assert!(
        to(&confirmed, VICTIM)
            .body
            .contains("This address (victim@example.org) is now confirmed:"),
        "{confirmed:#?}"
    );
    let sent = w
        .mail(
            GM,
            "b",
            "SIGNON Mg gmpass\nBROADCAST\nhello all\nENDPRESS\n",
        )
        .await;
    assert_eq!(find(&sent, VICTIM, "Broadcast").len(), 1, "{sent:#?}");
}

/// The code is the address's own: a mail forged in the victim's name with another
/// address's code, or with none, confirms nothing.
#[tokio::test]
async fn a_forger_cannot_confirm_a_victim() {
    let mut w = World::new("asked-forger").await;
    running(&mut w).await;
    // The forger watches from their own address and learns their own code.
    let sent = w
        .mail("mallory@example.org", "watch", "OBSERVE g pw\n")
        .await;
    let own = to(&sent, "mallory@example.org").subject.clone();
    let code = own
        .split('[')
        .nth(1)
        .and_then(|s| s.strip_suffix(']'))
        .unwrap()
        .to_string();
    w.mail(VICTIM, "watch", "OBSERVE g pw\n").await;
    w.mail(VICTIM, &format!("Re: watch [{code}]"), &format!("{code}\n"))
        .await;
    w.mail_with_headers(
        VICTIM,
        "Re: watch",
        "In-Reply-To: <outbox-2.x@herald.test>\r\n",
        "> quoted\n",
    )
    .await;
    assert!(!w.service.store.is_confirmed(VICTIM).await.unwrap());
    let sent = w
        .mail(GM, "b", "SIGNON Mg gmpass\nBROADCAST\nhello\nENDPRESS\n")
        .await;
    assert!(find(&sent, VICTIM, "").is_empty(), "{sent:#?}");
}

/// SET ADDRESS to a new address: the new address gets one request to confirm (the seat's
/// holder asked for it with the password) and no game mail until it replies.
#[tokio::test]
async fn set_address_asks_the_new_address_once() {
    let mut w = World::new("asked-address").await;
    running(&mut w).await;
    const NEW: &str = "ann@new.example";
    let sent = w
        .mail(
            ANN,
            "moving",
            "SIGNON Eg pwE\nSET ADDRESS ann@new.example\n",
        )
        .await;
    let request = to(&sent, NEW).clone();
    assert!(request.subject.contains("[confirm-"), "{request:#?}");
    assert!(request.body.contains("SET ADDRESS"), "{}", request.body);
    // Back and forth: no second request within the hour.
    w.mail(NEW, "x", "SIGNON Eg pwE\nSET ADDRESS ann@example.org\n")
        .await;
    let again = w
        .mail(
            ANN,
            "moving",
            "SIGNON Eg pwE\nSET ADDRESS ann@new.example\n",
        )
        .await;
    assert!(find(&again, NEW, "Confirm").is_empty(), "{again:#?}");
    let sent = w
        .mail(GM, "b", "SIGNON Mg gmpass\nBROADCAST\nhello\nENDPRESS\n")
        .await;
    assert!(find(&sent, NEW, "Broadcast").is_empty(), "{sent:#?}");
    w.reply_to(NEW, &request, "").await;
    let sent = w
        .mail(
            GM,
            "b",
            "SIGNON Mg gmpass\nBROADCAST\nhello again\nENDPRESS\n",
        )
        .await;
    assert_eq!(find(&sent, NEW, "Broadcast").len(), 1, "{sent:#?}");
}

/// Press blocks per mail: the eleventh is refused in the reply, with its text; ten go.
#[tokio::test]
async fn press_blocks_per_mail_are_bounded() {
    let mut w = World::new("asked-press-mail").await;
    running(&mut w).await;
    let blocks: String = (1..=11)
        .map(|i| format!("BROADCAST\nnumber {i}\nENDPRESS\n"))
        .collect();
    let sent = w
        .mail(GM, "many", &format!("SIGNON Mg gmpass\n{blocks}"))
        .await;
    assert_eq!(find(&sent, ANN, "Broadcast").len(), 10, "{sent:#?}");
    let answer = reply(&sent, GM);
    assert!(
        answer
            .body
            .contains("at most 10 press blocks are read from one mail: this one was not sent"),
        "{}",
        answer.body
    );
    assert!(answer.body.contains("  | number 11"), "{}", answer.body);
}

/// Press per hour from one address in a game: past 30, refused, and the Master told once.
#[tokio::test]
async fn press_per_hour_is_bounded_and_the_master_told_once() {
    let mut w = World::new("asked-press-hour").await;
    running(&mut w).await;
    let blocks: String = (0..10)
        .map(|i| format!("PRESS TO F\nnumber {i}\nENDPRESS\n"))
        .collect();
    let mut to_bob = 0;
    let mut told = 0;
    let mut refused = 0;
    for _ in 0..5 {
        let sent = w
            .mail(ANN, "press", &format!("SIGNON Eg pwE\n{blocks}"))
            .await;
        to_bob += find(&sent, BOB, "Press").len();
        told += find(&sent, GM, "Press limit reached").len();
        refused += reply(&sent, ANN)
            .body
            .matches("at most 30 press blocks an hour")
            .count();
    }
    assert_eq!(to_bob, 30);
    assert_eq!(refused, 20);
    assert_eq!(told, 1);
    // An hour later press goes again.
    let sent = w
        .wait(Duration::minutes(61))
        .await
        .into_iter()
        .chain(
            w.mail(ANN, "press", "SIGNON Eg pwE\nPRESS TO F\nagain\nENDPRESS\n")
                .await,
        )
        .collect::<Vec<_>>();
    assert_eq!(find(&sent, BOB, "Press").len(), 1, "{sent:#?}");
}

/// The reported flood, small: a game of dummies with one-minute phases and 150 forged
/// observers, run for 30 simulated minutes with no further mail from the attacker. Each
/// forged address gets its one answer and nothing more; three observers who confirmed get
/// the mail of at most `observer_results_per_hour` (6) deadlines, and the Master is told
/// once.
#[tokio::test]
async fn forged_observers_of_a_fast_game_of_dummies_get_nothing() {
    // One-minute phases of a game nobody plays: the floor on phases and the pause of an
    // idle game (issue 36) are lifted, as a keeper may, to run the flood.
    let mut w = World::new_configured("asked-flood", |c| {
        c.limits.shortest_phase_minutes = 1;
        c.limits.idle_phases = 0;
    })
    .await;
    let sent = w.mail(GM, "new", "CREATE ?d gmpass standard\n").await;
    w.confirm(GM, &sent).await;
    let sent = w
        .mail(ANN, "join", "SIGNON ?d pwE\nSET PREFERENCE E\n")
        .await;
    w.confirm(ANN, &sent).await;
    let sent = w
        .mail(
            GM,
            "go",
            "SIGNON Md gmpass\nSET NMR\nSET MOVE NEXT 1m GRACE 1m\nSET RETREAT NEXT 1m GRACE 1m\nSET ADJUST NEXT 1m GRACE 1m\nFORCE BEGIN\n",
        )
        .await;
    assert!(
        reply(&sent, GM).body.contains("The game has started."),
        "{}",
        reply(&sent, GM).body
    );
    let forged: Vec<String> = (0..150).map(|i| format!("v{i}@victims.example")).collect();
    let watch: Vec<(&str, &str, &str)> = forged
        .iter()
        .map(|a| (a.as_str(), "watch", "OBSERVE d x\n"))
        .collect();
    let answers = w.mails(&watch).await;
    for a in &forged {
        assert!(to(&answers, a).subject.starts_with("Re: watch [confirm-"));
    }
    let real = ["o1@example.org", "o2@example.org", "o3@example.org"];
    for o in real {
        let sent = w.mail(o, "watch", "OBSERVE d x\n").await;
        w.confirm(o, &sent).await;
        assert!(w.service.store.is_confirmed(o).await.unwrap());
    }
    let mut after = Vec::new();
    for _ in 0..30 {
        after.extend(w.wait(Duration::minutes(1)).await);
    }
    let results_to_master = find(&after, GM, "Results").len();
    assert!(
        results_to_master >= 10,
        "the game ran: {results_to_master} results"
    );
    for a in &forged {
        assert!(find(&after, a, "").is_empty(), "{a} got mail");
    }
    for o in real {
        let got = after.iter().filter(|m| m.to == o).count();
        assert!(
            got > 0 && got <= 6,
            "{o} got {got} mails: {:#?}",
            find(&after, o, "")
        );
    }
    assert_eq!(find(&after, GM, "Observer limit reached").len(), 1);
    let per_observer: Vec<usize> = real
        .iter()
        .map(|o| after.iter().filter(|m| m.to == *o).count())
        .collect();
    println!(
        "30 minutes: {} mails in all, {results_to_master} results to the Master, {per_observer:?} to the confirmed observers, 0 to the {} forged ones",
        after.len(),
        forged.len()
    );
    // 30 minutes of a game with 153 observers: mail to its Master, its one player and the
    // three observers who asked (at most 6 each), to no one else.
    let strays: Vec<_> = after
        .iter()
        .filter(|m| m.to != GM && m.to != ANN && !real.contains(&m.to.as_str()))
        .map(|m| (&m.to, &m.subject))
        .collect();
    assert!(strays.is_empty(), "{strays:#?}");
}

/// A database from before herald asked for confirmation: at its first start with the gate,
/// the Masters and players of its games keep their mail (they are taken as confirmed, once);
/// its observers are not.
#[tokio::test]
async fn the_players_of_games_older_than_the_gate_keep_their_mail() {
    let mut w = World::new("asked-adopt").await;
    w.mail(GM, "new", "CREATE ?old gmpass\n").await;
    w.mail(ANN, "join", "SIGNON ?old pwE\n").await;
    w.mail(VICTIM, "watch", "OBSERVE old pw\n").await;
    for a in [GM, ANN, VICTIM] {
        assert!(!w.service.store.is_confirmed(a).await.unwrap());
    }
    // As an older herald left it: no record of the adoption.
    forget_adoption(&w).await;
    let config = w.service.config.clone();
    w.service = herald::service::Service::open(config).await.unwrap();
    assert!(w.service.store.is_confirmed(GM).await.unwrap());
    assert!(w.service.store.is_confirmed(ANN).await.unwrap());
    assert!(!w.service.store.is_confirmed(VICTIM).await.unwrap());
}

/// Forgets that the games were adopted, as a database made before the gate has no such
/// record.
async fn forget_adoption(w: &World) {
    let mut db = crate::support::Db::open(&w.service.config.storage.database).await;
    db.execute("DELETE FROM meta WHERE key = 'confirm_adopted'")
        .await;
    db.close().await;
}
