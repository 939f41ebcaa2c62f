-- Moves stored in (game, ply) order. With a rowid, a game's moves lay
-- interleaved with every other game's in the order they were played, so
-- the forty plies a game page lists were forty lookups in forty places of
-- the table; clustered by game they are one short range. The surrogate id
-- was never read: (game_id, ply) is the key.
CREATE TABLE moves_by_game (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    display TEXT NOT NULL,
    coordinate TEXT NOT NULL,
    from_square TEXT,
    to_square TEXT NOT NULL,
    fen_after TEXT NOT NULL,
    played_by INTEGER NOT NULL REFERENCES users(id),
    played_at TIMESTAMP NOT NULL,
    comment TEXT,
    time_used_secs BIGINT,
    turn_no INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

INSERT INTO moves_by_game (game_id, ply, display, coordinate, from_square, to_square,
                           fen_after, played_by, played_at, comment, time_used_secs, turn_no)
SELECT game_id, ply, display, coordinate, from_square, to_square,
       fen_after, played_by, played_at, comment, time_used_secs, turn_no
FROM moves;

DROP TABLE moves;
ALTER TABLE moves_by_game RENAME TO moves;
