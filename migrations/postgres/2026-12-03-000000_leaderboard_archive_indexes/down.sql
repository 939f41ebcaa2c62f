DROP INDEX IF EXISTS ratings_by_variant_rating;
DROP INDEX IF EXISTS games_variant_updated;
