CREATE TABLE settings (
    key TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);

CREATE TABLE users (
    id SERIAL PRIMARY KEY,
    username TEXT NOT NULL,
    username_key TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    confirm_moves BOOLEAN NOT NULL DEFAULT TRUE,
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE sessions (
    id SERIAL PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE login_attempts (
    id SERIAL PRIMARY KEY,
    username_key TEXT NOT NULL,
    ip TEXT NOT NULL,
    success BOOLEAN NOT NULL,
    attempted_at TIMESTAMP NOT NULL
);
CREATE INDEX login_attempts_user ON login_attempts(username_key, attempted_at);
CREATE INDEX login_attempts_ip ON login_attempts(ip, attempted_at);

CREATE TABLE games (
    id SERIAL PRIMARY KEY,
    variant TEXT NOT NULL,
    status TEXT NOT NULL,
    challenger_id INTEGER NOT NULL REFERENCES users(id),
    opponent_id INTEGER REFERENCES users(id),
    white_id INTEGER REFERENCES users(id),
    black_id INTEGER REFERENCES users(id),
    challenger_color TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    fen TEXT NOT NULL,
    history TEXT NOT NULL,
    ply INTEGER NOT NULL,
    turn TEXT NOT NULL,
    result TEXT,
    reason TEXT,
    draw_offer TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    ended_at TIMESTAMP
);
CREATE INDEX games_white ON games(white_id);
CREATE INDEX games_black ON games(black_id);
CREATE INDEX games_challenger ON games(challenger_id);
CREATE INDEX games_opponent ON games(opponent_id);
CREATE INDEX games_status ON games(status);

CREATE TABLE moves (
    id SERIAL PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    display TEXT NOT NULL,
    coordinate TEXT NOT NULL,
    from_square TEXT,
    to_square TEXT NOT NULL,
    fen_after TEXT NOT NULL,
    played_by INTEGER NOT NULL REFERENCES users(id),
    played_at TIMESTAMP NOT NULL,
    UNIQUE (game_id, ply)
);
