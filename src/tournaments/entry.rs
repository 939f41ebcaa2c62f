//! Creating a tournament, joining and leaving it, and its start by the
//! director.

use crate::db::tournaments::{self, NewTournament, TournamentRow};
use crate::db::users::User;
use crate::db::{entrants, tournament_games, DbConn};
use crate::domain::codes::Coded;
use crate::domain::error::Error;
use crate::domain::form_fields::{int_field, parse_time_control, parse_when};
use crate::domain::game_state::OnTimeout;
use crate::domain::tournament_state::{
    TournamentFormat, TournamentStatus, DEFAULT_ENTRY_DAYS, DEFAULT_FORFEIT_LIMIT,
    DEFAULT_LEAVE_DAYS, DEFAULT_MAX_PLAYERS, NAME_MAX, PLAYERS_MAX, SWISS_ROUNDS_MAX,
};
use crate::tournaments::directors::{require_director, require_director_of};
use crate::tournaments::rounds::start;
use crate::util::clip;
use chrono::NaiveDateTime;

// ---------------------------------------------------------------------------
// Creating

/// The creation form, as sent (every field text; empty means the default).
#[derive(Clone, Debug, Default)]
pub struct TournamentForm {
    pub name: String,
    pub variant: String,
    pub time_control: String,
    pub format: String,
    pub rounds: String,
    pub entry_opens: String,
    pub entry_closes: String,
    pub max_players: String,
    pub leave_days: String,
    pub forfeit_limit: String,
    /// `1`: its games are rated.
    pub rated: String,
    /// Days without a move before a game is lost by silence (empty: off).
    pub silence_days: String,
    /// `lose` (empty: the default) or `claim`.
    pub on_timeout: String,
    /// Days after a loss on time or by silence before a player may enter
    /// another tournament (empty: none).
    pub cooling_off_days: String,
    /// `1`: its games' clocks stop on the mover's Saturdays and Sundays.
    pub weekends_free: String,
}

pub fn create(
    conn: &mut DbConn,
    director: &User,
    form: &TournamentForm,
    now: NaiveDateTime,
) -> Result<i32, Error> {
    require_director(Some(director))?;
    let name = form.name.trim();
    if name.is_empty() {
        return Err(Error::Invalid("Give the tournament a name.".into()));
    }
    if name.chars().count() > NAME_MAX {
        return Err(Error::Invalid(format!(
            "A tournament name has at most {NAME_MAX} characters."
        )));
    }
    let variant = missive_rules::variant(form.variant.trim())
        // A posted variant is not played in tournaments: its versions are
        // casual until reviewed, and a tournament's games may be rated.
        .filter(|v| crate::posted::lookup::split(v.id()).is_none())
        .ok_or_else(|| {
            Error::Invalid(format!(
                "There is no variant “{}”: choose one from the list.",
                clip(form.variant.trim(), 40)
            ))
        })?;
    let time_control = parse_time_control(&form.time_control)?;
    let format = TournamentFormat::from_code(form.format.trim()).ok_or_else(|| {
        Error::Invalid(format!(
            "“{}” is not a format: choose round-robin, double-round-robin or swiss.",
            clip(form.format.trim(), 30)
        ))
    })?;
    let rounds = match format {
        TournamentFormat::RoundRobin | TournamentFormat::DoubleRoundRobin => 0,
        TournamentFormat::Swiss => {
            if form.rounds.trim().is_empty() {
                return Err(Error::Invalid(
                    "A Swiss tournament needs a number of rounds.".into(),
                ));
            }
            int_field(&form.rounds, "number of rounds", 0, (1, SWISS_ROUNDS_MAX))?
        }
    };
    let opens = match form.entry_opens.trim() {
        "" => now,
        raw => parse_when(raw, false).ok_or_else(|| {
            Error::Invalid(format!(
                "The entry opening “{}” is not a date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM, UTC).",
                clip(raw, 30)
            ))
        })?,
    };
    let closes = match form.entry_closes.trim() {
        // Empty: two weeks after it opens, at the end of that day.
        "" => (opens.date() + chrono::TimeDelta::days(DEFAULT_ENTRY_DAYS))
            .succ_opt()
            .map(|d| d.and_time(chrono::NaiveTime::MIN)),
        raw => parse_when(raw, true),
    }
    .ok_or_else(|| {
        Error::Invalid(
            "Give the end of the entry window as a date (YYYY-MM-DD) or date-time \
             (YYYY-MM-DDTHH:MM, UTC)."
                .into(),
        )
    })?;
    if closes <= opens {
        return Err(Error::Invalid(
            "The entry window must close after it opens.".into(),
        ));
    }
    if closes <= now {
        return Err(Error::Invalid(
            "The entry window must close in the future.".into(),
        ));
    }
    let max_players = int_field(
        &form.max_players,
        "maximum number of players",
        DEFAULT_MAX_PLAYERS,
        (2, PLAYERS_MAX),
    )?;
    let leave_days = int_field(
        &form.leave_days,
        "leave allowance",
        DEFAULT_LEAVE_DAYS,
        (0, 365),
    )?;
    let forfeit_limit = int_field(
        &form.forfeit_limit,
        "forfeit limit",
        DEFAULT_FORFEIT_LIMIT,
        (1, 1000),
    )?;
    let rated = crate::game::challenge::read_rated(&form.rated)?;
    let silence_days = match form.silence_days.trim() {
        "" => None,
        raw => Some(int_field(
            raw,
            "silence period (days)",
            0,
            crate::domain::silence::SILENCE_DAYS_RANGE,
        )?),
    };
    let on_timeout = match form.on_timeout.trim() {
        "" => OnTimeout::Lose,
        raw => OnTimeout::from_code(raw).ok_or_else(|| {
            Error::Invalid(format!(
                "“{}” is not a choice for on_timeout: choose lose or claim.",
                clip(raw, 20)
            ))
        })?,
    };
    let cooling_off_days = int_field(&form.cooling_off_days, "cooling-off (days)", 0, (0, 365))?;
    let new = NewTournament {
        name,
        variant: variant.id(),
        time_control,
        format,
        rounds,
        entry_opens: opens,
        entry_closes: closes,
        max_players,
        leave_days,
        forfeit_limit,
        director_id: director.id,
        rated,
        silence_days,
        on_timeout,
        cooling_off_days,
        weekends_free: form.weekends_free == "1",
    };
    crate::db::write_transaction::<_, Error>(conn, |conn| tournaments::insert(conn, &new, now))
}

// ---------------------------------------------------------------------------
// Joining

/// When `user` may enter `t`, if its cooling-off after their last loss on
/// time or by silence (in any game) has not run out at `now`.
fn cooling_off_until(
    conn: &mut DbConn,
    t: &TournamentRow,
    user: i32,
    now: NaiveDateTime,
) -> Result<Option<NaiveDateTime>, Error> {
    if t.cooling_off_days <= 0 {
        return Ok(None);
    }
    let since = now - chrono::TimeDelta::days(i64::from(t.cooling_off_days));
    let last = tournament_games::last_forfeit_since(conn, user, since)?;
    Ok(last.map(|l| l + chrono::TimeDelta::days(i64::from(t.cooling_off_days))))
}

pub fn join(conn: &mut DbConn, tid: i32, user: &User, now: NaiveDateTime) -> Result<(), Error> {
    let t = tournaments::load(conn, tid)?;
    if t.status != TournamentStatus::Entry {
        return Err(Error::Forbidden(
            "This tournament is no longer taking entries.".into(),
        ));
    }
    if now < t.entry_opens {
        return Err(Error::Forbidden(format!(
            "Entries open on {}.",
            crate::domain::time_control::utc_minute(t.entry_opens)
        )));
    }
    if now >= t.entry_closes {
        return Err(Error::Forbidden("The entry window has closed.".into()));
    }
    if let Some(free) = cooling_off_until(conn, &t, user.id, now)? {
        return Err(Error::Forbidden(format!(
            "This tournament has a cooling-off of {} days after a loss on time or by silence: \
             you may enter from {}.",
            t.cooling_off_days,
            crate::domain::time_control::utc_minute(free)
        )));
    }
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        // The counter is the guard: two players racing for the last place
        // cannot both pass it.
        if !tournaments::take_place(conn, tid)? {
            return Err(Error::Conflict(
                "The tournament is full (or has just started).".into(),
            ));
        }
        if !entrants::add(conn, tid, user.id, None, now)? {
            return Err(Error::Conflict(
                "You have already joined this tournament.".into(),
            ));
        }
        // The rules they entered under, in words (issue 63).
        let mail = crate::domain::mail_kind::Mail::TournamentEntered { tournament: tid };
        crate::db::outbox::enqueue(conn, user.id, &mail, now)?;
        Ok(())
    })
}

/// What the entry mail of tournament `tid` says: its name and rules, with
/// the players entered so far (`None`: the tournament is gone).
pub fn entered_mail(
    conn: &mut DbConn,
    tid: i32,
) -> Result<Option<(String, Vec<crate::tournaments::rules_text::RuleText>)>, Error> {
    let t = match tournaments::load(conn, tid) {
        Ok(t) => t,
        Err(Error::NotFound(_)) => return Ok(None),
        Err(e) => return Err(e),
    };
    let field = t.entrants.max(0) as usize;
    Ok(Some((
        t.name.clone(),
        crate::tournaments::rules_text::rules(&t, field),
    )))
}

/// Leave a tournament before it starts.
pub fn leave(conn: &mut DbConn, tid: i32, user: &User) -> Result<(), Error> {
    let t = tournaments::load(conn, tid)?;
    if t.status != TournamentStatus::Entry {
        return Err(Error::Forbidden(
            "The tournament has started: ask its director to withdraw you.".into(),
        ));
    }
    crate::db::write_transaction::<_, Error>(conn, |conn| {
        if !entrants::remove(conn, tid, user.id)? {
            return Err(Error::Invalid("You are not in this tournament.".into()));
        }
        if !tournaments::give_back_place(conn, tid)? {
            return Err(Error::Conflict("The tournament has just started.".into()));
        }
        Ok(())
    })
}

// ---------------------------------------------------------------------------
// Starting and pairing

/// The director starts their tournament now (before the entry window closes).
pub fn start_by_director(
    conn: &mut DbConn,
    tid: i32,
    director: &User,
    now: NaiveDateTime,
) -> Result<(), Error> {
    let t = tournaments::load(conn, tid)?;
    require_director_of(Some(director), &t)?;
    if t.status != TournamentStatus::Entry {
        return Err(Error::Conflict(
            "This tournament has already started.".into(),
        ));
    }
    if t.entrants < 2 {
        return Err(Error::Invalid(
            "A tournament needs at least two players to start.".into(),
        ));
    }
    if !start(conn, tid, now)? {
        return Err(Error::Conflict(
            "This tournament has already started.".into(),
        ));
    }
    Ok(())
}
