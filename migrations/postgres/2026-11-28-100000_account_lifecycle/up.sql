-- Issue 36: accounts a person can live with.
-- An operator's `missive user disable` sets disabled_at; deleting an account
-- sets deleted_at and keeps the row (renamed `deleted-ID`) so finished games
-- still name a player.
ALTER TABLE users ADD COLUMN disabled_at TIMESTAMP;
ALTER TABLE users ADD COLUMN deleted_at TIMESTAMP;

-- What /settings lists about each session.
ALTER TABLE sessions ADD COLUMN last_seen_at TIMESTAMP;
ALTER TABLE sessions ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';
UPDATE sessions SET last_seen_at = created_at;

-- Password-reset and address-change links. The token itself is never stored:
-- it is an HMAC of `salt` under the server secret (so the outbox can render
-- the mail later), and only its SHA-256 is kept, for the lookup.
CREATE TABLE account_tokens (
    id SERIAL PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    purpose TEXT NOT NULL,
    new_email TEXT,
    salt TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    used_at TIMESTAMP
);
CREATE INDEX account_tokens_user ON account_tokens(user_id);

-- Names of deleted accounts, kept from sign-up for 30 days so nobody
-- takes a name its owner's correspondents still know.
CREATE TABLE retired_usernames (
    username_key TEXT PRIMARY KEY NOT NULL,
    retired_until TIMESTAMP NOT NULL
);
