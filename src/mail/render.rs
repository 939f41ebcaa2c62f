//! A queued mail rendered from the database as it is now: subject, text
//! and HTML; a mail that is no longer true renders to nothing.

use crate::accounts::links::{self, PlayLink};
use crate::db::models::{GameRow, User};
use crate::db::outbox::{
    OutboxRow, Payload, CHALLENGE_ACCEPTED, CHALLENGE_RECEIVED, CLOCK_REMINDER, DIGEST, DRAW_OFFER,
    GAME_OVER, LEAVE_BOOKED, TOURNAMENT_ROUND, TOURNAMENT_WITHDRAWN, VERIFY_EMAIL, YOUR_TURN,
};
use crate::db::DbConn;
use crate::domain::error::Error;
use crate::game::restore;
use crate::game::rows;
use crate::mail::context::{footer_data, MailCtx, MailData, Rendered};
use askama::Template;
use chrono::NaiveDateTime;
use lettre::message::header::{Header, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::Message;
use missive_rules::Color;
use missive_rules::{BoardView, Cell};

macro_rules! mail_templates {
    ($($name:ident => $path:literal),* $(,)?) => {
        $(
            #[derive(Template)]
            #[template(path = $path)]
            struct $name<'a> {
                m: &'a MailData,
            }
        )*
    };
}

#[derive(Template)]
#[template(path = "email/tournament_round.txt")]
struct TournamentRoundTxt<'a> {
    m: &'a MailData,
    t: &'a crate::tournaments::views::RoundMail,
}

#[derive(Template)]
#[template(path = "email/tournament_round.html")]
struct TournamentRoundHtml<'a> {
    m: &'a MailData,
    t: &'a crate::tournaments::views::RoundMail,
}

/// A withdrawal notice: the tournament, why, and what became of the results.
pub struct WithdrawnMail {
    pub tournament: String,
    pub tournament_url: String,
    pub reason: String,
    pub results_cancelled: bool,
}

#[derive(Template)]
#[template(path = "email/tournament_withdrawn.txt")]
struct WithdrawnTxt<'a> {
    m: &'a MailData,
    w: &'a WithdrawnMail,
}

#[derive(Template)]
#[template(path = "email/tournament_withdrawn.html")]
struct WithdrawnHtml<'a> {
    m: &'a MailData,
    w: &'a WithdrawnMail,
}

pub struct VerifyData {
    pub username: String,
    pub verify_url: String,
}

#[derive(Template)]
#[template(path = "email/verify_email.txt")]
struct VerifyTxt<'a> {
    m: &'a VerifyData,
}

#[derive(Template)]
#[template(path = "email/verify_email.html")]
struct VerifyHtml<'a> {
    m: &'a VerifyData,
}

mail_templates!(
    ChallengeReceivedTxt => "email/challenge_received.txt",
    ChallengeReceivedHtml => "email/challenge_received.html",
    ChallengeAcceptedTxt => "email/challenge_accepted.txt",
    ChallengeAcceptedHtml => "email/challenge_accepted.html",
    YourTurnTxt => "email/your_turn.txt",
    YourTurnHtml => "email/your_turn.html",
    GameOverTxt => "email/game_over.txt",
    GameOverHtml => "email/game_over.html",
    DrawOfferTxt => "email/draw_offer.txt",
    DrawOfferHtml => "email/draw_offer.html",
    ClockReminderTxt => "email/clock_reminder.txt",
    ClockReminderHtml => "email/clock_reminder.html",
    LeaveBookedTxt => "email/leave_booked.txt",
    LeaveBookedHtml => "email/leave_booked.html",
);

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
    let moves = rows::moves_of(conn, row.id)?;
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
    let Some(user) = crate::accounts::users::find_by_id(conn, row.user_id)? else {
        return Ok(None);
    };
    let payload: Payload = serde_json::from_str(&row.payload).unwrap_or_default();
    if row.kind == VERIFY_EMAIL {
        let data = VerifyData {
            username: user.username.clone(),
            verify_url: links::verify_url(&ctx.base_url, &ctx.secret, user.id, &user.email),
        };
        return Ok(Some(Rendered {
            subject: "Confirm your email address for Missive".into(),
            text: VerifyTxt { m: &data }.render()?,
            html: VerifyHtml { m: &data }.render()?,
            to: user.email,
            unsubscribe_url: links::unsubscribe_url(&ctx.base_url, &ctx.secret, user.id),
        }));
    }
    if row.kind == TOURNAMENT_ROUND {
        let Some(tid) = payload.tournament_id else {
            return Ok(None);
        };
        let Some(data) = crate::tournaments::views::round_mail(
            conn,
            &ctx.base_url,
            tid,
            payload.round,
            user.id,
        )?
        else {
            return Ok(None);
        };
        let footer = footer_data(ctx, &user);
        return Ok(Some(Rendered {
            subject: format!("{}: your games ({})", data.tournament, data.round),
            text: TournamentRoundTxt {
                m: &footer,
                t: &data,
            }
            .render()?,
            html: TournamentRoundHtml {
                m: &footer,
                t: &data,
            }
            .render()?,
            to: user.email,
            unsubscribe_url: footer.unsubscribe_url.clone(),
        }));
    }
    if row.kind == LEAVE_BOOKED {
        return render_leave(conn, ctx, &user, &payload).map(Some);
    }
    if row.kind == TOURNAMENT_WITHDRAWN {
        let Some(tid) = payload.tournament_id else {
            return Ok(None);
        };
        let Some(tournament) = crate::tournaments::rows::name_of(conn, tid)? else {
            return Ok(None);
        };
        let w = WithdrawnMail {
            tournament,
            tournament_url: format!("{}/tournaments/{tid}", ctx.base_url),
            reason: payload.reason.clone().unwrap_or_default(),
            results_cancelled: payload.results_cancelled.unwrap_or(false),
        };
        let footer = footer_data(ctx, &user);
        return Ok(Some(Rendered {
            subject: format!("{}: you have been withdrawn", w.tournament),
            text: WithdrawnTxt { m: &footer, w: &w }.render()?,
            html: WithdrawnHtml { m: &footer, w: &w }.render()?,
            to: user.email,
            unsubscribe_url: footer.unsubscribe_url.clone(),
        }));
    }
    if row.kind == DIGEST {
        return crate::mail::digest::render(conn, ctx, &user, row.created_at, now);
    }
    let game = match row.game_id {
        Some(id) => Some(rows::load(conn, id)?),
        None => None,
    };
    let Some(game) = game else {
        return Ok(None);
    };
    let variant = restore::variant_of(&game)?;
    let my_side = rows::side_of(&game, user.id);
    let opponent_id = match my_side {
        Some(Color::White) => game.black_id,
        Some(Color::Black) => game.white_id,
        _ => payload.from_user.or(Some(game.challenger_id)),
    };
    let opponent = match opponent_id {
        Some(id) => crate::accounts::users::find_by_id(conn, id)?.map(|u| u.username),
        None => None,
    }
    .unwrap_or_else(|| "your opponent".into());
    let game_url = format!("{}/games/{}", ctx.base_url, game.id);
    let unsubscribe_url = links::unsubscribe_url(&ctx.base_url, &ctx.secret, user.id);
    let mut data = MailData {
        username: user.username.clone(),
        opponent: opponent.clone(),
        game_id: game.id,
        variant_name: variant.name().to_string(),
        game_url,
        play_url: String::new(),
        play_link_hours: ctx.play_link_ttl.num_hours(),
        last_move: payload.display.clone().unwrap_or_default(),
        comment: payload.comment.clone().unwrap_or_default(),
        diagram: String::new(),
        moves_text: String::new(),
        result_text: String::new(),
        unsubscribe_url: unsubscribe_url.clone(),
        settings_url: format!("{}/settings/mail", ctx.base_url),
        clock_text: String::new(),
        leave_start: String::new(),
        leave_end: String::new(),
    };
    // Only the "your turn" and reminder mails show the clock.
    let with_clock = |conn: &mut DbConn, data: &mut MailData| -> Result<(), Error> {
        if let (Some(side), Some(clock)) = (my_side, crate::clocks::state::view(conn, &game, now)?)
        {
            data.clock_text = crate::clocks::state::describe_for(&clock, side);
        }
        Ok(())
    };
    let with_position = |conn: &mut DbConn, data: &mut MailData| -> Result<(), Error> {
        let g = restore::restore(conn, &game)?;
        data.diagram = text_diagram(&g.board_view(), my_side == Some(Color::Black));
        data.moves_text = moves_text(conn, &game)?;
        Ok(())
    };
    let (subject, text, html) = match row.kind.as_str() {
        CHALLENGE_RECEIVED => {
            if game.status != rows::PENDING {
                return Ok(None);
            }
            let t = ChallengeReceivedTxt { m: &data }.render()?;
            let h = ChallengeReceivedHtml { m: &data }.render()?;
            (
                format!("{opponent} challenges you to {}", data.variant_name),
                t,
                h,
            )
        }
        CHALLENGE_ACCEPTED => {
            let t = ChallengeAcceptedTxt { m: &data }.render()?;
            let h = ChallengeAcceptedHtml { m: &data }.render()?;
            (
                format!("{opponent} accepted your {} challenge", data.variant_name),
                t,
                h,
            )
        }
        YOUR_TURN => {
            // Only while it is still this player's turn at that ply.
            if Some(game.ply) != row.ply || rows::player_to_move(&game) != Some(user.id) {
                return Ok(None);
            }
            with_clock(conn, &mut data)?;
            with_position(conn, &mut data)?;
            let link = PlayLink {
                game: game.id,
                user: user.id,
                ply: game.ply,
                expires: (now + ctx.play_link_ttl).and_utc().timestamp(),
            };
            data.play_url = link.url(&ctx.base_url, &ctx.secret);
            let t = YourTurnTxt { m: &data }.render()?;
            let h = YourTurnHtml { m: &data }.render()?;
            let subject = if data.last_move.is_empty() {
                format!("Your move against {opponent} (game {})", game.id)
            } else {
                format!(
                    "Your move against {opponent}: {} played {} (game {})",
                    opponent, data.last_move, game.id
                )
            };
            (subject, t, h)
        }
        GAME_OVER => {
            with_position(conn, &mut data)?;
            let sides = [
                variant.side_name(Color::White),
                variant.side_name(Color::Black),
            ];
            let described = rows::describe_result(&game, sides).unwrap_or_default();
            data.result_text = format!("{} ({described})", game.result.clone().unwrap_or_default());
            let t = GameOverTxt { m: &data }.render()?;
            let h = GameOverHtml { m: &data }.render()?;
            (
                format!("Game {} against {opponent} is over: {described}", game.id),
                t,
                h,
            )
        }
        CLOCK_REMINDER => {
            // Only while it is still this player's turn at that ply.
            if Some(game.ply) != row.ply || rows::player_to_move(&game) != Some(user.id) {
                return Ok(None);
            }
            with_clock(conn, &mut data)?;
            let link = PlayLink {
                game: game.id,
                user: user.id,
                ply: game.ply,
                expires: (now + ctx.play_link_ttl).and_utc().timestamp(),
            };
            data.play_url = link.url(&ctx.base_url, &ctx.secret);
            let t = ClockReminderTxt { m: &data }.render()?;
            let h = ClockReminderHtml { m: &data }.render()?;
            (
                format!("Time is running out in game {} against {opponent}", game.id),
                t,
                h,
            )
        }
        DRAW_OFFER => {
            if game.status != rows::ACTIVE {
                return Ok(None);
            }
            with_position(conn, &mut data)?;
            let t = DrawOfferTxt { m: &data }.render()?;
            let h = DrawOfferHtml { m: &data }.render()?;
            (format!("{opponent} offers a draw (game {})", game.id), t, h)
        }
        other => return Err(Error::internal(format!("unknown mail kind {other}"))),
    };
    Ok(Some(Rendered {
        to: user.email,
        subject,
        text,
        html,
        unsubscribe_url,
    }))
}

/// "Your opponent is on leave" (no single game: one mail per opponent).
fn render_leave(
    conn: &mut DbConn,
    ctx: &MailCtx,
    user: &User,
    payload: &Payload,
) -> Result<Rendered, Error> {
    let opponent = match payload.from_user {
        Some(id) => crate::accounts::users::find_by_id(conn, id)?.map(|u| u.username),
        None => None,
    }
    .unwrap_or_else(|| "your opponent".into());
    let data = MailData {
        opponent: opponent.clone(),
        game_url: format!("{}/", ctx.base_url),
        leave_start: payload.leave_start.clone().unwrap_or_default(),
        leave_end: payload.leave_end.clone().unwrap_or_default(),
        ..footer_data(ctx, user)
    };
    Ok(Rendered {
        to: user.email.clone(),
        subject: format!(
            "{opponent} will be on leave from {} to {}",
            data.leave_start, data.leave_end
        ),
        text: LeaveBookedTxt { m: &data }.render()?,
        html: LeaveBookedHtml { m: &data }.render()?,
        unsubscribe_url: data.unsubscribe_url.clone(),
    })
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
pub fn build_message(ctx: &MailCtx, row: &OutboxRow, mail: &Rendered) -> Result<Message, String> {
    let to: Mailbox = mail
        .to
        .parse()
        .map_err(|e| format!("bad recipient address: {e}"))?;
    Message::builder()
        .message_id(Some(message_id(ctx, row)))
        .from(ctx.from.clone())
        .reply_to(ctx.reply_to.clone())
        .to(to)
        .subject(mail.subject.clone())
        .header(ListUnsubscribe(format!("<{}>", mail.unsubscribe_url)))
        .header(ListUnsubscribePost)
        .multipart(MultiPart::alternative_plain_html(
            mail.text.clone(),
            mail.html.clone(),
        ))
        .map_err(|e| format!("cannot build the message: {e}"))
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
