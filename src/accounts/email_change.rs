//! Changing one's address: the new address gets a link and replaces the
//! old one only when the link is followed; the old address is told.

use crate::accounts::{tokens, users};
use crate::db::models::User;
use crate::db::outbox::enqueue;
use crate::db::schema::{users as users_table, verified_emails};
use crate::db::DbConn;
use crate::domain::account_token::TokenPurpose;
use crate::domain::error::Error;
use crate::domain::mail_kind::Mail;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// `POST /settings/email`: with the password, ask to move the account to
/// `new_email`. Nothing changes until the new address confirms.
pub fn request(
    conn: &mut DbConn,
    secret: &[u8],
    user: &User,
    password: &str,
    new_email: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let new_email = new_email.trim();
    if !users::verify_password(password, &user.password_hash) {
        return Err(Error::Invalid(
            "Your password is not right: the address was not changed.".into(),
        ));
    }
    users::validate_email(new_email).map_err(Error::Invalid)?;
    if new_email.eq_ignore_ascii_case(&user.email) {
        return Err(Error::Invalid("That is already your address.".into()));
    }
    conn.transaction::<_, Error, _>(|conn| {
        let t = tokens::issue(
            conn,
            secret,
            user.id,
            TokenPurpose::EmailChange,
            Some(new_email),
            now,
        )?;
        enqueue(
            conn,
            user.id,
            &Mail::EmailChangeConfirm { token: t.id },
            now,
        )?;
        enqueue(conn, user.id, &Mail::EmailChanging { token: t.id }, now)?;
        Ok(())
    })
}

/// The address a pending change would move the account to, if one.
pub fn pending(conn: &mut DbConn, user_id: i32, now: NaiveDateTime) -> QueryResult<Option<String>> {
    use crate::db::schema::account_tokens;
    let rows: Vec<tokens::AccountToken> = account_tokens::table
        .filter(account_tokens::user_id.eq(user_id))
        .filter(account_tokens::purpose.eq(TokenPurpose::EmailChange.code()))
        .select(tokens::AccountToken::as_select())
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter(|t| t.usable(now))
        .find_map(|t| t.new_email))
}

/// `POST /email/confirm`: the link from the new address makes it the
/// account's address, confirmed (following the link proved it is theirs).
pub fn confirm(conn: &mut DbConn, token: &str, now: NaiveDateTime) -> Result<String, Error> {
    conn.transaction::<_, Error, _>(|conn| {
        let t = tokens::redeem(conn, token, TokenPurpose::EmailChange, now)?;
        let Some(address) = t.new_email.clone() else {
            return Err(Error::internal("address change without an address"));
        };
        let user = users::find_by_id(conn, t.user_id)?
            .filter(|u| u.deleted_at.is_none())
            .ok_or_else(|| Error::Invalid("This link is for an account that is gone.".into()))?;
        diesel::update(users_table::table.find(user.id))
            .set(users_table::email.eq(&address))
            .execute(conn)?;
        diesel::delete(verified_emails::table.find(user.id)).execute(conn)?;
        diesel::insert_into(verified_emails::table)
            .values((
                verified_emails::user_id.eq(user.id),
                verified_emails::email.eq(&address),
                verified_emails::verified_at.eq(now),
            ))
            .execute(conn)?;
        Ok(address)
    })
}
