//! `POST /seat`: the text box, "handled exactly as the body of a mail from that seat's
//! address (same parser, same judge, same reply — shown on the page and also mailed, so
//! the mail record stays whole)" (issue 28). The page writes that mail — From the seat's
//! address, its body the session's SIGNON line and the text — and hands it to the service
//! as if it had come from the inbox; the reply is read back from the outbox.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use serde::Deserialize;

use super::error::plain;
use super::seat::render;
use super::sessions::{same, token, viewer, Seat};
use super::signin::seat_of;
use super::view::load;
use super::{Web, WebError};
use crate::service::Ingested;

/// The text box as posted.
#[derive(Debug, Deserialize)]
pub(super) struct Given {
    text: String,
    csrf: String,
}

/// The mail the page writes for `text` from `address`, with its Message-ID.
fn mail(
    web: &Web,
    seat: &Seat,
    game: &str,
    address: &str,
    text: &str,
    peer: SocketAddr,
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
        ip = peer.ip(),
        date = now.to_rfc2822(),
        judge = web.service.judge.address,
        letter = seat.letter,
        password = seat.password,
    );
    (id, raw.into_bytes())
}

async fn give(web: &Web, seat: &Seat, text: &str, peer: SocketAddr) -> Result<Response, WebError> {
    let Some(stored) = load(web, &seat.game).await? else {
        return Ok(Redirect::to("/signin").into_response());
    };
    let Some((_, address, _)) = seat_of(web, &stored.game, seat.letter) else {
        return Ok(Redirect::to("/signin").into_response());
    };
    let (id, raw) = mail(web, seat, &stored.game.name, &address, text, peer);
    let outcome = web.service.ingest(&raw, web.now()).await?;
    let reply: Vec<String> = match outcome {
        Ingested::Handled(..) => web
            .service
            .store
            .answers(&id, &address)
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
    render(web, seat, Some((text, reply))).await
}

/// `POST /seat`.
pub(super) async fn submit(
    State(web): State<Arc<Web>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Form(given): Form<Given>,
) -> Response {
    let Some(seat) = viewer(&web, &headers) else {
        return Redirect::to("/signin").into_response();
    };
    if !same(&seat.csrf, &given.csrf) {
        return plain(
            StatusCode::FORBIDDEN,
            "The form has expired: load the page again.\n",
        );
    }
    give(&web, &seat, &given.text, peer)
        .await
        .unwrap_or_else(IntoResponse::into_response)
}
