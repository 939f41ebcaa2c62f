-- Issue 65, on a million games: the archive by variant, latest move first
-- (its default order), read every game of the variant and sorted them
-- (1.1 s on SQLite); filtered to finished games, walking that order still
-- stepped over every running game of the variant, whose moves are the
-- latest (80 ms); the leaderboard read every active rating of the variant
-- (218 ms for 97,563), and walking it in order still stepped over the
-- many provisional players for the established list, so the index holds
-- what that walk asks of each row. Each now walks an index in its order
-- and stops at the page's end.
CREATE INDEX IF NOT EXISTS games_variant_updated ON games (variant, updated_at, id);
CREATE INDEX IF NOT EXISTS games_variant_status_updated ON games (variant, status, updated_at, id);
CREATE INDEX IF NOT EXISTS games_status_updated ON games (status, updated_at, id);
CREATE INDEX IF NOT EXISTS ratings_by_variant_rating ON ratings (variant, rating, user_id, deviation, last_played_at, games);
-- The leaderboard's old index (variant, last_played_at): the new one
-- serves it, and a planner that took the old one sorted every active rating.
DROP INDEX IF EXISTS ratings_by_variant;
-- The established list walks only ratings whose stored deviation is under
-- the provisional line (a thousand of 46,747 active chess ratings at a
-- million games); read from the index above, it stepped over the rest
-- (15 ms).
CREATE INDEX IF NOT EXISTS ratings_established ON ratings (variant, rating, user_id) WHERE deviation <= 110;
