-- A game's repetition history (one entry per position: about 17 bytes a
-- ply) was the largest column of a game row, so every read of a game, for a
-- page, a list or a mail, carried it (from SQLite's overflow pages, one read
-- call each, at about ten kilobytes for a long game), and every move wrote
-- it all again. Only restoring a game needs it, and a game page restores
-- from the position cache. So each move now stores the one entry it adds,
-- and `game_histories` holds the history up to `ply`: the start position's
-- entry for a game created from now on, the whole history so far for a game
-- that was already running. A game's history is its row here followed by
-- the entries of its moves after `ply`, in ply order.
CREATE TABLE game_histories (
    game_id INTEGER PRIMARY KEY NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    history TEXT NOT NULL
);

INSERT INTO game_histories (game_id, ply, history) SELECT id, ply, history FROM games;

ALTER TABLE games DROP COLUMN history;

ALTER TABLE moves ADD COLUMN history_entry TEXT;
