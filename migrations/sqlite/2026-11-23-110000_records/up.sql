-- Issue 11: a move's `//` comment, and private notes per user per game.
ALTER TABLE moves ADD COLUMN comment TEXT;

CREATE TABLE game_notes (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    body TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (game_id, user_id)
);
CREATE INDEX games_updated ON games(updated_at);
