//! Dip points (the world variant's D.1 and D.2, or any game with the `dip_points` switch):
//! each turn a power's allowance pays for press (1), an interception of all messages
//! between two countries (2), protection of its own messages (1) and standing supports (4
//! each, as `4 DIPS S A Lon` orders). Protection covers the messages a power sends and those
//! it receives.
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

/// The allowance and prices are the game's own ([`crate::game::dips`]), shared with
/// `herald datc`.
pub use crate::game::dips::{DEFAULT_ALLOWANCE, INTERCEPT, PRESS, PROTECT, STANDING_SUPPORT};

/// A power's allowance per turn.
pub fn allowance(judge: &Judge, game: &Game, power: PowerId) -> u32 {
    crate::game::dips::allowance(&judge.variant(game).map, power)
}

/// Whether the game plays dip points.
pub fn played(judge: &Judge, game: &Game) -> bool {
    judge.rules(game).dip_points
}

/// The standing supports a power has on file now, as order texts.
fn standing_supports(judge: &Judge, game: &Game, power: PowerId) -> Vec<String> {
    let map = judge.map_of(game);
    super::filed::stored(judge, game, power)
        .iter()
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

/// Why a purchase was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpendError {
    /// The balance is short of the price.
    #[error("{what} costs {cost} dip{}, and you have {left} left this turn", plural(.cost))]
    Short {
        /// What was to be bought.
        what: String,
        /// Its price.
        cost: u32,
        /// The balance.
        left: u32,
    },
}

/// The plural ending of a number of dips.
fn plural(n: &u32) -> &'static str {
    if *n == 1 {
        ""
    } else {
        "s"
    }
}

/// Spends `cost` dips for `what`, or says why not (with the balance).
pub fn spend(
    judge: &Judge,
    game: &mut Game,
    power: PowerId,
    cost: u32,
    what: String,
) -> Result<(), SpendError> {
    let left = balance(judge, game, power);
    if left < cost {
        return Err(SpendError::Short { what, cost, left });
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

/// Whether two powers are held by the same player now (the same address). A seat
/// abandoned (resigned, ejected, given up) keeps its last address but is nobody's: its
/// power is played by no one until it is taken over.
pub fn same_player(game: &Game, a: PowerId, b: PowerId) -> bool {
    match (
        super::partners::holder(game, a),
        super::partners::holder(game, b),
    ) {
        (Some(x), Some(y)) => x.eq_ignore_ascii_case(y),
        _ => false,
    }
}

/// Whether a message is protected from interception. D.2: "1 Dip to protect your messages
/// from interception": a power's messages are those it sends and those it receives, so a
/// message is protected when its sender or any of its recipients bought protection, white
/// and grey alike. Whether a message between two countries is caught so depends only on who
/// took part in it, never on which of them sent it: an interception that catches a grey
/// message learns nothing of its sender from being allowed to.
fn protected(m: &Sent, protected: &[PowerId]) -> bool {
    protected.contains(&m.from) || m.to.iter().any(|r| protected.contains(r))
}

/// Whether an interception by `by` shows a grey message it caught. It shows the message as
/// its recipients got it, anonymous, and the interceptor learns only that it passed between
/// the two countries; so it is not shown to an interceptor (or its player) who got the
/// message itself, since seeing it again under "between A and B" would narrow its sender to
/// two.
fn grey_shown(game: &Game, m: &Sent, by: PowerId) -> bool {
    !m.to.iter().any(|&r| r == by || same_player(game, r, by))
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
            .filter(|m| !protected(m, &ledger.protected))
            .filter(|m| !m.grey || grey_shown(game, m, by))
            .collect();
        let (na, nb) = (&map.power(a).name, &map.power(b).name);
        // A player of several countries is told which of them bought it (issue 37).
        let buyer = &map.power(by).name;
        let mut body = vec![
            judge.header(game),
            String::new(),
            format!("Messages between {na} and {nb} intercepted in {code} (bought by {buyer}):"),
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
            attachments: Vec::new(),
        });
    }
    mails
}

#[cfg(test)]
mod tests;
