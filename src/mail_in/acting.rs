//! Acting on a reply whose token is good: the checks the token does not
//! make (the sender, the expiry, the game's state), then the act through
//! the same paths the web pages use, each with the message's `mail_in` row
//! and its answer mail in the act's own transaction.

use super::reading::{self, Instruction, Reply};
use crate::accounts::links::ReplyToken;
use crate::db::games::{self, GameRow};
use crate::db::users::User;
use crate::db::{mail_in, moves, outbox, rate_counters, DbConn};
use crate::domain::error::Error;
use crate::domain::game_state::GameStatus;
use crate::domain::mail_kind::Mail;
use crate::game::play::{self, MoveOutcome, MoveSubmission, WithMove};
use crate::game::{draw, resign};
use crate::web::routes::conditional::{add_line, check_with_move};
use crate::web::{now, AppState};
use std::sync::Arc;

/// The message's row ([`mail_in::record`]), in the act's transaction.
fn record(conn: &mut DbConn, key: &str, t: &ReplyToken) -> Result<(), Error> {
    mail_in::record(conn, key, t.game, t.user, now())
}

/// What the log says of a message acted on already.
const ALREADY: &str = "this message was acted on already";

/// `f` with the message's row and the answer `mail` in one transaction;
/// what the log says.
fn answered(
    conn: &mut DbConn,
    key: &str,
    t: &ReplyToken,
    f: impl FnOnce(&mut DbConn) -> Result<Mail, Error>,
) -> Result<(), Error> {
    crate::db::write_transaction(conn, |c| {
        record(c, key, t)?;
        let mail = f(c)?;
        outbox::enqueue(c, t.user, &mail, now())?;
        Ok(())
    })
}

/// A refusal: the message is recorded and the player told why, with the
/// game's link (and the legal moves when `ply` is given), unless the game
/// has had `MISSIVE_MAIL_IN_REFUSALS_DAY` refusal mails today: whoever
/// holds a leaked reply address could otherwise mail the player at will.
async fn refuse(
    state: &Arc<AppState>,
    key: &str,
    t: &ReplyToken,
    reason: String,
    ply: Option<i32>,
) -> Result<String, Error> {
    let (key, t2, why) = (key.to_string(), t.clone(), reason.clone());
    let limit = state.config.mail_in_refusals_day;
    let done = state
        .write(move |c| {
            crate::db::write_transaction(c, |c| {
                record(c, &key, &t2)?;
                let counted = rate_counters::count_one(
                    c,
                    &format!("mail-in-refusals:{}", t2.game),
                    chrono::Duration::days(1),
                    now(),
                )?;
                if counted.count > limit {
                    return Ok(false);
                }
                let mail = Mail::ReplyRefused {
                    game: t2.game,
                    ply,
                    reason: why.clone(),
                };
                outbox::enqueue(c, t2.user, &mail, now())?;
                Ok(true)
            })
        })
        .await;
    let done = done.map(|mailed| {
        if mailed {
            format!("refused: {reason}")
        } else {
            format!("refused, not mailed ({limit} refusals today): {reason}")
        }
    });
    match done {
        Ok(note) => Ok(note),
        Err(Error::AlreadyDone) => Ok(ALREADY.into()),
        Err(e) => Err(e),
    }
}

/// A duplicate that lost the race to another delivery is done too.
fn settled(done: Result<(), Error>, note: String) -> Result<String, Error> {
    match done {
        Ok(()) => Ok(note),
        Err(Error::AlreadyDone) => Ok(ALREADY.into()),
        Err(e) => Err(e),
    }
}

/// The player and the game, and whether `sender` is the player's
/// confirmed address.
fn load(
    conn: &mut DbConn,
    t: &ReplyToken,
    sender: Option<&str>,
) -> Result<(User, GameRow, bool), Error> {
    let user = crate::db::users::find_by_id(conn, t.user)?
        .filter(|u| u.deleted_at.is_none() && u.disabled_at.is_none())
        .ok_or_else(|| Error::NotFound("The reply address names no player.".into()))?;
    let row = games::load(conn, t.game)?;
    let confirmed = crate::db::mail_prefs::standing_of(conn, user.id)?.0
        && sender.is_some_and(|s| s.eq_ignore_ascii_case(user.email.trim()));
    Ok((user, row, confirmed))
}

/// Act on `reply`, sent to `t`'s address; a line for the log.
pub async fn act(
    state: &Arc<AppState>,
    t: &ReplyToken,
    reply: &Reply,
    key: &str,
) -> Result<String, Error> {
    let k = key.to_string();
    if state.read(move |c| mail_in::seen(c, &k)).await? {
        return Ok(ALREADY.into());
    }
    let (t2, sender) = (t.clone(), reply.sender.clone());
    let (user, row, confirmed) = state.read(move |c| load(c, &t2, sender.as_deref())).await?;
    if !confirmed {
        let from = reply.sender.as_deref().unwrap_or("no sender address");
        let reason = format!(
            "it came from {from}, which is not your confirmed address. Only a reply from \
             your confirmed address plays a move: reply from it, or play on the game page."
        );
        return refuse(state, key, t, reason, None).await;
    }
    if t.expired(now()) {
        let reason = "the reply address of that mail has expired. Play on the game page, \
                      or reply to a newer mail."
            .to_string();
        return refuse(state, key, t, reason, None).await;
    }
    if row.status != GameStatus::Active {
        return refuse(state, key, t, "the game is over.".into(), None).await;
    }
    if row.ply != t.ply || games::player_to_move(&row) != Some(user.id) {
        let reason = "the move that mail asked for has already been played.".to_string();
        return refuse(state, key, t, reason, None).await;
    }
    let Some(instruction) = reading::instruction(&reply.text) else {
        let reason = "no move was found in it. Write the move on the first line of your \
                      reply, above the mail you answer (e.g. `Nf3`, or `Nf3 // a comment`); \
                      or `resign`, `offer draw`, `accept draw`, `decline draw`."
            .to_string();
        return refuse(state, key, t, reason, Some(t.ply)).await;
    };
    let draw_action = match &instruction {
        Instruction::Move { text, line } => {
            return play_move(state, key, t, &user, text, line.as_deref()).await
        }
        Instruction::LineWithoutMove(line) => {
            let reason = format!(
                "a conditional line (`{line}`) starts with your opponent's move, and it is \
                 your move: write your move first, e.g. `e4 if {line}`."
            );
            return refuse(state, key, t, reason, Some(t.ply)).await;
        }
        Instruction::Resign => None,
        Instruction::OfferDraw => Some(("offer", "you offered a draw")),
        Instruction::AcceptDraw => Some(("accept", "you accepted the draw")),
        Instruction::DeclineDraw => Some(("decline", "you declined the draw")),
    };
    let (k, t2) = (key.to_string(), t.clone());
    let done = state
        .write(move |c| {
            answered(c, &k, &t2, |c| {
                let (act, what) = match draw_action {
                    None => (resign::resign(c, t2.game, &user, now()), "you resigned"),
                    Some((action, what)) => (draw::draw(c, t2.game, &user, action, now()), what),
                };
                act?;
                let ply = games::load(c, t2.game)?.ply;
                Ok(Mail::ReplyDone {
                    game: t2.game,
                    ply,
                    act: what.to_string(),
                })
            })
        })
        .await;
    match done {
        // The game's own refusal (no draw offered to accept, say): told.
        Err(Error::Forbidden(m) | Error::Conflict(m) | Error::Invalid(m)) => {
            refuse(state, key, t, m, None).await
        }
        Err(Error::MovedOn(how)) => refuse(state, key, t, how.to_string(), None).await,
        done => settled(done, "acted".into()),
    }
}

/// A move, by [`play::queue_move`] through
/// [`AppState::play`], the message's row and the
/// confirmation stored in the move's transaction. A conditional line is
/// checked first and kept after, as the move form does.
async fn play_move(
    state: &Arc<AppState>,
    key: &str,
    t: &ReplyToken,
    user: &User,
    text: &str,
    line: Option<&str>,
) -> Result<String, Error> {
    if let Some(line) = line {
        if let Err(e) = check_with_move(state, t.game, user, text, line).await {
            let reason =
                format!("its conditional line was refused, so the move was not played either: {e}");
            return refuse(state, key, t, reason, Some(t.ply)).await;
        }
    }
    let kept = line
        .map(|l| format!(", with your conditional line {l}"))
        .unwrap_or_default();
    let (app, user2, text2, key2, t2) = (
        state.clone(),
        user.clone(),
        text.to_string(),
        key.to_string(),
        t.clone(),
    );
    let result = state
        .play(move |conn, unsure| {
            let (key, t, kept) = (key2.clone(), t2.clone(), kept.clone());
            let also: WithMove = Box::new(move |c: &mut DbConn| {
                record(c, &key, &t)?;
                let ply = t.ply + 1;
                let display = moves::display_of(c, t.game, ply)?
                    .ok_or_else(|| Error::internal("the move just stored is not there"))?;
                let after = games::load(c, t.game)?.ply;
                let mail = Mail::ReplyDone {
                    game: t.game,
                    ply: after,
                    act: format!("your move {display} was played{kept}"),
                };
                outbox::enqueue(c, t.user, &mail, now())?;
                Ok(())
            });
            let submission = MoveSubmission {
                id: t2.game,
                user: &user2,
                text: &text2,
                expected_ply: Some(t2.ply),
                commit: true,
                unsure,
                now: now(),
                also: Some(also),
            };
            play::queue_move(conn, &app.writes, &app.positions, submission)
        })
        .await?;
    match result {
        Ok(MoveOutcome::Committed { played }) => {
            if let Some(line) = line {
                if let Err(e) = add_line(state, t.game, user, line).await {
                    let reason = format!(
                        "your move {} was played, but its conditional line was not kept: {e}",
                        played.display
                    );
                    let (t2, why) = (t.clone(), reason.clone());
                    state
                        .write(move |c| {
                            let mail = Mail::ReplyRefused {
                                game: t2.game,
                                ply: None,
                                reason: why.clone(),
                            };
                            Ok(outbox::enqueue(c, t2.user, &mail, now())?)
                        })
                        .await?;
                    return Ok(reason);
                }
            }
            Ok(format!("played {}", played.display))
        }
        Ok(MoveOutcome::Preview { .. }) => Err(Error::internal("a reply's move was previewed")),
        // The engine's reason; the mail lists the legal moves.
        Err(Error::Invalid(m) | Error::AmbiguousMove(m)) => {
            refuse(state, key, t, m, Some(t.ply)).await
        }
        Err(Error::AlreadyDone) => Ok(ALREADY.into()),
        Err(Error::Conflict(m) | Error::Forbidden(m)) => refuse(state, key, t, m, None).await,
        Err(Error::MovedOn(how)) => refuse(state, key, t, how.to_string(), None).await,
        Err(e) => Err(e),
    }
}
