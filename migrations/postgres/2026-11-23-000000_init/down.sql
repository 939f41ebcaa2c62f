DROP TABLE moves;
DROP TABLE games;
DROP TABLE login_attempts;
DROP TABLE sessions;
DROP TABLE users;
DROP TABLE settings;
