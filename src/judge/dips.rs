//! Dip points (the world variant's D.1 and D.2, or any game with the `dip_points` switch):
//! each turn a power's allowance pays for press (1), an interception of all messages
//! between two countries (2), protection of its own messages (1) and standing supports (4
//! each, as `4 DIPS S A Lon` orders).
//!
//! A turn runs from the processing of one movement phase to the processing of the next:
//! the retreats and adjustments after a Fall move belong to the coming Spring's turn. The
//! ledger is part of the game's record, stored in the same transaction as the mail that
//! spends from it, and a spend that the balance cannot pay is refused, so it never goes
//! negative. When the turn's movement phase is processed, the interceptions are delivered
//! and the ledger starts again from the full allowance.

use super::game::Game;
use super::ledger::{Sent, Spend};
use super::Judge;
use crate::envelope::Outgoing;
use crate::game::calendar::PhaseKind;
use crate::game::ids::PowerId;
use crate::game::order::Order;

/// The allowance of a power the map gives none (the world map gives 8 to majors, 5 to
/// minors).
pub const DEFAULT_ALLOWANCE: u32 = 8;

/// What dips buy, each at its price.
pub const PRESS: u32 = 1;
/// An interception of the messages between two countries.
pub const INTERCEPT: u32 = 2;
/// Protection of all a power's messages for the turn.
pub const PROTECT: u32 = 1;
/// A standing support.
pub const STANDING_SUPPORT: u32 = 4;

/// A power's allowance per turn.
pub fn allowance(judge: &Judge, game: &Game, power: PowerId) -> u32 {
    match judge.variant(game).map.power(power).dips {
        0 => DEFAULT_ALLOWANCE,
        n => n,
    }
}

/// Whether the game plays dip points.
pub fn played(judge: &Judge, game: &Game) -> bool {
    judge.rules(game).dip_points
}

/// The standing supports a power has on file now, as order texts.
fn standing_supports(judge: &Judge, game: &Game, power: PowerId) -> Vec<String> {
    let map = judge.map_of(game);
    super::filed::stored(judge, game, power)
        .into_iter()
        .filter(|o| matches!(o, Order::DipSupport { .. }))
        .map(|o| o.canonical(map))
        .collect()
}

/// What a power has spent this turn: purchases and standing supports on file.
pub fn spent(judge: &Judge, game: &Game, power: PowerId) -> Vec<(u32, String)> {
    let mut out: Vec<(u32, String)> = game
        .dips
        .spent
        .iter()
        .filter(|s| s.power == power)
        .map(|s| (s.cost, s.what.clone()))
        .collect();
    out.extend(
        standing_supports(judge, game, power)
            .into_iter()
            .map(|o| (STANDING_SUPPORT, o)),
    );
    out
}

/// A power's dips left this turn after its purchases, before its standing supports.
pub fn left_for_orders(judge: &Judge, game: &Game, power: PowerId) -> u32 {
    let bought: u32 = game
        .dips
        .spent
        .iter()
        .filter(|s| s.power == power)
        .map(|s| s.cost)
        .sum();
    allowance(judge, game, power).saturating_sub(bought)
}

/// A power's dips left this turn.
pub fn balance(judge: &Judge, game: &Game, power: PowerId) -> u32 {
    let used: u32 = spent(judge, game, power).iter().map(|(c, _)| c).sum();
    allowance(judge, game, power).saturating_sub(used)
}

/// Spends `cost` dips for `what`, or says why not (with the balance).
pub fn spend(
    judge: &Judge,
    game: &mut Game,
    power: PowerId,
    cost: u32,
    what: String,
) -> Result<(), String> {
    let left = balance(judge, game, power);
    if left < cost {
        return Err(format!(
            "{what} costs {cost} dip{}, and you have {left} left this turn",
            if cost == 1 { "" } else { "s" }
        ));
    }
    game.dips.spent.push(Spend { power, cost, what });
    Ok(())
}

/// The line every reply to a power shows: its balance and what it bought this turn.
pub fn status_line(judge: &Judge, game: &Game, power: PowerId) -> String {
    let spent = spent(judge, game, power);
    let of = allowance(judge, game, power);
    let left = of.saturating_sub(spent.iter().map(|(c, _)| c).sum());
    if spent.is_empty() {
        format!("Dip points: {left} of {of} left this turn; nothing spent yet.")
    } else {
        let list: Vec<String> = spent
            .iter()
            .map(|(c, what)| format!("{what} ({c})"))
            .collect();
        format!(
            "Dip points: {left} of {of} left this turn; spent on {}.",
            list.join(", ")
        )
    }
}

/// The lines the Master's replies show: every power's balance and the interceptions.
pub fn master_lines(judge: &Judge, game: &Game) -> Vec<String> {
    let map = judge.map_of(game);
    let mut out = vec!["Dip points this turn:".to_string()];
    for seat in &game.seats {
        let Some(p) = seat.power else { continue };
        out.push(format!(
            "  {}: {} of {} left",
            map.power(p).name,
            balance(judge, game, p),
            allowance(judge, game, p)
        ));
    }
    for &(by, a, b) in &game.dips.intercepts {
        out.push(format!(
            "  {} intercepts {} and {}",
            map.power(by).name,
            map.power(a).name,
            map.power(b).name
        ));
    }
    for &p in &game.dips.protected {
        out.push(format!("  {} is protected", map.power(p).name));
    }
    out
}

/// Whether two powers are held by the same player (the same address).
pub fn same_player(game: &Game, a: PowerId, b: PowerId) -> bool {
    match (game.seat_of(a), game.seat_of(b)) {
        (Some(x), Some(y)) => x.member.address.eq_ignore_ascii_case(&y.member.address),
        _ => false,
    }
}

/// Whether an interception by `by` of the messages between `a` and `b` catches a grey
/// message between them. It shows the message as its recipients got it, anonymous, and the
/// interceptor learns only that it passed between the two. So that nothing narrows the
/// sender further, it is not caught when one of the two is protected (protection covers
/// the sender's messages only, so catching it would tell the interceptor that the other
/// one sent it), nor when the interceptor (or its player) got the message itself (seeing it
/// again under "between A and B" would narrow its sender to two).
fn grey_interceptable(
    game: &Game,
    m: &Sent,
    by: PowerId,
    a: PowerId,
    b: PowerId,
    protected: &[PowerId],
) -> bool {
    !protected.contains(&a)
        && !protected.contains(&b)
        && !m.to.iter().any(|&r| r == by || same_player(game, r, by))
}

/// The ledger after a ROLLBACK to the phase `history[to]`. D.1: "All points must be spent in
/// the same turn and may not be stockpiled" — a turn's allowance is spent once, however often
/// its phases are played. So a rollback within the current turn (no movement processed since
/// the target phase) leaves the ledger as it is: what was bought stays bought, messages stay
/// sent and paid for. A rollback into an earlier turn gives that turn's ledger back as it
/// stood when its movement phase was processed (stored in that phase's record); the turns
/// after it are played again from the full allowance. Standing supports are orders, and go
/// with them.
pub fn after_rollback(game: &mut Game, to: usize) {
    let closed = game
        .history
        .iter()
        .skip(to)
        .find(|h| h.before.phase.kind == PhaseKind::Movement);
    if let Some(record) = closed {
        game.dips = record.dips.clone().unwrap_or_default();
    }
}

/// The interceptions of the turn as mails, and a fresh ledger; called when the turn's
/// movement phase is processed.
pub fn close_turn(judge: &Judge, game: &mut Game, code: &str) -> Vec<Outgoing> {
    let ledger = std::mem::take(&mut game.dips);
    let map = judge.map_of(game);
    let mut mails = Vec::new();
    for &(by, a, b) in &ledger.intercepts {
        let Some(seat) = game.seat_of(by) else {
            continue;
        };
        let caught: Vec<&Sent> = ledger
            .messages
            .iter()
            .filter(|m| (m.from == a && m.to.contains(&b)) || (m.from == b && m.to.contains(&a)))
            .filter(|m| !ledger.protected.contains(&m.from))
            .filter(|m| !m.grey || grey_interceptable(game, m, by, a, b, &ledger.protected))
            .collect();
        let (na, nb) = (&map.power(a).name, &map.power(b).name);
        let mut body = vec![
            judge.header(game),
            String::new(),
            format!("Messages between {na} and {nb} intercepted in {code}:"),
        ];
        if caught.is_empty() {
            body.push(String::new());
            body.push("None.".into());
        }
        for m in caught {
            body.push(String::new());
            body.push("----".into());
            body.push(m.body.trim_end().to_string());
        }
        mails.push(Outgoing {
            to: seat.member.address.clone(),
            // Titled with the movement phase whose turn it copies (the game is past it).
            subject: format!("JUDGE:{} - {code} Intercepted {na}-{nb}", game.name),
            body: body.join("\n") + "\n",
            in_reply_to: None,
        });
    }
    mails
}

#[cfg(test)]
mod tests {
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
    fn master(
        j: &Judge,
        games: &mut Games,
        game: &str,
        body: &str,
    ) -> Vec<crate::envelope::Outgoing> {
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
        send(&j, &mut games, CAT, "Gg", "PROTECT");
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
        let text = send(&j, &mut games, CAT, "Gg", "");
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
}
