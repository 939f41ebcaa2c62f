//! Challenges and seeks: creating a game, accepting and declining it, and
//! games created already under way (tournament pairings).

use crate::db::game_updates::{self, Acceptance, ClockStart};
use crate::db::games::{self, GameRow, NewGame};
use crate::db::outbox;
use crate::db::users::User;
use crate::db::DbConn;
use crate::domain::codes::Coded;
use crate::domain::error::Error;
use crate::domain::game_state::FEN_MAX;
use crate::domain::game_state::{GameStatus, Side, UnratedReason};
use crate::domain::ids::GameId;
use crate::domain::mail_kind::Mail;
use crate::domain::rating::in_range;
use crate::domain::time_control::{self as clock, TimeControl};
use crate::game::notify;
use crate::game::rated_pairs;
use chrono::NaiveDateTime;
use missive_rules::{Color, Game};

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
    /// `1` for a rated game; empty or `0` for a casual one.
    pub rated: String,
    /// An open seek's rating range (each end optional): who may accept it.
    pub rating_min: String,
    pub rating_max: String,
    /// `1`: Saturdays and Sundays in the mover's time zone do not count on
    /// their clock.
    pub weekends_free: String,
}

/// The lowest and highest rating a seek's range may name.
const RANGE_BOUNDS: (i32, i32) = (0, 4000);

/// The `rated` form field: `1` rated, empty or `0` casual.
pub fn read_rated(text: &str) -> Result<bool, Error> {
    match text.trim() {
        "1" => Ok(true),
        "" | "0" => Ok(false),
        other => Err(Error::Invalid(format!(
            "“{}” is not a choice for rated: send 1 for a rated game, 0 for a casual one.",
            crate::util::clip(other, 20)
        ))),
    }
}

fn read_range_end(text: &str, which: &str) -> Result<Option<i32>, Error> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<i32>() {
        Ok(n) if (RANGE_BOUNDS.0..=RANGE_BOUNDS.1).contains(&n) => Ok(Some(n)),
        _ => Err(Error::Invalid(format!(
            "The {which} rating of the range must be a whole number from {} to {}, or empty.",
            RANGE_BOUNDS.0, RANGE_BOUNDS.1
        ))),
    }
}

/// The rated choice and the seek's range, checked against the rest.
fn rated_and_range(
    challenge: &Challenge,
    named: bool,
    custom_start: bool,
) -> Result<(bool, Option<i32>, Option<i32>), Error> {
    // A game from a custom start position is casual, whatever the form
    // (whose box is ticked by default) says: the rule, and no
    // refusal for a player who only wanted to set up a position.
    let rated = read_rated(&challenge.rated)? && !custom_start;
    let min = read_range_end(&challenge.rating_min, "lowest")?;
    let max = read_range_end(&challenge.rating_max, "highest")?;
    if named && (min.is_some() || max.is_some()) {
        return Err(Error::Invalid(
            "A rating range is for open seeks: leave the opponent empty, or the range.".into(),
        ));
    }
    if let (Some(lo), Some(hi)) = (min, max) {
        if lo > hi {
            return Err(Error::Invalid(format!(
                "The rating range {lo}-{hi} is empty: put the lower rating first."
            )));
        }
    }
    Ok((rated, min, max))
}

pub fn create_game(
    conn: &mut DbConn,
    creator: &User,
    challenge: &Challenge,
    now: NaiveDateTime,
) -> Result<GameId, Error> {
    let chosen =
        crate::posted::post::for_new_game(conn, creator, &challenge.variant)?.ok_or_else(|| {
            Error::Invalid(format!(
                "There is no variant “{}”: choose one from the list.",
                crate::util::clip(challenge.variant.trim(), 40)
            ))
        })?;
    let variant = chosen.variant;
    let opponent_name = challenge.opponent.trim();
    let opponent = if opponent_name.is_empty() {
        None
    } else {
        let found = crate::db::users::find_by_name(conn, opponent_name)?;
        let found = found.ok_or_else(|| {
            Error::Invalid(format!(
                "There is no player named “{}”.",
                crate::util::clip(opponent_name, 40)
            ))
        })?;
        if found.id == creator.id {
            return Err(Error::Invalid("You cannot challenge yourself.".into()));
        }
        Some(found)
    };
    let color = match challenge.color.trim() {
        "random" | "" => {
            if rand::random::<bool>() {
                Color::White
            } else {
                Color::Black
            }
        }
        other => match Side::from_code(other) {
            Some(side) => side.color(),
            None => {
                return Err(Error::Invalid(format!(
                    "“{}” is not a colour: choose white, black or random.",
                    crate::util::clip(other, 20)
                )))
            }
        },
    };
    let fen = challenge.fen.trim();
    if fen.len() > FEN_MAX {
        return Err(Error::Invalid(format!(
            "The start position is too long (at most {FEN_MAX} characters)."
        )));
    }
    // Chess960 and its kind draw a start for each game left to the rules.
    let drawn = fen
        .is_empty()
        .then(|| variant.shuffled_start(rand::random()))
        .flatten();
    let fen = drawn.as_deref().unwrap_or(fen);
    let game = Game::new(variant, Some(fen)).map_err(|e| {
        Error::Invalid(format!(
            "The start position cannot be used: {}.",
            crate::util::unstopped(&e)
        ))
    })?;
    if let Some(outcome) = game.outcome() {
        return Err(Error::Invalid(format!(
            "The start position cannot be used: the game would already be over ({}).",
            outcome.describe(variant)
        )));
    }
    let control = clock::parse_optional(&challenge.time_control).map_err(Error::Invalid)?;
    let control_text = control.map(|c| c.to_string());
    let start_fen = game.fen();
    let (rated, rating_min, rating_max) = rated_and_range(
        challenge,
        opponent.is_some(),
        crate::game::records::is_custom_start(variant, &start_fen)?,
    )?;
    // Said when it is made: the pair has had its rated games for the day.
    let pair_limited = match &opponent {
        Some(o) if rated => !rated_pairs::may_start_rated(conn, creator.id, o.id, now)?,
        _ => false,
    };
    if rated && !chosen.rated_allowed {
        return Err(Error::Invalid(format!(
            "{} is a posted variant not yet approved for rated play, so its games are casual: uncheck “Rated”.",
            variant.name()
        )));
    }
    let rated = rated && !pair_limited;
    let history = game.history_string();
    let (white_id, black_id) = match color {
        Color::White => (Some(creator.id), opponent.as_ref().map(|o| o.id)),
        _ => (opponent.as_ref().map(|o| o.id), Some(creator.id)),
    };
    let new = NewGame {
        variant: variant.id(),
        status: GameStatus::Pending,
        challenger_id: creator.id,
        opponent_id: opponent.as_ref().map(|o| o.id),
        white_id,
        black_id,
        challenger_color: Side::from(color),
        start_fen: &start_fen,
        fen: &start_fen,
        ply: 0,
        turn: Side::from(game.side_to_move()),
        created_at: now,
        updated_at: now,
        time_control: control_text,
        leave_cap_days: None,
        rated,
        rating_min,
        rating_max,
        weekends_free: challenge.weekends_free == "1",
    };
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        let id = games::insert(conn, &new, &history)?;
        if let Some(posted) = &chosen.posted {
            crate::db::posted_variants::count_game(conn, posted, now)?;
        }
        if pair_limited {
            game_updates::set_unrated_reason(conn, id, UnratedReason::PairLimit)?;
        }
        if let Some(o) = &opponent {
            outbox::enqueue(
                conn,
                o.id,
                &Mail::ChallengeReceived {
                    game: id,
                    from: creator.id,
                },
                now,
            )?;
        }
        Ok(id)
    })
}

/// Open seeks by other players, newest first: at most 50 of those whose
/// rating range lets `user_id` accept them (rated as `ratings` says).
pub fn open_seeks(
    conn: &mut DbConn,
    user_id: i32,
    ratings: &crate::db::ratings::RatingTable,
) -> Result<Vec<GameRow>, Error> {
    let mut seeks = games::open_seeks_for(conn, user_id)?;
    seeks.retain(|g| {
        let rating = ratings.rating(user_id, &g.variant).whole();
        in_range(g.rating_min, g.rating_max, rating)
    });
    seeks.truncate(50);
    Ok(seeks)
}

/// A seek's range in words: `1400-1600`, `1400 or more`, `1600 or less`.
pub fn range_words(row: &GameRow) -> String {
    match (row.rating_min, row.rating_max) {
        (Some(lo), Some(hi)) => format!("{lo}-{hi}"),
        (Some(lo), None) => format!("{lo} or more"),
        (None, Some(hi)) => format!("{hi} or less"),
        (None, None) => "any rating".into(),
    }
}

/// The clock columns of a game whose first turn begins at `now`: both
/// banks full, the deadline and first reminder (leave ignored) of the side
/// to move.
fn clock_start(
    conn: &mut DbConn,
    control: Option<&TimeControl>,
    (white, black): (Option<i32>, Option<i32>),
    to_move: Color,
    now: NaiveDateTime,
) -> Result<ClockStart, Error> {
    let mover = match to_move {
        Color::Black => black,
        _ => white,
    };
    Ok(match control {
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
            deadline: Some(crate::domain::running_time::deadline(
                now,
                c.initial_secs,
                &[],
            )),
            remind_at: super::clock::first_at(conn, mover, now, c.initial_secs)?,
        },
    })
}

/// A game that starts at once, without a challenge: who plays it, how.
pub struct Pairing<'a> {
    pub variant_id: &'a str,
    pub white_id: i32,
    pub black_id: i32,
    pub time_control: Option<&'a TimeControl>,
    pub leave_cap_days: Option<i32>,
    pub rated: bool,
    /// The mover's Saturdays and Sundays do not count on their clock.
    pub weekends_free: bool,
}

/// A casual game that starts at once ([`create_paired_game`]).
pub fn create_active_game(
    conn: &mut DbConn,
    variant_id: &str,
    white_id: i32,
    black_id: i32,
    time_control: Option<&TimeControl>,
    leave_cap_days: Option<i32>,
    now: NaiveDateTime,
) -> Result<GameId, Error> {
    let pairing = Pairing {
        variant_id,
        white_id,
        black_id,
        time_control,
        leave_cap_days,
        rated: false,
        weekends_free: false,
    };
    create_paired_game(conn, &pairing, now)
}

/// A game that starts at once, without a challenge (tournaments): White is
/// recorded as the challenger, the clock runs from `now`, and the player to
/// move is mailed "your turn".
pub fn create_paired_game(
    conn: &mut DbConn,
    pairing: &Pairing,
    now: NaiveDateTime,
) -> Result<GameId, Error> {
    let Pairing {
        variant_id,
        white_id,
        black_id,
        time_control,
        leave_cap_days,
        rated,
        weekends_free,
    } = *pairing;
    let variant = missive_rules::variant(variant_id).ok_or_else(|| {
        Error::Invalid(format!(
            "There is no variant “{}”.",
            crate::util::clip(variant_id, 40)
        ))
    })?;
    if white_id == black_id {
        return Err(Error::Invalid(
            "A player cannot play against themselves.".into(),
        ));
    }
    let drawn = variant.shuffled_start(rand::random());
    let game = Game::new(variant, drawn.as_deref())
        .map_err(|e| Error::internal(format!("{variant_id} has no start position: {e}")))?;
    let start_fen = game.fen();
    let history = game.history_string();
    let start = clock_start(
        conn,
        time_control,
        (Some(white_id), Some(black_id)),
        game.side_to_move(),
        now,
    )?;
    let new = NewGame {
        variant: variant.id(),
        status: GameStatus::Active,
        challenger_id: white_id,
        opponent_id: Some(black_id),
        white_id: Some(white_id),
        black_id: Some(black_id),
        challenger_color: Side::White,
        start_fen: &start_fen,
        fen: &start_fen,
        ply: 0,
        turn: Side::from(game.side_to_move()),
        created_at: now,
        updated_at: now,
        time_control: time_control.map(|c| c.to_string()),
        leave_cap_days,
        rated,
        rating_min: None,
        rating_max: None,
        weekends_free,
    };
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        let id = games::insert(conn, &new, &history)?;
        game_updates::start_clocks(conn, id, &start)?;
        let to_move = if game.side_to_move() == Color::Black {
            black_id
        } else {
            white_id
        };
        let first_turn = Mail::YourTurn {
            game: id,
            ply: 0,
            from: None,
            last_move: None,
        };
        outbox::enqueue(conn, to_move, &first_turn, now)?;
        Ok(id)
    })
}

pub fn accept(conn: &mut DbConn, id: GameId, user: &User, now: NaiveDateTime) -> Result<(), Error> {
    let row = games::load(conn, id)?;
    if row.status != GameStatus::Pending {
        return Err(Error::Conflict(
            "This challenge is no longer open: it was already accepted, declined or withdrawn."
                .into(),
        ));
    }
    if row.challenger_id == user.id {
        return Err(Error::Forbidden(
            "You cannot accept your own challenge.".into(),
        ));
    }
    if let Some(o) = row.opponent_id {
        if o != user.id {
            return Err(Error::Forbidden(
                "This challenge is addressed to another player.".into(),
            ));
        }
    }
    if row.rating_min.is_some() || row.rating_max.is_some() {
        let shown = crate::db::ratings::standings_of(conn, &row.variant, &[user.id])?
            .get(&user.id)
            .copied()
            .unwrap_or_default()
            .at(now);
        if !in_range(row.rating_min, row.rating_max, shown.whole()) {
            return Err(Error::Forbidden(format!(
                "This seek is for players rated {}; your {} rating is {}.",
                range_words(&row),
                row.variant,
                shown.shown()
            )));
        }
    }
    let (white_id, black_id) = if row.challenger_color == Side::White {
        (Some(row.challenger_id), Some(user.id))
    } else {
        (Some(user.id), Some(row.challenger_id))
    };
    // The clock starts when the game does.
    let control = super::clock::control_of(&row)?;
    let start = clock_start(
        conn,
        control.as_ref(),
        (white_id, black_id),
        row.turn.color(),
        now,
    )?;
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        // A rated game starts rated only within the pair's daily allowance.
        let pair_limited = row.rated && {
            rated_pairs::lock_pair(conn, row.challenger_id, user.id)?;
            !rated_pairs::may_start_rated(conn, row.challenger_id, user.id, now)?
        };
        let unrated_reason = if pair_limited {
            Some(UnratedReason::PairLimit)
        } else {
            row.unrated_reason
        };
        let acceptance = Acceptance {
            opponent_id: user.id,
            white_id,
            black_id,
            rated: row.rated && !pair_limited,
            unrated_reason,
            now,
        };
        let n = game_updates::accept(conn, id, &acceptance, &start)?;
        if n == 0 {
            return Err(Error::Conflict(
                "Someone else answered this challenge first.".into(),
            ));
        }
        notify::on_accept(conn, &row, user.id, white_id, black_id, now)?;
        Ok(())
    })
}

/// The opponent declines, or the challenger withdraws.
pub fn decline(
    conn: &mut DbConn,
    id: GameId,
    user: &User,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let row = games::load(conn, id)?;
    if row.status != GameStatus::Pending {
        return Err(Error::Conflict("This challenge is no longer open.".into()));
    }
    let new_status = if row.opponent_id == Some(user.id) {
        GameStatus::Declined
    } else if row.challenger_id == user.id {
        GameStatus::Withdrawn
    } else {
        return Err(Error::Forbidden(
            "Only the player challenged can decline this challenge (or its author withdraw it)."
                .into(),
        ));
    };
    let n = game_updates::close_pending(conn, id, new_status, now)?;
    if n == 0 {
        return Err(Error::Conflict("This challenge is no longer open.".into()));
    }
    Ok(())
}
