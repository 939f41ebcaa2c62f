-- Issue 10: tournament directors, tournaments, their players, byes and
-- adjudications; games know their tournament and round.
ALTER TABLE users ADD COLUMN is_director BOOLEAN NOT NULL DEFAULT 0;

CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    name TEXT NOT NULL,
    variant TEXT NOT NULL,
    -- The canonical text of the time control; NULL = no clock.
    time_control TEXT,
    -- 'round-robin', 'double-round-robin' or 'swiss'.
    format TEXT NOT NULL,
    -- Swiss: as set; round robins: known at the start (0 before).
    rounds INTEGER NOT NULL,
    entry_opens TIMESTAMP NOT NULL,
    entry_closes TIMESTAMP NOT NULL,
    max_players INTEGER NOT NULL,
    -- Counter bumped by a conditional UPDATE, so max_players holds under races.
    entrants INTEGER NOT NULL DEFAULT 0,
    leave_days INTEGER NOT NULL,
    forfeit_limit INTEGER NOT NULL,
    director_id INTEGER NOT NULL REFERENCES users(id),
    -- 'entry', 'running', 'finished', 'cancelled'.
    status TEXT NOT NULL,
    -- The last round paired (0 before the start).
    current_round INTEGER NOT NULL DEFAULT 0,
    created_at TIMESTAMP NOT NULL,
    started_at TIMESTAMP,
    finished_at TIMESTAMP
);
CREATE INDEX tournaments_status ON tournaments(status, entry_closes);
CREATE INDEX tournaments_director ON tournaments(director_id);

CREATE TABLE tournament_players (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id),
    -- Pairing number, from 1, set at the start (join order).
    seed INTEGER,
    joined_at TIMESTAMP NOT NULL,
    withdrawn_at TIMESTAMP,
    withdrawal_reason TEXT,
    -- Withdrawn having completed fewer than half their games.
    results_cancelled BOOLEAN NOT NULL DEFAULT 0,
    -- The player who took this one's place.
    replaced_by INTEGER REFERENCES users(id),
    UNIQUE (tournament_id, user_id)
);
CREATE INDEX tournament_players_user ON tournament_players(user_id);

CREATE TABLE tournament_byes (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id),
    UNIQUE (tournament_id, round)
);

ALTER TABLE games ADD COLUMN tournament_id INTEGER REFERENCES tournaments(id);
ALTER TABLE games ADD COLUMN round INTEGER;
CREATE INDEX games_tournament ON games(tournament_id, round);

-- A player's request that a director decide a game.
CREATE TABLE adjudication_requests (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id),
    note TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    resolved_at TIMESTAMP,
    resolved_by INTEGER REFERENCES users(id)
);
CREATE INDEX adjudication_requests_open ON adjudication_requests(resolved_at);

-- Results set by a director, with the reason given.
CREATE TABLE adjudications (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    director_id INTEGER NOT NULL REFERENCES users(id),
    result TEXT NOT NULL,
    reason TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX adjudications_game ON adjudications(game_id);
