//! What an address that confirmed late is told of the games it is in (issue 36, point 4: "A
//! player who confirms late gets what she missed that matters: the start notice (power,
//! board) or the latest results"). The mail held back before it confirmed was counted, not
//! kept; this says where the address stands now, with the board as it is.

use super::game::{Game, Status};
use super::{deadline, pictures, Judge};
use crate::envelope::Outgoing;

/// The mail to `address`, just confirmed, about `game`, where it is the Master or holds a
/// seat: its power and password form, the phase, the deadline, and the board. None when the
/// address has no place in the game or the game has not started.
pub fn caught_up(judge: &Judge, game: &Game, address: &str) -> Option<Outgoing> {
    let is_master = game.master.address.eq_ignore_ascii_case(address);
    let seat = game
        .seats
        .iter()
        .find(|s| s.member.address.eq_ignore_ascii_case(address));
    if !is_master && seat.is_none() {
        return None;
    }
    let pos = game.position.as_ref()?;
    if !matches!(game.status, Status::Running | Status::Paused) {
        return None;
    }
    let variant = judge.variant(game);
    let map = judge.map_of(game);
    let mut lines = vec![format!(
        "This address has confirmed. While it had not, herald held back the mail of game '{}'; this is where the game stands now.",
        game.name
    )];
    lines.push(String::new());
    if let Some(p) = seat.and_then(|s| s.power) {
        let (name, letter) = (&map.power(p).name, map.power(p).letter);
        lines.push(format!(
            "You play {name} ({letter}): sign on with SIGNON {letter}{} <your password>.",
            game.name
        ));
    } else if is_master {
        lines.push(format!(
            "You are its Master: sign on with SIGNON M{} <your password>.",
            game.name
        ));
    }
    lines.push(format!(
        "The game is at {} ({}).",
        variant.calendar.show(pos.phase),
        game.status.word()
    ));
    if let Some(d) = game.deadline.filter(|_| game.status == Status::Running) {
        let tz = judge.zone_for(game, address);
        lines.push(format!(
            "The deadline for orders is {}.",
            deadline::show(d, tz)
        ));
    }
    lines.push(format!(
        "The results so far: HISTORY {}. The board is attached.",
        game.name
    ));
    let mut mail = judge.notice(game, address, "Where The Game Stands", &lines);
    mail.attachments = pictures::game_picture(judge, game, false);
    Some(mail)
}
