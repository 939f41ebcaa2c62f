-- (game_id, ply) is the key of a move; the surrogate id was never read.
-- (SQLite also stores the table in that order; see its migration.)
ALTER TABLE moves DROP COLUMN id;
ALTER TABLE moves DROP CONSTRAINT moves_game_id_ply_key;
ALTER TABLE moves ADD PRIMARY KEY (game_id, ply);
