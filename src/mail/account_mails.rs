//! The mails about the account itself (reset link, password changed,
//! address change), rendered from their `account_tokens` row: a link that
//! was used, replaced or has expired is not sent any more.

use crate::db::account_tokens as tokens;
use crate::db::users::User;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::mail_kind::Mail;
use crate::mail::context::MailCtx;
use crate::mail::kinds::{self, AccountMail, Parts};
use chrono::NaiveDateTime;

/// The parts and the address to send them to (the new address, for the
/// link that confirms it); `None` when there is nothing to send.
pub fn render(
    conn: &mut DbConn,
    ctx: &MailCtx,
    user: &User,
    mail: &Mail,
    now: NaiveDateTime,
) -> Result<Option<(Parts, String)>, Error> {
    let mut data = AccountMail {
        username: user.username.clone(),
        link: String::new(),
        new_email: String::new(),
        valid_for: String::new(),
    };
    let live = |conn: &mut DbConn, id: i32| -> Result<_, Error> {
        Ok(tokens::find(conn, id)?.filter(|t| t.usable(now) && t.user_id == user.id))
    };
    let to = user.email.clone();
    Ok(match mail {
        Mail::PasswordChanged => {
            data.link = format!("{}/password/forgot", ctx.base_url);
            Some((kinds::password_changed(&data)?, to))
        }
        Mail::PasswordReset { token } => match live(conn, *token)? {
            Some(t) => {
                data.link = t.url(&ctx.base_url, &ctx.secret);
                data.valid_for = words_until(t.expires_at, now);
                Some((kinds::password_reset(&data)?, to))
            }
            None => None,
        },
        Mail::EmailChangeConfirm { token } => match live(conn, *token)? {
            Some(t) => {
                let new_email = t.new_email.clone().unwrap_or_default();
                data.link = t.url(&ctx.base_url, &ctx.secret);
                data.new_email = new_email.clone();
                data.valid_for = words_until(t.expires_at, now);
                Some((kinds::email_change_confirm(&data)?, new_email))
            }
            None => None,
        },
        Mail::EmailChanging { token } => match tokens::find(conn, *token)? {
            // Told even once the change is done: the old address must hear.
            Some(t) if t.user_id == user.id => {
                data.new_email = t.new_email.clone().unwrap_or_default();
                data.link = format!("{}/settings", ctx.base_url);
                Some((kinds::email_changing(&data)?, to))
            }
            _ => None,
        },
        _ => None,
    })
}

/// "1 hour", "24 hours", "35 minutes": what is left of a link's life.
fn words_until(expires: NaiveDateTime, now: NaiveDateTime) -> String {
    let minutes = (expires - now).num_minutes().max(1);
    if minutes % 60 == 0 || minutes >= 120 {
        let h = (minutes + 30) / 60;
        format!("{h} hour{}", if h == 1 { "" } else { "s" })
    } else {
        format!("{minutes} minutes")
    }
}
