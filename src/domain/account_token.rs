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

/// The token a link of `purpose` for `user` carries: an HMAC of the row's
/// random `salt` under the server secret, so the token itself is kept
/// nowhere.
pub fn token_for(secret: &[u8], purpose: TokenPurpose, user: i32, salt: &str) -> String {
    use hmac::{Hmac, Mac};
    use sha2::Sha256;
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(format!("account-token:{}:{user}:{salt}", purpose.code()).as_bytes());
    hex::encode(mac.finalize().into_bytes())
}
