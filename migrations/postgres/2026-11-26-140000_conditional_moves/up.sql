-- Conditional moves: a player's lines of "if they play X, I play Y", kept
-- private until played. A game's `conditional_rev` moves with every change
-- to its lines, under the game row (as a move's guard is), so a move that
-- read the lines before an edit cannot be stored after it; `conditional_count`
-- lets a move skip reading lines when a game has none.
CREATE TABLE conditional_lines (
    id SERIAL PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id),
    -- The game's ply before the line's first move (the opponent's).
    from_ply INTEGER NOT NULL,
    -- JSON: [{"coordinate": "g8f6", "display": "Nf6", "comment": null}, ...]
    plies TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);

CREATE INDEX conditional_lines_by_game ON conditional_lines (game_id, user_id);

ALTER TABLE games ADD COLUMN conditional_rev INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN conditional_count INTEGER NOT NULL DEFAULT 0;
-- The side whose takeback request stands, and how many takebacks the game
-- has had: a taken-back ply may be played again differently, so what is
-- kept by (game, ply) is kept by (game, takebacks, ply).
ALTER TABLE games ADD COLUMN takeback_offer TEXT;
ALTER TABLE games ADD COLUMN takebacks INTEGER NOT NULL DEFAULT 0;

-- A move played from a conditional line, and the mover's bank after it
-- (so a takeback can put the clocks back as they were).
ALTER TABLE moves ADD COLUMN conditional BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE moves ADD COLUMN bank_after BIGINT;

-- What happened to a game besides its moves: takebacks asked, given, refused.
CREATE TABLE game_events (
    id SERIAL PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    at TIMESTAMP NOT NULL,
    user_id INTEGER REFERENCES users(id),
    kind TEXT NOT NULL,
    detail TEXT NOT NULL
);

CREATE INDEX game_events_by_game ON game_events (game_id, id);
