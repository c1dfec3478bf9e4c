//! Press as players, the Master and observers send and receive it.

use crate::judge::testkit::{judge, mail, reply, start, started, started_world, GM};

const BOB: &str = "bob@example.org"; // France
const ANN: &str = "ann@example.org"; // England

// Issue 25, 9: "Press is relayed verbatim. Typographic dashes and quotes are flattened
// in press text; normalise command lines only, never what a player wrote to another."
// The order line is read with a plain dash; the press arrives as it was typed, its
// indentation too.
#[test]
fn press_is_relayed_verbatim() {
    let j = judge();
    let mut games = started(&j);
    let written = "It\u{2019}s \u{201C}ours\u{201D} \u{2014} agreed? 1\u{2013}2\n    (indented)\n\u{00AB}\u{00A0}Bien s\u{00FB}r\u{00A0}!\u{00A0}\u{00BB}";
    let h = mail(
        &j,
        &mut games,
        BOB,
        &format!("SIGNON Fg pwF\nA Par \u{2013} Bur\nPRESS TO E\n{written}\nENDPRESS"),
        start(),
    );
    let text = &reply(&h, BOB).body;
    assert!(!text.contains("***"), "{text}");
    assert!(text.contains("A Par - Bur"), "{text}");
    let copy = h.effects.mails.iter().find(|m| m.to == ANN).unwrap();
    assert!(copy.body.contains(written), "{}", copy.body);
}

// Issue 25, 17: an observer's press to the Master was titled "Press from ?", and the
// recipients of `ALL BUT` were listed in the order the players joined. Observers' press
// is titled with their letter, O, and every list of recipients is in board order (the
// map's powers, then the Master, then the observers).
#[test]
fn observer_press_is_titled_and_recipients_are_in_board_order() {
    const OBS: &str = "obs@example.org";
    let j = judge();
    let mut games = started_world(&j);
    mail(&j, &mut games, GM, "SIGNON Mw gmpass\nPROCESS!", start());
    mail(&j, &mut games, OBS, "OBSERVE w watch", start());
    let h = mail(
        &j,
        &mut games,
        OBS,
        "SIGNON Ow watch\nPRESS TO M\nA question.\nENDPRESS",
        start(),
    );
    let to_master = h.effects.mails.iter().find(|m| m.to == GM).unwrap();
    assert_eq!(to_master.subject, "JUDGE:w - S1880M Press from O");
    let pj = "pj@example.org";
    let h = mail(
        &j,
        &mut games,
        pj,
        "SIGNON Jw pwJ\nPRESS TO ALL BUT K\nAll but China.\nENDPRESS\nPRESS TO OCBM\nA list.\nENDPRESS",
        start(),
    );
    let text = &reply(&h, pj).body;
    assert!(
        text.contains("Press sent to GreatBritain, France, Russia, Germany, Austria, Italy, Ottoman, USA, Chile, Brazil, Mexico, Portugal, Spain, Holland, the Master."),
        "{text}"
    );
    assert!(
        text.contains("Press sent to GreatBritain, Chile, the Master, the observers."),
        "{text}"
    );
}

#[test]
fn press_goes_where_the_game_allows() {
    let j = judge();
    let mut games = started(&j);
    let h = mail(
        &j,
        &mut games,
        BOB,
        "SIGNON Fg pwF\nPRESS TO EG\nHello\nENDPRESS",
        start(),
    );
    let to: Vec<&str> = h.effects.mails.iter().map(|m| m.to.as_str()).collect();
    assert!(
        to.contains(&"ann@example.org") && to.contains(&"cat@example.org"),
        "{to:?}"
    );
    let copy = h
        .effects
        .mails
        .iter()
        .find(|m| m.to == "ann@example.org")
        .unwrap();
    assert!(
        copy.body
            .contains("Message from France to England, Germany in 'g':"),
        "{}",
        copy.body
    );
    let h = mail(
        &j,
        &mut games,
        BOB,
        "SIGNON Fg pwF\nPRESS TO E GREY\nPssst\nENDPRESS\nPRESS\nx\nENDPRESS",
        start(),
    );
    let text = &reply(&h, BOB).body;
    assert!(
        text.contains("grey press is not allowed in this game"),
        "{text}"
    );
    assert!(text.contains("PRESS without TO sends nothing"), "{text}");
    mail(
        &j,
        &mut games,
        GM,
        "SIGNON Mg gmpass\nSET PRESS NONE",
        start(),
    );
    let h = mail(
        &j,
        &mut games,
        BOB,
        "SIGNON Fg pwF\nPRESS TO E\nHi\nENDPRESS\nPRESS TO M\nTo the GM\nENDPRESS",
        start(),
    );
    let text = &reply(&h, BOB).body;
    assert!(text.contains("press is off in this game"), "{text}");
    assert!(h
        .effects
        .mails
        .iter()
        .any(|m| m.to == GM && m.body.contains("To the GM")));
}

// Issue 37: "A PRESS line's unknown words are dropped silently ... refuse them with a clear
// error naming the accepted words." njudge's `PRESS TO ALL BUT GO FAKE BROADCAST` has FAKE,
// which herald does not do: the press is not sent, its text is not read as orders, and the
// reply names the word and the words a PRESS line takes.
#[test]
fn a_press_line_with_a_word_it_does_not_know_is_refused() {
    let j = judge();
    let mut games = started(&j);
    let h = mail(
        &j,
        &mut games,
        BOB,
        "SIGNON Fg pwF\nPRESS TO E FAKE\nA Par-Bur is my plan.\nENDPRESS\nA Mar-Spa",
        start(),
    );
    let text = &reply(&h, BOB).body;
    assert!(
        text.contains("'FAKE' is no press word; a PRESS or BROADCAST line takes TO <letters>"),
        "{text}"
    );
    assert!(text.contains("  | A Par-Bur is my plan."), "{text}");
    assert!(text.contains("  A Mar - Spa\n"), "{text}");
    assert!(
        !h.effects.mails.iter().any(|m| m.to == ANN),
        "no press went"
    );
    let g = &games["g"];
    let filed: Vec<String> = g.orders[&2]
        .orders
        .iter()
        .map(|o| o.canonical(j.map_of(g)))
        .collect();
    assert_eq!(filed, ["A Mar - Spa"]);
}
