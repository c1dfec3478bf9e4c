//! Anonymous and private games by mail (issue 18, points 1 and 2): an anonymous standard
//! game played through 1901 with every mail to every player, the observer and a stranger
//! read for another person's address; addresses in a normal game shown to its members only;
//! LIST and LIST FULL; a private game's join word; the Master's allow and deny lists.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use chrono::Duration;
use support::{find, order, start_game, to, Sent, World, SEVEN};

const GM: &str = "gm@example.org";
const OBS: &str = "obs@example.org";
const STRANGER: &str = "stranger@example.net";
/// Takes over Italy after its first player resigns.
const IVY: &str = "ivy@example.org";
/// Signs on as France with France's password from another address.
const BOB2: &str = "bob2@example.org";

/// Everyone whose address the game holds.
fn people() -> Vec<&'static str> {
    let mut all: Vec<&str> = SEVEN.iter().map(|(a, _)| *a).collect();
    all.extend([GM, OBS, IVY, BOB2]);
    all
}

/// Every header and body (and attached file) of every mail not to the Master names no
/// address but the recipient's own.
fn nobody_named(sent: &[Sent], step: &str) {
    for m in sent.iter().filter(|m| m.to != GM) {
        let mut text = m.raw.clone();
        for f in &m.attachments {
            text.push_str(&String::from_utf8_lossy(&f.bytes));
        }
        for a in people().into_iter().filter(|a| *a != m.to) {
            assert!(
                !text.contains(a),
                "{step}: the mail to {} names {a}:\n{text}",
                m.to
            );
        }
    }
}

/// The address of the player of `letter`.
fn who(letter: char) -> &'static str {
    SEVEN.iter().find(|(_, l)| *l == letter).unwrap().0
}

#[tokio::test]
async fn an_anonymous_game_by_mail_names_no_player_to_anyone_but_the_master() {
    let mut w = World::new("anonymous").await;
    let mut all: Vec<Sent> = Vec::new();
    // The Master confirms the address first (game mail goes only to an address that
    // asked for it), then sets the game up.
    let sent = w.mail(GM, "new", "CREATE ?gun gmpass\n").await;
    all.extend(w.confirm(GM, &sent).await);
    all.extend(sent);
    let sent = w
        .mail(
            GM,
            "setup",
            "SIGNON Mgun gmpass\nSET NOSHOW\nSET PRESS GREY\n",
        )
        .await;
    let notice = find(&sent, GM, "Parameter Change")[0];
    assert!(
        notice.body.contains("This game is anonymous"),
        "{}",
        notice.body
    );
    all.extend(sent);
    for (addr, letter) in SEVEN {
        let body = format!("SIGNON ?gun pw{letter}\nSET PREFERENCE {letter}\nSUMMARY gun\n");
        let sent = w.mail(addr, "join", &body).await;
        all.extend(w.confirm(addr, &sent).await);
        all.extend(sent);
    }
    let sent = w.mail(OBS, "watch", "OBSERVE gun obspw\n").await;
    all.extend(w.confirm(OBS, &sent).await);
    all.extend(sent);
    all.extend(
        w.mail(STRANGER, "look", "LIST\nLIST gun\nSUMMARY gun\n")
            .await,
    );
    let sent = w.mail(GM, "start", "SIGNON Mgun gmpass\nSTART\n").await;
    // The Master's copy of the start notice names every player; a player's only its own.
    let master = find(&sent, GM, "Game Starting")[0];
    for (addr, _) in SEVEN {
        assert!(master.body.contains(addr), "{}", master.body);
    }
    let ann = find(&sent, who('E'), "Game Starting")[0];
    assert!(
        ann.body.contains("England    (E) ann@example.org"),
        "{}",
        ann.body
    );
    assert!(
        ann.body.contains("France     (F) someone@somewhere"),
        "{}",
        ann.body
    );
    all.extend(sent);

    // Spring 1901, with white, grey and broadcast press and a SUMMARY from a player.
    let spring = [
        (
            'E',
            "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor\nPRESS TO F\nHello France.\nENDPRESS",
        ),
        (
            'F',
            "A Par-Bur\nA Mar-Spa\nF Bre-Mao\nBROADCAST\nPeace to all.\nENDPRESS",
        ),
        (
            'G',
            "A Mun-Ruh\nA Ber-Kie\nF Kie-Den\nPRESS TO R GREY\nGuess who.\nENDPRESS",
        ),
        (
            'I',
            "A Ven H\nA Rom H\nF Nap H\nPRESS TO M\nA word for the Master.\nENDPRESS",
        ),
        ('A', "A Vie H\nA Bud H\nF Tri H\nSUMMARY gun"),
        ('R', "A Mos H\nA War H\nF Sev H\nF Stp/sc H"),
        ('T', "F Ank H\nA Con-Bul\nA Smy H"),
    ];
    for (letter, orders) in spring {
        let body = format!("SIGNON {letter}gun pw{letter}\n{orders}\n");
        all.extend(w.mail(who(letter), "orders", &body).await);
    }
    let sent = w.wait(Duration::minutes(31)).await;
    assert!(
        !find(&sent, who('E'), "S1901M Results").is_empty(),
        "{sent:#?}"
    );
    all.extend(sent);
    let sent = w
        .mail(OBS, "look", "SIGNON Ogun obspw\nSUMMARY gun\n")
        .await;
    assert!(
        to(&sent, OBS).body.contains("someone@somewhere"),
        "{}",
        to(&sent, OBS).body
    );
    all.extend(sent);

    // Fall 1901: Italy resigns and a newcomer takes it over; the notices name no one.
    all.extend(w.mail(who('I'), "bye", "SIGNON Igun pwI\nRESIGN\n").await);
    all.extend(w.mail(IVY, "takeover", "SIGNON Igun pwIvy\n").await);
    // France's password from another address: France's player alone is told, and from
    // where (issue 25: the seat's own player must tell a second account from an intruder).
    let sent = w.mail(BOB2, "me too", "SIGNON Fgun pwF\n").await;
    let told = find(&sent, who('F'), "Signon From Another Address")[0];
    assert!(told.body.contains("from bob2@example.org"), "{}", told.body);
    all.extend(
        sent.into_iter()
            .filter(|m| !m.subject.contains("Signon From Another Address")),
    );
    let fall = [
        ('E', "F Nwg-Nwy\nF Nth H\nA Yor H"),
        ('F', "F Mao-Por\nA Spa H\nA Bur H"),
        ('G', "A Ruh-Hol\nF Den H\nA Kie H"),
        ('A', "A Vie H\nA Bud H\nF Tri H"),
        ('R', "A Mos H\nA War H\nF Sev H\nF Stp/sc H"),
        ('T', "F Ank H\nA Bul H\nA Smy H"),
    ];
    for (letter, orders) in fall {
        let body = format!("SIGNON {letter}gun pw{letter}\n{orders}\n");
        all.extend(w.mail(who(letter), "orders", &body).await);
    }
    all.extend(
        w.mail(
            IVY,
            "orders",
            "SIGNON Igun pwIvy\nA Ven H\nA Rom H\nF Nap H\n",
        )
        .await,
    );
    let sent = w.wait(Duration::minutes(31)).await;
    assert!(
        !find(&sent, who('E'), "F1901M Results").is_empty(),
        "{sent:#?}"
    );
    all.extend(sent);

    // Winter 1901: the builds.
    let builds = [
        ('E', "Build F Edi"),
        ('F', "Build A Par\nBuild F Bre"),
        ('G', "Build A Ber\nBuild A Mun"),
        ('T', "Build A Con"),
    ];
    for (letter, orders) in builds {
        let body = format!("SIGNON {letter}gun pw{letter}\n{orders}\n");
        all.extend(w.mail(who(letter), "builds", &body).await);
    }
    let sent = w.wait(Duration::minutes(31)).await;
    let results = find(&sent, who('F'), "W1901A Results");
    assert!(!results.is_empty(), "{sent:#?}");
    assert!(
        results[0].body.contains("Movement for Spring of 1902"),
        "{}",
        results[0].body
    );
    all.extend(sent);
    all.extend(
        w.mail(
            STRANGER,
            "look",
            "LIST\nLIST gun\nSUMMARY gun\nHISTORY gun\n",
        )
        .await,
    );
    assert!(all.len() > 100, "{} mails", all.len());
    nobody_named(&all, "1901");
    for m in all.iter().filter(|m| m.to != GM) {
        assert!(
            !m.raw.contains("gm@example.org"),
            "the Master's address: {}",
            m.raw
        );
    }

    // The end: each member's summary shows who played what; a stranger still sees no one.
    let sent = w.mail(GM, "end", "SIGNON Mgun gmpass\nTERMINATE\n").await;
    let summary = find(&sent, who('E'), "Summary")[0];
    for addr in ["bob@example.org", IVY, "eve@example.org"] {
        assert!(summary.body.contains(addr), "{}", summary.body);
    }
    let sent = w.mail(STRANGER, "look", "SUMMARY gun\nHISTORY gun\n").await;
    nobody_named(&sent, "after the end");
    assert!(to(&sent, STRANGER).body.contains("someone@somewhere"));
}

#[tokio::test]
async fn a_stranger_sees_no_address_in_a_normal_game_and_a_member_does() {
    let mut w = World::new("strangers").await;
    start_game(&mut w, GM, "open", "standard", &SEVEN).await;
    let sent = w
        .mail(GM, "late", "SIGNON Mopen gmpass\nSET NOSHOW\n")
        .await;
    assert!(
        to(&sent, GM)
            .body
            .contains("a game is made anonymous before START"),
        "{}",
        to(&sent, GM).body
    );
    let sent = w.mail(STRANGER, "who", "SUMMARY open\n").await;
    let reply = &to(&sent, STRANGER).body;
    assert!(reply.contains("England    someone@somewhere"), "{reply}");
    nobody_named(&sent, "a stranger's SUMMARY");
    assert!(!reply.contains(GM), "{reply}");
    let reply = order(&mut w, "open", who('E'), 'E', "SUMMARY open").await;
    assert!(reply.contains("France     bob@example.org"), "{reply}");
    assert!(reply.contains(&format!("Master: {GM}")), "{reply}");
}

#[tokio::test]
async fn list_shows_forming_and_running_games_apart_and_list_full_the_finished_too() {
    let mut w = World::new("listing").await;
    start_game(&mut w, GM, "run", "standard", &SEVEN).await;
    start_game(&mut w, GM, "done", "standard", &SEVEN).await;
    w.mail(GM, "end", "SIGNON Mdone gmpass\nTERMINATE\n").await;
    w.mail(GM, "new", "CREATE ?open gmpass\n").await;
    w.mail("hid@example.org", "new", "CREATE ?hid gmpass\nSET NOLIST\n")
        .await;
    let sent = w.mail(STRANGER, "list", "LIST\n").await;
    let list = &to(&sent, STRANGER).body;
    let forming = list.find("Forming (join one with SIGNON ?<game> <password>):");
    let running = list.find("Running:");
    assert!(forming.is_some() && running > forming, "{list}");
    let (forming, running) = (forming.unwrap(), running.unwrap());
    let open = list.find("\nopen ").unwrap();
    let run = list.find("\nrun ").unwrap();
    assert!(forming < open && open < running && running < run, "{list}");
    assert!(
        !list.contains("\ndone ") && !list.contains("\nhid "),
        "{list}"
    );
    assert!(
        list.contains("LIST FULL shows the finished games too."),
        "{list}"
    );

    let sent = w.mail(STRANGER, "list", "LIST FULL\n").await;
    let list = &to(&sent, STRANGER).body;
    assert!(list.contains("Finished:\n"), "{list}");
    assert!(list.contains("\ndone "), "{list}");
    assert!(!list.contains("\nhid ") && !list.contains("***"), "{list}");

    // The unlisted game is listed to its Master, and refused to a stranger by name.
    let sent = w.mail("hid@example.org", "list", "LIST\n").await;
    assert!(to(&sent, "hid@example.org").body.contains("\nhid "));
    let sent = w
        .mail(
            STRANGER,
            "list",
            "LIST hid\nSUMMARY hid\nHISTORY hid\nGET MAP hid\n",
        )
        .await;
    let reply = &to(&sent, STRANGER).body;
    assert_eq!(
        reply
            .matches("game 'hid' is private: only its members may look into it")
            .count(),
        4,
        "{reply}"
    );
}

#[tokio::test]
async fn a_private_game_takes_newcomers_with_its_join_word_only() {
    let mut w = World::new("joinword").await;
    let sent = w
        .mail(GM, "new", "CREATE ?club gmpass\nSET PRIVATE tuesdays\n")
        .await;
    let reply = find(&sent, GM, "Re: new")[0];
    assert!(
        reply.body.contains("SIGNON ?club <password> <join word>"),
        "{}",
        reply.body
    );
    let sent = w
        .mail("ann@example.org", "join", "SIGNON ?club pwA\n")
        .await;
    let reply = &to(&sent, "ann@example.org").body;
    assert!(
        reply.contains("game 'club' is private: add its join word after your password"),
        "{reply}"
    );
    let sent = w
        .mail("ann@example.org", "join", "SIGNON ?club pwA mondays\n")
        .await;
    let reply = &to(&sent, "ann@example.org").body;
    assert!(
        reply.contains("SIGNON ?club **** ****\n  *** wrong join word for game 'club'"),
        "{reply}"
    );
    let sent = w
        .mail("ann@example.org", "join", "SIGNON ?club pwA tuesdays\n")
        .await;
    assert!(
        to(&sent, "ann@example.org")
            .body
            .contains("You joined 'club' as player 1 of 7."),
        "{}",
        to(&sent, "ann@example.org").body
    );
    let sent = w.mail(OBS, "watch", "OBSERVE club obspw\n").await;
    assert!(to(&sent, OBS).body.contains("is private"));
    let sent = w.mail(OBS, "watch", "OBSERVE club obspw tuesdays\n").await;
    assert!(to(&sent, OBS).body.contains("You now observe 'club'"));
    // Once public, no word is needed.
    w.mail(GM, "open", "SIGNON Mclub gmpass\nSET PUBLIC\n")
        .await;
    let sent = w
        .mail("bob@example.org", "join", "SIGNON ?club pwB\n")
        .await;
    assert!(to(&sent, "bob@example.org")
        .body
        .contains("You joined 'club'"));
}

#[tokio::test]
async fn the_masters_allow_and_deny_lists_decide_who_joins() {
    let mut w = World::new("invite").await;
    let sent = w
        .mail(
            GM,
            "new",
            "CREATE ?inv gmpass\nSET ALLOW ann@example.org\nSET DENY bob@example.org\n",
        )
        .await;
    let reply = &to(&sent, GM).body;
    assert!(
        reply.contains("Invited to this game (SET ALLOW): ann@example.org."),
        "{reply}"
    );
    assert!(
        reply.contains("Kept out of this game (SET DENY): bob@example.org."),
        "{reply}"
    );
    let sent = w.mail("ann@example.org", "join", "SIGNON ?inv pwA\n").await;
    assert!(to(&sent, "ann@example.org")
        .body
        .contains("You joined 'inv'"));
    let sent = w.mail("cat@example.org", "join", "SIGNON ?inv pwC\n").await;
    let reply = &to(&sent, "cat@example.org").body;
    assert!(
        reply.contains("game 'inv' is by invitation: its Master has not invited cat@example.org"),
        "{reply}"
    );
    let sent = w.mail("bob@example.org", "join", "SIGNON ?inv pwB\n").await;
    let reply = &to(&sent, "bob@example.org").body;
    assert!(
        reply.contains("the Master of 'inv' does not let bob@example.org into this game"),
        "{reply}"
    );
    let sent = w
        .mail(
            GM,
            "lists",
            "SIGNON Minv gmpass\nSET NOALLOW ann@example.org\nSET DENY -bob@example.org\n",
        )
        .await;
    let reply = &to(&sent, GM).body;
    assert!(reply.contains("No allow list: anyone may join"), "{reply}");
    assert!(
        reply.contains("Kept out of this game (SET DENY): nobody."),
        "{reply}"
    );
    for addr in ["bob@example.org", "cat@example.org"] {
        let sent = w.mail(addr, "join", "SIGNON ?inv pw\n").await;
        assert!(to(&sent, addr).body.contains("You joined 'inv'"));
    }
}

#[tokio::test]
async fn in_a_quiet_game_only_the_master_hears_who_resigns_and_who_takes_over() {
    let mut w = World::new("quiet").await;
    start_game(&mut w, GM, "hush", "standard", &SEVEN).await;
    let sent = w
        .mail(GM, "quiet", "SIGNON Mhush gmpass\nSET QUIET\n")
        .await;
    assert!(
        find(&sent, who('E'), "Parameter Change")[0]
            .body
            .contains("This game is quiet"),
        "{sent:#?}"
    );
    let sent = w.mail(who('I'), "bye", "SIGNON Ihush pwI\nRESIGN\n").await;
    let told: Vec<&str> = sent
        .iter()
        .filter(|m| m.subject.contains("Resignation"))
        .map(|m| m.to.as_str())
        .collect();
    assert_eq!(told, [GM], "{sent:#?}");
    let sent = w.mail(IVY, "takeover", "SIGNON Ihush pwIvy\n").await;
    let told: Vec<&str> = sent
        .iter()
        .filter(|m| m.subject.contains("Power Taken Over"))
        .map(|m| m.to.as_str())
        .collect();
    assert_eq!(told, [GM], "{sent:#?}");
    // Not quiet: everyone hears. The game is private now: the power is offered with the
    // join word, and a newcomer needs it.
    w.mail(
        GM,
        "loud",
        "SIGNON Mhush gmpass\nSET NOQUIET\nSET PRIVATE hush\n",
    )
    .await;
    let sent = w.mail(IVY, "bye", "SIGNON Ihush pwIvy\nRESIGN\n").await;
    let told: Vec<&Sent> = sent
        .iter()
        .filter(|m| m.subject.contains("Resignation"))
        .collect();
    assert_eq!(told.len(), 7, "six players and the Master: {sent:#?}");
    assert!(
        told[0]
            .body
            .contains("Italy has resigned; a new player may take it over with SIGNON Ihush <password> <join word>."),
        "{}",
        told[0].body
    );
    let sent = w.mail(STRANGER, "mine", "SIGNON Ihush pwS\n").await;
    assert!(to(&sent, STRANGER).body.contains("game 'hush' is private"));
    let sent = w.mail(STRANGER, "mine", "SIGNON Ihush pwS hush\n").await;
    assert!(
        find(&sent, STRANGER, "Re: mine")[0]
            .body
            .contains("You have taken over Italy"),
        "{}",
        find(&sent, STRANGER, "Re: mine")[0].body
    );
}

#[tokio::test]
async fn the_allow_list_is_not_copied_to_a_player_the_master_becomes() {
    // What follows BECOME is copied to that power's player, so the Master's lists of
    // addresses are refused there, before they are shown.
    let mut w = World::new("invite-become").await;
    start_game(&mut w, GM, "ib", "standard", &SEVEN).await;
    let sent = w
        .mail(
            GM,
            "b",
            "SIGNON Mib gmpass\nBECOME E\nSET ALLOW secret-friend@example.org\n",
        )
        .await;
    for m in &sent {
        assert!(
            !m.body.contains("secret-friend@example.org") || m.to == GM,
            "{} got {}",
            m.to,
            m.body
        );
    }
    let reply = sent
        .iter()
        .find(|m| m.to == GM && m.subject.starts_with("Re:"))
        .unwrap();
    assert!(
        reply
            .body
            .contains("SET ALLOW and SET DENY come before BECOME"),
        "{}",
        reply.body
    );
}

// Issue 25, point 15: "A wrong join word is answered "Invalid password or power ID
// specified."; `OBSERVE` without the word is told to use SIGNON; the word's
// case-sensitivity is not said; the start notice of a private game invites takeovers
// without mentioning the word."
#[tokio::test]
async fn a_private_games_join_word_is_named_shown_in_each_form_and_said_to_count_capitals() {
    let mut w = World::new("joinword-words").await;
    let sent = w
        .mail(GM, "new", "CREATE ?club gmpass\nSET PRIVATE Tuesdays\n")
        .await;
    let reply = &find(&sent, GM, "Re: new")[0].body;
    assert!(reply.contains("capitals count"), "{reply}");
    w.confirm(GM, &sent).await;
    // A wrong word (here only its capitals) is named as the join word, nothing more.
    let ann = "ann@example.org";
    let sent = w.mail(ann, "join", "SIGNON ?club pwA tuesdays\n").await;
    let reply = &to(&sent, ann).body;
    assert!(
        reply.contains("*** wrong join word for game 'club' (its Master gives the word; the join word is written exactly as the Master gave it: capitals count)"),
        "{reply}"
    );
    assert!(!reply.contains("Invalid password"), "{reply}");
    // OBSERVE without the word is shown the OBSERVE line, not a SIGNON.
    let sent = w.mail(OBS, "watch", "OBSERVE club obspw\n").await;
    let reply = &to(&sent, OBS).body;
    assert!(
        reply.contains(
            "add its join word after your password (OBSERVE club <password> <join word>)"
        ),
        "{reply}"
    );
    assert!(!reply.contains("SIGNON ?club"), "{reply}");
    let sent = w.mail(OBS, "watch", "OBSERVE club obspw Tuesdays\n").await;
    assert!(to(&sent, OBS).body.contains("You now observe 'club'"));
    // The help says the word is needed to take over and that capitals count.
    let sent = w.mail(STRANGER, "help", "GET info\n").await;
    let help = &to(&sent, STRANGER).body;
    assert!(
        help.contains("(SIGNON Rwar1901 newpassword tuesdays)")
            && help.contains("capitals count, so Tuesdays is not tuesdays"),
        "{help}"
    );
    // Two players, then FORCE BEGIN: the start notice offers the dummies with the word.
    for (addr, letter) in [(ann, 'E'), ("bob@example.org", 'F')] {
        let body = format!("SIGNON ?club pw{letter} Tuesdays\nSET PREFERENCE {letter}\n");
        let sent = w.mail(addr, "join", &body).await;
        assert!(
            to(&sent, addr).body.contains("You joined 'club'"),
            "{sent:#?}"
        );
        w.confirm(addr, &sent).await;
    }
    let sent = w.mail(GM, "go", "SIGNON Mclub gmpass\nFORCE BEGIN\n").await;
    let notice = &find(&sent, ann, "Game Starting")[0].body;
    assert!(
        notice.contains("open for takeover with SIGNON <letter>club <password> <join word>."),
        "{notice}"
    );
    assert!(
        notice.contains("This game is private: a newcomer who takes over a power or observes needs its join word after the password (SIGNON <letter>club <password> <join word>); the join word is written exactly as the Master gave it: capitals count."),
        "{notice}"
    );
    // A newcomer taking over a dummy without the word is shown its own line.
    let sent = w.mail(STRANGER, "take", "SIGNON Rclub pwR\n").await;
    let reply = &to(&sent, STRANGER).body;
    assert!(
        reply.contains(
            "add its join word after your password (SIGNON Rclub <password> <join word>)"
        ),
        "{reply}"
    );
}

// Issue 25, point 16: "In anonymous games the "Signon From Another Address" notice hides
// the address from the seat's own player, who cannot tell their second account from an
// intruder." The seat's own player is told it; nobody else hears of it.
#[tokio::test]
async fn in_an_anonymous_game_the_seats_own_player_is_told_the_other_address() {
    let mut w = World::new("anon-other-address").await;
    let sent = w.mail(GM, "new", "CREATE ?gun gmpass\nSET NOSHOW\n").await;
    w.confirm(GM, &sent).await;
    for (addr, letter) in SEVEN {
        let body = format!("SIGNON ?gun pw{letter}\nSET PREFERENCE {letter}\n");
        let sent = w.mail(addr, "join", &body).await;
        w.confirm(addr, &sent).await;
    }
    w.mail(GM, "start", "SIGNON Mgun gmpass\nSTART\n").await;
    let sent = w.mail(BOB2, "me too", "SIGNON Fgun pwF\n").await;
    let told = find(&sent, who('F'), "Signon From Another Address");
    assert_eq!(told.len(), 1, "{sent:#?}");
    assert!(
        told[0]
            .body
            .contains("Someone signed on as France with the right password from bob2@example.org."),
        "{}",
        told[0].body
    );
    for m in sent.iter().filter(|m| m.to != who('F') && m.to != BOB2) {
        assert!(!m.raw.contains(BOB2), "{} was told: {}", m.to, m.raw);
    }
}
