-- Issue 65, on a million games: the archive by variant, latest move first
-- (its default order), read every game of the variant and sorted them
-- (1.1 s on SQLite); the leaderboard read every active player's rating in
-- the variant (218 ms for 97,563). Both now walk an index in their order
-- and stop at the page's end.
CREATE INDEX IF NOT EXISTS games_variant_updated ON games (variant, updated_at, id);
CREATE INDEX IF NOT EXISTS ratings_by_variant_rating ON ratings (variant, rating, user_id);
