DROP INDEX games_updated;
DROP TABLE game_notes;
ALTER TABLE moves DROP COLUMN comment;
