-- Login limiting (issue 37): one row per key ("a:NAME|ADDRESS" for an
-- account from one address, "a:NAME" for an account from anywhere, "i:ADDRESS"
-- for an address). A login attempt claims its keys in one transaction before
-- the password is checked, so concurrent attempts cannot all pass the limit;
-- `not_before` is when the next attempt on the key may be claimed.
CREATE TABLE login_throttles (
    key TEXT PRIMARY KEY NOT NULL,
    failures INTEGER NOT NULL,
    not_before TIMESTAMP NOT NULL
);

-- Fixed-window counters for what sends mail (sign-ups per address, confirm
-- mails per mail address, challenges per sender), counted with an upsert so
-- several processes on one database share them.
CREATE TABLE rate_counters (
    key TEXT PRIMARY KEY NOT NULL,
    window_start TIMESTAMP NOT NULL,
    count INTEGER NOT NULL
);

-- An address the mail server refused for good (an SMTP 5xx): the player is
-- told on every page until the address changes or is confirmed again.
CREATE TABLE mail_failures (
    user_id INTEGER PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    error TEXT NOT NULL,
    failed_at TIMESTAMP NOT NULL
);
