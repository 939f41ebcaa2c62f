DROP INDEX IF EXISTS games_white;
DROP INDEX IF EXISTS games_black;
CREATE INDEX games_white ON games (white_id);
CREATE INDEX games_black ON games (black_id);
