//! Domain logic: plain functions taking a connection and a `now`.

pub mod accounts;
pub mod digest;
pub mod games;
pub mod links;
pub mod mail;
pub mod records;
