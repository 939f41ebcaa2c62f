CREATE TABLE moves_with_id (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
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
    UNIQUE (game_id, ply)
);

INSERT INTO moves_with_id (game_id, ply, display, coordinate, from_square, to_square,
                           fen_after, played_by, played_at, comment, time_used_secs, turn_no)
SELECT game_id, ply, display, coordinate, from_square, to_square,
       fen_after, played_by, played_at, comment, time_used_secs, turn_no
FROM moves ORDER BY played_at, game_id, ply;

DROP TABLE moves;
ALTER TABLE moves_with_id RENAME TO moves;
