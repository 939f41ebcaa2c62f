//! What every mail needs: the base address, the signing secret, the
//! sender, and the data the templates share.

use crate::accounts::links::{self};
use crate::config::Config;
use crate::db::users::User;
use crate::domain::ids::GameId;
use chrono::Duration;
use lettre::message::Mailbox;

// ---------------------------------------------------------------------------
// Rendering

/// What rendering needs beyond the database: addresses and the secret.
#[derive(Clone)]
pub struct MailCtx {
    pub base_url: String,
    pub secret: Vec<u8>,
    pub from: Mailbox,
    pub reply_to: Mailbox,
    pub play_link_ttl: Duration,
    /// How long a claim on a mail lasts (`MISSIVE_MAIL_LEASE_SECS`).
    pub lease: Duration,
    /// `MISSIVE_MAIL_DOMAIN`: "your turn" mails are answered at
    /// `play+TOKEN@` this domain (issue 42).
    pub mail_domain: Option<String>,
}

impl MailCtx {
    pub fn new(config: &Config, secret: &[u8]) -> anyhow::Result<MailCtx> {
        let from: Mailbox = config
            .mail_from
            .parse()
            .map_err(|e| anyhow::anyhow!("MISSIVE_MAIL_FROM {:?}: {e}", config.mail_from))?;
        let reply_to = match &config.mail_reply_to {
            Some(r) => r
                .parse()
                .map_err(|e| anyhow::anyhow!("MISSIVE_MAIL_REPLY_TO {r:?}: {e}"))?,
            None => from.clone(),
        };
        Ok(MailCtx {
            base_url: config.base_url.trim_end_matches('/').to_string(),
            secret: secret.to_vec(),
            from,
            reply_to,
            play_link_ttl: Duration::hours(config.play_link_hours),
            lease: Duration::seconds(config.mail_lease_secs.max(1)),
            mail_domain: config.mail_domain.clone(),
        })
    }
}

/// A mail ready to send.
#[derive(Clone, Debug)]
pub struct Rendered {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    pub unsubscribe_url: String,
    /// The mail's own Reply-To, instead of `MISSIVE_MAIL_REPLY_TO`: a
    /// "your turn" mail's `play+TOKEN@` address.
    pub reply_to: Option<String>,
}

/// Everything a mail template may show.
#[derive(Default)]
pub struct MailData {
    pub username: String,
    pub opponent: String,
    pub game_id: GameId,
    pub variant_name: String,
    pub game_url: String,
    pub play_url: String,
    pub play_link_hours: i64,
    pub last_move: String,
    pub comment: String,
    /// The reader's move that `last_move`, a conditional one, answered.
    pub answered: String,
    pub diagram: String,
    pub moves_text: String,
    pub result_text: String,
    /// The result in words ("Red wins by checkmate").
    pub result_words: String,
    pub unsubscribe_url: String,
    pub settings_url: String,
    /// "2 days 3 hours left; deadline ...", empty without a clock.
    pub clock_text: String,
    /// Leave mails: the first and last day.
    pub leave_start: String,
    pub leave_end: String,
    /// Replies by mail: what was done, or why not.
    pub reply_text: String,
    /// Replies by mail: the legal moves, after a move the rules refused.
    pub legal_moves: String,
}

/// What a mail's footer needs (greeting, unsubscribe and settings links),
/// for mails about no particular game.
pub fn footer_data(ctx: &MailCtx, user: &User) -> MailData {
    MailData {
        username: user.username.clone(),
        unsubscribe_url: links::unsubscribe_url(&ctx.base_url, &ctx.secret, user.id),
        settings_url: format!("{}/settings/mail", ctx.base_url),
        ..MailData::default()
    }
}
