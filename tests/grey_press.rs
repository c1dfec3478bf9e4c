//! Grey press names its sender nowhere (issue 13, point 4): not in the headers, the body or
//! a list of recipients (with seven powers, six named recipients name the seventh), every
//! copy the same whoever sent it and queued in the same order; the Master's copy names the
//! sender; nothing else from the same mail that names the sender goes along with it; and an
//! interception shows grey press anonymous, without narrowing its sender.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use crate::support;

use support::{find, start_game, to, Sent, World, SEVEN};

const GM: &str = "gm@example.org";
const FAY: &str = "fay@example.org"; // Russia
const EVE: &str = "eve@example.org"; // Austria
const BOB: &str = "bob@example.org"; // France
const CAT: &str = "cat@example.org"; // Germany
const DAN: &str = "dan@example.org"; // Italy
const OBS: &str = "obs@example.org";
const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];

/// The mail without the two headers that differ between copies: To and Message-ID.
fn without_to(raw: &str) -> String {
    raw.lines()
        .filter(|l| !l.starts_with("To: ") && !l.starts_with("Message-ID: "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Checks the copies of one grey press to players and observers: nothing names a power or
/// the sender's address, all are the same but for To, and they go out sorted by address.
fn assert_anonymous(copies: &[&Sent], sender_address: &str, intro: &str) {
    assert!(!copies.is_empty());
    for c in copies {
        for name in POWERS {
            assert!(!c.raw.contains(name), "{name} in a copy:\n{}", c.raw);
        }
        assert!(!c.raw.contains(sender_address), "{}", c.raw);
        assert!(c.body.contains(intro), "{}", c.body);
        assert_eq!(without_to(&c.raw), without_to(&copies[0].raw));
    }
    let order: Vec<&str> = copies.iter().map(|c| c.to.as_str()).collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(order, sorted, "queued in a fixed order, by address");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn grey_press_names_its_sender_in_no_copy() {
    let mut w = World::new("grey-copies").await;
    start_game(&mut w, GM, "g", "standard", &SEVEN).await;
    let watching = w.mail(OBS, "watch", "OBSERVE g watchpw\n").await;
    w.confirm(OBS, &watching).await;
    w.mail(GM, "grey", "SIGNON Mg gmpass\nSET PRESS GREY\n")
        .await;

    // Russia to the six other powers: once "Anonymous message to Austria, England, France,
    // Germany, Italy, Turkey", which named Russia by elimination.
    let sent = w
        .mail(
            FAY,
            "p",
            "SIGNON Rg pwR\nPRESS TO AEFGIT GREY\nWho sent this?\nENDPRESS\n",
        )
        .await;
    let copies: Vec<&Sent> = sent.iter().filter(|s| s.to != FAY).collect();
    assert_eq!(copies.len(), 6, "{sent:#?}");
    assert_anonymous(&copies, FAY, "Message from an anonymous power in 'g':");
    assert!(copies[0].body.contains("Who sent this?"));
    assert!(
        copies[0].subject.ends_with("S1901M Press"),
        "{}",
        copies[0].subject
    );
    let reply = &to(&sent, FAY).body;
    assert!(
        reply.contains("Press sent to Austria, England, France, Germany, Italy, Turkey (grey"),
        "the sender's own reply lists the recipients: {reply}"
    );

    // The same words from Austria read exactly the same: subject and body.
    let from_austria = w
        .mail(
            EVE,
            "p",
            "SIGNON Ag pwA\nPRESS TO EFGIRT GREY\nWho sent this?\nENDPRESS\n",
        )
        .await;
    let other = find(&from_austria, BOB, "Press")[0];
    assert_eq!(other.subject, copies[0].subject);
    assert_eq!(other.body, copies[0].body);

    // To all but Turkey: the Master's copy names Russia, the players' copies do not. ALL BUT
    // is partial press: not to the observers (issue 24, part 4).
    let sent = w
        .mail(
            FAY,
            "p",
            "SIGNON Rg pwR\nPRESS TO ALL BUT T GREY\nOne left out.\nENDPRESS\n",
        )
        .await;
    let copies: Vec<&Sent> = sent.iter().filter(|s| s.to != FAY && s.to != GM).collect();
    assert_eq!(copies.len(), 5, "five powers, no observer: {sent:#?}");
    assert!(copies.iter().all(|c| c.to != OBS));
    assert_anonymous(&copies, FAY, "Message from an anonymous power in 'g':");
    let master = &to(&sent, GM).body;
    assert!(
        // In board order, not the order the players joined (issue 25, 17).
        master.contains("Grey press from Russia to Austria, England, France, Germany, Italy, the Master in 'g' (only the Master's copy names the sender):"),
        "{master}"
    );
    assert_eq!(to(&sent, GM).subject, copies[0].subject);

    // A grey broadcast: no copy to the sender, the same copy for everyone else, and the
    // archive (HISTORY) keeps the anonymous copy.
    let sent = w
        .mail(
            FAY,
            "p",
            "SIGNON Rg pwR\nBROADCAST GREY\nTo all.\nENDPRESS\n",
        )
        .await;
    assert_eq!(
        sent.iter().filter(|s| s.to == FAY).count(),
        1,
        "the reply only"
    );
    let copies: Vec<&Sent> = sent.iter().filter(|s| s.to != FAY && s.to != GM).collect();
    assert_eq!(copies.len(), 7, "six powers and the observer: {sent:#?}");
    assert_anonymous(&copies, FAY, "Anonymous broadcast in 'g':");
    assert!(to(&sent, GM)
        .body
        .contains("Grey press from Russia to everyone"));
    let sent = w.mail("anyone@example.org", "h", "HISTORY g\n").await;
    let history = &to(&sent, "anyone@example.org").body;
    assert!(history.contains("Anonymous broadcast in 'g':"), "{history}");
    assert!(!history.contains("Russia"), "{history}");
    assert!(!history.contains(FAY), "{history}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn grey_press_goes_with_nothing_from_the_same_mail_that_names_its_sender() {
    let mut w = World::new("grey-together").await;
    start_game(&mut w, GM, "t", "standard", &SEVEN).await;
    w.mail(GM, "grey", "SIGNON Mt gmpass\nSET PRESS GREY\n")
        .await;

    // White press to France and then grey press to France in one mail: both would arrive
    // together, so the grey one is refused.
    let sent = w
        .mail(
            FAY,
            "p",
            "SIGNON Rt pwR\nPRESS TO F\nHello from Russia.\nENDPRESS\nPRESS TO F GREY\nGuess who.\nENDPRESS\n",
        )
        .await;
    let reply = &to(&sent, FAY).body;
    assert!(reply.contains("grey press was not sent"), "{reply}");
    let to_france = find(&sent, BOB, "Press");
    assert_eq!(to_france.len(), 1, "{sent:#?}");
    assert!(!to_france[0].body.contains("Guess who."));

    // Grey first, then white to the same player: the white one is refused.
    let sent = w
        .mail(
            FAY,
            "p",
            "SIGNON Rt pwR\nPRESS TO F GREY\nGuess who.\nENDPRESS\nPRESS TO F\nIt was me.\nENDPRESS\n",
        )
        .await;
    let reply = &to(&sent, FAY).body;
    assert!(reply.contains("this press was not sent"), "{reply}");
    let to_france = find(&sent, BOB, "Press");
    assert_eq!(to_france.len(), 1, "{sent:#?}");
    assert!(to_france[0].body.contains("Guess who."));

    // To different players, both go.
    let sent = w
        .mail(
            FAY,
            "p",
            "SIGNON Rt pwR\nPRESS TO F GREY\nGuess who.\nENDPRESS\nPRESS TO G\nIt was me.\nENDPRESS\n",
        )
        .await;
    assert_eq!(find(&sent, BOB, "Press").len(), 1);
    assert_eq!(find(&sent, CAT, "Press from R").len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_intercepted_grey_message_stays_anonymous_and_narrows_nothing() {
    let mut w = World::new("grey-intercept").await;
    start_game(&mut w, GM, "i", "standard dip_points", &SEVEN).await;
    w.mail(GM, "grey", "SIGNON Mi gmpass\nSET PRESS GREY\n")
        .await;
    support::order(&mut w, "i", DAN, 'I', "INTERCEPT G R").await;
    support::order(&mut w, "i", BOB, 'F', "INTERCEPT R T").await;

    // Russia's grey press to Germany is caught, anonymous; the one also sent to Italy is
    // not shown to Italy again under "Germany and Russia".
    support::order(
        &mut w,
        "i",
        FAY,
        'R',
        "PRESS TO G GREY\nA grey word.\nENDPRESS",
    )
    .await;
    support::order(
        &mut w,
        "i",
        FAY,
        'R',
        "PRESS TO GI GREY\nTo both of you.\nENDPRESS",
    )
    .await;
    // Turkey is protected: grey press between Russia and Turkey is not caught, since that
    // France sees it would tell France it came from Russia.
    support::order(&mut w, "i", "guy@example.org", 'T', "PROTECT").await;
    support::order(
        &mut w,
        "i",
        FAY,
        'R',
        "PRESS TO T GREY\nTo Turkey.\nENDPRESS",
    )
    .await;

    let sent = w.mail(GM, "go", "SIGNON Mi gmpass\nPROCESS!\n").await;
    let caught = find(&sent, DAN, "Intercepted Germany-Russia");
    assert_eq!(caught.len(), 1, "{sent:#?}");
    let body = &caught[0].body;
    let message = body.split("----").nth(1).expect("one message caught");
    assert!(message.contains("A grey word."), "{body}");
    assert!(
        message.contains("Message from an anonymous power in 'i':"),
        "{body}"
    );
    for name in POWERS {
        assert!(!message.contains(name), "{name}: {body}");
    }
    assert!(!body.contains("To both of you."), "{body}");
    let caught = find(&sent, BOB, "Intercepted Russia-Turkey");
    assert_eq!(caught.len(), 1, "{sent:#?}");
    assert!(!caught[0].body.contains("To Turkey."), "{}", caught[0].body);
}

/// "Partial press (`ALL BUT`, lists) never reaches the observers unless the sender names
/// them; HISTORY holds results and broadcasts only" (issue 24, part 4): `PRESS TO ALL BUT G`
/// went to the observers by default, was archived, and HISTORY gave it to Germany and to
/// any stranger.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn partial_press_reaches_no_observer_unnamed_and_stays_out_of_history() {
    let mut w = World::new("partial-press").await;
    start_game(&mut w, GM, "pp", "standard", &SEVEN).await;
    // The observer confirms its address, so that only the press rules keep press from it.
    let watched = w.mail(OBS, "watch", "OBSERVE pp watchpw\n").await;
    w.confirm(OBS, &watched).await;

    let sent = w
        .mail(
            BOB,
            "p",
            "SIGNON Fpp pwF\nPRESS TO ALL BUT G\nLet us take Munich.\nENDPRESS\n",
        )
        .await;
    assert!(
        find(&sent, OBS, "Press").is_empty(),
        "ALL BUT leaves the observers out: {sent:#?}"
    );
    assert!(find(&sent, CAT, "Press").is_empty(), "{sent:#?}");
    assert_eq!(find(&sent, DAN, "Press").len(), 1, "{sent:#?}");
    assert_eq!(find(&sent, GM, "Press").len(), 1, "{sent:#?}");

    // Named, the observers get partial press; it is still not kept for HISTORY.
    let sent = w
        .mail(
            BOB,
            "p",
            "SIGNON Fpp pwF\nPRESS TO IO\nItaly and the gallery only.\nENDPRESS\n",
        )
        .await;
    assert_eq!(find(&sent, OBS, "Press").len(), 1, "{sent:#?}");

    // A broadcast is kept.
    w.mail(
        BOB,
        "b",
        "SIGNON Fpp pwF\nBROADCAST\nHello all.\nENDPRESS\n",
    )
    .await;

    for who in [CAT, "stranger@example.org"] {
        let sent = w.mail(who, "h", "HISTORY pp\n").await;
        let history = &to(&sent, who).body;
        assert!(history.contains("Hello all."), "{history}");
        assert!(!history.contains("Munich"), "{history}");
        assert!(!history.contains("gallery"), "{history}");
    }
}
