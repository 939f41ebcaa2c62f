//! Accounts: sign-up, login, sessions, signed links.

pub mod links;
pub mod users;
