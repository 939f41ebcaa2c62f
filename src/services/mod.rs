//! Domain logic: plain functions taking a connection and a `now`.

pub mod accounts;
pub mod clock;
pub mod clocks;
pub mod digest;
pub mod games;
pub mod links;
pub mod mail;
pub mod pairing;
pub mod records;
pub mod standings;
pub mod tournaments;
