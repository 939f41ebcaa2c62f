//! Missive: a play-by-correspondence server for chess variants.
//!
//! Layers point one way (docs/architecture.md; `tests/it/layers.rs` checks
//! it): `web` → `jobs` → `mail` → use cases → `db` → `domain` →
//! `missive_rules`, with `util` and `config` at the bottom. The use cases
//! have one order: `accounts` → `tournaments` → `clocks` → `game` →
//! `ratings` → `posted`; a game's end reaches those above `game` as an
//! announcement ([`listen`]).

pub mod accounts;
pub mod app;
pub mod clocks;
pub mod config;
pub mod db;
pub mod domain;
pub mod game;
pub mod jobs;
pub mod mail;
pub mod mail_in;
pub mod metrics;
pub mod populate;
pub mod posted;
pub mod push;
pub mod ratings;
pub mod tournaments;
pub mod util;
pub mod variant_files;
pub mod web;

pub use app::{build_state, init_tracing, serve, server_on};
pub use config::Config;
pub use util::redact;

/// Who hears that a game ended, in order: ratings move first, then the
/// tournament or team match takes its consequences. `game` announces an
/// end and names neither (lichess's round module does the same with its
/// bus); every process says so once at start-up, and a game ending in a
/// process that did not is refused rather than left unheard.
const GAME_END_LISTENERS: &[game::finish::Listener] = &[
    ratings::store::on_game_end,
    tournaments::game_ended::on_game_end,
];

/// Wire the listeners of game endings ([`GAME_END_LISTENERS`]); idempotent.
pub fn listen() {
    game::finish::listen(GAME_END_LISTENERS);
}
