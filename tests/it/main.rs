//! The server's integration tests, in one binary: each file here is a
//! module, `common` the shared `TestApp` and fixtures. One binary links the
//! server once (49 binaries of about 190 MB each filled a CI disk); cargo
//! still runs the tests two at a time, and `cargo test --test it clocks::`
//! picks one file's. `tests/power_cut.rs` stays apart: it installs its own
//! SQLite file system as the process's default.

#[macro_use]
mod common;
mod browser_kit;

mod accounts;
mod api;
mod architecture_map;
mod bounded;
mod browser;
mod browser_access;
mod browser_install;
mod browser_moves;
mod browser_players_day;
mod browser_posted;
mod browser_tourney_view;
mod cli;
mod clocks;
mod conditional;
mod deep_bodies;
mod definition_variants;
mod deploy;
mod faults;
mod forfeit_rules;
mod headers;
mod hostile_routes;
mod layers;
mod limits;
mod mail;
mod mail_addresses;
mod mail_in;
mod mail_in_mta;
mod players_day;
mod populate;
mod posted_variants;
mod production;
mod push;
mod queries_in_db;
mod query_plans;
mod ratings;
mod record_checks;
mod records;
mod reference_generators;
mod security;
mod server;
mod services;
mod slow_clients;
mod swiss_oracle;
mod takeback;
mod tournament_rules;
mod tournament_view;
mod tournaments;
mod variants_dir;
mod week_clocks;
mod xfcc;
