//! Games: challenges, moves, resignations and draws. Legality is decided by
//! the rules crate only; this module stores what it says.

use crate::db::kept_update::kept_update;
use crate::db::models::{GameRow, ListedMove, MoveRow, NewGame, NewMove, User};
use crate::db::schema::{game_histories, game_notes, games, moves, users};
use crate::db::stamp::Stamp;
use crate::db::{is_unique_violation, per_backend, DbConn, Stored, Writes};
use crate::error::AppError;
use crate::position_cache::PositionCache;
use crate::services::clock::{self, TimeControl};
use crate::services::{clocks, mail};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use missive_rules::{Color, Game, Played, Variant};
use std::collections::HashMap;

pub const PENDING: &str = "pending";
pub const ACTIVE: &str = "active";
pub const FINISHED: &str = "finished";
pub const DECLINED: &str = "declined";
pub const WITHDRAWN: &str = "withdrawn";

/// What a player who moves too late is told.
pub const TIME_RAN_OUT: &str =
    "Your time ran out before this move arrived: the move was not played, and the game is lost on time.";

/// What a draw or resignation after the mover's time ran out is told.
pub const FLAG_FELL: &str =
    "The time of the player to move had run out: the game is lost on time, and nothing else was done.";

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
    /// Canonical time control text; empty or `none` for no clock.
    pub time_control: String,
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
pub fn restore(conn: &mut DbConn, row: &GameRow) -> Result<Game, AppError> {
    restore_with(row, &history_of(conn, row.id)?)
}

/// The game of `row` with its `history` (as [`history_of`] reads it).
pub fn restore_with(row: &GameRow, history: &str) -> Result<Game, AppError> {
    Game::restore(variant_of(row)?, &row.fen, history)
        .map_err(|e| AppError::internal(format!("game {} cannot be restored: {e}", row.id)))
}

/// A game's repetition history ([`Game::history_string`]): its
/// `game_histories` row (the history up to that row's ply) followed by the
/// entries its later moves added. Kept apart from the game's row, which
/// every list and page reads, because only restoring a game needs it, and a
/// long game's runs to kilobytes: a move stores only the entry it adds.
pub fn history_of(conn: &mut DbConn, id: i32) -> Result<String, AppError> {
    let (base_ply, mut history): (i32, String) = per_backend!(conn, |c| game_histories::table
        .find(id)
        .select((game_histories::ply, game_histories::history))
        .first(c)
        .optional())?
    .ok_or_else(|| AppError::internal(format!("game {id} has no history")))?;
    let later: Vec<(i32, Option<String>)> = per_backend!(conn, |c| moves::table
        .filter(moves::game_id.eq(id))
        .filter(moves::ply.gt(base_ply))
        .order(moves::ply.asc())
        .select((moves::ply, moves::history_entry))
        .load(c))?;
    history.reserve(later.len() * 18);
    for (ply, entry) in later {
        let entry = entry.ok_or_else(|| {
            AppError::internal(format!("game {id}: ply {ply} has no history entry"))
        })?;
        history.push(',');
        history.push_str(&entry);
    }
    Ok(history)
}

/// Store a new game and its history (up to `new.ply`; run it in a
/// transaction); its id.
pub fn insert_game(conn: &mut DbConn, new: &NewGame, history: &str) -> Result<i32, AppError> {
    let id: i32 = per_backend!(conn, |c| diesel::insert_into(games::table)
        .values(new)
        .returning(games::id)
        .get_result(c))?;
    diesel::insert_into(game_histories::table)
        .values((
            game_histories::game_id.eq(id),
            game_histories::ply.eq(new.ply),
            game_histories::history.eq(history),
        ))
        .execute(conn)?;
    Ok(id)
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
            "The start position cannot be used: the game would already be over ({}).",
            crate::legend::outcome_words(variant, &outcome)
        )));
    }
    let control = clock::parse_optional(&challenge.time_control).map_err(AppError::Invalid)?;
    let control_text = control.map(|c| c.to_string());
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
        ply: 0,
        turn: color_code(game.side_to_move()),
        created_at: now,
        updated_at: now,
        time_control: control_text,
        leave_cap_days: None,
    };
    conn.transaction::<_, AppError, _>(|conn| {
        let id = insert_game(conn, &new, &history)?;
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

/// The clock columns of a game whose first turn begins at `now`: both
/// banks full, the deadline and reminder (leave ignored) of the side to move.
struct ClockStart {
    white: Option<i64>,
    black: Option<i64>,
    started: Option<NaiveDateTime>,
    deadline: Option<NaiveDateTime>,
    remind_at: Option<NaiveDateTime>,
}

fn clock_start(control: Option<&TimeControl>, now: NaiveDateTime) -> ClockStart {
    match control {
        None => ClockStart {
            white: None,
            black: None,
            started: None,
            deadline: None,
            remind_at: None,
        },
        Some(c) => ClockStart {
            white: Some(c.initial_secs),
            black: Some(c.initial_secs),
            started: Some(now),
            deadline: Some(clock::deadline(now, c.initial_secs, &[])),
            remind_at: Some(clock::reminder_at(now, c.initial_secs, &[])),
        },
    }
}

/// A game that starts at once, without a challenge (tournaments): White is
/// recorded as the challenger, the clock runs from `now`, and the player to
/// move is mailed "your turn".
pub fn create_active_game(
    conn: &mut DbConn,
    variant_id: &str,
    white_id: i32,
    black_id: i32,
    time_control: Option<&TimeControl>,
    leave_cap_days: Option<i32>,
    now: NaiveDateTime,
) -> Result<i32, AppError> {
    let variant = missive_rules::variant(variant_id).ok_or_else(|| {
        AppError::Invalid(format!(
            "There is no variant “{}”.",
            crate::web::clip(variant_id, 40)
        ))
    })?;
    if white_id == black_id {
        return Err(AppError::Invalid(
            "A player cannot play against themselves.".into(),
        ));
    }
    let game = Game::new(variant, None)
        .map_err(|e| AppError::internal(format!("{variant_id} has no start position: {e}")))?;
    let start_fen = game.fen();
    let history = game.history_string();
    let start = clock_start(time_control, now);
    let new = NewGame {
        variant: variant.id(),
        status: ACTIVE,
        challenger_id: white_id,
        opponent_id: Some(black_id),
        white_id: Some(white_id),
        black_id: Some(black_id),
        challenger_color: "white",
        start_fen: &start_fen,
        fen: &start_fen,
        ply: 0,
        turn: color_code(game.side_to_move()),
        created_at: now,
        updated_at: now,
        time_control: time_control.map(|c| c.to_string()),
        leave_cap_days,
    };
    conn.transaction::<_, AppError, _>(|conn| {
        let id = insert_game(conn, &new, &history)?;
        diesel::update(games::table.find(id))
            .set((
                games::white_clock_secs.eq(start.white),
                games::black_clock_secs.eq(start.black),
                games::turn_started_at.eq(start.started),
                games::clock_deadline.eq(start.deadline),
                games::clock_remind_at.eq(start.remind_at),
            ))
            .execute(conn)?;
        let to_move = if game.side_to_move() == Color::Black {
            black_id
        } else {
            white_id
        };
        mail::enqueue(
            conn,
            mail::YOUR_TURN,
            to_move,
            Some(id),
            Some(0),
            &mail::Payload::default(),
            now,
        )?;
        Ok(id)
    })
}

/// End an active game: the one way every game ends (rules outcome,
/// resignation, agreement, time forfeit, adjudication). Run it inside the
/// caller's transaction. The update is conditional on the game being still
/// active at `row.ply`, so of two racing callers one ends the game and
/// queues the game-over mails, and the other gets `false` and does nothing.
pub fn end_game(
    conn: &mut DbConn,
    row: &GameRow,
    result: &str,
    reason: &str,
    last_move: Option<&mail::Payload>,
    now: NaiveDateTime,
) -> Result<bool, AppError> {
    let target = games::table
        .filter(games::id.eq(row.id))
        .filter(games::status.eq(ACTIVE))
        .filter(games::ply.eq(row.ply));
    let changes = (
        games::status.eq(FINISHED),
        games::result.eq(Some(result)),
        games::reason.eq(Some(reason)),
        games::draw_offer.eq(None::<String>),
        games::updated_at.eq(now),
        games::ended_at.eq(Some(now)),
        games::clock_deadline.eq(None::<NaiveDateTime>),
        games::clock_remind_at.eq(None::<NaiveDateTime>),
    );
    let n = if reason == clocks::TIME_FORFEIT && row.time_control.is_some() {
        // The loser's clock shows zero.
        match parse_color(&row.turn) {
            Some(Color::Black) => diesel::update(target)
                .set((changes, games::black_clock_secs.eq(Some(0i64))))
                .execute(conn)?,
            _ => diesel::update(target)
                .set((changes, games::white_clock_secs.eq(Some(0i64))))
                .execute(conn)?,
        }
    } else {
        diesel::update(target).set(changes).execute(conn)?
    };
    if n == 0 {
        return Ok(false);
    }
    mail::on_game_over(conn, row, last_move, now)?;
    if row.tournament_id.is_some() {
        // Forfeit rules and the next Swiss round, in this same transaction.
        crate::services::tournaments::on_game_end(conn, row.id, now)?;
    }
    Ok(true)
}

pub fn load(conn: &mut DbConn, id: i32) -> Result<GameRow, AppError> {
    per_backend!(conn, |c| games::table
        .find(id)
        .select(GameRow::as_select())
        .first(c)
        .optional())?
    .ok_or_else(|| AppError::NotFound(format!("There is no game {id}.")))
}

/// The game and, for a `viewer`, their private note on it, in one statement
/// (a round trip less for a PostgreSQL game page).
pub fn load_with_note(
    conn: &mut DbConn,
    id: i32,
    viewer: Option<i32>,
) -> Result<(GameRow, Option<String>), AppError> {
    let Some(uid) = viewer else {
        return Ok((load(conn, id)?, None));
    };
    per_backend!(conn, |c| games::table
        .left_join(
            game_notes::table.on(game_notes::game_id
                .eq(games::id)
                .and(game_notes::user_id.eq(uid))),
        )
        .filter(games::id.eq(id))
        .select((GameRow::as_select(), game_notes::body.nullable()))
        .first(c)
        .optional())?
    .ok_or_else(|| AppError::NotFound(format!("There is no game {id}.")))
}

pub fn moves_of(conn: &mut DbConn, game_id: i32) -> Result<Vec<MoveRow>, AppError> {
    Ok(moves::table
        .filter(moves::game_id.eq(game_id))
        .order(moves::ply.asc())
        .select(MoveRow::as_select())
        .load(conn)?)
}

/// Plies `first..=last` as a page lists them (a window of a long game).
pub fn moves_between(
    conn: &mut DbConn,
    game_id: i32,
    first: i32,
    last: i32,
) -> Result<Vec<ListedMove>, AppError> {
    Ok(per_backend!(conn, |c| moves::table
        .filter(moves::game_id.eq(game_id))
        .filter(moves::ply.between(first, last))
        .order(moves::ply.asc())
        .select(ListedMove::as_select())
        .load(c))?)
}

/// [`next_turn_no`] as SQL: the move number of the move after `ply`, read
/// from the move at `ply` inside the statement that stores the next one. One
/// round trip fewer on PostgreSQL, and on SQLite no read before the guarded
/// update (a read first would pin a snapshot that a concurrent move makes
/// stale, SQLITE_BUSY_SNAPSHOT). Written by hand because diesel's typed form
/// of a scalar subquery with a CASE has no name a struct field could take.
#[derive(Debug, Clone, Copy, diesel::query_builder::QueryId)]
pub struct TurnNoAfter {
    game: i32,
    ply: i32,
    /// The game's Black: the previous move was Black's when it played it
    /// (NULL equals nothing, as `next_turn_no` reads a missing Black).
    black: Option<i32>,
    /// 1 when the mover is not Black, so a move after Black's starts a turn.
    step: i32,
}

impl TurnNoAfter {
    pub fn new(game: i32, ply: i32, black: Option<i32>, mover: Color) -> TurnNoAfter {
        TurnNoAfter {
            game,
            ply,
            black,
            step: i32::from(mover != Color::Black),
        }
    }
}

impl diesel::expression::Expression for TurnNoAfter {
    type SqlType = diesel::sql_types::Integer;
}

impl<QS> diesel::expression::AppearsOnTable<QS> for TurnNoAfter {}

impl<QS> diesel::expression::SelectableExpression<QS> for TurnNoAfter {}

impl diesel::expression::ValidGrouping<()> for TurnNoAfter {
    type IsAggregate = diesel::expression::is_aggregate::Never;
}

impl<DB> diesel::query_builder::QueryFragment<DB> for TurnNoAfter
where
    DB: diesel::backend::Backend,
    i32: diesel::serialize::ToSql<diesel::sql_types::Integer, DB>,
    Option<i32>:
        diesel::serialize::ToSql<diesel::sql_types::Nullable<diesel::sql_types::Integer>, DB>,
{
    fn walk_ast<'b>(
        &'b self,
        mut out: diesel::query_builder::AstPass<'_, 'b, DB>,
    ) -> QueryResult<()> {
        use diesel::sql_types::{Integer, Nullable};
        out.push_sql("COALESCE((SELECT turn_no + CASE WHEN played_by = ");
        out.push_bind_param::<Nullable<Integer>, _>(&self.black)?;
        out.push_sql(" THEN ");
        out.push_bind_param::<Integer, _>(&self.step)?;
        out.push_sql(" ELSE 0 END FROM moves WHERE game_id = ");
        out.push_bind_param::<Integer, _>(&self.game)?;
        out.push_sql(" AND ply = ");
        out.push_bind_param::<Integer, _>(&self.ply)?;
        out.push_sql("), 1)");
        Ok(())
    }
}

/// The move number of a ply played by `mover`, from the previous ply's
/// number and mover: a new number starts the game and whenever White moves
/// after Black (so a side moving twice in a row stays on one number).
pub fn next_turn_no(previous: Option<(i32, Color)>, mover: Color) -> i32 {
    match previous {
        None => 1,
        Some((n, Color::Black)) if mover != Color::Black => n + 1,
        Some((n, _)) => n,
    }
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

/// The other player of a game `user_id` plays in (`None` if they do not,
/// or the seat is open).
pub fn opponent_of(row: &GameRow, user_id: i32) -> Option<i32> {
    player_of(row, side_of(row, user_id)?.opponent())
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
    // The clock starts when the game does.
    let control = clocks::control_of(&row)?;
    let start = clock_start(control.as_ref(), now);
    conn.transaction::<_, AppError, _>(|conn| {
        let n = diesel::update(
            games::table
                .filter(games::id.eq(id))
                .filter(games::status.eq(PENDING)),
        )
        .set((
            (
                games::status.eq(ACTIVE),
                games::opponent_id.eq(Some(user.id)),
                games::white_id.eq(white_id),
                games::black_id.eq(black_id),
                games::updated_at.eq(now),
            ),
            (
                games::white_clock_secs.eq(start.white),
                games::black_clock_secs.eq(start.black),
                games::turn_started_at.eq(start.started),
                games::clock_deadline.eq(start.deadline),
                games::clock_remind_at.eq(start.remind_at),
            ),
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
        // The player whose time ran out, moving: told so, whoever ended the
        // game (the clock sweeper, or an earlier try of this very move whose
        // answer was lost), as the move that finds the flag down is.
        _ if row.reason.as_deref() == Some(clocks::TIME_FORFEIT)
            && row.turn == color_code(side) =>
        {
            return Err(AppError::Conflict(TIME_RAN_OUT.into()))
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

/// Read, check and (when `commit`) store a move in a transaction on `conn`.
/// `expected_ply` is the ply the player saw; if the game has moved on since,
/// nothing is played. The server uses [`queue_move`] instead, which does not
/// wait for the commit on the connection.
pub fn submit_move(
    conn: &mut DbConn,
    id: i32,
    user: &User,
    text: &str,
    expected_ply: Option<i32>,
    commit: bool,
    now: NaiveDateTime,
) -> Result<MoveOutcome, AppError> {
    let prepared = check_move(conn, None, id, user, text, expected_ply, commit, now)?;
    store_now(conn, prepared)
}

/// Read and check a move: the game row, the ply the player saw, then
/// [`prepare_move`].
#[allow(clippy::too_many_arguments)]
fn check_move(
    conn: &mut DbConn,
    positions: Option<&PositionCache>,
    id: i32,
    user: &User,
    text: &str,
    expected_ply: Option<i32>,
    commit: bool,
    now: NaiveDateTime,
) -> Result<Prepared, AppError> {
    let row = load(conn, id)?;
    if expected_ply.is_some_and(|p| p != row.ply) {
        return Err(AppError::position_changed());
    }
    prepare_move(conn, positions, row, user, text, commit, now)
}

/// A move [`queue_move`] checked: a preview, or handed to the writes.
pub enum Submitted {
    Done(MoveOutcome),
    Queued {
        played: Played,
        stored: Stored,
    },
    /// Too late: the loss on time was handed to the writes instead.
    LostOnTime(Stored),
    /// Its connection was lost while it was being stored (PostgreSQL).
    Unsure(UnsureMove),
}

/// A move whose connection was lost while it was being stored, before the
/// COMMIT was answered (PostgreSQL): it may be in the database or not, and
/// only the database can say. Trying it again blindly could play it twice
/// (the opponent may have answered it meanwhile), so [`queue_move`], given
/// one, first asks whether it was stored.
#[derive(Clone, Debug)]
pub struct UnsureMove {
    /// The ply the move makes.
    ply: i32,
    user_id: i32,
    played: Played,
    cause: String,
}

impl UnsureMove {
    /// Stored if the game's move at its ply is this player's and this move.
    fn was_stored(&self, conn: &mut DbConn, game_id: i32) -> Result<bool, AppError> {
        let stored: Option<(i32, String)> = per_backend!(conn, |c| moves::table
            .find((game_id, self.ply))
            .select((moves::played_by, moves::coordinate))
            .first(c)
            .optional())?;
        Ok(stored.is_some_and(|(by, coordinate)| {
            by == self.user_id && coordinate == self.played.coordinate
        }))
    }

    /// The lost connection, as the error a request that gives up answers.
    pub fn lost(&self) -> AppError {
        AppError::ConnectionLost(self.cause.clone())
    }
}

impl Submitted {
    /// The outcome, once a queued move is committed (or refused there).
    pub async fn outcome(self) -> Result<MoveOutcome, AppError> {
        match self {
            Submitted::Done(outcome) => Ok(outcome),
            Submitted::Queued { played, stored } => {
                stored.committed().await?;
                Ok(MoveOutcome::Committed { played })
            }
            Submitted::LostOnTime(stored) => {
                stored.committed().await?;
                Err(AppError::Conflict(TIME_RAN_OUT.into()))
            }
            Submitted::Unsure(unsure) => Err(unsure.lost()),
        }
    }
}

/// [`submit_move`] for the server: the move is checked on `conn` and given
/// to `writes`, and the caller gives the connection back before awaiting
/// [`Submitted::outcome`]. Waiting for SQLite's writer on a pooled
/// connection capped the moves in flight at the pool's size, and so the
/// size of a group commit. The game is taken from and the position it
/// leaves kept in `positions`, which the game page draws from. `unsure`
/// is this move's earlier try, when its connection was lost while storing
/// it: if it was stored, that is the answer.
#[allow(clippy::too_many_arguments)]
pub fn queue_move(
    conn: &mut DbConn,
    writes: &Writes,
    positions: &PositionCache,
    id: i32,
    user: &User,
    text: &str,
    expected_ply: Option<i32>,
    commit: bool,
    unsure: Option<&UnsureMove>,
    now: NaiveDateTime,
) -> Result<Submitted, AppError> {
    if let Some(earlier) = unsure {
        if earlier.was_stored(conn, id)? {
            let played = earlier.played.clone();
            return Ok(Submitted::Done(MoveOutcome::Committed { played }));
        }
    }
    match check_move(
        conn,
        Some(positions),
        id,
        user,
        text,
        expected_ply,
        commit,
        now,
    )? {
        Prepared::Preview(outcome) => Ok(Submitted::Done(outcome)),
        Prepared::Store(write) => {
            let played = write.played.clone();
            let (ply, user_id) = (write.row.ply + 1, write.user_id);
            match writes.queue(conn, Box::new(move |c| store_move(c, &write))) {
                Ok(stored) => Ok(Submitted::Queued { played, stored }),
                Err(AppError::ConnectionLost(cause)) => Ok(Submitted::Unsure(UnsureMove {
                    ply,
                    user_id,
                    played,
                    cause,
                })),
                Err(e) => Err(e),
            }
        }
        Prepared::Late(late) => {
            let stored = writes.queue(conn, Box::new(move |c| late.store(c)))?;
            Ok(Submitted::LostOnTime(stored))
        }
    }
}

/// [`submit_move`] on a game row already loaded, in a transaction on `conn`.
/// If the row is stale (another move was stored since it was read), nothing
/// is stored and the answer is "the position has changed".
pub fn move_from(
    conn: &mut DbConn,
    row: &GameRow,
    user: &User,
    text: &str,
    commit: bool,
    now: NaiveDateTime,
) -> Result<MoveOutcome, AppError> {
    let prepared = prepare_move(conn, None, row.clone(), user, text, commit, now)?;
    store_now(conn, prepared)
}

/// A checked move's outcome, stored first in a transaction of its own.
fn store_now(conn: &mut DbConn, prepared: Prepared) -> Result<MoveOutcome, AppError> {
    match prepared {
        Prepared::Preview(outcome) => Ok(outcome),
        Prepared::Store(write) => {
            conn.transaction(|conn| store_move(conn, &write))?;
            Ok(MoveOutcome::Committed {
                played: write.played,
            })
        }
        Prepared::Late(late) => {
            conn.transaction(|conn| late.store(conn))?;
            Err(AppError::Conflict(TIME_RAN_OUT.into()))
        }
    }
}

/// A checked move and everything its storing needs, owned, so that it can
/// be stored on another connection (SQLite's group commit, `db::group_commit`).
pub struct MoveWrite {
    row: GameRow,
    user_id: i32,
    side: Color,
    played: Played,
    from: Option<String>,
    to: String,
    fen: String,
    /// What the move adds to the game's history.
    history_entry: String,
    outcome: Option<missive_rules::Outcome>,
    draw_offer: Option<String>,
    next_side: Color,
    control: Option<TimeControl>,
    mover_clock: Option<clocks::MoverClock>,
    /// The mover's earlier moves (counted only for "N moves in D days").
    before: i64,
    now: NaiveDateTime,
}

enum Prepared {
    Preview(MoveOutcome),
    Store(Box<MoveWrite>),
    Late(Box<LateMove>),
}

/// A move made after the mover's flag fell: the game is lost on time,
/// whatever the move. Checking writes nothing (so a move's reads can share
/// one snapshot); the loss is stored like a move, by the writes.
struct LateMove {
    row: GameRow,
    clock: clocks::MoverClock,
    now: NaiveDateTime,
}

impl LateMove {
    /// Run it in a transaction; "the position has changed" when the game
    /// had moved on or ended before the loss could be stored.
    fn store(&self, conn: &mut DbConn) -> Result<(), AppError> {
        if clocks::lose_on_time(conn, &self.row, &self.clock, self.now)? {
            Ok(())
        } else {
            Err(AppError::position_changed())
        }
    }
}

/// Everything about a move but storing it: the mover, the clock, the rules.
/// With `positions`, the game comes from there and the one the move leaves
/// goes there (whether or not the move is then stored: the history a game
/// has at a ply and FEN is the same whichever way it got there).
fn prepare_move(
    conn: &mut DbConn,
    positions: Option<&PositionCache>,
    owned: GameRow,
    user: &User,
    text: &str,
    commit: bool,
    now: NaiveDateTime,
) -> Result<Prepared, AppError> {
    let row = &owned;
    let id = row.id;
    let side = check_mover(row, user)?;
    let control = clocks::control_of(row)?;
    let mover_clock = match clocks::mover_clock(conn, row)? {
        Some(clock) if clock.flagged(now) => {
            return Ok(Prepared::Late(Box::new(LateMove {
                row: owned,
                clock,
                now,
            })));
        }
        running => running,
    };
    if text.len() > MOVE_TEXT_MAX {
        return Err(AppError::Invalid(
            "That text is far too long to be a move.".into(),
        ));
    }
    let mut game = match positions {
        Some(p) => p.game(row, || history_of(conn, id))?.game.clone(),
        None => restore(conn, row)?,
    };
    let played = game
        .play_text(text)
        .map_err(|e| AppError::Invalid(capitalise(&e.to_string())))?;
    if !commit {
        return Ok(Prepared::Preview(MoveOutcome::Preview {
            played,
            after: Box::new(game),
        }));
    }
    let variant = game.variant();
    let (from, to) = variant.move_squares(&played.mv);
    let from = from.map(|s| s.name());
    let to = to.name();
    let fen = game.fen();
    let outcome = game.outcome();
    let draw_offer = match row.draw_offer.as_deref() {
        Some(c) if c == color_code(side) && outcome.is_none() => Some(c.to_string()),
        _ => None,
    };
    let next_side = game.side_to_move();
    let history_entry = game.last_history_entry();
    if let Some(p) = positions {
        p.keep_move(row, &fen, game);
    }
    // Read before the transaction, which must begin with its write (SQLite
    // cannot upgrade a reading transaction once another has written). Only
    // an "N moves in D days" schedule needs the count.
    let scheduled = control.as_ref().is_some_and(|c| c.schedule.is_some());
    let before: i64 = if mover_clock.is_some() && scheduled {
        moves::table
            .filter(moves::game_id.eq(id))
            .filter(moves::played_by.eq(user.id))
            .count()
            .get_result(conn)?
    } else {
        0
    };
    Ok(Prepared::Store(Box::new(MoveWrite {
        row: owned,
        user_id: user.id,
        side,
        played,
        from,
        to,
        fen,
        history_entry,
        outcome,
        draw_offer,
        next_side,
        control,
        mover_clock,
        before,
        now,
    })))
}

/// Store a move checked by [`submit_move`]: the guarded update of the
/// game, the move row, the mails or the game's end. Run it in a transaction;
/// "the position has changed" when another move was stored first.
pub fn store_move(conn: &mut DbConn, w: &MoveWrite) -> Result<(), AppError> {
    let row = &w.row;
    let (id, side, next_side, now, before) = (row.id, w.side, w.next_side, w.now, w.before);
    let new_ply = row.ply + 1;
    // The clocks after this move: the mover's bank loses the running
    // time used and gains the increment and schedule credit; the next
    // mover's turn begins now.
    let mut banks = (row.white_clock_secs, row.black_clock_secs);
    let mut time_used = None;
    let mut next = (None, None, None);
    if let (Some(c), Some(m)) = (&w.control, &w.mover_clock) {
        let used = clock::running_secs(m.started, now, &m.leave);
        let done = u32::try_from(before + 1).unwrap_or(u32::MAX);
        let bank = c.after_move(m.bank, used, done);
        match m.color {
            Color::Black => banks.1 = Some(bank),
            _ => banks.0 = Some(bank),
        }
        time_used = Some(used);
        let next_bank = match next_side {
            Color::Black => banks.1,
            _ => banks.0,
        }
        .unwrap_or(0);
        next = (
            Some(now),
            Some(clock::deadline(now, next_bank, &[])),
            Some(clock::reminder_at(now, next_bank, &[])),
        );
    }
    // The conditional update is the guard: only one request can move the
    // game from `row.ply`; the unique (game_id, ply) key backs it up.
    let n = per_backend!(conn, |c| kept_update(
        games::table,
        games::id
            .eq(id)
            .and(games::ply.eq(row.ply))
            .and(games::status.eq(ACTIVE)),
        (
            (
                games::fen.eq(&w.fen),
                games::ply.eq(new_ply),
                games::turn.eq(color_code(next_side)),
                games::draw_offer.eq(&w.draw_offer),
                games::updated_at.eq(Stamp(now)),
            ),
            (
                games::white_clock_secs.eq(banks.0),
                games::black_clock_secs.eq(banks.1),
                games::turn_started_at.eq(next.0.or(row.turn_started_at).map(Stamp)),
                games::clock_deadline.eq(next.1.map(Stamp)),
                games::clock_remind_at.eq(next.2.map(Stamp)),
            ),
        ),
    )
    .execute(c))?;
    if n == 0 {
        return Err(AppError::position_changed());
    }
    let turn_no = TurnNoAfter::new(id, row.ply, row.black_id, side);
    let mv = NewMove {
        game_id: id,
        ply: new_ply,
        display: &w.played.display,
        coordinate: &w.played.coordinate,
        from_square: w.from.as_deref(),
        to_square: &w.to,
        fen_after: &w.fen,
        played_by: w.user_id,
        played_at: now,
        comment: w
            .played
            .comment
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(|c| crate::web::clip(c, COMMENT_MAX)),
        time_used_secs: time_used,
        turn_no,
        history_entry: Some(&w.history_entry),
    };
    match per_backend!(conn, |c| diesel::insert_into(moves::table)
        .values(mv)
        .execute(c))
    {
        Ok(_) => {}
        Err(e) if is_unique_violation(&e) => return Err(AppError::position_changed()),
        Err(e) => return Err(e.into()),
    }
    match w.outcome {
        Some(o) => {
            let after = load(conn, id)?;
            let payload = mail::move_payload(w.user_id, &w.played);
            if !end_game(
                conn,
                &after,
                o.result_code(),
                o.reason.code(),
                Some(&payload),
                now,
            )? {
                return Err(AppError::position_changed());
            }
        }
        None => {
            let next_player = player_of(row, next_side);
            mail::on_move(conn, row, w.user_id, next_player, new_ply, &w.played, now)?
        }
    }
    Ok(())
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// A game whose player to move has run out is lost on time before anything
/// else happens to it (no draw agreed or resignation after the flag fell).
fn end_if_flagged(conn: &mut DbConn, row: &GameRow, now: NaiveDateTime) -> Result<(), AppError> {
    if clocks::forfeit_if_flagged(conn, row, now)? {
        return Err(AppError::Conflict(FLAG_FELL.into()));
    }
    Ok(())
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
    let changed =
        || AppError::Conflict("The game changed in the meantime; look at it again.".into());
    conn.transaction::<_, AppError, _>(|conn| {
        if let Some(offer) = extra_guard_offer {
            // The offer must still stand (it is cleared by `end_game`).
            let n = diesel::update(
                games::table
                    .filter(games::id.eq(row.id))
                    .filter(games::status.eq(ACTIVE))
                    .filter(games::draw_offer.eq(offer.to_string())),
            )
            .set(games::updated_at.eq(now))
            .execute(conn)?;
            if n == 0 {
                return Err(changed());
            }
        }
        if !end_game(conn, row, result, reason, None, now)? {
            return Err(changed());
        }
        Ok(())
    })
}

pub fn resign(conn: &mut DbConn, id: i32, user: &User, now: NaiveDateTime) -> Result<(), AppError> {
    let row = load(conn, id)?;
    let side = check_participant(&row, user, "resign")?;
    end_if_flagged(conn, &row, now)?;
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
    end_if_flagged(conn, &row, now)?;
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
    let rows: Vec<(i32, String)> = match *ids {
        // A game's players (at most four seats): one query of fixed shape,
        // which diesel keeps prepared; an `IN` list of varying length is
        // compiled again on every call on SQLite.
        [] => Vec::new(),
        [a] | [a, ..] if ids.len() <= 4 => {
            let at = |i: usize| ids.get(i).copied().unwrap_or(a);
            per_backend!(conn, |c| users::table
                .filter(
                    users::id
                        .eq(at(0))
                        .or(users::id.eq(at(1)))
                        .or(users::id.eq(at(2)))
                        .or(users::id.eq(at(3))),
                )
                .select((users::id, users::username))
                .load(c))?
        }
        _ => users::table
            .filter(users::id.eq_any(ids))
            .select((users::id, users::username))
            .load(conn)?,
    };
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
