//! What a mailed account link is for.

use crate::domain::codes::text_codes;

text_codes! {
    "account token purpose",
    /// The act an `account_tokens` row allows once.
    pub enum TokenPurpose {
        /// Set a new password without the old one (`/password/reset`).
        PasswordReset => "password_reset",
        /// Make the row's `new_email` the account's address.
        EmailChange => "email_change",
    }
}
