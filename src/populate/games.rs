//! One generated game: its row, history, moves, and what its end or its
//! running state brings (ratings, clocks, a conditional line, a note, a
//! mail waiting in the outbox).

use super::gen::{Gen, Options};
use crate::db::bulk::{GameIns, HistoryIns, LineIns, MoveIns, NoteIns, OutboxIns, RatingChangeIns};
use crate::db::DbConn;
use crate::domain::conditional_line::LinePly;
use crate::domain::game_state::{EndReason, GameResult, GameStatus, Side};
use crate::domain::ids::GameId;
use crate::domain::mail_kind::Mail;
use crate::domain::rating::{next_seq, rate_game};
use crate::domain::time_control::TimeControl;
use chrono::Duration;
use missive_rules::Color;
use rand::Rng;

/// The clock of timed games: the new-game form's default.
pub const TIME_CONTROL: &str = "3d/move";

/// A game to make.
pub struct Spec {
    pub white: i32,
    pub black: i32,
    /// Index into the generator's pools.
    pub variant: usize,
    pub running: bool,
    pub rated: bool,
    pub timed: bool,
    /// Tournament and round.
    pub tournament: Option<(i32, i32)>,
}

/// Make a game; its result if it finished.
pub fn make(g: &mut Gen, spec: &Spec) -> Option<GameResult> {
    let id = GameId(g.next_game);
    g.next_game += 1;
    let when = g.timeline_start + Duration::seconds((g.made as f64 * g.step_secs) as i64);
    g.made += 1;
    let pool_game = g.rng.gen_range(0..g.pools[spec.variant].games.len());
    let drawn = super::pool::draw_length(&mut g.rng);
    let gap = Duration::seconds(g.rng.gen_range(3_600..30 * 3_600));
    let note = g.rng.gen_bool(0.1);
    let lines = g.rng.gen_bool(0.2);
    let mail = g.rng.gen_bool(0.3);
    let act = g.rng.gen_range(0.0..1.0);
    let now = g.now;
    let pool = &g.pools[spec.variant];
    let pg = &pool.games[pool_game];
    let mut plies = drawn.min(pg.plies.len());
    let by_rules = !spec.running && plies == pg.plies.len() && pg.outcome.is_some();
    if spec.running && plies == pg.plies.len() && pg.outcome.is_some() {
        // A running game stops short of the end its record reached.
        plies -= 1;
    }
    // A finished game ended at `when`; a running one's last move was
    // up to a day and a half ago.
    let last_at = if spec.running {
        now - Duration::seconds(g.rng.gen_range(60..36 * 3_600))
    } else {
        when
    };
    let started = last_at - gap * plies as i32 - Duration::minutes(5);
    let control: Option<TimeControl> = match spec.timed {
        true => TIME_CONTROL.parse().ok(),
        false => None,
    };
    let mut banks = control.as_ref().map(|c| [c.initial_secs, c.initial_secs]);
    let mut done = [0u32; 2];
    let mut previous: Option<(i32, Color)> = None;
    let player_of = |c: Color| match c {
        Color::Black => spec.black,
        _ => spec.white,
    };
    for (k, p) in pg.plies[..plies].iter().enumerate() {
        let turn_no = crate::domain::game_state::next_turn_no(previous, p.mover);
        previous = Some((turn_no, p.mover));
        let slot = usize::from(p.mover == Color::Black);
        let used = gap.num_seconds();
        let bank_after = match (&control, banks.as_mut()) {
            (Some(c), Some(b)) => {
                done[slot] += 1;
                b[slot] = c.after_move(b[slot], used, done[slot]);
                Some(b[slot])
            }
            _ => None,
        };
        g.batch.moves.push(MoveIns {
            game_id: id,
            ply: k as i32 + 1,
            display: p.display.clone(),
            coordinate: p.coordinate.clone(),
            from_square: p.from.clone(),
            to_square: p.to.clone(),
            fen_after: p.fen_after.clone(),
            played_by: player_of(p.mover),
            played_at: started + gap * (k as i32 + 1),
            comment: None,
            time_used_secs: control.as_ref().map(|_| used),
            turn_no,
            history_entry: Some(p.history_entry.clone()),
            conditional: false,
            bank_after,
        });
    }
    let fen = match plies {
        0 => pool.start_fen.clone(),
        n => pg.plies[n - 1].fen_after.clone(),
    };
    let to_move = match pg.plies.get(plies) {
        Some(next) => next.mover,
        None => pg.final_turn,
    };
    let turn = Side::from(to_move);
    let (result, reason) = if spec.running {
        (None, None)
    } else if by_rules {
        let o = pg.outcome.expect("by_rules has an outcome");
        (
            Some(GameResult::of_outcome(&o)),
            Some(EndReason::Rules(o.reason)),
        )
    } else if act < 0.25 {
        (Some(GameResult::Draw), Some(EndReason::Agreement))
    } else if act < 0.35 && spec.timed {
        (
            Some(GameResult::win_for(turn.opponent())),
            Some(EndReason::TimeForfeit),
        )
    } else {
        (
            Some(GameResult::win_for(turn.opponent())),
            Some(EndReason::Resignation),
        )
    };
    if reason == Some(EndReason::TimeForfeit) {
        if let Some(b) = banks.as_mut() {
            b[usize::from(to_move == Color::Black)] = 0;
        }
    }
    let rated = spec.rated && plies >= 2;
    let mut rating_seq = None;
    if let (true, Some(r)) = (rated, result) {
        let key = |u: i32| (u, spec.variant);
        let w = g
            .standings
            .get(&key(spec.white))
            .copied()
            .unwrap_or_default();
        let b = g
            .standings
            .get(&key(spec.black))
            .copied()
            .unwrap_or_default();
        let (wc, bc) = rate_game(&w, &b, r, when);
        let seq = next_seq(&w, &b);
        g.standings
            .insert(key(spec.white), w.after(wc.after, when, seq));
        g.standings
            .insert(key(spec.black), b.after(bc.after, when, seq));
        rating_seq = Some(seq);
        for (user, c) in [(spec.white, wc), (spec.black, bc)] {
            g.batch.rating_changes.push(RatingChangeIns {
                game_id: id,
                user_id: user,
                variant: pool.variant.id().to_string(),
                rating_before: c.before.rating,
                deviation_before: c.before.deviation,
                rating_after: c.after.rating,
                deviation_after: c.after.deviation,
                volatility_after: c.after.volatility,
                at: when,
            });
        }
        g.report.rated += 1;
    }
    // A running game: the side to move's turn began with the last move.
    let (turn_started_at, clock_deadline) = match (spec.running, &banks) {
        (true, Some(b)) => {
            let bank = b[usize::from(to_move == Color::Black)];
            (
                Some(last_at),
                Some(crate::domain::running_time::deadline(last_at, bank, &[])),
            )
        }
        (false, Some(_)) => (Some(last_at), None),
        _ => (None, None),
    };
    // The player waiting keeps a line: the next two plies of the record,
    // the opponent's move then their answer.
    let mut conditional_count = 0;
    if spec.running && lines {
        if let (Some(theirs), Some(mine)) = (pg.plies.get(plies), pg.plies.get(plies + 1)) {
            if mine.mover != theirs.mover {
                let line = [(theirs, false), (mine, true)].map(|(p, own)| LinePly {
                    coordinate: p.coordinate.clone(),
                    display: p.display.clone(),
                    comment: None,
                    mine: own,
                });
                if let Ok(json) = serde_json::to_string(&line) {
                    g.batch.lines.push(LineIns {
                        game_id: id,
                        user_id: player_of(mine.mover),
                        from_ply: plies as i32,
                        plies: json,
                        created_at: last_at,
                    });
                    conditional_count = 1;
                }
            }
        }
    }
    let (status, ended_at) = match spec.running {
        true => (GameStatus::Active, None),
        false => (GameStatus::Finished, Some(when)),
    };
    g.batch.games.push(GameIns {
        id,
        variant: pool.variant.id().to_string(),
        status: status.code().to_string(),
        challenger_id: spec.white,
        opponent_id: Some(spec.black),
        white_id: Some(spec.white),
        black_id: Some(spec.black),
        challenger_color: Side::White.code().to_string(),
        start_fen: pool.start_fen.clone(),
        fen,
        ply: plies as i32,
        turn: turn.code().to_string(),
        result: result.map(|r| r.code().to_string()),
        reason: reason.map(|r| r.code().to_string()),
        created_at: started,
        updated_at: last_at,
        ended_at,
        time_control: control.as_ref().map(|c| c.to_string()),
        white_clock_secs: banks.map(|b| b[0]),
        black_clock_secs: banks.map(|b| b[1]),
        turn_started_at,
        clock_deadline,
        tournament_id: spec.tournament.map(|t| t.0),
        round: spec.tournament.map(|t| t.1),
        conditional_count,
        rated,
        rating_seq,
        accepted_at: match spec.tournament {
            Some(_) => None,
            None => Some(started),
        },
    });
    g.batch.histories.push(HistoryIns {
        game_id: id,
        ply: 0,
        history: pool.start_history.clone(),
    });
    if spec.running {
        if note {
            g.batch.notes.push(NoteIns {
                game_id: id,
                user_id: spec.white,
                body: "Keep the queen's side closed; look at f5 next.".into(),
                updated_at: last_at,
            });
        }
        if mail {
            let to = player_of(to_move);
            let from = player_of(match to_move {
                Color::Black => Color::White,
                _ => Color::Black,
            });
            let m = Mail::YourTurn {
                game: id,
                ply: plies as i32,
                from: Some(from),
                last_move: None,
            };
            g.batch.outbox.push(OutboxIns {
                kind: m.kind().code().to_string(),
                user_id: to,
                game_id: Some(id),
                ply: Some(plies as i32),
                payload: crate::db::outbox::payload_of(&m),
                created_at: last_at,
                attempts: 0,
                next_attempt_at: last_at,
            });
        }
        g.report.running += 1;
    }
    g.report.games += 1;
    g.report.moves += plies;
    result
}

/// The games outside tournaments: the rest of `--games`, a tenth running.
/// The first player has up to 1,000 of the running ones (a busy
/// correspondence player's dashboard).
pub fn make_casual(conn: &mut DbConn, g: &mut Gen, opts: &Options) -> anyhow::Result<()> {
    let left = opts.games.saturating_sub(g.report.games);
    let busiest = (left / 40).min(1_000);
    let mut busy_made = 0;
    for _ in 0..left {
        let running = g.rng.gen_bool(0.1);
        let (mut white, mut black) = g.pair();
        if running && busy_made < busiest {
            busy_made += 1;
            let other = g.first_user + g.rng.gen_range(1..g.players);
            (white, black) = match g.rng.gen_bool(0.5) {
                true => (g.first_user, other),
                false => (other, g.first_user),
            };
        }
        let spec = Spec {
            white,
            black,
            variant: g.variant(),
            running,
            rated: g.rng.gen_bool(0.6),
            timed: running || g.rng.gen_bool(0.5),
            tournament: None,
        };
        make(g, &spec);
        g.flush(conn, false)?;
    }
    g.flush(conn, true)
}
