-- Issue 64, web push: the browsers a player asked to be notified in (a
-- push service's endpoint and the browser's P-256 key and auth secret, as
-- PushSubscription.toJSON() gives them), which kinds they want, and the
-- notifications queued for each browser in the transaction of their event.
CREATE TABLE push_subscriptions (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    endpoint TEXT NOT NULL UNIQUE,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions(user_id);

-- The kinds of notification a player turned off (`PushKind` codes); none
-- listed means every kind is on.
CREATE TABLE push_muted (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    PRIMARY KEY (user_id, kind)
);

-- One row per notification and browser; the same lease and retry columns
-- as email_outbox. `kind`, `game_id`, `ply` and `payload` hold the
-- event as email_outbox does, rendered when sent.
CREATE TABLE push_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    subscription_id INTEGER NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
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
CREATE INDEX push_outbox_due ON push_outbox(sent_at, next_attempt_at);
CREATE INDEX push_outbox_subscription ON push_outbox(subscription_id);
