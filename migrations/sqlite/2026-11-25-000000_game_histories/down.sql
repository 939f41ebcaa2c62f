ALTER TABLE games ADD COLUMN history TEXT NOT NULL DEFAULT '';
UPDATE games SET history = (SELECT h.history FROM game_histories h WHERE h.game_id = games.id);
DROP TABLE game_histories;
