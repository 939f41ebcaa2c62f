//! Tournaments: entry, rounds and pairing, forfeits and withdrawal,
//! adjudication, directors, views and records.

pub mod adjudication;
pub mod directors;
pub mod entry;
pub mod extension;
pub mod game_ended;
pub mod player_rules;
pub mod records;
pub mod rounds;
pub mod rules_text;
pub mod swiss_field;
pub mod team_matches;
pub mod trf_export;
pub mod views;
pub mod withdrawal;
