-- A game's repetition history (one key per position: about 17 bytes a ply)
-- was the largest column of a game row, so every read of a game, for a page,
-- a list or a mail, carried it: from SQLite's overflow pages, one read call
-- each, at about ten kilobytes for a long game. Only restoring a game needs
-- it, and a game page restores from the position cache; so it lives here,
-- read when a game is restored and written with each move.
CREATE TABLE game_histories (
    game_id INTEGER PRIMARY KEY NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    history TEXT NOT NULL
);

INSERT INTO game_histories (game_id, history) SELECT id, history FROM games;

ALTER TABLE games DROP COLUMN history;
