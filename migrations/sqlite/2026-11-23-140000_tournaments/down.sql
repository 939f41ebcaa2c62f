DROP TABLE adjudications;
DROP TABLE adjudication_requests;
DROP INDEX games_tournament;
ALTER TABLE games DROP COLUMN round;
ALTER TABLE games DROP COLUMN tournament_id;
DROP TABLE tournament_byes;
DROP TABLE tournament_players;
DROP TABLE tournaments;
ALTER TABLE users DROP COLUMN is_director;
