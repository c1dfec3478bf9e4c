//! `/signin` and `/signout`: a player or Master signs in with the game, the power (or `M`
//! for the Master) and the password they use in mail. The password is checked as a mail's
//! SIGNON is, on the same record of wrong passwords (a web guess counts toward the mail
//! path's lock of the seat) and within the same argon2 allowance (a web guess is a
//! stranger's, counted by the client's address, [`super::client`]); the web's own limits,
//! per client and per seat, are [`super::guesses`]'s. Every form carries a CSRF token;
//! before sign-in it is the one in the form's own cookie, good for one post. A post answers
//! `303`: to `/seat` when signed in, else to the form with what went wrong
//! ([`super::said`]).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use chrono::{DateTime, Utc};
use serde::Deserialize;

use super::client::{client, key};
use super::error::plain;
use super::guesses::{refused, Refused};
use super::html::fresh;
use super::said::Said;
use super::sessions::{
    cookie, lifetime, same, session, set_cookie, token, viewer, Seat, FORM, SESSION,
};
use super::{Web, WebError};
use crate::judge::password::Sender;
use crate::judge::Game;

/// The sign-in form as posted.
#[derive(Debug, Deserialize)]
pub(super) struct SignIn {
    #[serde(default)]
    game: String,
    #[serde(default)]
    power: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    csrf: String,
}

/// A signed-in session's form that only carries its token.
#[derive(Debug, Deserialize)]
pub(super) struct Token {
    #[serde(default)]
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

/// Renders the sign-in form with `said`, setting the form's token cookie: the one the
/// browser has while it is not yet posted, else a new one.
fn form_page(web: &Web, headers: &HeaderMap, said: Option<Said>) -> Result<Response, WebError> {
    let csrf = cookie(headers, FORM)
        .filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()))
        .filter(|t| !web.sessions.signin_spent(t))
        .map_or_else(token, str::to_string);
    let said = said.map(Said::line);
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

/// `GET /signin`, saying what the query names.
pub(super) async fn form(
    State(web): State<Arc<Web>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let said = query.as_deref().and_then(Said::parse);
    form_page(&web, &headers, said).unwrap_or_else(IntoResponse::into_response)
}

/// The answer to a sign-in post that did not sign in: the form, saying why.
pub(super) fn again(said: Said) -> Response {
    Redirect::to(&format!("/signin?{}", said.query())).into_response()
}

/// A seat whose password checked: the game's name as stored and the seat's stored hash.
struct Good {
    game: String,
    stored: String,
}

/// Checks a password for a seat within the limits on guessing; records a wrong one.
async fn check(
    web: &Web,
    game_name: &str,
    letter: char,
    password: &str,
    key: &str,
    now: DateTime<Utc>,
) -> Result<Result<Good, Said>, WebError> {
    let mut tx = web.service.store.begin().await?;
    let mut games: Vec<Game> = tx.games_named(&[game_name.to_string()]).await?;
    let Some(game) = games.first_mut() else {
        tx.rollback().await?;
        return Ok(Err(Said::Wrong));
    };
    let Some((seat, holder, stored)) = seat_of(web, game, letter) else {
        tx.rollback().await?;
        return Ok(Err(Said::Wrong));
    };
    if let Some(why) = refused(&game.signon_guard, &seat, key, now) {
        tx.rollback().await?;
        return Ok(Err(match why {
            Refused::Client(t) => Said::Client(t),
            Refused::Seat(t) => Said::Seat(t),
        }));
    }
    let sender = Sender { key, holder: false };
    let outcome = match web
        .service
        .judge
        .passwords
        .check(&stored, password, now, sender)
    {
        Err(busy) => Err(Said::Busy(busy.until)),
        Ok(true) => Ok(Good {
            game: game.name.clone(),
            stored,
        }),
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
            let summary = crate::service::summary_of(judge, game);
            tx.save_game(
                &game.name,
                game.status.word(),
                &*game,
                &summary,
                due,
                now.timestamp(),
            )
            .await?;
            Err(Said::Wrong)
        }
    };
    tx.commit().await?;
    Ok(outcome)
}

/// Signs in from `client` with a form whose token is good: the session's cookie and `/seat`,
/// or the form again with why not.
async fn sign_in(
    web: &Web,
    headers: &HeaderMap,
    form: &SignIn,
    client: IpAddr,
) -> Result<Response, WebError> {
    let mut letters = form.power.trim().chars();
    let (Some(letter), None) = (letters.next(), letters.next()) else {
        return Ok(again(Said::Letter));
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
        return Ok(again(Said::Wrong));
    }
    let now = web.now();
    let good = match check(web, game, letter, password, &key(client), now).await? {
        Ok(good) => good,
        Err(said) => return Ok(again(said)),
    };
    // A new id at each sign-in (no fixation); the browser's old session ends.
    if let Some((old, _)) = session(web, headers) {
        web.sessions.close(&old);
    }
    let id = web.sessions.open(
        Seat {
            game: good.game,
            letter,
            password: password.to_string(),
            stored: good.stored,
            client,
            csrf: token(),
            until: now + lifetime(),
        },
        now,
    );
    let mut response = Redirect::to("/seat").into_response();
    let cookie = set_cookie(web, SESSION, &id, lifetime().num_seconds());
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        response.headers_mut().append(header::SET_COOKIE, v);
    }
    Ok(response)
}

/// `POST /signin`.
pub(super) async fn submit(
    State(web): State<Arc<Web>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Form(form): Form<SignIn>,
) -> Response {
    let expected = cookie(&headers, FORM).unwrap_or("");
    if !same(expected, &form.csrf) {
        return plain(
            StatusCode::FORBIDDEN,
            "The form has expired: load the sign-in page again.\n",
        );
    }
    // A form is posted once: a reload or second click does nothing again.
    if !web.sessions.spend_signin(&form.csrf) {
        if viewer(&web, &headers).is_some() {
            return Redirect::to("/seat").into_response();
        }
        return again(Said::Sent);
    }
    let client = client(&web, peer, &headers);
    sign_in(&web, &headers, &form, client)
        .await
        .unwrap_or_else(IntoResponse::into_response)
}

/// `POST /signout`: with the session's token, or one of its forms'.
pub(super) async fn sign_out(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Form(form): Form<Token>,
) -> Response {
    if let Some(id) = cookie(&headers, SESSION) {
        match web.sessions.get(id, web.now()) {
            Some(_) if web.sessions.holds(id, &form.csrf) => web.sessions.close(id),
            _ => return plain(StatusCode::FORBIDDEN, "The form has expired.\n"),
        }
    }
    let mut response = Redirect::to("/").into_response();
    if let Ok(v) = HeaderValue::from_str(&set_cookie(&web, SESSION, "", 0)) {
        response.headers_mut().append(header::SET_COOKIE, v);
    }
    response
}
