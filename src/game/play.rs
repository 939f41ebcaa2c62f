//! A move: checked by the rules engine against the game as stored, then
//! stored with the game's new position, clocks and mails in one
//! transaction ([`queue_move`], the one way a move is played).

use crate::clocks::forfeit;
use crate::clocks::state;
use crate::db::kept_update::kept_update;
use crate::db::models::{GameRow, NewMove, User};
use crate::db::schema::{games, moves};
use crate::db::{is_unique_violation, per_backend, DbConn, Stored, Writes};
use crate::domain::error::Error;
use crate::domain::game_state::{EndReason, GameResult, GameStatus, OnTimeout, Side};
use crate::domain::mail_kind::MoveNote;
use crate::domain::time_control::TimeControl;
use crate::game::conditional;
use crate::game::finish::end_game;
use crate::game::notify;
use crate::game::positions::PositionCache;
use crate::game::rows::{
    history_of, load, next_turn_no, player_of, side_of, COMMENT_MAX, MOVE_TEXT_MAX, TIME_RAN_OUT,
};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use missive_rules::{Color, Game, Played};

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
fn check_mover(row: &GameRow, user: &User) -> Result<Color, Error> {
    let side = side_of(row, user.id)
        .ok_or_else(|| Error::Forbidden("You are not playing in this game.".into()))?;
    match row.status {
        GameStatus::Active => {}
        GameStatus::Pending => {
            return Err(Error::Forbidden(
                "The game has not started: the challenge has not been accepted yet.".into(),
            ))
        }
        // The player whose time ran out, moving: told so, whoever ended the
        // game (the clock sweeper, or an earlier try of this very move whose
        // answer was lost), as the move that finds the flag down is.
        _ if row.reason == Some(EndReason::TimeForfeit) && row.turn == Side::from(side) => {
            return Err(Error::Conflict(TIME_RAN_OUT.into()))
        }
        _ => return Err(Error::Forbidden("This game is over.".into())),
    }
    if row.turn != Side::from(side) {
        return Err(Error::Forbidden(
            "It is not your turn: wait for your opponent's move.".into(),
        ));
    }
    Ok(side)
}

/// Read and check a move: the game row, the ply the player saw, then
/// [`prepare_move`].
#[allow(clippy::too_many_arguments)]
fn check_move(
    conn: &mut DbConn,
    positions: &PositionCache,
    id: i32,
    user: &User,
    text: &str,
    expected_ply: Option<i32>,
    commit: bool,
    now: NaiveDateTime,
) -> Result<Prepared, Error> {
    let row = load(conn, id)?;
    if expected_ply.is_some_and(|p| p != row.ply) {
        return Err(Error::position_changed());
    }
    prepare_move(conn, positions, row, user, text, commit, now)
}

/// A move [`queue_move`] checked: a preview, or handed to the writes.
pub enum Submitted {
    Done(MoveOutcome),
    Queued {
        played: Played,
        stored: Stored,
        /// The move and the conditional replies it sets off.
        moves: usize,
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
    fn was_stored(&self, conn: &mut DbConn, game_id: i32) -> Result<bool, Error> {
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
    pub fn lost(&self) -> Error {
        Error::ConnectionLost(self.cause.clone())
    }
}

impl Submitted {
    /// The outcome, once a queued move is committed (or refused there).
    pub async fn outcome(self) -> Result<MoveOutcome, Error> {
        match self {
            Submitted::Done(outcome) => Ok(outcome),
            Submitted::Queued {
                played,
                stored,
                moves,
            } => {
                stored.committed().await?;
                crate::metrics::moves_stored(moves);
                Ok(MoveOutcome::Committed { played })
            }
            Submitted::LostOnTime(stored) => {
                stored.committed().await?;
                Err(Error::Conflict(TIME_RAN_OUT.into()))
            }
            Submitted::Unsure(unsure) => Err(unsure.lost()),
        }
    }
}

/// Play a move: the one way a move is checked and stored, for the move
/// form, the play link and the tests alike. `expected_ply` is the ply the
/// player saw; if the game has moved on since, nothing is played. Without
/// `commit` the answer is a preview. The move is checked on `conn` and given
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
) -> Result<Submitted, Error> {
    let submission = MoveSubmission {
        id,
        user,
        text,
        expected_ply,
        commit,
        unsure,
        now,
    };
    queue_move_with(conn, writes, positions, submission, None)
}

/// A move as [`queue_move_with`] takes it.
pub struct MoveSubmission<'a> {
    pub id: i32,
    pub user: &'a User,
    pub text: &'a str,
    pub expected_ply: Option<i32>,
    pub commit: bool,
    pub unsure: Option<&'a UnsureMove>,
    pub now: NaiveDateTime,
}

/// A write stored in a move's own transaction, after the move: a reply by
/// mail's Message-ID and its answer (issue 42), so that a message is acted
/// on once and answered once.
pub type WithMove = Box<dyn FnOnce(&mut DbConn) -> Result<(), Error> + Send>;

/// [`queue_move`], with `also` stored in the move's transaction when the
/// move is stored (and not at all when it is not).
pub fn queue_move_with(
    conn: &mut DbConn,
    writes: &Writes,
    positions: &PositionCache,
    submission: MoveSubmission<'_>,
    also: Option<WithMove>,
) -> Result<Submitted, Error> {
    let MoveSubmission {
        id,
        user,
        text,
        expected_ply,
        commit,
        unsure,
        now,
    } = submission;
    if let Some(earlier) = unsure {
        if earlier.was_stored(conn, id)? {
            let played = earlier.played.clone();
            return Ok(Submitted::Done(MoveOutcome::Committed { played }));
        }
    }
    match check_move(conn, positions, id, user, text, expected_ply, commit, now)? {
        Prepared::Preview(outcome) => Ok(Submitted::Done(outcome)),
        Prepared::Store(write) => {
            let played = write.played.clone();
            let (ply, user_id) = (write.row.ply + 1, write.user_id);
            let moves = 1 + write.replies.len();
            let job = move |c: &mut DbConn| {
                store_move(c, &write)?;
                match also {
                    Some(also) => also(c),
                    None => Ok(()),
                }
            };
            match writes.queue(conn, Box::new(job)) {
                Ok(stored) => Ok(Submitted::Queued {
                    played,
                    stored,
                    moves,
                }),
                Err(Error::ConnectionLost(cause)) => Ok(Submitted::Unsure(UnsureMove {
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

/// A checked move and everything its storing needs, owned, so that it can
/// be stored on another connection (SQLite's group commit, `db::group_commit`).
pub struct MoveWrite {
    row: GameRow,
    user_id: i32,
    side: Color,
    played: Played,
    from: Option<String>,
    to: String,
    /// The position the move leaves.
    fen: String,
    /// What the move adds to the game's history.
    history_entry: String,
    /// The conditional replies the move sets off, in order.
    replies: Vec<conditional::Reply>,
    /// The game's conditional lines after the move, when it had some.
    lines_after: Option<Vec<(i32, Vec<conditional::LinePly>)>>,
    /// The position after the move and its replies.
    final_fen: String,
    /// The game's end, after the move and its replies.
    outcome: Option<missive_rules::Outcome>,
    draw_offer: Option<Side>,
    next_side: Color,
    control: Option<TimeControl>,
    mover_clock: Option<state::MoverClock>,
    /// Each side's earlier moves, White's then Black's (counted only for
    /// "N moves in D days").
    before: [i64; 2],
    /// The next mover's reminder thresholds (`None`: the default).
    next_reminders: Option<Vec<crate::domain::reminders::Threshold>>,
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
    clock: state::MoverClock,
    now: NaiveDateTime,
}

impl LateMove {
    /// Run it in a transaction; "the position has changed" when the game
    /// had moved on or ended before the loss could be stored.
    fn store(&self, conn: &mut DbConn) -> Result<(), Error> {
        if forfeit::lose_on_time(conn, &self.row, &self.clock, self.now)? {
            Ok(())
        } else {
            Err(Error::position_changed())
        }
    }
}

/// Everything about a move but storing it: the mover, the clock, the rules.
/// The game comes from `positions` and the one the move leaves goes there (whether or not the move is then stored: the history a game
/// has at a ply and FEN is the same whichever way it got there).
fn prepare_move(
    conn: &mut DbConn,
    positions: &PositionCache,
    owned: GameRow,
    user: &User,
    text: &str,
    commit: bool,
    now: NaiveDateTime,
) -> Result<Prepared, Error> {
    let row = &owned;
    let id = row.id;
    let side = check_mover(row, user)?;
    let control = state::control_of(row)?;
    let mover_clock = match state::mover_clock(conn, row)? {
        // Under `on_timeout` = claim, play goes on after the flag falls.
        Some(clock) if clock.flagged(now) && row.on_timeout == OnTimeout::Lose => {
            return Ok(Prepared::Late(Box::new(LateMove {
                row: owned,
                clock,
                now,
            })));
        }
        running => running,
    };
    if text.len() > MOVE_TEXT_MAX {
        return Err(Error::Invalid(
            "That text is far too long to be a move.".into(),
        ));
    }
    let mut game = positions.game(row, || history_of(conn, id))?.game.clone();
    let played = game
        .play_text(text)
        .map_err(|e| Error::Invalid(capitalise(&e.to_string())))?;
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
    let history_entry = game.last_history_entry();
    // Only a game whose players keep conditional lines reads them; the
    // store's guard on the lines' revision covers a line added since.
    let (replies, lines_after) = if row.conditional_count > 0 {
        let lines = conditional::lines_of(conn, id, row.ply, None)?;
        let plan = conditional::plan(&mut game, lines, &played, |c| player_of(row, c));
        (plan.replies, Some(plan.lines_after))
    } else {
        (Vec::new(), None)
    };
    let final_fen = game.fen();
    let outcome = game.outcome();
    // The mover's own offer stands after their move; a conditional reply
    // leaves the offer it answered standing for its owner to see.
    let draw_offer = row
        .draw_offer
        .filter(|offer| *offer == Side::from(side) && outcome.is_none());
    let next_side = game.side_to_move();
    let plies = 1 + replies.len() as i32;
    positions.keep_moves(row, plies, &final_fen, game);
    // Read before the transaction, which must begin with its write (SQLite
    // cannot upgrade a reading transaction once another has written). Only
    // an "N moves in D days" schedule needs the counts.
    let scheduled = control.as_ref().is_some_and(|c| c.schedule.is_some());
    let mut before = [0i64; 2];
    if mover_clock.is_some() && scheduled {
        let movers = std::iter::once(user.id).chain(replies.iter().map(|r| r.owner));
        for (who, color) in movers.zip(std::iter::once(side).chain(replies.iter().map(|r| r.side)))
        {
            let slot = usize::from(color == Color::Black);
            if before[slot] == 0 {
                before[slot] = moves::table
                    .filter(moves::game_id.eq(id))
                    .filter(moves::played_by.eq(who))
                    .count()
                    .get_result(conn)?;
            }
        }
    }
    // The next mover's reminder thresholds, for when their turn's first
    // reminder may come.
    let next_reminders = match (&mover_clock, player_of(&owned, next_side)) {
        (Some(_), Some(next)) => crate::clocks::reminders::of(conn, next)?,
        _ => None,
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
        replies,
        lines_after,
        final_fen,
        outcome,
        draw_offer,
        next_side,
        control,
        mover_clock,
        before,
        next_reminders,
        now,
    })))
}

/// What a move that lost the race with an edit of the game's conditional
/// lines is told; [`crate::web`] plays it again at once, with the lines as
/// they are now.
pub const LINES_CHANGED: &str =
    "Your opponent changed their conditional moves while your move was being stored: send it again.";

/// One ply a move stores: the move itself, or a conditional reply to it.
struct PlyRow<'a> {
    user_id: i32,
    side: Color,
    played: &'a Played,
    from: Option<String>,
    to: String,
    fen: &'a str,
    history_entry: &'a str,
    conditional: bool,
}

impl MoveWrite {
    fn plies(&self) -> Vec<PlyRow<'_>> {
        let mut plies = vec![PlyRow {
            user_id: self.user_id,
            side: self.side,
            played: &self.played,
            from: self.from.clone(),
            to: self.to.clone(),
            fen: &self.fen,
            history_entry: &self.history_entry,
            conditional: false,
        }];
        for r in &self.replies {
            plies.push(PlyRow {
                user_id: r.owner,
                side: r.side,
                played: &r.played,
                from: r.from.clone(),
                to: r.to.clone(),
                fen: &r.fen,
                history_entry: &r.history_entry,
                conditional: true,
            });
        }
        plies
    }
}

/// Store a move checked by [`queue_move`], with the conditional replies it
/// sets off: the guarded update of the game, the move rows, the game's
/// lines, the mails or the game's end. Run it in a transaction; "the
/// position has changed" when another move was stored first.
pub fn store_move(conn: &mut DbConn, w: &MoveWrite) -> Result<(), Error> {
    let row = &w.row;
    let (id, next_side, now) = (row.id, w.next_side, w.now);
    let plies = w.plies();
    let final_ply = row.ply + plies.len() as i32;
    // The clocks after these moves: each mover's bank loses the running
    // time used (none for a conditional reply, played the moment it was
    // set off) and gains the increment and schedule credit; the next
    // mover's turn begins now.
    let mut banks = (row.white_clock_secs, row.black_clock_secs);
    let mut time_used = vec![None; plies.len()];
    let mut bank_after = vec![None; plies.len()];
    let mut next = (None, None, None);
    if let (Some(c), Some(m)) = (&w.control, &w.mover_clock) {
        let mut done = w.before;
        for (i, p) in plies.iter().enumerate() {
            let slot = usize::from(p.side == Color::Black);
            done[slot] += 1;
            let (bank, used) = match i {
                0 => (
                    m.bank,
                    crate::domain::running_time::running_secs(m.started, now, &m.leave),
                ),
                _ => (if slot == 1 { banks.1 } else { banks.0 }.unwrap_or(0), 0),
            };
            let after = c.after_move(bank, used, u32::try_from(done[slot]).unwrap_or(u32::MAX));
            match slot {
                1 => banks.1 = Some(after),
                _ => banks.0 = Some(after),
            }
            time_used[i] = Some(used);
            bank_after[i] = Some(after);
        }
        let next_bank = match next_side {
            Color::Black => banks.1,
            _ => banks.0,
        }
        .unwrap_or(0);
        next = (
            Some(now),
            Some(crate::domain::running_time::deadline(now, next_bank, &[])),
            crate::domain::reminders::due_at(w.next_reminders.as_deref(), now, next_bank, &[], 0),
        );
    }
    let (rev, count) = match &w.lines_after {
        Some(lines) => (row.conditional_rev + 1, lines.len() as i32),
        None => (row.conditional_rev, row.conditional_count),
    };
    // The conditional update is the guard: only one request can move the
    // game from `row.ply`, and only with the lines it read; the unique
    // (game_id, ply) key backs it up.
    let n = per_backend!(conn, |c| kept_update(
        games::table,
        games::id
            .eq(id)
            .and(games::ply.eq(row.ply))
            .and(games::status.eq(GameStatus::Active.code()))
            .and(games::conditional_rev.eq(row.conditional_rev)),
        (
            (
                games::fen.eq(&w.final_fen),
                games::ply.eq(final_ply),
                games::turn.eq(Side::from(next_side).code()),
                games::draw_offer.eq(w.draw_offer.map(Side::code)),
                // A move answers a takeback request: it was about a
                // position the game has left.
                games::takeback_offer.eq(None::<&str>),
                games::updated_at.eq(now),
            ),
            (
                games::white_clock_secs.eq(banks.0),
                games::black_clock_secs.eq(banks.1),
                games::turn_started_at.eq(next.0.or(row.turn_started_at)),
                games::clock_deadline.eq(next.1),
                games::clock_remind_at.eq(next.2),
            ),
            (
                games::conditional_rev.eq(rev),
                games::conditional_count.eq(count),
            ),
        ),
    )
    .execute(c))?;
    if n == 0 {
        let now_row = load(conn, id)?;
        let lines_only = now_row.ply == row.ply
            && now_row.status == GameStatus::Active
            && now_row.conditional_rev != row.conditional_rev;
        return Err(match lines_only {
            true => Error::Conflict(LINES_CHANGED.into()),
            false => Error::position_changed(),
        });
    }
    // The move's number from the previous move's, read now that this
    // transaction has written (a read before its first write would pin a
    // snapshot that a concurrent move can make stale on SQLite).
    let previous: Option<(i32, i32)> = per_backend!(conn, |c| moves::table
        .filter(moves::game_id.eq(id))
        .filter(moves::ply.eq(row.ply))
        .select((moves::turn_no, moves::played_by))
        .first(c)
        .optional())?;
    let mut previous = previous.map(|(n, by)| {
        let color = match Some(by) == row.black_id {
            true => Color::Black,
            false => Color::White,
        };
        (n, color)
    });
    for (i, p) in plies.iter().enumerate() {
        let turn_no = next_turn_no(previous, p.side);
        previous = Some((turn_no, p.side));
        let mv = NewMove {
            game_id: id,
            ply: row.ply + 1 + i as i32,
            display: &p.played.display,
            coordinate: &p.played.coordinate,
            from_square: p.from.as_deref(),
            to_square: &p.to,
            fen_after: p.fen,
            played_by: p.user_id,
            played_at: now,
            comment: p
                .played
                .comment
                .as_deref()
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(|c| crate::util::clip(c, COMMENT_MAX)),
            time_used_secs: time_used[i],
            turn_no,
            history_entry: Some(p.history_entry),
            conditional: p.conditional,
            bank_after: bank_after[i],
        };
        match per_backend!(conn, |c| diesel::insert_into(moves::table)
            .values(mv)
            .execute(c))
        {
            Ok(_) => {}
            Err(e) if is_unique_violation(&e) => return Err(Error::position_changed()),
            Err(e) => return Err(e.into()),
        }
    }
    if let Some(lines) = &w.lines_after {
        conditional::store_plan(conn, id, final_ply, lines, now)?;
    }
    let last = plies.last().expect("a move stores at least itself");
    match w.outcome {
        Some(o) => {
            let after = load(conn, id)?;
            let last_move = (last.user_id, MoveNote::of(last.played));
            if !end_game(
                conn,
                &after,
                GameResult::of_outcome(&o),
                EndReason::Rules(o.reason),
                Some(last_move),
                now,
            )? {
                return Err(Error::position_changed());
            }
        }
        None if w.replies.is_empty() => {
            let next_player = player_of(row, next_side);
            notify::on_move(conn, row, w.user_id, next_player, final_ply, &w.played, now)?
        }
        None => {
            let next_player = player_of(row, next_side);
            notify::on_conditional_replies(conn, row, next_player, final_ply, &w.replies, now)?
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
