//! Accounts: sign-up, login, sessions, signed links.

pub mod links;
pub mod mail_settings;
pub mod users;
