ALTER TABLE moves DROP CONSTRAINT moves_pkey;
ALTER TABLE moves ADD CONSTRAINT moves_game_id_ply_key UNIQUE (game_id, ply);
ALTER TABLE moves ADD COLUMN id SERIAL PRIMARY KEY;
