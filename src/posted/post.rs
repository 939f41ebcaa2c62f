//! Posting a variant, a new version of one, and what may be done with it:
//! who may see it, challenge with it, rename, delete or approve it.

use crate::config::PostedLimits;
use crate::db::posted_variants::{self as store, NewVersion, PostedVariant};
use crate::db::users::User;
use crate::db::DbConn;
use crate::domain::error::Error;
use chrono::NaiveDateTime;
use missive_rules::Variant;
use sha2::{Digest, Sha256};

/// Who sees a posted variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visibility {
    /// The author alone (who may still challenge with it).
    Private,
    /// Anyone with the link.
    Unlisted,
    /// Listed on `/variants` under "Community variants".
    Public,
}

impl Visibility {
    pub const ALL: [Visibility; 3] = [
        Visibility::Private,
        Visibility::Unlisted,
        Visibility::Public,
    ];

    pub fn parse(s: &str) -> Result<Visibility, Error> {
        Visibility::ALL
            .into_iter()
            .find(|v| v.as_str() == s.trim())
            .ok_or_else(|| {
                Error::Invalid(
                    "Choose who may see the variant: private, unlisted or public.".into(),
                )
            })
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::Private => "private",
            Visibility::Unlisted => "unlisted",
            Visibility::Public => "public",
        }
    }
}

/// The form of `/variants/new` and of a variant's edit page.
#[derive(serde::Deserialize, Default, Clone)]
#[serde(default)]
pub struct PostForm {
    pub csrf_token: String,
    pub name: String,
    pub definition: String,
    pub rules: String,
    pub visibility: String,
}

/// A form read and within the limits, not yet checked.
#[derive(Clone)]
pub struct Prepared {
    pub name: String,
    /// Normalised: what the version is the hash of.
    pub definition: String,
    pub rules: String,
    pub visibility: Visibility,
    pub version: String,
}

/// The text a version is the hash of: lines without trailing blanks, `\n`
/// line ends, no blank lines at either end, one final newline. Two texts
/// that differ only there are one version.
pub fn normalise(text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let first = lines
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(lines.len());
    let last = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(first, |i| i + 1);
    let mut s = lines[first..last].join("\n");
    s.push('\n');
    s
}

/// A version's name: the SHA-256 of its normalised text, 64 hex digits.
pub fn version_of(normalised: &str) -> String {
    hex::encode(Sha256::digest(normalised.as_bytes()))
}

/// Read the form against the limits.
pub fn prepare(form: &PostForm, limits: &PostedLimits) -> Result<Prepared, Error> {
    let name = form.name.trim();
    if name.is_empty() || name.chars().count() > 60 {
        return Err(Error::Invalid(
            "Give the variant a name of 1 to 60 characters.".into(),
        ));
    }
    if name
        .chars()
        .any(|c| c.is_control() || matches!(c, '<' | '>'))
    {
        return Err(Error::Invalid(
            "The name may not hold < or > or control characters: it is shown as plain text.".into(),
        ));
    }
    if form.definition.len() > limits.text_max {
        return Err(Error::Invalid(format!(
            "The definition is {} bytes; at most {} are taken. Leave out comments, or keys the template already sets.",
            form.definition.len(),
            limits.text_max
        )));
    }
    if form.rules.len() > 4 * limits.text_max {
        return Err(Error::Invalid(format!(
            "The rules text is {} bytes; at most {} are taken.",
            form.rules.len(),
            4 * limits.text_max
        )));
    }
    if let Some(tag) = markup(&form.rules) {
        return Err(Error::Invalid(format!(
            "The rules text holds markup ({tag}): write plain text. Blank lines part paragraphs, and lines starting with “- ” make a list."
        )));
    }
    let definition = normalise(&form.definition);
    if definition.trim().is_empty() {
        return Err(Error::Invalid(
            "The definition is empty: paste one, or start from an existing variant (“Copy and edit” on its page).".into(),
        ));
    }
    Ok(Prepared {
        name: name.to_string(),
        version: version_of(&definition),
        definition,
        rules: form.rules.replace("\r\n", "\n").trim().to_string(),
        visibility: Visibility::parse(&form.visibility)?,
    })
}

/// The first HTML tag in `text`, if any (`<script`, `</p`, `<!--`): rules
/// are shown as text, so markup would only ever show as its letters.
fn markup(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().find_map(|(i, &b)| {
        let next = *bytes.get(i + 1)?;
        (b == b'<' && (next.is_ascii_alphabetic() || next == b'/' || next == b'!'))
            .then(|| crate::util::clip(&text[i..], 12))
    })
}

/// Refused when `user` has posted `per_day` versions in the last 24 hours.
pub fn may_post(
    conn: &mut DbConn,
    user: &User,
    limits: &PostedLimits,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let since = now - chrono::Duration::hours(24);
    if store::versions_posted_since(conn, user.id, since)? >= limits.per_day {
        return Err(Error::TooSoon {
            message: format!(
                "You have posted {} definitions in the last 24 hours, the most a day allows: try again tomorrow.",
                limits.per_day
            ),
            retry_after: 3600,
        });
    }
    Ok(())
}

/// An id for `name`: lower-case letters, digits and hyphens, not a
/// built-in variant's id nor one taken.
fn fresh_id(conn: &mut DbConn, name: &str) -> Result<String, Error> {
    let mut base = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            base.push(c);
        } else if !base.ends_with('-') && !base.is_empty() {
            base.push('-');
        }
        if base.len() >= 40 {
            break;
        }
    }
    let base = base.trim_end_matches('-');
    let base = if base.is_empty() || base == "new" {
        "variant".to_string()
    } else {
        base.to_string()
    };
    for n in 1..1000 {
        let id = if n == 1 {
            base.clone()
        } else {
            format!("{base}-{n}")
        };
        if missive_rules::variant(&id).is_none() && !store::id_taken(conn, &id)? {
            return Ok(id);
        }
    }
    Err(Error::Invalid(
        "Too many variants have this name: choose another.".into(),
    ))
}

/// Keep a checked definition as a new variant of `user`'s; its id.
pub fn save_new(
    conn: &mut DbConn,
    user: &User,
    p: &Prepared,
    report: &str,
    limits: &PostedLimits,
    now: NaiveDateTime,
) -> Result<String, Error> {
    let id = crate::db::write_transaction::<_, Error>(conn, |conn| {
        // Counted again where it is added: checks that ran at once must
        // not all find room under the day's limit.
        crate::db::user_lock::lock_user(conn, user.id)?;
        may_post(conn, user, limits, now)?;
        let id = fresh_id(conn, &p.name)?;
        let v = NewVersion {
            variant_id: &id,
            version: &p.version,
            definition: &p.definition,
            rules: &p.rules,
            report,
            now,
        };
        store::insert_variant(conn, &v, &p.name, user.id, p.visibility.as_str())?;
        Ok(id)
    })?;
    offer(&id, &p.version, &p.definition, &p.name)?;
    Ok(id)
}

/// Keep a checked definition as the new current version of `id`, and
/// the name, rules and visibility with it (the author only).
pub fn save_version(
    conn: &mut DbConn,
    user: &User,
    id: &str,
    p: &Prepared,
    report: &str,
    limits: &PostedLimits,
    now: NaiveDateTime,
) -> Result<(), Error> {
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        crate::db::user_lock::lock_user(conn, user.id)?;
        may_post(conn, user, limits, now)?;
        owned(conn, user, id)?;
        let v = NewVersion {
            variant_id: id,
            version: &p.version,
            definition: &p.definition,
            rules: &p.rules,
            report,
            now,
        };
        store::insert_version(conn, &v)?;
        store::set_name_and_visibility(conn, id, &p.name, p.visibility.as_str())?;
        Ok(())
    })?;
    offer(id, &p.version, &p.definition, &p.name)
}

fn offer(id: &str, version: &str, definition: &str, name: &str) -> Result<(), Error> {
    let key = super::lookup::key(id, version);
    missive_rules::offer_posted(definition, &key, name)
        .map(|_| ())
        .map_err(|e| Error::internal(format!("{key} passed its check but does not read: {e}")))
}

/// The variant `id`, when `viewer` may see it (private: the author alone).
pub fn visible(
    conn: &mut DbConn,
    viewer: Option<&User>,
    id: &str,
) -> Result<store::WithAuthor, Error> {
    let missing = || {
        Error::NotFound(format!(
            "There is no variant “{}”.",
            crate::util::clip(id, 40)
        ))
    };
    let (v, author) = store::find(conn, id)?.ok_or_else(missing)?;
    if v.visibility == Visibility::Private.as_str() && viewer.is_none_or(|u| u.id != v.author_id) {
        return Err(missing());
    }
    Ok((v, author))
}

/// The variant `id` when `user` wrote it.
pub fn owned(conn: &mut DbConn, user: &User, id: &str) -> Result<PostedVariant, Error> {
    let (v, _) = visible(conn, Some(user), id)?;
    if v.author_id != user.id {
        return Err(Error::Forbidden(
            "Only the variant's author may change it.".into(),
        ));
    }
    Ok(v)
}

/// Delete `id` (the author, while no game uses it).
pub fn delete(conn: &mut DbConn, user: &User, id: &str) -> Result<(), Error> {
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        let v = owned(conn, user, id)?;
        if v.games > 0 || !store::delete_unplayed(conn, id)? {
            return Err(Error::Conflict(format!(
                "{} has been played ({} games), so it stays: its games replay under it. Make it private to take it off the list.",
                v.name, v.games
            )));
        }
        Ok(())
    })
}

/// What a new game with the variant `id` plays: the variant (for a posted
/// one, its current version), whether rated games may use it, and the
/// posted variant's id to count the game against.
pub struct ForNewGame {
    pub variant: &'static dyn Variant,
    pub rated_allowed: bool,
    pub posted: Option<String>,
}

/// The variant a new game named `id` with plays, as `user` may use it:
/// built-in variants for anyone; a posted one's current version when they
/// may see it. `None` when there is no such variant.
pub fn for_new_game(conn: &mut DbConn, user: &User, id: &str) -> Result<Option<ForNewGame>, Error> {
    let id = id.trim();
    if let Some(v) = missive_rules::variant(id) {
        // A stored key names a built-in variant or one version of a posted
        // one; only the variant's own id starts a game.
        if super::lookup::split(id).is_none() {
            return Ok(Some(ForNewGame {
                variant: v,
                rated_allowed: true,
                posted: None,
            }));
        }
    }
    let (v, _) = match visible(conn, Some(user), id) {
        Ok(found) => found,
        Err(Error::NotFound(_)) => return Ok(None),
        Err(e) => return Err(e),
    };
    let row = store::version(conn, &v.id, &v.current_version)?
        .ok_or_else(|| Error::internal(format!("{}: its current version is missing", v.id)))?;
    let key = super::lookup::key(&v.id, &v.current_version);
    let variant = missive_rules::offer_posted(&row.definition, &key, &v.name)
        .map_err(|e| Error::internal(format!("{key} no longer reads: {e}")))?;
    Ok(Some(ForNewGame {
        variant,
        rated_allowed: row.approved_at.is_some(),
        posted: Some(v.id),
    }))
}

/// Approve `id`'s version `version` for rated play.
pub fn approve(
    conn: &mut DbConn,
    id: &str,
    version: &str,
    now: NaiveDateTime,
) -> Result<(), Error> {
    if !store::approve(conn, id, version, now)? {
        return Err(Error::NotFound(format!(
            "There is no version {} of “{}”.",
            crate::util::clip(version, 64),
            crate::util::clip(id, 40)
        )));
    }
    Ok(())
}

/// The text "Copy and edit" starts from: a posted variant's current
/// definition, or a new section on a built-in variant as template.
pub fn copy_of(
    conn: &mut DbConn,
    viewer: Option<&User>,
    id: &str,
) -> Result<(String, String), Error> {
    if let Some(v) = missive_rules::definition_variant(id) {
        return Ok((
            format!("{} (copy)", v.name()),
            format!(
                "# {name}, as Missive plays it; change it with keys below\n# (Fairy-Stockfish's variants.ini syntax, README \"Post your own variant\").\n[my-{id}:{id}]\n",
                name = v.name()
            ),
        ));
    }
    if missive_rules::variant(id).is_some() {
        return Ok((
            "My variant".into(),
            "# Start from FIDE chess and change it with keys below\n# (Fairy-Stockfish's variants.ini syntax, README \"Post your own variant\").\n[my-variant:chess]\n".into(),
        ));
    }
    let (v, _) = visible(conn, viewer, id)?;
    let row = store::version(conn, &v.id, &v.current_version)?
        .ok_or_else(|| Error::internal(format!("{}: its current version is missing", v.id)))?;
    Ok((format!("{} (copy)", v.name), row.definition))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_is_found_but_comparisons_are_not() {
        assert_eq!(markup("a < b and 3<4"), None);
        assert!(markup("hi <script>x</script>")
            .unwrap()
            .starts_with("<script"));
        assert!(markup("<!-- x -->").is_some());
    }

    #[test]
    fn blanks_at_line_ends_and_around_make_no_new_version() {
        let a = normalise("[x:chess]\nmaxRank = 6\n");
        let b = normalise("\r\n\n[x:chess]   \r\nmaxRank = 6\t\n\n\n");
        assert_eq!(a, b);
        assert_eq!(version_of(&a), version_of(&b));
        assert_eq!(version_of(&a).len(), 64);
        assert_ne!(
            version_of(&a),
            version_of(&normalise("[x:chess]\nmaxRank = 7\n"))
        );
    }
}
