//! `missive mail-in` (issue 42): one reply to a "your turn" mail, read
//! from standard input as a mail server's pipe transport hands it over, and
//! acted on: a move, a resignation, a draw offer or answer. Its exit code is
//! what mail servers act on (sysexits): 0 done, 65 unreadable, 67 unknown
//! address (bounced), 75 try later (kept in the queue).
//!
//! The reply address's token decides the game, the player and the ply: the
//! envelope recipient the mail server passes as the argument, never an
//! address in a header, which the sender writes; the From address must also
//! be that player's confirmed address. A message is acted
//! on once, by its Message-ID, however often it is delivered: the
//! `mail_in` row is inserted in the transaction of the act and its answer.

mod acting;
pub mod reading;

use crate::accounts::links::ReplyToken;
use crate::config::Config;
use crate::domain::error::Error;

/// The exit codes mail servers read (`sysexits.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sysexit {
    /// Done: acted on, answered, or already acted on.
    Done,
    /// EX_DATAERR: not a mail message.
    Unreadable,
    /// EX_NOUSER: no reply address of ours with a good token.
    UnknownAddress,
    /// EX_TEMPFAIL: the database cannot be reached; the mail server keeps
    /// the message and delivers it again later.
    TryLater,
}

impl Sysexit {
    pub fn code(self) -> u8 {
        match self {
            Sysexit::Done => 0,
            Sysexit::Unreadable => 65,
            Sysexit::UnknownAddress => 67,
            Sysexit::TryLater => 75,
        }
    }
}

/// What became of a message: the exit code and a line for the mail
/// server's log.
pub struct Outcome {
    pub exit: Sysexit,
    pub note: String,
}

fn outcome(exit: Sysexit, note: impl Into<String>) -> Outcome {
    Outcome {
        exit,
        note: note.into(),
    }
}

/// A message without a Message-ID is known by its content's digest.
fn message_key(reply: &reading::Reply, raw: &[u8]) -> String {
    use sha2::Digest;
    match &reply.message_id {
        Some(id) => crate::util::clip(id, 500),
        None => format!("sha256:{}", hex::encode(sha2::Sha256::digest(raw))),
    }
}

/// Read and act on one message (`raw`, as delivered) to the envelope
/// `recipients` the mail server names (postfix's `${original_recipient}`).
pub fn receive(config: &Config, raw: &[u8], recipients: &[String]) -> Outcome {
    let cap = config.mail_in_max_recipients;
    if recipients.is_empty() {
        // A pipe configured as before the envelope was passed: kept in the
        // queue until the operator adds the argument.
        return outcome(
            Sysexit::TryLater,
            "no envelope recipient: the mail server must pass ${original_recipient} \
             as the argument (README, Play by email reply)",
        );
    }
    if recipients.len() > cap {
        return outcome(
            Sysexit::UnknownAddress,
            format!("{} recipients, more than {cap}", recipients.len()),
        );
    }
    let Some(reply) = reading::read_message(raw) else {
        return outcome(Sysexit::Unreadable, "not a mail message");
    };
    if reply.header_recipients > cap {
        return outcome(
            Sysexit::UnknownAddress,
            format!(
                "{} recipients in To and Cc, more than {cap}",
                reply.header_recipients
            ),
        );
    }
    let tokens: Vec<&str> = recipients
        .iter()
        .filter_map(|a| ReplyToken::token_of_address(a))
        .collect();
    if tokens.is_empty() {
        return outcome(Sysexit::UnknownAddress, "no play+TOKEN@ envelope recipient");
    }
    let key = message_key(&reply, raw);
    let mut small = config.clone();
    small.pool_size = 2;
    small.mail_worker = false;
    let state = match crate::web::build_state(&small) {
        Ok(s) => s,
        Err(e) => return outcome(Sysexit::TryLater, format!("database: {e:#}")),
    };
    let Some(token) = tokens
        .iter()
        .find_map(|t| ReplyToken::read(&state.secret, t))
    else {
        return outcome(
            Sysexit::UnknownAddress,
            "the reply address's token is not valid",
        );
    };
    let acted = actix_web::rt::System::new().block_on(acting::act(&state, &token, &reply, &key));
    // The process exits next.
    state.stop_connecting();
    match acted {
        Ok(note) => outcome(Sysexit::Done, note),
        Err(e @ Error::NotFound(_)) => outcome(Sysexit::UnknownAddress, e.to_string()),
        Err(e) => outcome(Sysexit::TryLater, format!("{e}")),
    }
}

/// `missive mail-in RECIPIENT...`: the message on standard input.
pub fn run(config: anyhow::Result<Config>, recipients: &[String]) -> Outcome {
    use std::io::Read;
    let config = match config {
        Ok(c) => c,
        // A configuration the server cannot start with: keep the mail.
        Err(e) => return outcome(Sysexit::TryLater, format!("configuration: {e:#}")),
    };
    let mut raw = Vec::new();
    // More than any reply needs: the rest is not read.
    const MAX: u64 = 10 << 20;
    if let Err(e) = std::io::stdin().take(MAX).read_to_end(&mut raw) {
        return outcome(Sysexit::Unreadable, format!("standard input: {e}"));
    }
    receive(&config, &raw, recipients)
}
