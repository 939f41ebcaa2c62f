-- A write that lost its connection (PostgreSQL) may have been committed
-- although its answer never came, so trying it again could do it twice.
-- Each such write stores its request's random key and what it answered in
-- its own transaction; a try that finds the key answers that instead
-- (`db::once`). Keys are needed for the seconds a request is retried and
-- are pruned after an hour.
CREATE TABLE request_keys (
    key TEXT PRIMARY KEY NOT NULL,
    answer TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);

CREATE INDEX request_keys_by_age ON request_keys (created_at);
