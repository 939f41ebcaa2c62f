//! Tournaments: entry, rounds and pairing, forfeits and withdrawal,
//! adjudication, views.

pub mod tournaments;
