//! herald: a play-by-email Diplomacy judge.
//!
//! # Layout
//! - [`game`]: the rules — maps, variants, orders and adjudication; pure and synchronous.
//! - [`catalog`]: the variants a judge can play: built in, or map files in a directory.
//! - [`config`]: `config/herald.toml`, every key optional.
//! - [`judge`]: the mail command language, game life, deadlines, press, replies and results.
//! - [`mail`]: incoming mail decoded into letters, Maildirs, outgoing mail.
//! - [`store`]: SQLite: games, handled mails, the outbox, the Master action log.
//! - [`cases`]: the adjudication case runner (`herald datc`), reading jDip's DATC format.

pub mod cases;
pub mod catalog;
pub mod config;
pub mod game;
pub mod judge;
pub mod mail;
pub mod store;
