//! What a credential for a client program is, and what it may do.

use crate::domain::codes::text_codes;

text_codes! {
    "credential kind",
    /// Where a credential signs in.
    pub enum CredentialKind {
        /// A password for a correspondence program's Xfcc settings (`/xfcc`).
        AppPassword => "app_password",
        /// A personal token for the JSON API (`Authorization: Bearer`).
        Token => "token",
    }
}

text_codes! {
    "token scope",
    /// What a personal token may do.
    pub enum Scope {
        /// Look at games and players.
        Read => "read",
        /// Look, and move, offer draws, resign, keep conditional lines.
        Play => "play",
    }
}
