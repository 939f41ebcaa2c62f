-- Issue 60: what the last reset, password change or "log out everywhere"
-- ended, so the owner sees it on /settings. One row per account: the
-- latest replaces the one before.
CREATE TABLE credential_revocations (
    user_id INTEGER PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    cause TEXT NOT NULL,
    revoked_at TIMESTAMP NOT NULL,
    sessions INTEGER NOT NULL,
    email_changes INTEGER NOT NULL,
    reset_links INTEGER NOT NULL,
    tokens INTEGER NOT NULL,
    app_passwords INTEGER NOT NULL
);
