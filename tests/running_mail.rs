//! Starting and running a game by mail (issue 18, point 4), as njudge's players and Masters
//! know it: orders for a later phase (`PHASE F1901M` while S1901M is current files them for
//! then), FORCE BEGIN with fewer players than powers, HISTORY from one phase to another with
//! a line limit, SET PREFERENCE with ties and `*`, the Master's SET COMMENT in LIST, SET NO
//! MINOR PRESS, and a PAUSE that ends by itself.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use chrono::Duration;
use support::{find, order, start_game, to, Sent, World, SEVEN};

const GM: &str = "gm@example.org";
const ANN: &str = "ann@example.org"; // England

/// The reply to `addr` among what was sent (notices aside).
fn reply<'a>(sent: &'a [Sent], addr: &str) -> &'a Sent {
    sent.iter()
        .find(|m| m.to == addr && m.subject.starts_with("Re:"))
        .unwrap_or_else(|| panic!("no reply to {addr}: {sent:#?}"))
}

#[tokio::test]
async fn orders_for_a_later_phase_are_filed_and_applied_when_it_comes() {
    let mut w = World::new("run-later").await;
    start_game(&mut w, GM, "lat", "standard", &SEVEN).await;
    let r = order(
        &mut w,
        "lat",
        ANN,
        'E',
        "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor\n\
         PHASE F1901M\nF Nth C A Yor-Nwy\nA Yor-Nwy\nF Edi-Nwg\nA Yor-\n\
         PHASE S1901M\nF Lon-Nth",
    )
    .await;
    // Spring's orders are on file; Fall's are kept, each read for its form now.
    assert!(r.contains("  A Lvp - Yor\n"), "{r}");
    assert!(
        r.contains("Orders for F1901M, kept until F1901M comes"),
        "{r}"
    );
    assert!(r.contains("  A Yor - Nwy\n"), "{r}");
    assert!(r.contains("A Yor-\n    *** "), "{r}");
    assert!(!r.contains("these orders are for F1901M"), "{r}");
    // The Master plays Spring; Fall comes, and England is told what of hers was filed.
    let sent = w.mail(GM, "go", "SIGNON Mlat gmpass\nPROCESS!\n").await;
    let told = find(&sent, ANN, "F1901M Orders Sent Earlier");
    assert_eq!(told.len(), 1, "{sent:#?}");
    let body = &told[0].body;
    assert!(body.contains("  A Yor - Nwy\n"), "{body}");
    assert!(
        body.contains("F Nth C A Yor - Nwy") || body.contains("F Nth C A Yor-Nwy"),
        "{body}"
    );
    // F Edi went to the Norwegian Sea in Spring: that order is refused now, and said why.
    assert!(body.contains("F Edi-Nwg\n    *** "), "{body}");
    assert!(body.contains("England: orders incomplete."), "{body}");
    // Nobody else is told of England's orders.
    assert!(sent
        .iter()
        .filter(|m| m.subject.contains("Orders Sent Earlier"))
        .all(|m| m.to == ANN));
    // England completes Fall by mail; the army lands in Norway.
    order(&mut w, "lat", ANN, 'E', "F Nwg H").await;
    let sent = w.mail(GM, "go", "SIGNON Mlat gmpass\nPROCESS!\n").await;
    let results = find(&sent, ANN, "F1901M Results");
    assert_eq!(results.len(), 1, "{sent:#?}");
    assert!(results[0].body.contains("Norway"), "{}", results[0].body);
}

#[tokio::test]
async fn orders_for_a_phase_the_game_passes_by_are_dropped_and_the_player_told() {
    let mut w = World::new("run-later-passed").await;
    start_game(&mut w, GM, "lap", "standard", &SEVEN).await;
    let r = order(&mut w, "lap", ANN, 'E', "PHASE S1901R\nF Lon-Eng").await;
    assert!(
        r.contains("Orders for S1901R, kept until S1901R comes"),
        "{r}"
    );
    // CLEAR after a PHASE line forgets what was filed for that phase.
    let r = order(&mut w, "lap", ANN, 'E', "PHASE F1902M\nA Lvp H").await;
    assert!(r.contains("Orders for F1902M"), "{r}");
    let r = order(&mut w, "lap", ANN, 'E', "PHASE F1902M\nF Lon H").await;
    assert!(
        r.contains("All your orders kept for F1902M:\n  A Lvp H\n  F Lon H\n"),
        "{r}"
    );
    let r = order(&mut w, "lap", ANN, 'E', "PHASE F1902M\nCLEAR").await;
    assert!(
        r.contains("your orders filed for F1902M are cleared"),
        "{r}"
    );
    // Nobody is dislodged in Spring: there is no S1901R, and England is told.
    let sent = w.mail(GM, "go", "SIGNON Mlap gmpass\nPROCESS!\n").await;
    let told = find(&sent, ANN, "F1901M Orders For S1901R Dropped");
    assert_eq!(told.len(), 1, "{sent:#?}");
    assert!(
        told[0].body.contains(
            "are dropped: the game went from an earlier phase to F1901M without playing S1901R"
        ),
        "{}",
        told[0].body
    );
    assert!(find(&sent, ANN, "Orders For F1902M").is_empty());
    assert_eq!(
        sent.iter().filter(|m| m.subject.contains("Orders")).count(),
        1,
        "{sent:#?}"
    );
    // A phase already played is refused as over.
    let r = order(&mut w, "lap", ANN, 'E', "PHASE S1901M\nF Lon H").await;
    assert!(
        r.contains("these orders are for S1901M, which is over; the game is at F1901M"),
        "{r}"
    );
    let _ = reply;
}

#[tokio::test]
async fn force_begin_starts_with_the_powers_nobody_took_in_civil_disorder() {
    let mut w = World::new("run-force").await;
    let five = &SEVEN[..5]; // England, France, Germany, Italy, Austria
    let (_, started) = start_game(&mut w, GM, "few", "standard", five).await;
    assert!(
        reply(&started, GM)
            .body
            .contains("5 of 7 players have joined; START needs all of them (FORCE BEGIN"),
        "{started:#?}"
    );
    let sent = w
        .mail(GM, "force", "SIGNON Mfew gmpass\nFORCE BEGIN\n")
        .await;
    assert!(reply(&sent, GM).body.contains("The game has started."));
    let notice = find(&sent, ANN, "Game Starting");
    assert_eq!(notice.len(), 1, "{sent:#?}");
    let body = &notice[0].body;
    assert!(
        body.contains("Nobody took Russia (R), Turkey (T): they are dummies in civil disorder"),
        "{body}"
    );
    assert!(body.contains("(T) nobody (civil disorder)"), "{body}");
    // The Master may order for a dummy (it holds otherwise).
    let sent = w
        .mail(GM, "dummy", "SIGNON Mfew gmpass\nBECOME R\nA War-Gal\n")
        .await;
    let r = &reply(&sent, GM).body;
    assert!(
        r.contains("You act as Russia, which nobody plays, for the rest of this mail"),
        "{r}"
    );
    assert!(r.contains("A War - Gal"), "{r}");
    // Russia and Turkey never make the game wait: the five players' orders are enough.
    for (addr, letter) in five {
        let holds = match letter {
            'E' => "F Lon H\nF Edi H\nA Lvp H",
            'F' => "F Bre H\nA Par H\nA Mar H",
            'G' => "F Kie H\nA Ber H\nA Mun H",
            'I' => "F Nap H\nA Rom H\nA Ven H",
            _ => "A Vie H\nA Bud H\nF Tri H",
        };
        order(&mut w, "few", addr, *letter, holds).await;
    }
    let sent = w.wait(Duration::minutes(31)).await;
    let results = find(&sent, ANN, "S1901M Results");
    assert_eq!(results.len(), 1, "{sent:#?}");
    let body = &results[0].body;
    assert!(
        body.contains("Russia: Army Warsaw -> Galicia.")
            && body.contains("Turkey: Army Constantinople, No Order Processed."),
        "{body}"
    );
    // LIST shows the dummies; a newcomer may take one over.
    let sent = w.mail(GM, "list", "LIST few\n").await;
    let list = &reply(&sent, GM).body;
    assert!(
        list.contains("Turkey (T): 3 centres, 3 units, nobody plays it: civil disorder"),
        "{list}"
    );
    let sent = w
        .mail("new@example.org", "take", "SIGNON Tfew newpw\n")
        .await;
    assert!(
        reply(&sent, "new@example.org")
            .body
            .contains("You have taken over Turkey"),
        "{sent:#?}"
    );
    let sent = w.mail(GM, "list", "LIST few\n").await;
    let list = &reply(&sent, GM).body;
    assert!(
        list.contains("Turkey (T): 3 centres, 3 units, orders due"),
        "{list}"
    );
    assert!(
        list.contains("Russia (R): 4 centres, 4 units, nobody plays it"),
        "{list}"
    );
}

#[tokio::test]
async fn history_from_one_phase_to_another_and_cut_at_a_number_of_lines() {
    let mut w = World::new("run-history").await;
    start_game(&mut w, GM, "his", "standard", &SEVEN).await;
    for _ in 0..3 {
        w.mail(GM, "go", "SIGNON Mhis gmpass\nPROCESS!\n").await;
    }
    let sent = w
        .mail("x@example.org", "h", "HISTORY his FROM F1901M TO F1901M\n")
        .await;
    let h = &reply(&sent, "x@example.org").body;
    assert!(
        h.contains("History of game 'his' from F1901M to F1901M:"),
        "{h}"
    );
    assert!(h.contains("==== JUDGE:his - F1901M Results"), "{h}");
    assert!(!h.contains("S1901M Results"), "{h}");
    assert!(!h.contains("S1902M Results"), "{h}");
    // A phase may be written out; FROM alone runs to the end.
    let sent = w
        .mail(
            "x@example.org",
            "h",
            "HISTORY his FROM Fall 1901 Movement\n",
        )
        .await;
    let h = &reply(&sent, "x@example.org").body;
    assert!(
        h.contains("F1901M Results") && h.contains("S1902M Results"),
        "{h}"
    );
    assert!(!h.contains("S1901M Results"), "{h}");
    // LINES cuts the answer, and says so.
    let sent = w.mail("x@example.org", "h", "HISTORY his LINES 5\n").await;
    let h = &reply(&sent, "x@example.org").body;
    assert!(h.contains("[HISTORY cut at 5 of "), "{h}");
    assert!(!h.contains("F1901M Results"), "{h}");
    // What HISTORY does not read is refused with the right form.
    let sent = w
        .mail(
            "x@example.org",
            "h",
            "HISTORY his LINES many\nHISTORY his since 1901\n",
        )
        .await;
    let h = &reply(&sent, "x@example.org").body;
    assert!(
        h.contains("LINES takes a number from 1 to 20000, not 'many'"),
        "{h}"
    );
    assert!(h.contains("'since 1901' is not part of a HISTORY; write e.g. HISTORY <game> FROM S1902M TO F1903M"), "{h}");
    // As njudge, FROM and TO take dates too: the game was played on 1 December 2026.
    let sent = w
        .mail(
            "x@example.org",
            "h",
            "HISTORY his FROM 2026-12-01 TO 2026-12-01\nHISTORY his FROM 2026-12-02\nHISTORY his FROM Someday\n",
        )
        .await;
    let h = &reply(&sent, "x@example.org").body;
    assert!(
        h.contains(
            "History of game 'his' from Tue Dec 01 2026 00:00 UTC to Tue Dec 01 2026 23:59 UTC:"
        ) && h.contains("S1901M Results"),
        "{h}"
    );
    assert!(
        h.contains("Game 'his' has no history from Wed Dec 02 2026 00:00 UTC."),
        "{h}"
    );
    assert!(
        h.contains("'Someday' is neither a phase of this game (")
            && h.contains(") nor a date; write e.g."),
        "{h}"
    );
}

#[tokio::test]
async fn set_preference_reads_njudge_ties_and_a_random_power() {
    let mut w = World::new("run-pref").await;
    let sent = w.mail(GM, "new", "CREATE ?prf gmpass standard\n").await;
    w.confirm(GM, &sent).await;
    let join =
        |letter: char, list: &str| format!("SIGNON ?prf pw{letter}\nSET PREFERENCE {list}\n");
    // England and France equally good to both Ann and Bob; Cat leaves it to chance.
    let lists = [
        (ANN, 'E', "[EF]"),
        ("bob@example.org", 'F', "[ef]"),
        ("cat@example.org", 'G', "*"),
        ("dan@example.org", 'I', "I[GA]"),
        ("eve@example.org", 'A', "A"),
        ("fay@example.org", 'R', "R"),
        ("guy@example.org", 'T', "T"),
    ];
    for (addr, letter, list) in lists {
        let sent = w.mail(addr, "join", &join(letter, list)).await;
        // Each player confirms the address (game mail goes only to addresses that asked).
        w.confirm(addr, &sent).await;
        let r = &reply(&sent, addr).body;
        match letter {
            'E' => assert!(
                r.contains("Preference list set: [EF].")
                    && r.contains("That is: England or France (in a random order), then a random power."),
                "{r}"
            ),
            'G' => assert!(r.contains("That is: a random power."), "{r}"),
            'I' => assert!(
                r.contains("Preference list set: I[GA].")
                    && r.contains(
                        "That is: Italy, then Germany or Austria (in a random order), then a random power."
                    ),
                "{r}"
            ),
            _ => {}
        }
    }
    // A list herald cannot read is refused with the reason and the right form.
    let sent = w
        .mail(ANN, "again", "SIGNON ?prf pwE\nSET PREFERENCE E[FX\n")
        .await;
    let r = &reply(&sent, ANN).body;
    assert!(
        r.contains("SET PREFERENCE E[FX\n  *** 'X' is no power of this game (its powers: AEFGIRT)")
            && r.contains("write the powers best first, by letter or name, equally good ones in brackets, * for a random power: SET PREFERENCE E[FG]I"),
        "{r}"
    );
    let sent = w.mail(GM, "start", "SIGNON Mprf gmpass\nSTART\n").await;
    let plays = |addr: &str| {
        let notice = find(&sent, addr, "Game Starting");
        let body = &notice.first().unwrap_or_else(|| panic!("{sent:#?}")).body;
        body.split("You play ").nth(1).unwrap_or("").chars().next()
    };
    let (a, b) = (plays(ANN).unwrap(), plays("bob@example.org").unwrap());
    assert!(matches!((a, b), ('E', 'F') | ('F', 'E')), "{a} {b}");
    assert_eq!(plays("dan@example.org"), Some('I'));
    assert_eq!(plays("cat@example.org"), Some('G'));
}

#[tokio::test]
async fn the_masters_comment_is_shown_in_list() {
    let mut w = World::new("run-comment").await;
    // A confirmed Master's game is listed (issue 36).
    let sent = w.mail(GM, "new", "CREATE ?cmt gmpass standard\n").await;
    w.confirm(GM, &sent).await;
    let sent = w
        .mail(
            GM,
            "c",
            "SIGNON Mcmt gmpass\nSET COMMENT Gunboat league, round 2: 48-hour deadlines\n",
        )
        .await;
    let r = &reply(&sent, GM).body;
    assert!(r.contains("Comment set"), "{r}");
    let sent = w.mail("x@example.org", "l", "LIST\nLIST cmt\n").await;
    let l = &reply(&sent, "x@example.org").body;
    assert!(
        l.contains("forming 0/7") && l.contains("\n  Gunboat league, round 2: 48-hour deadlines\n"),
        "{l}"
    );
    assert!(
        l.contains("Comment: Gunboat league, round 2: 48-hour deadlines\n"),
        "{l}"
    );
    // Only the Master sets it; too long a comment is refused; SET NOCOMMENT removes it.
    let sent = w
        .mail(
            "ann@example.org",
            "c",
            "SIGNON ?cmt pwE\nSET COMMENT mine\n",
        )
        .await;
    assert!(reply(&sent, "ann@example.org")
        .body
        .contains("only the Master"));
    let long = "x".repeat(101);
    let sent = w
        .mail(
            GM,
            "c",
            &format!("SIGNON Mcmt gmpass\nSET COMMENT {long}\nSET NOCOMMENT\n"),
        )
        .await;
    let r = &reply(&sent, GM).body;
    assert!(r.contains("a comment holds at most 100 characters"), "{r}");
    assert!(r.contains("Comment removed."), "{r}");
    let sent = w.mail("x@example.org", "l", "LIST cmt\n").await;
    assert!(!reply(&sent, "x@example.org").body.contains("Comment:"));
}

#[tokio::test]
async fn no_minor_press_keeps_players_quiet_in_retreats_and_adjustments() {
    let mut w = World::new("run-minor").await;
    start_game(&mut w, GM, "mnr", "standard", &SEVEN).await;
    let sent = w
        .mail(GM, "m", "SIGNON Mmnr gmpass\nSET NO MINOR PRESS\n")
        .await;
    let told = find(&sent, ANN, "");
    assert!(
        told.iter().any(|m| m.body.contains("No minor press")),
        "{sent:#?}"
    );
    let press = "SIGNON Emnr pwE\nPRESS TO F\nShall we?\nENDPRESS\n";
    // In Spring, press goes as usual.
    let sent = w.mail(ANN, "p", press).await;
    assert!(sent.iter().any(|m| m.to == "bob@example.org"), "{sent:#?}");
    // England takes Norway, so 1901 ends with an adjustment phase.
    order(&mut w, "mnr", ANN, 'E', "F Edi-Nwg").await;
    w.mail(GM, "go", "SIGNON Mmnr gmpass\nPROCESS!\n").await;
    order(&mut w, "mnr", ANN, 'E', "F Nwg-Nwy").await;
    let sent = w.mail(GM, "go", "SIGNON Mmnr gmpass\nPROCESS!\n").await;
    assert!(!find(&sent, ANN, "F1901M Results").is_empty(), "{sent:#?}");
    let sent = w.mail(ANN, "p", press).await;
    let r = &reply(&sent, ANN).body;
    assert!(
        r.contains("no minor press in this game: in retreats and adjustments press goes only to and from the Master"),
        "{r}"
    );
    assert!(!sent.iter().any(|m| m.to == "bob@example.org"), "{sent:#?}");
    // Press to the Master still goes.
    let sent = w
        .mail(
            ANN,
            "p",
            "SIGNON Emnr pwE\nPRESS TO M\nA build in Edinburgh?\nENDPRESS\n",
        )
        .await;
    assert!(sent.iter().any(|m| m.to == GM), "{sent:#?}");
    // SET MINOR PRESS lets players talk again.
    w.mail(GM, "m", "SIGNON Mmnr gmpass\nSET MINOR PRESS\n")
        .await;
    let sent = w.mail(ANN, "p", press).await;
    assert!(sent.iter().any(|m| m.to == "bob@example.org"), "{sent:#?}");
}

#[tokio::test]
async fn a_masters_pause_ends_by_itself_after_thirty_days_and_the_players_are_told() {
    let mut w = World::new("run-pause").await;
    start_game(&mut w, GM, "pau", "standard", &SEVEN).await;
    let sent = w.mail(GM, "p", "SIGNON Mpau gmpass\nPAUSE\n").await;
    let told = find(&sent, ANN, "Game Paused");
    assert_eq!(told.len(), 1, "{sent:#?}");
    assert!(
        told[0].body.contains(
            "A pause lasts at most 30 days: unless the Master resumes it first, the game resumes by itself on Thu Dec 31 2026"
        ),
        "{}",
        told[0].body
    );
    // The keeper's clock jumps: nothing on the 29th day, the game resumes on the 30th.
    w.clock = herald::service::Clock::Set;
    let start = w.now;
    let sent = w.jump_to(start + Duration::days(29)).await;
    assert!(find(&sent, ANN, "Game Resumed").is_empty(), "{sent:#?}");
    let sent = w
        .jump_to(start + Duration::days(30) + Duration::minutes(1))
        .await;
    let told = find(&sent, ANN, "Game Resumed");
    assert_eq!(told.len(), 1, "{sent:#?}");
    assert!(
        told[0]
            .body
            .contains("The game was paused for 30 days, the longest a Master may pause it, and resumes by itself. The deadline is"),
        "{}",
        told[0].body
    );
    assert_eq!(find(&sent, GM, "Game Resumed").len(), 1);
    let sent = w.mail(GM, "l", "LIST pau\n").await;
    assert!(
        reply(&sent, GM).body.contains("Game 'pau': running"),
        "{sent:#?}"
    );
}

/// "One player holds one power unless `several_powers` is set, and a takeover from an
/// address already in the game is refused (or, with the switch, announced to the Master as
/// such)" (issue 24, part 4): France's player took over the resigned Italy from the same
/// address and everyone was told "a new player".
#[tokio::test]
async fn a_player_takes_no_second_power_unless_the_game_allows_several() {
    const BOB: &str = "bob@example.org"; // France
    const DAN: &str = "dan@example.org"; // Italy
    let mut w = World::new("second-seat").await;
    start_game(&mut w, GM, "one", "standard", &SEVEN).await;
    w.mail(DAN, "bye", "SIGNON Ione pwI\nRESIGN\n").await;
    let sent = w.mail(BOB, "take", "SIGNON Ione bobpw2\n").await;
    let text = &reply(&sent, BOB).body;
    assert!(
        text.contains("bob@example.org already holds France in game 'one', and one player holds one power here (the rule switch several_powers allows more): Italy was not taken over"),
        "{text}"
    );
    assert!(!text.contains("You have taken over"), "{text}");
    assert_eq!(sent.len(), 1, "nobody else is told: {sent:#?}");
    // The Master's address is in the game too.
    let sent = w.mail(GM, "take", "SIGNON Ione gmpw2\n").await;
    assert!(reply(&sent, GM).body.contains("Italy was not taken over"));
    // A newcomer may.
    let sent = w
        .mail("new@example.org", "take", "SIGNON Ione newpw\n")
        .await;
    assert!(reply(&sent, "new@example.org")
        .body
        .contains("You have taken over Italy"));

    // With several_powers the takeover is allowed and the Master is told who it is.
    let mut w = World::new("second-seat-several").await;
    // The Master and the players confirm their addresses (start_game does), so that the
    // notices below can reach them.
    start_game(&mut w, GM, "two", "standard several_powers", &SEVEN).await;
    w.mail(DAN, "bye", "SIGNON Itwo pwI\nRESIGN\n").await;
    let sent = w.mail(BOB, "take", "SIGNON Itwo bobpw2\n").await;
    assert!(reply(&sent, BOB).body.contains("You have taken over Italy"));
    let to_gm = find(&sent, GM, "Power Taken Over");
    assert_eq!(to_gm.len(), 1, "{sent:#?}");
    assert!(
        to_gm[0].body.contains("Italy has been taken over by bob@example.org, who already holds France in this game (several_powers allows it): not a new player."),
        "{}",
        to_gm[0].body
    );
    let to_ann = find(&sent, ANN, "Power Taken Over");
    assert_eq!(to_ann.len(), 1, "{sent:#?}");
    assert!(to_ann[0].body.contains("Italy has been taken over."));
    assert!(
        sent.iter().all(|m| !m.body.contains("by a new player")),
        "{sent:#?}"
    );
}

// Issue 25, point 16: "SUMMARY shows the address a seat was taken from, not the current
// one."
#[tokio::test]
async fn summary_shows_the_address_a_player_moved_to() {
    let mut w = World::new("run-summary-address").await;
    start_game(&mut w, GM, "sa", "standard", &SEVEN).await;
    // The seat moves once the new address confirms (issue 36, point 4).
    let sent = w
        .mail(
            ANN,
            "moving",
            "SIGNON Esa pwE\nSET ADDRESS ann2@example.org\n",
        )
        .await;
    let r = &reply(&sent, ANN).body;
    assert!(
        r.contains("Your seat stays on ann@example.org until ann2@example.org replies"),
        "{r}"
    );
    let request = to(&sent, "ann2@example.org").clone();
    w.reply_to("ann2@example.org", &request, "").await;
    for reader in ["ann2@example.org", "bob@example.org"] {
        let sent = w.mail(reader, "who", "SUMMARY sa\n").await;
        let r = &reply(&sent, reader).body;
        assert!(
            r.contains("  England    ann2@example.org (from S1901M)"),
            "{r}"
        );
        assert!(!r.contains("England    ann@example.org"), "{r}");
    }
}

// Issue 25, point 17: "Returning Player Signon" sent to new players.
#[tokio::test]
async fn a_newcomers_takeover_is_announced_as_a_power_taken_over() {
    let mut w = World::new("run-taken-over").await;
    start_game(&mut w, GM, "to", "standard", &SEVEN).await;
    w.mail("dan@example.org", "bye", "SIGNON Ito pwI\nRESIGN\n")
        .await;
    let sent = w
        .mail("new@example.org", "take", "SIGNON Ito newpw\n")
        .await;
    let told = find(&sent, ANN, "Power Taken Over");
    assert_eq!(told.len(), 1, "{sent:#?}");
    assert!(
        told[0]
            .body
            .contains("Italy has been taken over by a new player."),
        "{}",
        told[0].body
    );
    assert!(
        sent.iter().all(|m| !m.subject.contains("Returning Player")),
        "{sent:#?}"
    );
}

// Issue 25, point 17: "`SET PREFERENCE France, England` … misread".
#[tokio::test]
async fn set_preference_reads_the_powers_names() {
    let mut w = World::new("run-pref-names").await;
    let sent = w.mail(GM, "new", "CREATE ?pn gmpass standard\n").await;
    w.confirm(GM, &sent).await;
    let sent = w
        .mail(
            ANN,
            "join",
            "SIGNON ?pn pwE\nSET PREFERENCE France, England\n",
        )
        .await;
    let r = &reply(&sent, ANN).body;
    assert!(
        r.contains("Preference list set: FE.")
            && r.contains("That is: France, then England, then a random power."),
        "{r}"
    );
    let sent = w
        .mail(ANN, "again", "SIGNON ?pn pwE\nSET PREFERENCE Ger, Ita\n")
        .await;
    let r = &reply(&sent, ANN).body;
    assert!(
        r.contains("*** 'Ger' could be Germany or the letters GER: write the name in full, or the letters apart"),
        "{r}"
    );
}

// Issue 25, point 17: "non-command lines after `SIGNON ?game` flagged as "only players
// send orders" to someone who just joined as a player".
#[tokio::test]
async fn a_line_after_joining_is_told_when_orders_come() {
    let mut w = World::new("run-joiner-line").await;
    let sent = w.mail(GM, "new", "CREATE ?jl gmpass\n").await;
    w.confirm(GM, &sent).await;
    let sent = w
        .mail(ANN, "join", "SIGNON ?jl pwE\nLooking forward to it\n")
        .await;
    let r = &reply(&sent, ANN).body;
    assert!(
        r.contains("Looking forward to it\n  *** not a command; you have joined, and orders come once the Master starts the game and gives out the powers"),
        "{r}"
    );
    assert!(!r.contains("only players send orders"), "{r}");
}

// Issue 25, point 17: ""Sorry, I was travelling!" after orders read as an unknown
// province (say the line is not an order)".
#[tokio::test]
async fn a_note_after_the_orders_is_said_to_be_no_order() {
    let mut w = World::new("run-prose").await;
    start_game(&mut w, GM, "pr", "standard", &SEVEN).await;
    let r = order(
        &mut w,
        "pr",
        ANN,
        'E',
        "F Lon H\nF Edi H\nA Lvp H\nSorry, I was travelling!\nLvp-Yor-",
    )
    .await;
    assert!(
        r.contains("Sorry, I was travelling!\n    *** not an order: 'Sorry' is no unit, province or order word."),
        "{r}"
    );
    assert!(!r.contains("unknown province 'sorry'"), "{r}");
    // A line that starts like an order keeps the parser's reason.
    assert!(!r.contains("Lvp-Yor-\n    *** not an order"), "{r}");
    assert!(r.contains("Lvp-Yor-\n    *** "), "{r}");
    // The same among orders for a later phase.
    let r = order(
        &mut w,
        "pr",
        ANN,
        'E',
        "PHASE F1901M\nF Lon H\nThanks, see you in the fall",
    )
    .await;
    assert!(
        r.contains("Thanks, see you in the fall\n    *** not an order: 'Thanks' is no unit"),
        "{r}"
    );
}
