//! End to end over real mail servers on 127.0.0.1 (Dovecot IMAP/LMTP and OpenSMTPD, started
//! by `scripts/test` through `scripts/mailstack/start.sh`): seven players and a Master, each
//! a mailbox, send their mail over SMTP and read herald's replies over IMAP, while herald's
//! daemon reads its own mailbox over IMAP (IDLE) and sends by SMTP. Three phases are played,
//! press included.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use support::stack::{Daemon, Stack, DOMAIN, PLAYERS};

fn holds(letter: char) -> &'static str {
    match letter {
        'E' => "F Lon H\nF Edi H\nA Lvp H",
        'G' => "F Kie H\nA Ber H\nA Mun H",
        'I' => "F Nap H\nA Rom H\nA Ven H",
        'A' => "A Vie H\nA Bud H\nF Tri H",
        'R' => "A Mos H\nA War H\nF Sev H\nF Stp/sc H",
        'T' => "F Ank H\nA Con H\nA Smy H",
        _ => unreachable!(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_over_real_imap_and_smtp() {
    let stack = Stack::new("e2e");
    let daemon = Daemon::start(&stack, "e2e", |_| {}).await;
    let g = stack.game.clone();

    stack
        .send("gm", "create", &format!("CREATE ?{g} gmpass\n"))
        .await;
    let created = stack.expect("gm", "gmpw", "Re: create").await;
    assert!(created.contains(&format!("Game '{g}' (standard) created")));
    // Each confirms the address by replying to herald's answer: game mail goes only to
    // addresses that asked for it.
    stack.confirm("gm", "gmpw", &created).await;
    for (user, pw, letter) in PLAYERS {
        stack
            .send(
                user,
                "join",
                &format!("SIGNON ?{g} {pw}\nSET PREFERENCE {letter}\n"),
            )
            .await;
        let reply = stack.expect(user, pw, "Re: join").await;
        assert!(reply.contains(&format!("You joined '{g}'")), "{reply}");
        stack.confirm(user, pw, &reply).await;
    }
    stack
        .send("gm", "start", &format!("SIGNON M{g} gmpass\nSTART\n"))
        .await;
    for (user, pw, letter) in PLAYERS {
        let start = stack.expect(user, pw, "Game Starting").await;
        assert!(
            start.contains(&format!("({letter}) {user}@{DOMAIN}")),
            "{start}"
        );
    }

    // Spring 1901, with press from France to Germany.
    for (user, pw, letter) in PLAYERS {
        let orders = match letter {
            'F' => "A Par-Bur\nA Mar-Spa\nF Bre-Mao\nPRESS TO G\nShall we talk about Belgium?\nENDPRESS".to_string(),
            l => holds(l).to_string(),
        };
        stack
            .send(
                user,
                "orders",
                &format!("SIGNON {letter}{g} {pw}\n{orders}\n"),
            )
            .await;
        let reply = stack.expect(user, pw, "Re: orders").await;
        assert!(reply.contains("orders complete"), "{reply}");
    }
    let press = stack.expect("p3", "pw3", "Press from F").await;
    assert!(press.contains("Shall we talk about Belgium?"), "{press}");
    for (user, pw, _) in PLAYERS {
        let results = stack.expect(user, pw, "S1901M Results").await;
        assert!(
            results.contains("France: Army Marseilles -> Spain."),
            "{results}"
        );
    }

    // Fall 1901: France takes Portugal and Spain.
    for (user, pw, letter) in PLAYERS {
        let orders = match letter {
            'F' => "A Bur H\nA Spa H\nF Mao-Por".to_string(),
            l => holds(l).to_string(),
        };
        stack
            .send(
                user,
                "fall",
                &format!("SIGNON {letter}{g} {pw}\n{orders}\n"),
            )
            .await;
        stack.expect(user, pw, "Re: fall").await;
    }
    let results = stack.expect("p2", "pw2", "F1901M Results").await;
    assert!(
        results.contains("France: 5 Supply centers, 3 Units: Builds 2 units."),
        "{results}"
    );

    // Winter 1901: France builds.
    stack
        .send(
            "p2",
            "builds",
            &format!("SIGNON F{g} pw2\nBuild A Par\nBuild F Mar\n"),
        )
        .await;
    assert!(stack
        .expect("p2", "pw2", "Re: builds")
        .await
        .contains("France: orders complete."));
    let results = stack.expect("p1", "pw1", "W1901A Results").await;
    assert!(
        results.contains("France: Builds an army in Paris."),
        "{results}"
    );
    assert!(results.contains("Movement for Spring of 1902"), "{results}");

    daemon.stop().await;
}
