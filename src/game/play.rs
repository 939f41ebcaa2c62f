//! A move: checked by the rules engine against the game as stored, then
//! stored with the game's new position, clocks and mails in one
//! transaction ([`queue_move`], the one way a move is played).

use crate::db::conditional_lines::lines_of;
use crate::db::games::{history_of, load, player_of, side_of, GameRow};
use crate::db::users::User;
use crate::db::{moves, DbConn, Stored, Writes};
use crate::domain::error::{Error, MovedOn};
use crate::domain::game_state::{EndReason, GameStatus, OnTimeout, Side, MOVE_TEXT_MAX};
use crate::domain::ids::GameId;
use crate::game::clock;
use crate::game::conditional;
use crate::game::flag;
use crate::game::positions::PositionCache;
use crate::game::store_move::{store_move, MoveWrite};
use chrono::NaiveDateTime;
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
            return Err(Error::MovedOn(MovedOn::TimeRanOut))
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
    m: &MoveSubmission<'_>,
) -> Result<Prepared, Error> {
    let row = load(conn, m.id)?;
    if m.expected_ply.is_some_and(|p| p != row.ply) {
        return Err(Error::position_changed());
    }
    prepare_move(conn, positions, row, m.user, m.text, m.commit, m.now)
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
    fn was_stored(&self, conn: &mut DbConn, game_id: GameId) -> Result<bool, Error> {
        let stored = moves::played(conn, game_id, self.ply)?;
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
                Err(Error::MovedOn(MovedOn::TimeRanOut))
            }
            Submitted::Unsure(unsure) => Err(unsure.lost()),
        }
    }
}

/// A move as [`queue_move`] takes it: the game, the mover, the text, the
/// ply the mover saw (`None`: whatever it is now), whether to store it or
/// only preview it, the earlier unsure try if any, the time, and a write to
/// store in the move's own transaction if it is stored.
pub struct MoveSubmission<'a> {
    pub id: GameId,
    pub user: &'a User,
    pub text: &'a str,
    pub expected_ply: Option<i32>,
    pub commit: bool,
    pub unsure: Option<&'a UnsureMove>,
    pub now: NaiveDateTime,
    pub also: Option<WithMove>,
}

/// A write stored in a move's own transaction, after the move: a reply by
/// mail's Message-ID and its answer (issue 42), so that a message is acted
/// on once and answered once.
pub type WithMove = Box<dyn FnOnce(&mut DbConn) -> Result<(), Error> + Send>;

/// Play a move: the one way a move is checked and stored, for the move
/// form, the play link and the tests alike. `expected_ply` is the
/// ply the player saw; if the game has moved on since, nothing is played. Without
/// `commit` the answer is a preview. The move is checked on `conn` and given
/// to `writes`, and the caller gives the connection back before awaiting
/// [`Submitted::outcome`]. Waiting for SQLite's writer on a pooled
/// connection capped the moves in flight at the pool's size, and so the
/// size of a group commit. The game is taken from and the position it
/// leaves kept in `positions`, which the game page draws from. The submission's `unsure`
/// is this move's earlier try, when its connection was lost while storing
/// it: if it was stored, that is the answer.
pub fn queue_move(
    conn: &mut DbConn,
    writes: &Writes,
    positions: &PositionCache,
    mut submission: MoveSubmission<'_>,
) -> Result<Submitted, Error> {
    if let Some(earlier) = submission.unsure {
        if earlier.was_stored(conn, submission.id)? {
            let played = earlier.played.clone();
            return Ok(Submitted::Done(MoveOutcome::Committed { played }));
        }
    }
    let also = submission.also.take();
    match check_move(conn, positions, &submission)? {
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
    clock: crate::domain::clock::MoverClock,
    now: NaiveDateTime,
}

impl LateMove {
    /// Run it in a transaction; "the position has changed" when the game
    /// had moved on or ended before the loss could be stored.
    fn store(&self, conn: &mut DbConn) -> Result<(), Error> {
        if flag::lose_on_time(conn, &self.row, &self.clock, self.now)? {
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
    let control = clock::control_of(row)?;
    let mover_clock = match clock::mover_clock(conn, row)? {
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
    let played = game.play_text(text).map_err(|e| {
        let why = capitalise(&e.to_string());
        match e {
            missive_rules::MoveError::Ambiguous { .. } => Error::AmbiguousMove(why),
            _ => Error::Invalid(why),
        }
    })?;
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
        let lines = lines_of(conn, id, row.ply, None)?;
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
                before[slot] = moves::count_by(conn, id, who)?;
            }
        }
    }
    // The next mover's reminder thresholds, for when their turn's first
    // reminder may come.
    let next_reminders = match (&mover_clock, player_of(&owned, next_side)) {
        (Some(_), Some(next)) => crate::db::reminder_prefs::of(conn, next)?,
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

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
