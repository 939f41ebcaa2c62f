-- Issue 41: credentials for correspondence clients and scripts. App
-- passwords (kind 'app_password') sign in to /xfcc; personal tokens (kind
-- 'token', scope 'read' or 'play') to /api/. The secret is shown once and
-- only its SHA-256 is kept; revoking deletes the row.
CREATE TABLE api_credentials (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    scope TEXT NOT NULL,
    name TEXT NOT NULL,
    secret_hash TEXT NOT NULL UNIQUE,
    created_at TIMESTAMP NOT NULL,
    last_used_at TIMESTAMP
);
CREATE INDEX api_credentials_user ON api_credentials(user_id);
