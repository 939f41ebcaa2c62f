DROP INDEX games_ended;
DROP INDEX games_variant_ended;
