//! A standard game played entirely by mail files, from CREATE to the end of 1902: seven
//! players and a Master join, START, order (with mistakes and corrections), send partial and
//! grey press, wait and stop waiting, are processed early; a late power gets a reminder and
//! a late notice and goes into civil disorder; a retreat, builds, a PREVIEW, a ROLLBACK, and
//! the summary.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use chrono::Duration;
use support::{find, to, World};

const GM: &str = "gm@example.org";
const PLAYERS: [(&str, char); 7] = support::SEVEN;

fn who(letter: char) -> &'static str {
    PLAYERS.iter().find(|(_, l)| *l == letter).unwrap().0
}

async fn order(w: &mut World, letter: char, orders: &str) -> support::Sent {
    let body = format!("SIGNON {letter}war pw{letter}\n{orders}\n");
    let sent = w.mail(who(letter), "orders", &body).await;
    to(&sent, who(letter)).clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_standard_game_by_mail_through_1902() {
    let mut w = World::new("game").await;

    // An unknown sender with no command gets a short help reply and no echo.
    let sent = w
        .mail(
            "stranger@example.org",
            "hi",
            "Buy cheap watches at example.com",
        )
        .await;
    let reply = to(&sent, "stranger@example.org");
    assert!(reply.body.contains("held no command"), "{}", reply.body);
    assert!(!reply.body.contains("watches"));

    // CREATE: the sender becomes the Master.
    let sent = w
        .mail(
            GM,
            "new game",
            "CREATE ?war gmpass standard\nSET NMR\nSET PRESS WHITE\n",
        )
        .await;
    let reply = find(&sent, GM, "Re: new game")[0];
    assert!(
        reply
            .body
            .contains("Game 'war' (standard) created. You are its Master"),
        "{}",
        reply.body
    );
    assert!(reply
        .body
        .starts_with(":: Judge: judge@herald.test  Game: war  Variant: standard"));
    // The Master confirms the address by replying to that answer (game mail goes only to
    // addresses that asked for it); each player does the same after joining.
    w.confirm(GM, &sent).await;

    // Seven players join with a preference each.
    for (i, (addr, letter)) in PLAYERS.iter().enumerate() {
        let sent = w
            .mail(
                addr,
                "join",
                &format!("SIGNON ?war pw{letter}\nSET PREFERENCE {letter}\n"),
            )
            .await;
        let r = find(&sent, addr, "Re: join")[0];
        w.confirm(addr, &sent).await;
        assert!(
            r.body.contains(&format!("as player {} of 7", i + 1)),
            "{}",
            r.body
        );
        assert!(r.body.contains(&format!("Preference list set: {letter}.")));
        let note = find(&sent, GM, "war")[0];
        if i < 6 {
            assert!(
                note.subject.ends_with(&format!(
                    "Waiting for {} more player{}",
                    6 - i,
                    if i == 5 { "" } else { "s" }
                )),
                "{}",
                note.subject
            );
        } else {
            assert!(note.subject.contains("Ready to Start"));
        }
    }

    // A wrong Master password is refused and nothing else in the mail is done.
    let sent = w.mail(GM, "start", "SIGNON Mwar wrong\nSTART\n").await;
    let r = to(&sent, GM);
    assert!(r.subject.contains("[Error Flag]"));
    assert!(r.body.contains("Invalid password or power ID specified."));

    let sent = w.mail(GM, "start", "SIGNON Mwar gmpass\nSTART\n").await;
    assert_eq!(find(&sent, GM, "Re: start").len(), 1);
    for (addr, letter) in PLAYERS {
        let start = find(&sent, addr, "Game Starting")[0];
        assert!(
            start.subject.starts_with("JUDGE:war - S1901M"),
            "{}",
            start.subject
        );
        assert!(
            start.body.contains(&format!("({letter}) {addr}")),
            "{}",
            start.body
        );
        assert!(
            start
                .body
                .contains("The deadline for orders is Tue Dec 08 2026 10:00 UTC."),
            "{}",
            start.body
        );
    }

    // England makes a mistake, gets the error flag and the reason beside the line.
    let r = order(&mut w, 'E', "F Lon-Nth\nF Edi-Nwg\nA Lvp-Iri").await;
    assert!(r.subject.ends_with("[Error Flag]"), "{}", r.subject);
    assert!(
        r.body
            .contains("A Lvp-Iri\n    *** an army cannot move to Iri, which is water"),
        "{}",
        r.body
    );
    assert!(r.body.contains("A Lvp: No order"), "{}", r.body);
    assert!(r
        .body
        .contains("England: orders incomplete. The lines marked *** were refused and ignored"));
    assert!(r
        .body
        .contains(":: Deadline: S1901M Tue Dec 08 2026 10:00 UTC"));
    assert!(r.body.contains("Time to deadline: 7 days"), "{}", r.body);
    // ...and corrects it: the last order for a unit wins.
    let r = order(&mut w, 'E', "A Lvp-Yor").await;
    assert!(!r.subject.contains("[Error Flag]"), "{}", r.body);
    assert!(
        r.body
            .contains("  F Edi - Nwg\n  F Lon - Nth\n  A Lvp - Yor\nEngland: orders complete."),
        "{}",
        r.body
    );

    // France sends partial press to Germany only.
    let sent = w.mail(who('F'), "o", "SIGNON Fwar pwF\nA Par-Bur\nA Mar-Spa\nF Bre-Mao\nPRESS TO G\nLet us share Belgium.\nENDPRESS\n").await;
    let press = to(&sent, who('G'));
    assert!(press.subject.contains("Press from F"), "{}", press.subject);
    assert!(
        press
            .body
            .contains("Message from France to Germany in 'war':\n\nLet us share Belgium."),
        "{}",
        press.body
    );
    assert!(find(&sent, who('F'), "Re: o")[0]
        .body
        .contains("Press sent to Germany."));
    assert_eq!(sent.len(), 2, "press goes to Germany only");

    // Grey press is refused while the game allows white press only...
    let sent = w.mail(who('G'), "o", "SIGNON Gwar pwG\nA Mun-Ruh\nA Ber-Mun\nF Kie-Den\nPRESS TO F GREY\nWho am I?\nENDPRESS\n").await;
    let r = to(&sent, who('G'));
    assert!(
        r.body.contains("grey press is not allowed in this game"),
        "{}",
        r.body
    );
    // ...until the Master allows it; then it reveals its sender nowhere.
    w.mail(GM, "press", "SIGNON Mwar gmpass\nSET PRESS GREY\n")
        .await;
    let sent = w
        .mail(
            who('G'),
            "o",
            "SIGNON Gwar pwG\nPRESS TO F GREY\nWho am I?\nENDPRESS\n",
        )
        .await;
    let grey = to(&sent, who('F'));
    assert!(
        grey.body
            .contains("Message from an anonymous power in 'war':"),
        "{}",
        grey.body
    );
    assert!(
        !grey.raw.contains("Germany") && !grey.raw.contains("cat@") && !grey.raw.contains("from G"),
        "{}",
        grey.raw
    );

    for (letter, orders) in [
        ('I', "A Ven H\nA Rom H\nF Nap H"),
        ('A', "A Vie H\nA Bud H\nF Tri H"),
        ('R', "A Mos H\nA War H\nF Sev H\nF Stp/sc H"),
    ] {
        let r = order(&mut w, letter, orders).await;
        assert!(r.body.contains("orders complete"), "{}", r.body);
    }
    // Turkey orders but WAITs: nothing is processed early.
    order(&mut w, 'T', "F Ank H\nA Con H\nA Smy H\nSET WAIT").await;
    let sent = w.wait(Duration::hours(1)).await;
    assert!(sent.is_empty(), "{sent:#?}");
    // NOWAIT: processed 30 minutes after.
    order(&mut w, 'T', "SET NOWAIT").await;
    let sent = w.wait(Duration::minutes(20)).await;
    assert!(sent.is_empty());
    let sent = w.wait(Duration::minutes(11)).await;
    assert_eq!(sent.len(), 8, "results to 7 players and the Master");
    let results = to(&sent, who('E'));
    assert_eq!(results.subject, "JUDGE:war - S1901M Results");
    assert!(
        results
            .body
            .contains("Movement results for Spring of 1901."),
        "{}",
        results.body
    );
    assert!(results.body.contains("France: Army Paris -> Burgundy."));
    assert!(results
        .body
        .contains("England: Fleet Edinburgh -> Norwegian Sea."));
    assert!(
        results
            .body
            .contains("The next phase of 'war' will be Movement for Fall of 1901."),
        "{}",
        results.body
    );
    assert!(
        results
            .body
            .contains("The deadline for orders will be Tue Dec 08 2026 11:31 UTC."),
        "{}",
        results.body
    );

    // Fall 1901: Germany dislodges Burgundy; Italy sends nothing.
    order(&mut w, 'G', "A Ruh-Bur\nA Mun S A Ruh-Bur\nF Den H").await;
    order(&mut w, 'F', "A Bur H\nA Spa H\nF Mao-Por").await;
    for (letter, orders) in [
        ('E', "F Nth H\nF Nwg H\nA Yor H"),
        ('A', "A Vie H\nA Bud H\nF Tri H"),
        ('R', "A Mos H\nA War H\nF Sev H\nF Stp/sc H"),
        ('T', "F Ank H\nA Con H\nA Smy H"),
    ] {
        order(&mut w, letter, orders).await;
    }
    // The Master previews: only the Master hears of it.
    let sent = w.mail(GM, "preview", "SIGNON Mwar gmpass\nPREVIEW\n").await;
    let preview = find(&sent, GM, "F1901M Preview")[0];
    assert!(
        preview.body.contains("Germany: Army Ruhr -> Burgundy."),
        "{}",
        preview.body
    );
    assert!(preview.body.contains("(*dislodged*: by "));
    assert_eq!(sent.len(), 2);

    // Reminder a day before the deadline (to Italy only), late notice at it.
    let deadline = chrono::DateTime::parse_from_rfc3339("2026-12-08T11:31:00Z")
        .unwrap()
        .with_timezone(&chrono::Utc);
    let sent = w.wait_until(deadline - Duration::hours(23)).await;
    assert_eq!(sent.len(), 1, "{sent:#?}");
    assert!(to(&sent, who('I')).subject.contains("F1901M Reminder"));
    let sent = w.wait_until(deadline).await;
    let late = to(&sent, who('I'));
    assert!(
        late.subject
            .starts_with("[You are late!] JUDGE:war - F1901M Late Notice"),
        "{}",
        late.subject
    );
    assert!(to(&sent, GM)
        .body
        .contains("waiting for the orders of: Italy"));
    // At the end of grace (NMR game): civil disorder, processed with holds.
    let sent = w.wait_until(deadline + Duration::days(2)).await;
    assert!(find(&sent, who('E'), "Civil Disorder")[0]
        .body
        .contains("Italy is in civil disorder"));
    let results = find(&sent, who('E'), "F1901M Results")[0];
    assert!(
        // Italy's units held for want of orders, and the results say so (issue 25, point 13).
        results
            .body
            .contains("Italy: Army Venice, No Order Processed."),
        "{}",
        results.body
    );
    assert!(
        results
            .body
            .contains("The French Army in Burgundy can retreat to"),
        "{}",
        results.body
    );
    assert!(results.body.contains("Retreat for Fall of 1901"));

    // The retreat.
    let r = order(&mut w, 'F', "A Bur-Gas").await;
    assert!(r.body.contains("A Bur - Gas"), "{}", r.body);
    let sent = w.wait(Duration::minutes(31)).await;
    let results = find(&sent, who('F'), "F1901R Results")[0];
    assert!(
        results.body.contains("France: Army Burgundy -> Gascony."),
        "{}",
        results.body
    );
    assert!(
        results
            .body
            .contains("France: 5 Supply centers, 3 Units: Builds 2 units."),
        "{}",
        results.body
    );
    assert!(results
        .body
        .contains("Germany: 4 Supply centers, 3 Units: Builds 1 unit."));
    assert!(results.body.contains("Adjustment for Winter of 1901"));

    // Italy comes back from civil disorder by signing on.
    let sent = w.mail(who('I'), "back", "SIGNON Iwar pwI\n").await;
    assert!(find(&sent, GM, "Returning Player")[0]
        .body
        .contains("Italy is no longer in civil disorder"));

    // Builds: France builds and waives, Germany builds.
    let r = order(&mut w, 'F', "Build A Par\nBuild F Mar\nBuild A Bre").await;
    assert!(
        r.body
            .contains("Build A Bre\n    *** you have only 2 build(s), all used"),
        "{}",
        r.body
    );
    assert!(r
        .body
        .contains("France: orders complete. The lines marked *** were refused and ignored"));
    // A clean mail clears the error status (the same builds again replace the old ones).
    let r = order(&mut w, 'F', "Build A Par\nBuild F Mar").await;
    assert!(
        r.body
            .contains("  Build A Par\n  Build F Mar\nFrance: orders complete."),
        "{}",
        r.body
    );
    order(&mut w, 'G', "Build A Kie").await;
    let sent = w.wait(Duration::minutes(31)).await;
    let results = find(&sent, who('G'), "W1901A Results")[0];
    assert!(
        results.body.contains("France: Builds an army in Paris."),
        "{}",
        results.body
    );
    assert!(results.body.contains("Germany: Builds an army in Kiel."));

    // The Master rolls back to the adjustments; France builds differently.
    let sent = w
        .mail(GM, "rb", "SIGNON Mwar gmpass\nROLLBACK W1901A\n")
        .await;
    assert!(find(&sent, who('F'), "Rollback to W1901A")[0]
        .body
        .contains("rolled the game back to W1901A"));
    // Their orders on file are kept (issue 25, 12): France drops its builds to build anew.
    order(&mut w, 'F', "CLEAR\nBuild F Bre\nWaive").await;
    order(&mut w, 'G', "Build A Kie").await;
    let sent = w.wait(Duration::minutes(31)).await;
    let results = find(&sent, who('F'), "W1901A Results")[0];
    assert!(
        results.body.contains("France: Builds a fleet in Brest."),
        "{}",
        results.body
    );
    assert!(results.body.contains("France: Build waived."));

    // Spring 1902: the Master forces processing with default orders; PROCESS refuses first.
    let sent = w
        .mail(GM, "go", "SIGNON Mwar gmpass\nPROCESS S1902M\n")
        .await;
    assert!(
        to(&sent, GM)
            .body
            .contains("orders are missing or have errors from:"),
        "{}",
        to(&sent, GM).body
    );
    let sent = w.mail(GM, "go", "SIGNON Mwar gmpass\nPROCESS!\n").await;
    assert!(find(&sent, who('A'), "S1902M Results")[0]
        .body
        .contains("Austria: Army Vienna, No Order Processed."));
    // Fall 1902 likewise; no centre changes, so no adjustments: on to Spring 1903.
    let sent = w.mail(GM, "go", "SIGNON Mwar gmpass\nPROCESS!\n").await;
    let results = find(&sent, who('A'), "F1902M Results")[0];
    // France waived a build in 1901 and still has it: Winter 1902 is played, defaults waive it.
    assert!(
        results.body.contains("Adjustment for Winter of 1902"),
        "{}",
        results.body
    );
    let sent = w.mail(GM, "go", "SIGNON Mwar gmpass\nPROCESS!\n").await;
    let results = find(&sent, who('A'), "W1902A Results")[0];
    assert!(
        results.body.contains("France: Build waived."),
        "{}",
        results.body
    );
    assert!(
        results.body.contains("Movement for Spring of 1903"),
        "{}",
        results.body
    );

    // HISTORY and LIST for anyone.
    let sent = w
        .mail("stranger@example.org", "h", "HISTORY war\nLIST war\n")
        .await;
    let r = to(&sent, "stranger@example.org");
    assert!(
        r.body.contains("==== JUDGE:war - S1901M Results"),
        "{}",
        r.body
    );
    assert!(
        r.body.contains("Phase: Spring 1903, Movement."),
        "{}",
        r.body
    );

    // TERMINATE: the summary, with centre counts year by year.
    let sent = w.mail(GM, "end", "SIGNON Mwar gmpass\nTERMINATE\n").await;
    let summary = find(&sent, who('R'), "Summary")[0];
    assert!(
        summary
            .body
            .contains("Summary of game 'war' through W1902A."),
        "{}",
        summary.body
    );
    assert!(summary.body.contains("Terminated by the Master."));
    assert!(
        summary
            .body
            .contains("France     bob@example.org (from S1901M)"),
        "{}",
        summary.body
    );
    // Each year's column as wide as its label and two spaces.
    assert!(
        summary.body.contains("            1901  1902\n"),
        "{}",
        summary.body
    );
    assert!(
        summary.body.contains("  France         5     5\n"),
        "{}",
        summary.body
    );
    assert_eq!(
        sent.iter()
            .filter(|s| s.subject.contains("Summary"))
            .count(),
        8
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_mail_twice_changes_nothing_the_second_time() {
    let mut w = World::new("dup").await;
    let sent = w.mail(GM, "new", "CREATE ?dup pw\n").await;
    assert_eq!(sent.len(), 1);
    let again = w.redeliver_last(GM, "new", "CREATE ?dup pw\n").await;
    assert!(again.is_empty(), "{again:#?}");
    let rows = w.service.store.games().await.unwrap();
    assert_eq!(rows.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auto_replies_and_bounces_get_no_answer() {
    let mut w = World::new("auto").await;
    let sent = w
        .mail("MAILER-DAEMON@example.org", "Undelivered", "HELP\n")
        .await;
    assert!(sent.is_empty());
    let sent = w.mail("judge@herald.test", "loop", "HELP\n").await;
    assert!(sent.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_an_outage_deadlines_move_and_nobody_is_put_in_disorder() {
    let mut w = World::new("outage").await;
    let sent = w.mail(GM, "new", "CREATE ?out gmpass\nSET NMR\n").await;
    w.confirm(GM, &sent).await;
    for (addr, letter) in PLAYERS {
        let sent = w
            .mail(
                addr,
                "join",
                &format!("SIGNON ?out pw{letter}\nSET PREFERENCE {letter}\n"),
            )
            .await;
        w.confirm(addr, &sent).await;
    }
    w.mail(GM, "start", "SIGNON Mout gmpass\nSTART\n").await;
    // herald is down for ten days, across the deadline and the end of grace.
    let back = w.now + Duration::days(10);
    let sent = w.jump_to(back).await;
    let note = to(&sent, GM);
    assert!(note.subject.contains("Outage Recovery"), "{}", note.subject);
    assert!(
        note.body
            .contains("the deadline is now Sat Dec 12 2026 10:00 UTC"),
        "{}",
        note.body
    );
    assert!(
        sent.iter()
            .all(|s| !s.subject.contains("Civil Disorder") && !s.subject.contains("Results")),
        "{sent:#?}"
    );
}

/// The Message-ID of a mail herald wrote, without its angle brackets.
fn message_id(mail: &support::Sent) -> String {
    mail.raw
        .lines()
        .find_map(|l| l.strip_prefix("Message-ID: <"))
        .and_then(|l| l.strip_suffix('>'))
        .unwrap()
        .to_string()
}

/// A delivery report for `gone` that returns the headers of the mail with Message-ID `id`.
fn bounce_report(gone: &str, id: &str) -> String {
    format!("--b\nContent-Type: text/plain\n\nDelivery failed.\n--b\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example.org\n\nFinal-Recipient: rfc822; {gone}\nAction: failed\nStatus: 5.1.1\n--b\nContent-Type: text/rfc822-headers\n\nFrom: herald <judge@herald.test>\nTo: {gone}\nSubject: Re: join\nMessage-ID: <{id}>\n--b--\n")
}

/// "forged bounces cannot make herald mail the Master more than once a day per address (and
/// only bounces that match a Message-ID herald sent count)" (issue 24, part 3): every forged
/// bounce mailed the Master a notice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_bounces_tell_nobody_and_real_ones_the_master_once_a_day() {
    let mut w = World::new("bounce-forged").await;
    let created = w.mail(GM, "new", "CREATE ?fb gmpass\n").await;
    w.confirm(GM, &created).await;
    let joined = w.mail("ann@example.org", "join", "SIGNON ?fb pw\n").await;
    let id = message_id(to(&joined, "ann@example.org"));
    let ct = "Content-Type: multipart/report; report-type=delivery-status; boundary=b\r\n";
    // Forged: no Message-ID, one herald never wrote, and herald's own Message-ID of a mail
    // to someone else (the Master's reply to CREATE).
    let strangers_id = message_id(to(&created, GM));
    assert_ne!(strangers_id, id);
    for forged in [
        bounce_report("ann@example.org", "nothing@forger.example"),
        bounce_report("ann@example.org", &id.replacen("outbox-", "outbox-9", 1)),
        bounce_report("ann@example.org", &strangers_id),
        "--b\nContent-Type: message/delivery-status\n\nFinal-Recipient: rfc822; ann@example.org\nAction: failed\n--b--\n".to_string(),
    ] {
        let sent = w
            .mail_with_headers("MAILER-DAEMON@example.org", "Undelivered", ct, &forged)
            .await;
        assert!(sent.is_empty(), "{forged}\n{sent:#?}");
    }
    assert!(w.service.store.bounced().await.unwrap().is_empty());
    // A real one (In-Reply-To naming herald's mail is enough): the Master is told once.
    let headers = format!("{ct}In-Reply-To: <{id}>\r\n");
    let report = bounce_report("ann@example.org", "x@y");
    let sent = w
        .mail_with_headers(
            "MAILER-DAEMON@example.org",
            "Undelivered",
            &headers,
            &report,
        )
        .await;
    assert_eq!(find(&sent, GM, "Bouncing Address").len(), 1, "{sent:#?}");
    // Again and again the same day: no more notices.
    for _ in 0..5 {
        w.wait(Duration::hours(4)).await;
        let sent = w
            .mail_with_headers(
                "MAILER-DAEMON@example.org",
                "Undelivered",
                ct,
                &bounce_report("ann@example.org", &id),
            )
            .await;
        assert!(sent.is_empty(), "{sent:#?}");
    }
    // A day after the notice, one more.
    w.wait(Duration::hours(4)).await;
    let sent = w
        .mail_with_headers(
            "MAILER-DAEMON@example.org",
            "Undelivered",
            ct,
            &bounce_report("ann@example.org", &id),
        )
        .await;
    assert_eq!(find(&sent, GM, "Bouncing Address").len(), 1, "{sent:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bounce_marks_the_address_and_tells_the_master() {
    let mut w = World::new("bounce").await;
    let sent = w.mail(GM, "new", "CREATE ?bnc gmpass\n").await;
    w.confirm(GM, &sent).await;
    let joined = w.mail("ann@example.org", "join", "SIGNON ?bnc pw\n").await;
    // The report returns the headers of herald's mail: only that makes it count (issue 24).
    let id = message_id(to(&joined, "ann@example.org"));
    let report = bounce_report("ann@example.org", &id);
    let sent = w
        .mail_with_headers(
            "MAILER-DAEMON@example.org",
            "Undelivered Mail",
            "Content-Type: multipart/report; report-type=delivery-status; boundary=b\r\n",
            &report,
        )
        .await;
    assert_eq!(sent.len(), 1, "only the Master hears of it: {sent:#?}");
    let note = to(&sent, GM);
    assert!(
        note.subject.contains("Bouncing Address"),
        "{}",
        note.subject
    );
    assert!(
        note.body
            .contains("Mail to ann@example.org (a player in 'bnc') bounced"),
        "{}",
        note.body
    );
    assert_eq!(
        w.service.store.bounced().await.unwrap(),
        ["ann@example.org"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rule_switches_are_chosen_at_creation() {
    let mut w = World::new("rules").await;
    let sent = w
        .mail(
            GM,
            "new",
            "CREATE ?rs gmpass standard remote_builds victory=20 rules=1982\n",
        )
        .await;
    assert!(
        to(&sent, GM)
            .body
            .contains("Rule switches: remote_builds, victory=20, rules=1982."),
        "{}",
        to(&sent, GM).body
    );
    let sent = w
        .mail(GM, "new", "CREATE ?bad gmpass standard flying\n")
        .await;
    let r = to(&sent, GM);
    assert!(
        r.body.contains("unknown rule switch 'flying'")
            && r.body.contains("the game was not created"),
        "{}",
        r.body
    );
    let sent = w
        .mail(
            GM,
            "set",
            "SIGNON Mrs gmpass\nSET RULE no_ocean_convoys\nSET RULE flying\n",
        )
        .await;
    let r = to(&sent, GM);
    assert!(
        r.body.contains("Rule switch set: no_ocean_convoys."),
        "{}",
        r.body
    );
    assert!(
        r.body.contains("unknown rule switch 'flying'"),
        "{}",
        r.body
    );
    let rows = w.service.store.games().await.unwrap();
    assert_eq!(rows.len(), 1, "the refused game was not created");
    let game: herald::judge::Game = serde_json::from_str(&rows[0].state).unwrap();
    let rules = w.service.judge.rules(&game);
    assert_eq!(rules.build_sites, herald::game::rules::BuildSites::AnyOwned);
    assert_eq!(rules.victory_centres, 20);
    assert!(!rules.ocean_convoys);
    assert_eq!(rules.edition, herald::game::rules::Edition::Rules1982);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_last_year_game_ends_ranked_by_centres() {
    let mut w = World::new("lastyear").await;
    let (created, _) =
        support::start_game(&mut w, GM, "short", "standard last_year=1901", &PLAYERS).await;
    assert!(
        created.contains("Rule switches: last_year=1901."),
        "{created}"
    );
    let sent = w
        .mail(who('G'), "o", "SIGNON Gshort pwG\nF Kie-Den\nA Mun-Ruh\n")
        .await;
    assert!(!find(&sent, who('G'), "Re: o").is_empty());
    w.mail(GM, "go", "SIGNON Mshort gmpass\nPROCESS!\n").await;
    w.mail(who('G'), "o", "SIGNON Gshort pwG\nA Ruh-Hol\n")
        .await;
    w.mail(GM, "go", "SIGNON Mshort gmpass\nPROCESS!\n").await;
    let sent = w.mail(GM, "go", "SIGNON Mshort gmpass\nPROCESS!\n").await;
    let results = find(&sent, who('G'), "W1901A Results")[0];
    assert!(
        results.body.contains(
            "The game reached its last year; ranked by supply centres: Germany 5, Russia 4, Austria 3, England 3, France 3, Italy 3, Turkey 3."
        ),
        "{}",
        results.body
    );
}
