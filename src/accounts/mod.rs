//! Accounts: sign-up, login, sessions, signed links, and the account's life
//! (password reset and change, address change, deletion, export, operators'
//! hold).

pub mod admins;
pub mod api_credentials;
pub mod calendar_feed;
pub mod deletion;
pub mod device_cookies;
pub mod disabling;
pub mod email_change;
pub mod export;
pub mod links;
pub mod login_limit;
pub mod mail_settings;
pub mod notifications;
pub mod password_change;
pub mod password_policy;
pub mod password_reset;
pub mod reauth;
pub mod revocation;
pub mod send_limits;
pub mod sessions;
pub mod tokens;
pub mod users;
pub mod week_settings;
