//! `POST /seat`: the text box, "handled exactly as the body of a mail from that seat's
//! address (same parser, same judge, same reply — shown on the page and also mailed, so
//! the mail record stays whole)" (issue 28). The page writes that mail — From the seat's
//! address, its body the session's SIGNON line and the text — and hands it to the service
//! as if it had come from the inbox; the reply is read back from the outbox.
//!
//! Post/redirect/get: the form's token is good for one post, which does its work once,
//! keeps the reply in the session and answers `303` to `/seat`, where it is shown once; the
//! same token posted again (a reload, a second click) does nothing and is answered
//! "already sent". A session whose seat's password changed since it signed in is signed
//! out with a word, before its stale password could count as a wrong one; a password
//! changed through the box itself becomes the session's.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use serde::Deserialize;

use super::client::{client, key};
use super::error::plain;
use super::said::Said;
use super::sessions::{session, set_cookie, token, Seat, Shown, Spend, SESSION};
use super::signin::{again, seat_of};
use super::view::load;
use super::{Web, WebError};
use crate::judge::password::Sender;
use crate::service::Ingested;

/// What the page says to a form posted a second time.
pub(super) const ALREADY: &str =
    "Already sent: that form was sent once, and nothing was done again.";

/// The text box as posted.
#[derive(Debug, Deserialize)]
pub(super) struct Given {
    #[serde(default)]
    text: String,
    #[serde(default)]
    csrf: String,
}

/// The mail the page writes for `text` from `address`, with its Message-ID.
fn mail(
    web: &Web,
    seat: &Seat,
    game: &str,
    address: &str,
    text: &str,
    client: IpAddr,
) -> (String, Vec<u8>) {
    let id = format!("<web-{}@herald.web>", &token()[..32]);
    let now = web.now();
    // The text's lines as typed, with the line ends a mail has.
    let body: String = text
        .lines()
        .map(|l| format!("{}\r\n", l.trim_end_matches('\r')))
        .collect();
    let raw = format!(
        "Received: from web ([{ip}]) by herald; {date}\r\n\
         From: <{address}>\r\n\
         To: <{judge}>\r\n\
         Subject: from the web\r\n\
         Date: {date}\r\n\
         Message-ID: {id}\r\n\
         MIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\
         Content-Transfer-Encoding: 8bit\r\n\
         \r\n\
         SIGNON {letter}{game} {password}\r\n{body}",
        ip = client,
        date = now.to_rfc2822(),
        judge = web.service.judge.address,
        letter = seat.letter,
        password = seat.password,
    );
    (id, raw.into_bytes())
}

/// The new password a text sets for its own seat, if it has a `SET PASSWORD` line (the
/// last one, as the judge applies them in turn).
fn new_password(text: &str) -> Option<&str> {
    text.lines().rev().find_map(|l| {
        let words: Vec<&str> = l.split_whitespace().collect();
        match words.as_slice() {
            [set, password, new]
                if set.eq_ignore_ascii_case("SET") && password.eq_ignore_ascii_case("PASSWORD") =>
            {
                Some(*new)
            }
            _ => None,
        }
    })
}

/// The answer that signs session `id` out, saying why on the sign-in form.
fn signed_out(web: &Web, id: &str, said: Said) -> Response {
    web.sessions.close(id);
    let mut response = again(said);
    if let Ok(v) = HeaderValue::from_str(&set_cookie(web, SESSION, "", 0)) {
        response.headers_mut().append(header::SET_COOKIE, v);
    }
    response
}

/// Gives `text` to the judge as a mail from `seat` of session `id`, sent from `client`.
async fn give(
    web: &Web,
    id: &str,
    seat: &Seat,
    text: &str,
    client: IpAddr,
) -> Result<Response, WebError> {
    let Some(game) = load(web, &seat.game).await? else {
        return Ok(Redirect::to("/signin").into_response());
    };
    let Some((_, address, hash)) = seat_of(web, &game, seat.letter) else {
        return Ok(Redirect::to("/signin").into_response());
    };
    // The password was changed (by mail, or from another session): the session's would
    // be a wrong one now.
    if hash != seat.stored {
        return Ok(signed_out(web, id, Said::Changed));
    }
    let (mid, raw) = mail(web, seat, &game.name, &address, text, client);
    let now = web.now();
    let outcome = web.service.ingest(&raw, now).await?;
    let reply: Vec<String> = match outcome {
        Ingested::Handled(..) => web
            .service
            .store
            .answers(&mid, &address)
            .await?
            .into_iter()
            .flat_map(|m| {
                super::seat::shown(&m.body)
                    .lines()
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .collect(),
        other => vec![format!("The judge did not answer: {other:?}")],
    };
    let after = load(web, &seat.game)
        .await?
        .and_then(|g| seat_of(web, &g, seat.letter))
        .map(|(_, _, hash)| hash);
    if let Some(changed) = after.filter(|h| *h != hash) {
        // The text changed the seat's password: the session takes the new one, once it
        // checks against the new hash (a run of the client's own allowance).
        let client_key = key(client);
        let sender = Sender {
            key: &client_key,
            holder: true,
        };
        let good = new_password(text).filter(|p| {
            web.service
                .judge
                .passwords
                .check(&changed, p, now, sender)
                .unwrap_or(false)
        });
        match good {
            Some(p) => web.sessions.repass(id, p, &changed),
            None => return Ok(signed_out(web, id, Said::Changed)),
        }
    }
    web.sessions.keep(
        id,
        Shown {
            text: text.to_string(),
            reply,
            note: None,
        },
    );
    Ok(Redirect::to("/seat").into_response())
}

/// `POST /seat`.
pub(super) async fn submit(
    State(web): State<Arc<Web>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Form(given): Form<Given>,
) -> Response {
    let Some((id, seat)) = session(&web, &headers) else {
        return Redirect::to("/signin").into_response();
    };
    match web.sessions.spend(&id, &given.csrf) {
        Spend::Fresh => {}
        Spend::Spent => {
            let note = Shown {
                note: Some(ALREADY.to_string()),
                ..Shown::default()
            };
            web.sessions.keep(&id, note);
            return Redirect::to("/seat").into_response();
        }
        Spend::Unknown => {
            return plain(
                StatusCode::FORBIDDEN,
                "The form has expired: load the page again.\n",
            )
        }
    }
    let client = client(&web, peer, &headers);
    give(&web, &id, &seat, &given.text, client)
        .await
        .unwrap_or_else(IntoResponse::into_response)
}
