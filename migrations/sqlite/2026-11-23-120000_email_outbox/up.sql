-- Mails waiting to be sent (or sent), written in the same transaction as the
-- event that causes them; rendered and sent by the mail worker.
CREATE TABLE email_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    kind TEXT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    game_id INTEGER REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER,
    payload TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMP NOT NULL,
    lease_owner TEXT,
    lease_until TIMESTAMP,
    sent_at TIMESTAMP,
    last_error TEXT
);
CREATE INDEX email_outbox_due ON email_outbox(sent_at, next_attempt_at);
CREATE INDEX email_outbox_user ON email_outbox(user_id);

-- Per-user mail policy: 'every' (a mail on every turn, the default when no
-- row exists), 'digest' (no per-turn mail), 'none' (no mail at all).
CREATE TABLE mail_prefs (
    user_id INTEGER PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    policy TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

-- Addresses proven by the signed link of the verification mail. A user's
-- address is verified when a row holds their current address.
CREATE TABLE verified_emails (
    user_id INTEGER PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    verified_at TIMESTAMP NOT NULL
);
