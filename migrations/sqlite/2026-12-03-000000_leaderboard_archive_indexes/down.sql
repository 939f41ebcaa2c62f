DROP INDEX IF EXISTS ratings_established;
DROP INDEX IF EXISTS ratings_by_variant_rating;
DROP INDEX IF EXISTS games_status_updated;
DROP INDEX IF EXISTS games_variant_status_updated;
DROP INDEX IF EXISTS games_variant_updated;
CREATE INDEX IF NOT EXISTS ratings_by_variant ON ratings (variant, last_played_at);
