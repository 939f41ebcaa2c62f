-- Issue 63: administrators, who grant and remove the director role on a
-- page (`missive user grant-admin` makes the first), and team matches:
-- two teams with captains, a number of boards, and two games a board (one
-- with each colour), made through the usual game creation.
CREATE TABLE administrators (
    user_id INTEGER PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    granted_at TIMESTAMP NOT NULL
);

CREATE TABLE team_matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    name TEXT NOT NULL,
    variant TEXT NOT NULL,
    -- The canonical text of the time control; NULL = no clock.
    time_control TEXT,
    rated BOOLEAN NOT NULL,
    boards INTEGER NOT NULL,
    team1 TEXT NOT NULL,
    captain1 INTEGER NOT NULL REFERENCES users(id),
    team2 TEXT NOT NULL,
    captain2 INTEGER NOT NULL REFERENCES users(id),
    created_by INTEGER NOT NULL REFERENCES users(id),
    -- lineup (captains naming players), running, finished
    status TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    started_at TIMESTAMP,
    finished_at TIMESTAMP
);

-- One row per board and team once its captain has named the player.
CREATE TABLE team_match_players (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    match_id INTEGER NOT NULL REFERENCES team_matches(id) ON DELETE CASCADE,
    team INTEGER NOT NULL,
    board INTEGER NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id),
    UNIQUE (match_id, team, board),
    UNIQUE (match_id, user_id)
);

-- The match's games: looked up by game when one ends.
CREATE TABLE team_match_games (
    game_id INTEGER PRIMARY KEY NOT NULL REFERENCES games(id),
    match_id INTEGER NOT NULL REFERENCES team_matches(id) ON DELETE CASCADE,
    board INTEGER NOT NULL,
    -- The team whose player has White in this game (1 or 2).
    white_team INTEGER NOT NULL
);
CREATE INDEX team_match_games_match ON team_match_games (match_id);
