-- Issue 65: the archive's "by variant, latest ended first" and "latest
-- ended first" read games in the order of their end instead of sorting
-- every finished game of the variant (tests/query_plans.rs).
CREATE INDEX games_variant_ended ON games (variant, ended_at, id);
CREATE INDEX games_ended ON games (ended_at, id);
