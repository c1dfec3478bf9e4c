//! `/seat`: the signed-in page. It shows the seat's orders on file, the text box that takes
//! the mail language, and what was mailed to the seat's address about this game (its
//! replies, press and private results) — never another seat's.

use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Serialize;

use super::html::fresh;
use super::sessions::{session, Seat, Shown};
use super::signin::seat_of;
use super::view::load;
use super::{Web, WebError};
use crate::game::ids::PowerId;
use crate::judge::{deadline, orders};

/// The mails shown at most.
const MAILS: i64 = 20;

/// One mail shown.
#[derive(Serialize)]
struct Mail {
    at: String,
    subject: String,
    body: String,
}

/// Renders the signed-in page of session `id` as `seat`, with the answer to what it last
/// gave, if not shown yet; its form carries a new one-time token.
pub(super) async fn render(
    web: &Web,
    id: &str,
    seat: &Seat,
    given: Option<Shown>,
) -> Result<Response, WebError> {
    let Some(game) = load(web, &seat.game).await? else {
        return Ok(Redirect::to("/signin").into_response());
    };
    let game = &game;
    let judge = &web.service.judge;
    let Some((seat_name, address, _)) = seat_of(web, game, seat.letter) else {
        return Ok(Redirect::to("/signin").into_response());
    };
    let map = judge.map_of(game);
    let power = map
        .powers
        .iter()
        .position(|p| p.letter == seat.letter)
        .and_then(|i| u8::try_from(i).ok())
        .map(PowerId);
    let (on_file, status) = match power {
        Some(p) if game.position.is_some() => orders::echo(judge, game, p),
        _ => (Vec::new(), String::new()),
    };
    let prefix = format!("JUDGE:{} - ", game.name);
    let mails: Vec<Mail> = web
        .service
        .store
        .mailed_to(&address, &prefix, MAILS)
        .await?
        .into_iter()
        .map(|m| Mail {
            at: chrono::DateTime::from_timestamp(m.created, 0)
                .map(|t| deadline::show(t, game.settings.zone))
                .unwrap_or_default(),
            subject: m.subject,
            body: shown(&m.body).to_string(),
        })
        .collect();
    // Issue 36 (N14): the page says, once, how results come by mail, instead of the mail's
    // request to reply.
    let unconfirmed = !web.service.store.is_confirmed(&address).await?;
    let variant = judge.variant(game);
    let (text, reply, note) = match given {
        Some(g) => (Some(g.text), Some(g.reply), g.note),
        None => (None, None, None),
    };
    let html = web.templates.render(
        "seat.html",
        minijinja::context! {
            title => format!("{} — {seat_name}", game.name),
            signed_in => format!("{}: {seat_name}", game.name),
            unconfirmed,
            name => &game.name,
            seat => &seat_name,
            phase => game.position.as_ref().map(|p| variant.calendar.show(p.phase)),
            deadline => game.deadline.map(|t| deadline::show(t, game.settings.zone)),
            on_file, status,
            mails,
            text, reply, note,
            once => web.sessions.form(id),
            csrf => &seat.csrf,
        },
    )?;
    Ok(fresh(html))
}

/// What the page shows of a mail herald sent: all but its request to confirm the address
/// (issue 36, N14: "the web page never shows the mail footer"), which asks for a reply to
/// that mail and makes no sense on a page. The request is the mail's end from its last `--`
/// line, carrying the address's code (`confirm-…`).
pub(super) fn shown(body: &str) -> &str {
    let mut last = None;
    let mut at = 0;
    for line in body.split_inclusive('\n') {
        if line.trim_end() == "--" {
            last = Some(at);
        }
        at += line.len();
    }
    match last {
        Some(cut) if body[cut..].to_ascii_lowercase().contains("confirm-") => {
            body[..cut].trim_end()
        }
        _ => body,
    }
}

/// `GET /seat`: the page, with what the last post gave (once).
pub(super) async fn page(State(web): State<Arc<Web>>, headers: HeaderMap) -> Response {
    let Some((id, seat)) = session(&web, &headers) else {
        return Redirect::to("/signin").into_response();
    };
    let given = web.sessions.take(&id);
    render(&web, &id, &seat, given)
        .await
        .unwrap_or_else(IntoResponse::into_response)
}

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn the_request_to_confirm_is_not_shown() {
        let mail = "Orders received.\n\n--\nThis address (e@x) has not confirmed\nTo get them, reply to this mail\n\n    confirm-0123abcd\n";
        assert_eq!(shown(mail), "Orders received.");
        // A "--" line that is not the request stays.
        let press = "Press sent.\n--\nsigned, Austria\n";
        assert_eq!(shown(press), press);
    }
}
