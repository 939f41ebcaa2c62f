//! Tournament byes' rows: who sat out which round.

use crate::db::schema::tournament_byes;
use crate::db::DbConn;
use crate::domain::error::Error;
use diesel::prelude::*;

/// The tournament's byes: (round, player), by round.
pub fn of_tournament(conn: &mut DbConn, tid: i32) -> Result<Vec<(i32, i32)>, Error> {
    Ok(tournament_byes::table
        .filter(tournament_byes::tournament_id.eq(tid))
        .order(tournament_byes::round.asc())
        .select((tournament_byes::round, tournament_byes::user_id))
        .load(conn)?)
}

pub fn add(conn: &mut DbConn, tid: i32, round: i32, user_id: i32) -> Result<(), Error> {
    diesel::insert_into(tournament_byes::table)
        .values((
            tournament_byes::tournament_id.eq(tid),
            tournament_byes::round.eq(round),
            tournament_byes::user_id.eq(user_id),
        ))
        .execute(conn)?;
    Ok(())
}

/// Give `old`'s byes in the tournament to `new` (who replaces them).
pub fn hand_over(conn: &mut DbConn, tid: i32, old: i32, new: i32) -> Result<(), Error> {
    diesel::update(
        tournament_byes::table
            .filter(tournament_byes::tournament_id.eq(tid))
            .filter(tournament_byes::user_id.eq(old)),
    )
    .set(tournament_byes::user_id.eq(new))
    .execute(conn)?;
    Ok(())
}
