-- Issue 64: each player's time zone (an IANA name; weekends and the
-- deadlines they are shown are in it), games and tournaments whose clocks
-- stop on the mover's Saturday and Sunday, and each player's secret
-- calendar address (stored as its SHA-256, like the other secrets).
ALTER TABLE users ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';
ALTER TABLE games ADD COLUMN weekends_free BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE tournaments ADD COLUMN weekends_free BOOLEAN NOT NULL DEFAULT FALSE;
CREATE TABLE calendar_feeds (
    user_id INTEGER PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TIMESTAMP NOT NULL
);
