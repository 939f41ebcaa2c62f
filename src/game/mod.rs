//! Games: challenge, play, finish, records.

pub mod games;
pub mod positions;
pub mod records;
