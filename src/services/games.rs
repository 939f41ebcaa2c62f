//! Games: challenges, moves, resignations and draws. Legality is decided by
//! the rules crate only; this module stores what it says.

use crate::db::models::{GameRow, MoveRow, NewGame, NewMove, User};
use crate::db::schema::{games, moves, users};
use crate::db::{is_unique_violation, last_insert_id, DbConn};
use crate::error::AppError;
use crate::services::mail;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use missive_rules::{Color, Game, Played, Variant};
use std::collections::HashMap;

pub const PENDING: &str = "pending";
pub const ACTIVE: &str = "active";
pub const FINISHED: &str = "finished";
pub const DECLINED: &str = "declined";
pub const WITHDRAWN: &str = "withdrawn";

/// Longest custom start position accepted.
pub const FEN_MAX: usize = 2000;
/// Longest move text accepted before asking the rules crate.
pub const MOVE_TEXT_MAX: usize = 500;
/// Longest `//` comment kept with a move (the move text limit bounds it too).
pub const COMMENT_MAX: usize = 400;

pub fn color_code(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
        Color::Neutral => "neutral",
    }
}

pub fn parse_color(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// A challenge as the form sends it.
#[derive(Clone, Debug, Default)]
pub struct Challenge {
    pub variant: String,
    /// Empty for an open seek.
    pub opponent: String,
    /// `white`, `black` or `random`.
    pub color: String,
    /// Empty for the variant's start position.
    pub fen: String,
}

pub fn variant_of(row: &GameRow) -> Result<&'static dyn Variant, AppError> {
    missive_rules::variant(&row.variant).ok_or_else(|| {
        AppError::internal(format!(
            "game {} has unknown variant {}",
            row.id, row.variant
        ))
    })
}

/// The game as the rules crate sees it, from the stored FEN and history.
pub fn restore(row: &GameRow) -> Result<Game, AppError> {
    let variant = variant_of(row)?;
    Game::restore(variant, &row.fen, &row.history)
        .map_err(|e| AppError::internal(format!("game {} cannot be restored: {e}", row.id)))
}

pub fn create_game(
    conn: &mut DbConn,
    creator: &User,
    challenge: &Challenge,
    now: NaiveDateTime,
) -> Result<i32, AppError> {
    let variant = missive_rules::variant(challenge.variant.trim()).ok_or_else(|| {
        AppError::Invalid(format!(
            "There is no variant “{}”: choose one from the list.",
            crate::web::clip(challenge.variant.trim(), 40)
        ))
    })?;
    let opponent_name = challenge.opponent.trim();
    let opponent = if opponent_name.is_empty() {
        None
    } else {
        let found = crate::services::accounts::find_by_name(conn, opponent_name)?;
        let found = found.ok_or_else(|| {
            AppError::Invalid(format!(
                "There is no player named “{}”.",
                crate::web::clip(opponent_name, 40)
            ))
        })?;
        if found.id == creator.id {
            return Err(AppError::Invalid("You cannot challenge yourself.".into()));
        }
        Some(found)
    };
    let color = match challenge.color.trim() {
        "white" => Color::White,
        "black" => Color::Black,
        "random" | "" => {
            if rand::random::<bool>() {
                Color::White
            } else {
                Color::Black
            }
        }
        other => {
            return Err(AppError::Invalid(format!(
                "“{}” is not a colour: choose white, black or random.",
                crate::web::clip(other, 20)
            )))
        }
    };
    let fen = challenge.fen.trim();
    if fen.len() > FEN_MAX {
        return Err(AppError::Invalid(format!(
            "The start position is too long (at most {FEN_MAX} characters)."
        )));
    }
    let game = Game::new(variant, Some(fen))
        .map_err(|e| AppError::Invalid(format!("The start position cannot be used: {e}.")))?;
    if let Some(outcome) = game.outcome() {
        return Err(AppError::Invalid(format!(
            "The start position cannot be used: the game would already be over ({outcome})."
        )));
    }
    let start_fen = game.fen();
    let history = game.history_string();
    let (white_id, black_id) = match color {
        Color::White => (Some(creator.id), opponent.as_ref().map(|o| o.id)),
        _ => (opponent.as_ref().map(|o| o.id), Some(creator.id)),
    };
    let new = NewGame {
        variant: variant.id(),
        status: PENDING,
        challenger_id: creator.id,
        opponent_id: opponent.as_ref().map(|o| o.id),
        white_id,
        black_id,
        challenger_color: color_code(color),
        start_fen: &start_fen,
        fen: &start_fen,
        history: &history,
        ply: 0,
        turn: color_code(game.side_to_move()),
        created_at: now,
        updated_at: now,
    };
    conn.transaction::<_, AppError, _>(|conn| {
        diesel::insert_into(games::table)
            .values(&new)
            .execute(conn)?;
        let id = last_insert_id(conn)?;
        if let Some(o) = &opponent {
            mail::enqueue(
                conn,
                mail::CHALLENGE_RECEIVED,
                o.id,
                Some(id),
                Some(0),
                &mail::Payload {
                    from_user: Some(creator.id),
                    ..Default::default()
                },
                now,
            )?;
        }
        Ok(id)
    })
}

pub fn load(conn: &mut DbConn, id: i32) -> Result<GameRow, AppError> {
    games::table
        .find(id)
        .select(GameRow::as_select())
        .first(conn)
        .optional()?
        .ok_or_else(|| AppError::NotFound(format!("There is no game {id}.")))
}

pub fn moves_of(conn: &mut DbConn, game_id: i32) -> Result<Vec<MoveRow>, AppError> {
    Ok(moves::table
        .filter(moves::game_id.eq(game_id))
        .order(moves::ply.asc())
        .select(MoveRow::as_select())
        .load(conn)?)
}

/// Which side a user plays in a game, if any.
pub fn side_of(row: &GameRow, user_id: i32) -> Option<Color> {
    if row.white_id == Some(user_id) {
        Some(Color::White)
    } else if row.black_id == Some(user_id) {
        Some(Color::Black)
    } else {
        None
    }
}

fn player_of(row: &GameRow, color: Color) -> Option<i32> {
    match color {
        Color::White => row.white_id,
        Color::Black => row.black_id,
        Color::Neutral => None,
    }
}

pub fn accept(conn: &mut DbConn, id: i32, user: &User, now: NaiveDateTime) -> Result<(), AppError> {
    let row = load(conn, id)?;
    if row.status != PENDING {
        return Err(AppError::Conflict(
            "This challenge is no longer open: it was already accepted, declined or withdrawn."
                .into(),
        ));
    }
    if row.challenger_id == user.id {
        return Err(AppError::Forbidden(
            "You cannot accept your own challenge.".into(),
        ));
    }
    if let Some(o) = row.opponent_id {
        if o != user.id {
            return Err(AppError::Forbidden(
                "This challenge is addressed to another player.".into(),
            ));
        }
    }
    let (white_id, black_id) = if row.challenger_color == "white" {
        (Some(row.challenger_id), Some(user.id))
    } else {
        (Some(user.id), Some(row.challenger_id))
    };
    conn.transaction::<_, AppError, _>(|conn| {
        let n = diesel::update(
            games::table
                .filter(games::id.eq(id))
                .filter(games::status.eq(PENDING)),
        )
        .set((
            games::status.eq(ACTIVE),
            games::opponent_id.eq(Some(user.id)),
            games::white_id.eq(white_id),
            games::black_id.eq(black_id),
            games::updated_at.eq(now),
        ))
        .execute(conn)?;
        if n == 0 {
            return Err(AppError::Conflict(
                "Someone else answered this challenge first.".into(),
            ));
        }
        mail::on_accept(conn, &row, user.id, white_id, black_id, now)?;
        Ok(())
    })
}

/// The opponent declines, or the challenger withdraws.
pub fn decline(
    conn: &mut DbConn,
    id: i32,
    user: &User,
    now: NaiveDateTime,
) -> Result<(), AppError> {
    let row = load(conn, id)?;
    if row.status != PENDING {
        return Err(AppError::Conflict(
            "This challenge is no longer open.".into(),
        ));
    }
    let new_status = if row.opponent_id == Some(user.id) {
        DECLINED
    } else if row.challenger_id == user.id {
        WITHDRAWN
    } else {
        return Err(AppError::Forbidden(
            "Only the player challenged can decline this challenge (or its author withdraw it)."
                .into(),
        ));
    };
    let n = diesel::update(
        games::table
            .filter(games::id.eq(id))
            .filter(games::status.eq(PENDING)),
    )
    .set((
        games::status.eq(new_status),
        games::updated_at.eq(now),
        games::ended_at.eq(Some(now)),
    ))
    .execute(conn)?;
    if n == 0 {
        return Err(AppError::Conflict(
            "This challenge is no longer open.".into(),
        ));
    }
    Ok(())
}

/// What a move submission did.
pub enum MoveOutcome {
    /// Not stored: the position it would give, for the confirmation step.
    Preview {
        played: Played,
        after: Box<Game>,
    },
    Committed {
        played: Played,
    },
}

/// Check that `user` may move in `row` now.
fn check_mover(row: &GameRow, user: &User) -> Result<Color, AppError> {
    let side = side_of(row, user.id)
        .ok_or_else(|| AppError::Forbidden("You are not playing in this game.".into()))?;
    match row.status.as_str() {
        ACTIVE => {}
        PENDING => {
            return Err(AppError::Forbidden(
                "The game has not started: the challenge has not been accepted yet.".into(),
            ))
        }
        _ => return Err(AppError::Forbidden("This game is over.".into())),
    }
    if row.turn != color_code(side) {
        return Err(AppError::Forbidden(
            "It is not your turn: wait for your opponent's move.".into(),
        ));
    }
    Ok(side)
}

/// Read, check and (when `commit`) store a move. `expected_ply` is the ply
/// the player saw; if the game has moved on since, nothing is played.
pub fn submit_move(
    conn: &mut DbConn,
    id: i32,
    user: &User,
    text: &str,
    expected_ply: Option<i32>,
    commit: bool,
    now: NaiveDateTime,
) -> Result<MoveOutcome, AppError> {
    let row = load(conn, id)?;
    if expected_ply.is_some_and(|p| p != row.ply) {
        return Err(AppError::position_changed());
    }
    move_from(conn, &row, user, text, commit, now)
}

/// [`submit_move`] on a game row already loaded. If the row is stale (another
/// move was stored since it was read), nothing is stored and the answer is
/// "the position has changed".
pub fn move_from(
    conn: &mut DbConn,
    row: &GameRow,
    user: &User,
    text: &str,
    commit: bool,
    now: NaiveDateTime,
) -> Result<MoveOutcome, AppError> {
    let id = row.id;
    let side = check_mover(row, user)?;
    if text.len() > MOVE_TEXT_MAX {
        return Err(AppError::Invalid(
            "That text is far too long to be a move.".into(),
        ));
    }
    let mut game = restore(row)?;
    let played = game
        .play_text(text)
        .map_err(|e| AppError::Invalid(capitalise(&e.to_string())))?;
    if !commit {
        return Ok(MoveOutcome::Preview {
            played,
            after: Box::new(game),
        });
    }
    let variant = game.variant();
    let (from, to) = variant.move_squares(&played.mv);
    let from = from.map(|s| s.name());
    let to = to.name();
    let fen = game.fen();
    let outcome = game.outcome();
    let (status, result, reason, ended_at) = match outcome {
        Some(o) => (
            FINISHED,
            Some(o.result_code().to_string()),
            Some(o.reason.code().to_string()),
            Some(now),
        ),
        None => (ACTIVE, None, None, None),
    };
    let draw_offer = match row.draw_offer.as_deref() {
        Some(c) if c == color_code(side) && outcome.is_none() => Some(c.to_string()),
        _ => None,
    };
    let new_ply = row.ply + 1;
    conn.transaction::<_, AppError, _>(|conn| {
        // The conditional update is the guard: only one request can move the
        // game from `row.ply`; the unique (game_id, ply) key backs it up.
        let n = diesel::update(
            games::table
                .filter(games::id.eq(id))
                .filter(games::ply.eq(row.ply))
                .filter(games::status.eq(ACTIVE)),
        )
        .set((
            games::fen.eq(&fen),
            games::history.eq(game.history_string()),
            games::ply.eq(new_ply),
            games::turn.eq(color_code(game.side_to_move())),
            games::status.eq(status),
            games::result.eq(&result),
            games::reason.eq(&reason),
            games::draw_offer.eq(&draw_offer),
            games::updated_at.eq(now),
            games::ended_at.eq(ended_at),
        ))
        .execute(conn)?;
        if n == 0 {
            return Err(AppError::position_changed());
        }
        let mv = NewMove {
            game_id: id,
            ply: new_ply,
            display: &played.display,
            coordinate: &played.coordinate,
            from_square: from.as_deref(),
            to_square: &to,
            fen_after: &fen,
            played_by: user.id,
            played_at: now,
            comment: played
                .comment
                .as_deref()
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(|c| crate::web::clip(c, COMMENT_MAX)),
        };
        match diesel::insert_into(moves::table).values(&mv).execute(conn) {
            Ok(_) => {}
            Err(e) if is_unique_violation(&e) => return Err(AppError::position_changed()),
            Err(e) => return Err(e.into()),
        }
        mail::on_move(conn, row, user.id, new_ply, outcome.is_some(), &played, now)?;
        Ok(())
    })?;
    Ok(MoveOutcome::Committed { played })
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

fn check_participant(row: &GameRow, user: &User, what: &str) -> Result<Color, AppError> {
    let side = side_of(row, user.id)
        .ok_or_else(|| AppError::Forbidden(format!("Only the two players can {what}.")))?;
    if row.status != ACTIVE {
        return Err(AppError::Forbidden(format!(
            "You cannot {what}: the game is not in progress."
        )));
    }
    Ok(side)
}

fn finish(
    conn: &mut DbConn,
    row: &GameRow,
    result: &str,
    reason: &str,
    extra_guard_offer: Option<&str>,
    now: NaiveDateTime,
) -> Result<(), AppError> {
    let target = games::table
        .filter(games::id.eq(row.id))
        .filter(games::status.eq(ACTIVE));
    let changes = (
        games::status.eq(FINISHED),
        games::result.eq(Some(result)),
        games::reason.eq(Some(reason)),
        games::draw_offer.eq(None::<String>),
        games::updated_at.eq(now),
        games::ended_at.eq(Some(now)),
    );
    conn.transaction::<_, AppError, _>(|conn| {
        let n = match extra_guard_offer {
            Some(offer) => diesel::update(target.filter(games::draw_offer.eq(offer.to_string())))
                .set(changes)
                .execute(conn)?,
            None => diesel::update(target).set(changes).execute(conn)?,
        };
        if n == 0 {
            return Err(AppError::Conflict(
                "The game changed in the meantime; look at it again.".into(),
            ));
        }
        mail::on_game_over(conn, row, None, now)?;
        Ok(())
    })
}

pub fn resign(conn: &mut DbConn, id: i32, user: &User, now: NaiveDateTime) -> Result<(), AppError> {
    let row = load(conn, id)?;
    let side = check_participant(&row, user, "resign")?;
    let result = if side == Color::White { "0-1" } else { "1-0" };
    finish(conn, &row, result, "resignation", None, now)
}

pub fn draw(
    conn: &mut DbConn,
    id: i32,
    user: &User,
    action: &str,
    now: NaiveDateTime,
) -> Result<(), AppError> {
    let row = load(conn, id)?;
    let side = check_participant(&row, user, "offer or answer a draw")?;
    let mine = color_code(side);
    let theirs = color_code(side.opponent());
    let offer = row.draw_offer.as_deref();
    match action {
        "offer" => {
            if offer == Some(theirs) {
                return finish(conn, &row, "1/2-1/2", "agreement", Some(theirs), now);
            }
            if offer == Some(mine) {
                return Err(AppError::Invalid("You have already offered a draw.".into()));
            }
            conn.transaction::<_, AppError, _>(|conn| {
                let n = diesel::update(
                    games::table
                        .filter(games::id.eq(id))
                        .filter(games::status.eq(ACTIVE))
                        .filter(games::draw_offer.is_null()),
                )
                .set(games::draw_offer.eq(Some(mine)))
                .execute(conn)?;
                if n == 0 {
                    return Err(AppError::Conflict(
                        "The game changed in the meantime; look at it again.".into(),
                    ));
                }
                if let Some(to) = player_of(&row, side.opponent()) {
                    mail::enqueue(
                        conn,
                        mail::DRAW_OFFER,
                        to,
                        Some(id),
                        Some(row.ply),
                        &mail::Payload {
                            from_user: Some(user.id),
                            ..Default::default()
                        },
                        now,
                    )?;
                }
                Ok(())
            })
        }
        "accept" => {
            if offer != Some(theirs) {
                return Err(AppError::Invalid(
                    "There is no draw offer from your opponent to accept.".into(),
                ));
            }
            finish(conn, &row, "1/2-1/2", "agreement", Some(theirs), now)
        }
        "decline" => {
            if offer != Some(theirs) {
                return Err(AppError::Invalid(
                    "There is no draw offer from your opponent to decline.".into(),
                ));
            }
            diesel::update(
                games::table
                    .filter(games::id.eq(id))
                    .filter(games::draw_offer.eq(theirs)),
            )
            .set(games::draw_offer.eq(None::<String>))
            .execute(conn)?;
            Ok(())
        }
        _ => Err(AppError::BadRequest(
            "The draw action must be offer, accept or decline.".into(),
        )),
    }
}

/// Every game a user takes part in or has created.
pub fn games_of(conn: &mut DbConn, user_id: i32) -> Result<Vec<GameRow>, AppError> {
    Ok(games::table
        .filter(
            games::white_id
                .eq(user_id)
                .or(games::black_id.eq(user_id))
                .or(games::challenger_id.eq(user_id))
                .or(games::opponent_id.eq(user_id)),
        )
        .select(GameRow::as_select())
        .load(conn)?)
}

/// Open seeks by other players, newest first.
pub fn open_seeks(conn: &mut DbConn, user_id: i32) -> Result<Vec<GameRow>, AppError> {
    Ok(games::table
        .filter(games::status.eq(PENDING))
        .filter(games::opponent_id.is_null())
        .filter(games::challenger_id.ne(user_id))
        .order(games::created_at.desc())
        .limit(50)
        .select(GameRow::as_select())
        .load(conn)?)
}

pub fn user_names(conn: &mut DbConn, ids: &[i32]) -> Result<HashMap<i32, String>, AppError> {
    let rows: Vec<(i32, String)> = users::table
        .filter(users::id.eq_any(ids))
        .select((users::id, users::username))
        .load(conn)?;
    Ok(rows.into_iter().collect())
}

/// The player whose turn it is, if the game is in progress.
pub fn player_to_move(row: &GameRow) -> Option<i32> {
    if row.status != ACTIVE {
        return None;
    }
    parse_color(&row.turn).and_then(|c| player_of(row, c))
}

/// A result and reason in words ("White wins by checkmate").
pub fn describe_result(row: &GameRow, side_names: [&str; 2]) -> Option<String> {
    let result = row.result.as_deref()?;
    let reason = row.reason.as_deref().unwrap_or("").replace('-', " ");
    Some(match result {
        "1-0" => format!("{} wins by {reason}", side_names[0]),
        "0-1" => format!("{} wins by {reason}", side_names[1]),
        _ => format!("Draw by {reason}"),
    })
}
