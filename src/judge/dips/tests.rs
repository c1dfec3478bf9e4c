//! Dip points against the rule text (D.1, D.2), without SQLite or mail.

use crate::judge::testkit::{judge, mail, reply, start, started_dips, started_world, GM};
use crate::judge::{Games, Judge};

const ANN: &str = "ann@example.org"; // England (standard), GreatBritain, France, Chile (world)
const CAT: &str = "cat@example.org"; // Germany
const EVE: &str = "eve@example.org"; // Austria
const FAY: &str = "fay@example.org"; // Russia

/// A power's mail (signed on to game `game` with its letter) and the reply to it.
fn send(j: &Judge, games: &mut Games, from: &str, who: &str, body: &str) -> String {
    let h = mail(
        j,
        games,
        from,
        &format!("SIGNON {who} pw{}\n{body}", &who[..1]),
        start(),
    );
    reply(&h, from).body.clone()
}

/// The Master's mail to game `game`; every mail it sends.
fn master(j: &Judge, games: &mut Games, game: &str, body: &str) -> Vec<crate::envelope::Outgoing> {
    let h = mail(
        j,
        games,
        GM,
        &format!("SIGNON M{game} gmpass\n{body}"),
        start(),
    );
    assert!(
        !reply(&h, GM).body.contains("***"),
        "{}",
        reply(&h, GM).body
    );
    h.effects.mails
}

fn phase(j: &Judge, games: &Games, game: &str) -> String {
    let g = &games[game];
    j.variant(g)
        .calendar
        .code(g.position.as_ref().unwrap().phase)
}

fn press(to: char, text: &str) -> String {
    format!("PRESS TO {to}\n{text}\nENDPRESS")
}

/// Standard game `g` with dip points played to the Fall 1901 retreats: Austria dislodges
/// the Italian army in Venice and Russia takes Rumania, so Winter 1901 has adjustments.
fn at_fall_retreats(j: &Judge) -> Games {
    let mut games = started_dips(j);
    send(j, &mut games, EVE, "Ag", "A Vie-Tyr");
    master(j, &mut games, "g", "PROCESS!");
    send(j, &mut games, EVE, "Ag", "F Tri-Ven\nA Tyr S F Tri-Ven");
    send(j, &mut games, FAY, "Rg", "F Sev-Rum");
    master(j, &mut games, "g", "PROCESS!");
    assert_eq!(phase(j, &games, "g"), "F1901R");
    games
}

// D.1: "All points must be spent in the same turn and may not be stockpiled." A turn runs
// from one movement to the next, so the Fall retreats and the Winter adjustments belong
// to Spring 1902's: a ROLLBACK to either keeps what was bought in the turn.
#[test]
fn a_rollback_within_the_turn_keeps_what_was_bought() {
    let j = judge();
    let mut games = at_fall_retreats(&j);
    send(&j, &mut games, CAT, "Gg", "PROTECT");
    send(&j, &mut games, ANN, "Eg", "INTERCEPT G R");
    send(
        &j,
        &mut games,
        CAT,
        "Gg",
        &press('R', "Sent in the retreats."),
    );
    master(&j, &mut games, "g", "PROCESS!");
    assert_eq!(phase(&j, &games, "g"), "W1901A");
    send(
        &j,
        &mut games,
        CAT,
        "Gg",
        &press('R', "Sent in the winter."),
    );
    master(&j, &mut games, "g", "PROCESS!");
    assert_eq!(phase(&j, &games, "g"), "S1902M");
    send(
        &j,
        &mut games,
        CAT,
        "Gg",
        &press('R', "Sent in the spring."),
    );
    for back in ["W1901A", "F1901R"] {
        master(&j, &mut games, "g", &format!("ROLLBACK {back}"));
        let text = send(&j, &mut games, CAT, "Gg", "");
        assert!(
            text.contains("Dip points: 4 of 8 left this turn; spent on PROTECT (1), press to Russia (1), press to Russia (1), press to Russia (1)."),
            "after ROLLBACK {back}: {text}"
        );
        let text = send(&j, &mut games, ANN, "Eg", "");
        assert!(
            text.contains(
                "Dip points: 6 of 8 left this turn; spent on INTERCEPT Germany Russia (2)."
            ),
            "after ROLLBACK {back}: {text}"
        );
    }
    // Germany is still protected: its message after the rollback is not copied to England.
    send(
        &j,
        &mut games,
        CAT,
        "Gg",
        &press('R', "Sent after the rollback."),
    );
    master(&j, &mut games, "g", "PROCESS!");
    master(&j, &mut games, "g", "PROCESS!");
    assert_eq!(phase(&j, &games, "g"), "S1902M");
    let mails = master(&j, &mut games, "g", "PROCESS!");
    let caught = mails
        .iter()
        .find(|m| m.to == ANN && m.subject.contains("Intercepted Germany-Russia"))
        .unwrap();
    assert!(caught.body.contains("None."), "{}", caught.body);
}

// D.1 again: a power spends at most its allowance in a turn. A ROLLBACK into an earlier
// turn (here to the movement that closed it) gives that turn back as it was when it was
// processed: what was bought stays bought, and the interceptions go out again when it is
// processed again.
#[test]
fn a_rollback_into_an_earlier_turn_restores_its_ledger() {
    let j = judge();
    let mut games = started_dips(&j);
    // Austria's protection is bought in the turn too (it covers Austria's messages only).
    send(&j, &mut games, EVE, "Ag", "PROTECT");
    send(&j, &mut games, ANN, "Eg", "INTERCEPT G R");
    for i in 0..5 {
        send(
            &j,
            &mut games,
            FAY,
            "Rg",
            &press('G', &format!("Russia {i}.")),
        );
    }
    master(&j, &mut games, "g", "PROCESS!");
    assert_eq!(phase(&j, &games, "g"), "F1901M");
    send(&j, &mut games, FAY, "Rg", &press('G', "In the fall."));
    master(&j, &mut games, "g", "ROLLBACK S1901M");
    let text = send(&j, &mut games, FAY, "Rg", &press('G', "Sixth."));
    assert!(text.contains("Dip points: 2 of 8 left this turn"), "{text}");
    for i in 0..3 {
        send(
            &j,
            &mut games,
            FAY,
            "Rg",
            &press('G', &format!("More {i}.")),
        );
    }
    let text = send(&j, &mut games, FAY, "Rg", "");
    assert!(
        text.contains("Dip points: 0 of 8 left this turn"),
        "no 9th dip: {text}"
    );
    let text = send(&j, &mut games, EVE, "Ag", "");
    assert!(text.contains("spent on PROTECT (1)"), "{text}");
    let mails = master(&j, &mut games, "g", "PROCESS!");
    let caught = mails
        .iter()
        .find(|m| m.to == ANN && m.subject.contains("Intercepted Germany-Russia"))
        .unwrap();
    for line in ["Russia 0.", "Russia 4.", "Sixth.", "More 0."] {
        assert!(caught.body.contains(line), "{line}: {}", caught.body);
    }
    assert!(!caught.body.contains("In the fall."), "{}", caught.body);
}

// "4 Dips to support a unit that is standing" and "1 Dip to send a message": a mail's
// purchases are paid for in the order it gives them.
#[test]
fn spending_is_charged_in_line_order() {
    let j = judge();
    let mut games = started_world(&j);
    master(&j, &mut games, "w", "PROCESS!");
    assert_eq!(phase(&j, &games, "w"), "S1880M");
    let text = send(
        &j,
        &mut games,
        "pj@example.org",
        "Jw",
        &format!(
            "A Osa - Nowhere\n4 DIPS S F Tok\n{}\n{}\nA Osa H",
            press('K', "First."),
            press('K', "Second.")
        ),
    );
    assert!(text.contains("  4 DIPS S F Tok\n"), "{text}");
    // Orders filed before the press and after it: a refused line stays marked.
    assert!(text.contains("  A Osa H\n"), "{text}");
    assert!(
        text.contains("The lines marked *** were refused and ignored"),
        "{text}"
    );
    assert!(!text.contains("a standing support costs"), "{text}");
    assert!(text.contains("Press sent to China."), "{text}");
    assert!(
        text.contains("costs 1 dip, and you have 0 left this turn: the press was not sent"),
        "{text}"
    );
    assert!(text.contains("Dip points: 0 of 5 left this turn"), "{text}");
}

// Interceptions copy the messages of the turn whose movement is processed: the mail for
// Spring is titled with Spring, not with the phase that follows.
#[test]
fn interceptions_are_titled_with_their_turn() {
    let j = judge();
    let mut games = started_dips(&j);
    send(&j, &mut games, ANN, "Eg", "INTERCEPT G R");
    let mails = master(&j, &mut games, "g", "PROCESS!");
    let caught = mails
        .iter()
        .find(|m| m.to == ANN && m.subject.contains("Intercepted"))
        .unwrap();
    assert_eq!(
        caught.subject,
        "JUDGE:g - S1901M Intercepted Germany-Russia"
    );
    assert!(
        caught.body.contains("intercepted in S1901M"),
        "{}",
        caught.body
    );
}

// D.2: "1 Dip to send a message to any number of countries." Observers (and the Master)
// are no countries: press that reaches only them is free.
#[test]
fn press_to_observers_only_is_free() {
    let j = judge();
    let mut games = started_dips(&j);
    mail(
        &j,
        &mut games,
        "obs@example.org",
        "OBSERVE g watch",
        start(),
    );
    let text = send(&j, &mut games, CAT, "Gg", &press('O', "For the gallery."));
    assert!(text.contains("Press sent to the observers."), "{text}");
    assert!(
        text.contains("Dip points: 8 of 8 left this turn; nothing spent yet."),
        "{text}"
    );
    let text = send(
        &j,
        &mut games,
        CAT,
        "Gg",
        "PRESS TO OR\nAnd Russia.\nENDPRESS",
    );
    assert!(text.contains("Dip points: 7 of 8 left this turn"), "{text}");
}

// D.2: "1 Dip to send a message to any number of countries." A player may observe her own
// game from her own address, and press "to the observers" is free: so a Japan with no dips
// left reached Great Britain's player that way, unpaid and out of reach of INTERCEPT and
// PROTECT (issue 25, 1). Press to the observers is for the gallery: it reaches no player of
// the game, whatever else the address does; the other observers get it, the sender's reply
// is the same, and HISTORY does not show it.
#[test]
fn press_to_the_observers_reaches_no_player_of_the_game() {
    const PJ: &str = "pj@example.org"; // Japan
    const OBS: &str = "obs@example.org";
    let j = judge();
    let mut games = started_world(&j);
    master(&j, &mut games, "w", "PROCESS!");
    assert_eq!(phase(&j, &games, "w"), "S1880M");
    mail(&j, &mut games, ANN, "OBSERVE w annwatch", start());
    mail(&j, &mut games, OBS, "OBSERVE w watch", start());
    assert!(games["w"].observers.iter().any(|o| o.address == ANN));
    for i in 0..5 {
        send(&j, &mut games, PJ, "Jw", &press('K', &format!("Note {i}.")));
    }
    let h = mail(
        &j,
        &mut games,
        PJ,
        "SIGNON Jw pwJ\nPRESS TO O\nFor Britain's eyes only.\nENDPRESS",
        start(),
    );
    let text = &reply(&h, PJ).body;
    assert!(text.contains("Press sent to the observers."), "{text}");
    assert!(text.contains("Dip points: 0 of 5 left this turn"), "{text}");
    let got = |to: &str| {
        h.effects
            .mails
            .iter()
            .any(|m| m.to == to && m.body.contains("For Britain's eyes only."))
    };
    assert!(got(OBS), "the gallery gets it: {:#?}", h.effects.mails);
    assert!(
        !got(ANN),
        "Great Britain's player gets no unpaid press: {:#?}",
        h.effects.mails
    );
    for who in [ANN, "stranger@example.org"] {
        let h = mail(&j, &mut games, who, "HISTORY w", start());
        let text = &reply(&h, who).body;
        assert!(!text.contains("For Britain's eyes only."), "{text}");
    }
}

// D.2: "1 Dip to protect your messages from interception." A power's messages are those it
// sends and those it receives, and white and grey press are protected alike: with England
// unprotected and Germany protected, France's interception of England and Germany got
// England's white message to Germany but not its grey one (issue 25, 2). Now an
// interception copies no message whose sender or any recipient bought protection; a message
// between two unprotected powers is still copied.
#[test]
fn protection_covers_messages_sent_and_received_white_and_grey_alike() {
    const BOB: &str = "bob@example.org"; // France
    const DAN: &str = "dan@example.org"; // Italy
    let j = judge();
    let mut games = started_dips(&j);
    master(&j, &mut games, "g", "SET PRESS GREY");
    send(&j, &mut games, CAT, "Gg", "PROTECT");
    send(&j, &mut games, BOB, "Fg", "INTERCEPT E G");
    send(&j, &mut games, DAN, "Ig", "INTERCEPT E R");
    for body in [
        press('G', "White to Germany."),
        "PRESS TO G GREY\nGrey to Germany.\nENDPRESS".to_string(),
        "PRESS TO GR\nTo Germany and Russia.\nENDPRESS".to_string(),
        "PRESS TO GR GREY\nGrey to Germany and Russia.\nENDPRESS".to_string(),
        press('R', "Only to Russia."),
    ] {
        let text = send(&j, &mut games, ANN, "Eg", &body);
        assert!(!text.contains("***"), "{text}");
    }
    let text = send(
        &j,
        &mut games,
        CAT,
        "Gg",
        &press('E', "Germany to England."),
    );
    assert!(!text.contains("***"), "{text}");
    let mails = master(&j, &mut games, "g", "PROCESS!");
    let caught = |to: &str, what: &str| {
        mails
            .iter()
            .find(|m| m.to == to && m.subject.contains(what))
            .map(|m| m.body.clone())
            .unwrap_or_else(|| panic!("no {what} to {to}: {mails:#?}"))
    };
    let france = caught(BOB, "Intercepted England-Germany");
    assert!(france.contains("None."), "{france}");
    let italy = caught(DAN, "Intercepted England-Russia");
    assert!(italy.contains("Only to Russia."), "{italy}");
    for protected in ["To Germany and Russia.", "Grey to Germany and Russia."] {
        assert!(!italy.contains(protected), "{protected}: {italy}");
    }
}

// Issue 37: "A player holding two countries gets interception copies without being told
// which of her countries bought each one." Ann plays Great Britain, France and Chile in
// the world game: each copy names the country that bought it.
#[test]
fn an_interception_copy_names_the_country_that_bought_it() {
    let j = judge();
    let mut games = started_world(&j);
    master(&j, &mut games, "w", "PROCESS!");
    assert_eq!(phase(&j, &games, "w"), "S1880M");
    send(&j, &mut games, ANN, "Fw", "INTERCEPT G R");
    send(&j, &mut games, ANN, "Cw", "INTERCEPT G T");
    let mails = master(&j, &mut games, "w", "PROCESS!");
    let copies: Vec<_> = mails
        .iter()
        .filter(|m| m.to == ANN && m.subject.contains("Intercepted"))
        .collect();
    assert_eq!(copies.len(), 2, "{copies:#?}");
    let map = j.map_of(&games["w"]);
    let name = |letter: char| {
        map.powers
            .iter()
            .find(|p| p.letter == letter)
            .unwrap()
            .name
            .clone()
    };
    for (other, buyer) in [('R', "France"), ('T', "Chile")] {
        let pair = format!("Intercepted {}-{}", name('G'), name(other));
        let copy = copies
            .iter()
            .find(|m| m.subject.ends_with(&pair))
            .unwrap_or_else(|| panic!("{pair}: {copies:#?}"));
        assert!(
            copy.body.contains(&format!("(bought by {buyer}):")),
            "{}",
            copy.body
        );
    }
}
