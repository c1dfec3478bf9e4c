//! `/signin` and `/signout`: a player or Master signs in with the game, the power (or `M`
//! for the Master) and the password they use in mail. The password is checked as a mail's
//! SIGNON is, within the same limits on guessing: the same per-game locks and wrong-password
//! record (a web guess counts toward locking the seat), the same argon2 allowance (a web
//! guess is a stranger's, counted by the client's address). Every form carries a CSRF
//! token; before sign-in it is the one in the form's own cookie.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use chrono::{DateTime, Utc};
use serde::Deserialize;

use super::error::plain;
use super::html::fresh;
use super::sessions::{cookie, lifetime, same, set_cookie, token, Seat, FORM, SESSION};
use super::{Web, WebError};
use crate::judge::password::{sender_key, Sender};
use crate::judge::Game;

/// The sign-in form as posted.
#[derive(Debug, Deserialize)]
pub(super) struct SignIn {
    game: String,
    power: String,
    password: String,
    csrf: String,
}

/// A signed-in session's form that only carries its token.
#[derive(Debug, Deserialize)]
pub(super) struct Token {
    csrf: String,
}

/// The seat a power letter (or `M`) names in `game`: its name as the guard counts it, the
/// address that holds it and its stored password.
pub(super) fn seat_of(web: &Web, game: &Game, letter: char) -> Option<(String, String, String)> {
    if letter == 'M' {
        return Some((
            "the Master".into(),
            game.master.address.clone(),
            game.master.password.clone(),
        ));
    }
    let map = web.service.judge.map_of(game);
    let (i, power) = map
        .powers
        .iter()
        .enumerate()
        .find(|(_, p)| p.letter.eq_ignore_ascii_case(&letter))?;
    let seat = game.seats.iter().find(|s| {
        s.power.is_some_and(|p| usize::from(p.0) == i)
            && s.state != crate::judge::game::SeatState::Abandoned
    })?;
    Some((
        power.name.clone(),
        seat.member.address.clone(),
        seat.member.password.clone(),
    ))
}

/// Renders the sign-in form with `said` (a refusal), setting the form's token cookie.
fn form_page(web: &Web, headers: &HeaderMap, said: Option<&str>) -> Result<Response, WebError> {
    let csrf = cookie(headers, FORM)
        .filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()))
        .map_or_else(token, str::to_string);
    let html = web.templates.render(
        "signin.html",
        minijinja::context! { title => "Sign in", csrf => &csrf, said },
    )?;
    let mut response = fresh(html);
    if let Ok(v) = HeaderValue::from_str(&set_cookie(web, FORM, &csrf, 3600)) {
        response.headers_mut().append(header::SET_COOKIE, v);
    }
    Ok(response)
}

/// `GET /signin`.
pub(super) async fn form(State(web): State<Arc<Web>>, headers: HeaderMap) -> Response {
    form_page(&web, &headers, None).unwrap_or_else(IntoResponse::into_response)
}

/// Checks a password for a seat within the mail path's limits; records a wrong one.
async fn check(
    web: &Web,
    game_name: &str,
    letter: char,
    password: &str,
    key: &str,
    now: DateTime<Utc>,
) -> Result<Result<(), &'static str>, WebError> {
    const WRONG: &str = "No such game or seat, or a wrong password.";
    let mut tx = web.service.store.begin().await?;
    let mut games: Vec<Game> = tx.games_named(&[game_name.to_string()]).await?;
    let Some(game) = games.first_mut() else {
        tx.rollback().await?;
        return Ok(Err(WRONG));
    };
    let Some((seat, holder, stored)) = seat_of(web, game, letter) else {
        tx.rollback().await?;
        return Ok(Err(WRONG));
    };
    if game.signon_guard.locked(&seat, now).is_some() {
        tx.rollback().await?;
        return Ok(Err(
            "Too many wrong passwords for this seat: try again later.",
        ));
    }
    let sender = Sender { key, holder: false };
    let outcome = match web
        .service
        .judge
        .passwords
        .check(&stored, password, now, sender)
    {
        Err(_) => Err("Too many password checks this hour: try again later."),
        Ok(true) => Ok(()),
        Ok(false) => {
            let tripped = game.signon_guard.fail(&seat, key, &holder, now);
            let judge = &web.service.judge;
            for t in tripped {
                let lines = vec![format!(
                    "Too many wrong passwords in game '{}' (the last on the web): sign-on is locked until {}.",
                    game.name,
                    crate::judge::deadline::show(t.lock.until, game.settings.zone)
                )];
                for to in t.holders.iter().chain([&game.master.address]) {
                    tx.queue(
                        &judge.notice(game, to, "Sign-on locked", &lines),
                        now.timestamp(),
                    )
                    .await?;
                }
            }
            let due = judge.next_due(game).map(|d| d.timestamp());
            tx.save_game(&game.name, game.status.word(), &*game, due, now.timestamp())
                .await?;
            Err(WRONG)
        }
    };
    tx.commit().await?;
    Ok(outcome)
}

/// `POST /signin`.
pub(super) async fn submit(
    State(web): State<Arc<Web>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Form(form): Form<SignIn>,
) -> Response {
    let run = async {
        let expected = cookie(&headers, FORM).unwrap_or("");
        if !same(expected, &form.csrf) {
            return Ok(plain(
                StatusCode::FORBIDDEN,
                "The form has expired: load the sign-in page again.\n",
            ));
        }
        let mut letters = form.power.trim().chars();
        let (Some(letter), None) = (letters.next(), letters.next()) else {
            return form_page(
                &web,
                &headers,
                Some("Give the power's letter, or M for the Master."),
            );
        };
        let letter = letter.to_ascii_uppercase();
        let password = form.password.trim();
        let game = form.game.trim();
        if password.is_empty()
            || password.len() > 200
            || password.chars().any(char::is_whitespace)
            || game.is_empty()
            || game.len() > 64
        {
            return form_page(
                &web,
                &headers,
                Some("No such game or seat, or a wrong password."),
            );
        }
        let now = web.now();
        let key = sender_key("web", Some(&peer.ip().to_string()));
        if let Err(why) = check(&web, game, letter, password, &key, now).await? {
            return form_page(&web, &headers, Some(why));
        }
        let id = web.sessions.open(
            Seat {
                game: game.to_string(),
                letter,
                password: password.to_string(),
                csrf: token(),
                until: now + lifetime(),
            },
            now,
        );
        let mut response = Redirect::to("/seat").into_response();
        let cookie = set_cookie(&web, SESSION, &id, lifetime().num_seconds());
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(header::SET_COOKIE, v);
        }
        Ok::<Response, WebError>(response)
    };
    run.await.unwrap_or_else(IntoResponse::into_response)
}

/// `POST /signout`.
pub(super) async fn sign_out(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Form(form): Form<Token>,
) -> Response {
    if let Some(id) = cookie(&headers, SESSION) {
        match web.sessions.get(id, web.now()) {
            Some(seat) if same(&seat.csrf, &form.csrf) => web.sessions.close(id),
            _ => return plain(StatusCode::FORBIDDEN, "The form has expired.\n"),
        }
    }
    let mut response = Redirect::to("/").into_response();
    if let Ok(v) = HeaderValue::from_str(&set_cookie(&web, SESSION, "", 0)) {
        response.headers_mut().append(header::SET_COOKIE, v);
    }
    response
}
