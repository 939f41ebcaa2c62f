//! Accounts: sign-up, login, sessions, signed links.

pub mod links;
pub mod login_limit;
pub mod mail_settings;
pub mod send_limits;
pub mod users;
