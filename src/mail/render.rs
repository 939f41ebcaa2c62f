//! A queued mail rendered from the database as it is now: subject, text
//! and HTML from its kind's template folder ([`crate::mail::kinds`]); a
//! mail that is no longer true renders to nothing.

use crate::accounts::links::{self, PlayLink};
use crate::db::games::{self, GameRow};
use crate::db::moves;
use crate::db::outbox::OutboxRow;
use crate::db::users::User;
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::domain::game_state::{GameStatus, Side};
use crate::domain::mail_kind::{ClockNotice, Mail, MoveNote};
use crate::game::restore;
use crate::mail::context::{footer_data, MailCtx, MailData, Rendered};
use crate::mail::kinds::{self, NoticeMail, Parts, VerifyData, WithdrawnMail};
use chrono::NaiveDateTime;
use lettre::message::header::{Header, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::Message;
use missive_rules::Color;
use missive_rules::{BoardView, Cell};

// Templates render mails here and pages in `web`, so a failed render is an
// internal error wherever it happens; the domain's error does not know
// templates.
impl From<askama::Error> for Error {
    fn from(e: askama::Error) -> Self {
        Error::Internal(format!("template: {e}"))
    }
}

/// The position as text: ranks top down, files left to right, `.` for an
/// empty square, the letter the board and moves use for a piece (upper case
/// White), blank for a hole; Black's view when `flipped`; pieces in hand
/// named, and a one-line key of the pieces that are not chess's.
pub fn text_diagram(view: &BoardView, flipped: bool) -> String {
    let w = view.width;
    let h = view.height;
    let cell_w = view
        .cells
        .iter()
        .map(|c| match c {
            Cell::Piece { color, label } => shown_letter(label, *color).chars().count(),
            _ => 1,
        })
        .max()
        .unwrap_or(1)
        .max(1);
    let rank_w = h.to_string().len();
    let files: Vec<u8> = if flipped {
        (0..w).rev().collect()
    } else {
        (0..w).collect()
    };
    let ranks: Vec<u8> = if flipped {
        (0..h).collect()
    } else {
        (0..h).rev().collect()
    };
    let mut out = String::new();
    for &r in &ranks {
        out.push_str(&format!("{:>rank_w$} ", r as u32 + 1));
        for &f in &files {
            let s = match view.cell(f, r) {
                Cell::Hole => " ".to_string(),
                Cell::Empty => ".".to_string(),
                Cell::Piece { color, label } => shown_letter(label, *color),
            };
            out.push(' ');
            out.push_str(&format!("{s:<cell_w$}"));
        }
        out.push('\n');
    }
    out.push_str(&" ".repeat(rank_w + 1));
    for &f in &files {
        out.push(' ');
        let name = ((b'a' + f.min(25)) as char).to_string();
        out.push_str(&format!("{name:<cell_w$}"));
    }
    out.push('\n');
    for hand in &view.hands {
        out.push_str(&format!(
            "In hand ({}): {} {} x{}\n",
            if hand.color == Color::Black {
                view.side_names[1]
            } else {
                view.side_names[0]
            },
            shown_letter(&hand.label, hand.color),
            hand.label.name,
            hand.count
        ));
    }
    // Which letters are whose, where the sides are not White and Black.
    if view.side_names != ["White", "Black"] {
        out.push_str(&format!(
            "Capitals: {}; lower case: {}.\n",
            view.side_names[0], view.side_names[1]
        ));
    }
    let key = crate::domain::piece_words::mail_key(view);
    if !key.is_empty() {
        out.push_str(&key);
    }
    out.trim_end().to_string()
}

/// The letter the board and the moves use for a piece (Leap Chess's `S`
/// where its FEN has `Q`), lower case for Black as in a FEN.
fn shown_letter(label: &missive_rules::PieceLabel, color: Color) -> String {
    let symbol = label.symbol_or_letter();
    match color {
        Color::Black => symbol.to_lowercase(),
        _ => symbol,
    }
}

/// The moves as text: `1. e4 e5 2. Nf3 ...`.
pub fn moves_text(conn: &mut DbConn, row: &GameRow) -> Result<String, Error> {
    let moves = moves::of_game(conn, row.id)?;
    let mut out = String::new();
    let mut number = 0;
    let mut previous: Option<bool> = None;
    for m in &moves {
        let white = Some(m.played_by) != row.black_id;
        if white && previous != Some(true) {
            number += 1;
            out.push_str(&format!("{number}. "));
        } else if !white && previous.is_none() {
            number += 1;
            out.push_str(&format!("{number}... "));
        }
        out.push_str(&m.display);
        out.push(' ');
        previous = Some(white);
    }
    Ok(out.trim_end().to_string())
}

/// Render a queued mail from the database. `Ok(None)`: nothing to send any
/// more (the game moved on before a "your turn" mail went out, the user is
/// gone), and the row is closed without sending.
pub fn render(
    conn: &mut DbConn,
    ctx: &MailCtx,
    row: &OutboxRow,
    now: NaiveDateTime,
) -> Result<Option<Rendered>, Error> {
    let Some(user) =
        crate::db::users::find_by_id(conn, row.user_id)?.filter(|u| u.deleted_at.is_none())
    else {
        return Ok(None);
    };
    let Some(mail) = row.mail() else {
        return Ok(None);
    };
    let mut to = user.email.clone();
    let mut reply_to = None;
    let parts = match &mail {
        Mail::PasswordReset { .. }
        | Mail::PasswordChanged
        | Mail::EmailChangeConfirm { .. }
        | Mail::EmailChanging { .. } => {
            match crate::mail::account_mails::render(conn, ctx, &user, &mail, now)? {
                Some((parts, address)) => {
                    to = address;
                    Some(parts)
                }
                None => None,
            }
        }
        Mail::VerifyEmail => Some(kinds::verify_email(&VerifyData {
            username: user.username.clone(),
            verify_url: links::verify_url(&ctx.base_url, &ctx.secret, user.id, &user.email),
        })?),
        Mail::Digest => match crate::mail::digest::data(conn, ctx, &user, row.created_at, now)? {
            Some(data) => Some(kinds::digest(&data)?),
            None => None,
        },
        Mail::TournamentRound { tournament, round } => match crate::tournaments::views::round_mail(
            conn,
            &ctx.base_url,
            *tournament,
            *round,
            user.id,
        )? {
            Some(t) => Some(kinds::tournament_round(&footer_data(ctx, &user), &t)?),
            None => None,
        },
        Mail::TournamentEntered { tournament } => {
            match crate::tournaments::entry::entered_mail(conn, *tournament)? {
                Some((name, rules)) => {
                    let e = kinds::EnteredMail {
                        tournament: name,
                        tournament_url: format!("{}/tournaments/{tournament}", ctx.base_url),
                        rules,
                    };
                    Some(kinds::tournament_entered(&footer_data(ctx, &user), &e)?)
                }
                None => None,
            }
        }
        Mail::TournamentWithdrawn {
            tournament,
            reason,
            results_cancelled,
        } => match crate::db::tournaments::name_of(conn, *tournament)? {
            Some(name) => {
                let w = WithdrawnMail {
                    tournament: name,
                    tournament_url: format!("{}/tournaments/{tournament}", ctx.base_url),
                    reason: reason.clone(),
                    results_cancelled: *results_cancelled,
                };
                Some(kinds::tournament_withdrawn(&footer_data(ctx, &user), &w)?)
            }
            None => None,
        },
        Mail::LeaveBooked {
            from,
            first_day,
            last_day,
        } => {
            let data = MailData {
                opponent: username_or(conn, Some(*from))?,
                game_url: format!("{}/", ctx.base_url),
                leave_start: first_day.format("%Y-%m-%d").to_string(),
                leave_end: last_day.format("%Y-%m-%d").to_string(),
                ..footer_data(ctx, &user)
            };
            Some(kinds::leave_booked(&data)?)
        }
        game_mail => match render_game_mail(conn, ctx, &user, game_mail, now)? {
            Some((parts, reply)) => {
                reply_to = reply;
                Some(parts)
            }
            None => None,
        },
    };
    Ok(parts.map(|p| Rendered {
        to,
        subject: p.subject,
        text: p.text,
        html: p.html,
        unsubscribe_url: links::unsubscribe_url(&ctx.base_url, &ctx.secret, user.id),
        reply_to,
    }))
}

/// A user's name, or "your opponent" for nobody or a user gone.
fn username_or(conn: &mut DbConn, id: Option<i32>) -> Result<String, Error> {
    Ok(match id {
        Some(id) => crate::db::users::find_by_id(conn, id)?.map(|u| u.username),
        None => None,
    }
    .unwrap_or_else(|| "your opponent".into()))
}

/// A mail about one game, from the game as it is now: `None` when what it
/// says is no longer true (a challenge answered, a turn already played).
/// With the parts, the mail's own reply address when it asks for a move.
fn render_game_mail(
    conn: &mut DbConn,
    ctx: &MailCtx,
    user: &User,
    mail: &Mail,
    now: NaiveDateTime,
) -> Result<Option<(Parts, Option<String>)>, Error> {
    let Some(game_id) = mail.game() else {
        return Ok(None);
    };
    let game = games::load(conn, game_id)?;
    let variant = restore::variant_of(&game)?;
    let my_side = games::side_of(&game, user.id);
    let opponent_id = match my_side {
        Some(Color::White) => game.black_id,
        Some(Color::Black) => game.white_id,
        _ => mail.from().or(Some(game.challenger_id)),
    };
    let last_move = match mail {
        Mail::YourTurn { last_move, .. } | Mail::GameOver { last_move, .. } => last_move.clone(),
        Mail::ConditionalPlayed { last_move, .. } => Some(last_move.clone()),
        _ => None,
    };
    let MoveNote {
        display,
        comment,
        answers,
    } = last_move.unwrap_or_default();
    let mut data = MailData {
        opponent: username_or(conn, opponent_id)?,
        game_id: game.id,
        variant_name: variant.name().to_string(),
        game_url: format!("{}/games/{}", ctx.base_url, game.id),
        play_link_hours: ctx.play_link_ttl.num_hours(),
        last_move: display,
        comment: comment.unwrap_or_default(),
        answered: answers.unwrap_or_default(),
        ..footer_data(ctx, user)
    };
    // Only while it is still this player's turn at the mail's ply.
    let still_to_move = |ply: i32| game.ply == ply && games::player_to_move(&game) == Some(user.id);
    let expires = (now + ctx.play_link_ttl).and_utc().timestamp();
    let play_url = || {
        PlayLink {
            game: game.id,
            user: user.id,
            ply: game.ply,
            expires,
        }
        .url(&ctx.base_url, &ctx.secret)
    };
    // A mail with a play link is answered with the move at the reply
    // address, which grants what the link does.
    let mut reply_to = None;
    let mut reply_address = || {
        reply_to = ctx.mail_domain.as_ref().map(|domain| {
            links::ReplyToken {
                game: game.id,
                user: user.id,
                ply: game.ply,
                expires,
            }
            .address(&ctx.secret, domain)
        });
    };
    // Only the "your turn" and reminder mails show the clock.
    let with_clock = |conn: &mut DbConn, data: &mut MailData| -> Result<(), Error> {
        if let (Some(side), Some(clock)) = (my_side, crate::game::clock::view(conn, &game, now)?) {
            let zone = crate::domain::week::zone_or_utc(&user.time_zone);
            data.clock_text = crate::domain::clock::describe_for(&clock, side, zone);
        }
        Ok(())
    };
    let with_position = |conn: &mut DbConn, data: &mut MailData| -> Result<(), Error> {
        let g = restore::restore(conn, &game)?;
        data.diagram = text_diagram(&g.board_view(), my_side == Some(Color::Black));
        data.moves_text = moves_text(conn, &game)?;
        Ok(())
    };
    let parts = match *mail {
        Mail::ChallengeReceived { .. } => {
            if game.status != GameStatus::Pending {
                return Ok(None);
            }
            kinds::challenge_received(&data)?
        }
        Mail::ChallengeAccepted { ply, .. } => {
            // The challenger who moves first hears it here, in one mail.
            if still_to_move(ply) {
                with_clock(conn, &mut data)?;
                with_position(conn, &mut data)?;
                data.play_url = play_url();
                reply_address();
            }
            kinds::challenge_accepted(&data)?
        }
        Mail::YourTurn { ply, .. } => {
            if !still_to_move(ply) {
                return Ok(None);
            }
            with_clock(conn, &mut data)?;
            with_position(conn, &mut data)?;
            data.play_url = play_url();
            reply_address();
            kinds::your_turn(&data)?
        }
        Mail::ConditionalPlayed { .. } => {
            with_position(conn, &mut data)?;
            kinds::conditional_played(&data)?
        }
        Mail::ClockReminder { ply, .. } => {
            if !still_to_move(ply) {
                return Ok(None);
            }
            with_clock(conn, &mut data)?;
            data.play_url = play_url();
            reply_address();
            kinds::clock_reminder(&data)?
        }
        Mail::DrawOffer { .. } => {
            if game.status != GameStatus::Active {
                return Ok(None);
            }
            with_position(conn, &mut data)?;
            kinds::draw_offer(&data)?
        }
        Mail::TakebackOffer { ply, .. } => {
            // Answered, withdrawn or overtaken by a move before it went out.
            if game.status != GameStatus::Active || game.takeback_offer.is_none() || game.ply != ply
            {
                return Ok(None);
            }
            with_position(conn, &mut data)?;
            kinds::takeback_offer(&data)?
        }
        Mail::ReplyDone { ref act, .. } => {
            with_position(conn, &mut data)?;
            data.reply_text = act.clone();
            kinds::reply_done(&data)?
        }
        Mail::ReplyRefused {
            ply, ref reason, ..
        } => {
            with_position(conn, &mut data)?;
            data.reply_text = reason.clone();
            // The moves the player may make, while they still may.
            if ply.is_some_and(still_to_move) {
                let g = restore::restore(conn, &game)?;
                data.legal_moves = g
                    .legal_move_forms()
                    .iter()
                    .map(|m| m.display.as_str())
                    .collect::<Vec<_>>()
                    .join(" ");
            }
            kinds::reply_refused(&data)?
        }
        Mail::ClockNotice {
            ply,
            notice,
            about,
            ref detail,
            ..
        } => {
            // A warning or a claim is news only while the game is on, at
            // the ply it was sent for (a claim: until the game ends).
            let stale = match notice {
                ClockNotice::SilenceWarning | ClockNotice::SilenceReport => {
                    game.status != GameStatus::Active || game.ply != ply
                }
                ClockNotice::FlagFell => {
                    game.status != GameStatus::Active || game.flag_fell_side.is_none()
                }
                ClockNotice::TimeExtended | ClockNotice::Adjudicated => false,
            };
            if stale {
                return Ok(None);
            }
            let player = match about {
                Some(a) if a == user.id => "you".to_string(),
                other => username_or(conn, other)?,
            };
            let n = NoticeMail {
                notice,
                player,
                detail: detail.clone(),
                silence_days: game.silence_days.unwrap_or(0),
                claim_url: format!("{}/games/{}#claim", ctx.base_url, game.id),
            };
            kinds::clock_notice(&data, &n)?
        }
        Mail::GameOver { .. } => {
            with_position(conn, &mut data)?;
            let sides = [
                variant.side_name(Side::White.color()),
                variant.side_name(Side::Black.color()),
            ];
            data.result_words = games::describe_result(&game, sides).unwrap_or_default();
            data.result_text = format!(
                "{} ({})",
                game.result.map(|r| r.code()).unwrap_or_default(),
                data.result_words
            );
            kinds::game_over(&data)?
        }
        _ => return Ok(None),
    };
    Ok(Some((parts, reply_to)))
}

#[derive(Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }
    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribe(s.to_string()))
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.clone())
    }
}

#[derive(Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }
    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribePost)
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".to_string())
    }
}

/// The Message-ID of an outbox row: the same on every attempt, so a mail
/// sent twice (a process killed between the SMTP server's "OK" and marking
/// the row sent) is one message to a receiver that de-duplicates.
pub fn message_id(ctx: &MailCtx, row: &OutboxRow) -> String {
    let domain = ctx.from.email.domain();
    format!(
        "<missive.{}.{}@{domain}>",
        row.id,
        row.created_at.and_utc().timestamp_micros()
    )
}

/// The message: plain text and HTML alternatives, Reply-To and
/// List-Unsubscribe headers, the row's stable Message-ID.
/// The message of a rendered mail. An address that is not one plain
/// address (stored before sign-up checked it so) is refused for good: no
/// retry makes it one.
pub fn build_message(
    ctx: &MailCtx,
    row: &OutboxRow,
    mail: &Rendered,
) -> Result<Message, crate::mail::transport::SendError> {
    use crate::mail::transport::SendError;
    let plain = crate::accounts::users::validate_email(mail.to.trim());
    let to: Mailbox = match (plain, mail.to.trim().parse::<lettre::Address>()) {
        (Ok(()), Ok(address)) => Mailbox::new(None, address),
        (Err(e), _) => return Err(SendError::Refused(format!("bad recipient address: {e}"))),
        (_, Err(e)) => return Err(SendError::Refused(format!("bad recipient address: {e}"))),
    };
    Message::builder()
        .message_id(Some(message_id(ctx, row)))
        .from(ctx.from.clone())
        .reply_to(match mail.reply_to.as_deref().map(str::parse::<Mailbox>) {
            Some(Ok(own)) => own,
            _ => ctx.reply_to.clone(),
        })
        .to(to)
        .subject(mail.subject.clone())
        .header(ListUnsubscribe(format!("<{}>", mail.unsubscribe_url)))
        .header(ListUnsubscribePost)
        .multipart(MultiPart::alternative_plain_html(
            mail.text.clone(),
            mail.html.clone(),
        ))
        .map_err(|e| SendError::Failed(format!("cannot build the message: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagram_of_the_start_position() {
        let chess = missive_rules::variant("chess").unwrap();
        let g = missive_rules::Game::new(chess, None).unwrap();
        let d = text_diagram(&g.board_view(), false);
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines[0], "8  r n b q k b n r");
        assert_eq!(lines[4], "4  . . . . . . . .");
        assert_eq!(lines[7], "1  R N B Q K B N R");
        assert_eq!(lines[8], "   a b c d e f g h");
        let flipped = text_diagram(&g.board_view(), true);
        assert!(flipped.starts_with("1  R N B K Q B N R"), "{flipped}");
        assert!(!d.contains("Capitals"), "{d}");
    }

    /// Leap Chess's diagram shows the board's letters (S D A, not the
    /// FEN's Q R B), says which case is Red's, and keys the fairy pieces.
    #[test]
    fn leap_chess_diagram_in_its_own_words() {
        let leap = missive_rules::variant("leap-chess").unwrap();
        let g = missive_rules::Game::new(leap, None).unwrap();
        let d = text_diagram(&g.board_view(), false);
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines[1], "7  d p a a p d", "{d}");
        assert_eq!(lines[6], "2  D P A A P D", "{d}");
        assert!(lines[0].contains(" n s k n"), "{d}");
        assert!(d.contains("Capitals: Red; lower case: Black."), "{d}");
        assert!(d.contains("S Sail"), "{d}");
    }
}
