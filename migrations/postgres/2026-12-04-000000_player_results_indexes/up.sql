-- Issue 65, on a million games: a profile counts a player's results by
-- variant; with games_white/games_black holding only the player, each of
-- a busy player's hundreds of games was fetched from the table (most of
-- the page). Holding what the count groups by, the indexes answer it
-- alone, and still serve every lookup by player as before.
DROP INDEX IF EXISTS games_white;
DROP INDEX IF EXISTS games_black;
CREATE INDEX games_white ON games (white_id, status, variant, result);
CREATE INDEX games_black ON games (black_id, status, variant, result);
