DROP TABLE team_match_games;
DROP TABLE team_match_players;
DROP TABLE team_matches;
DROP TABLE administrators;
