ALTER TABLE games ADD COLUMN history TEXT NOT NULL DEFAULT '';
UPDATE games SET history = (
    SELECT h.history || COALESCE(
        (SELECT ',' || group_concat(m.history_entry, ',' ORDER BY m.ply)
         FROM moves m WHERE m.game_id = h.game_id AND m.ply > h.ply), '')
    FROM game_histories h WHERE h.game_id = games.id);
ALTER TABLE moves DROP COLUMN history_entry;
DROP TABLE game_histories;
