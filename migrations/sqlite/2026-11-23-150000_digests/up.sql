-- One row per user per UTC day on which the daily digest was decided (queued,
-- or nothing to list). The primary key is the claim: with several processes,
-- only the one whose insert succeeds queues that day's digest, in the same
-- transaction as this row.
CREATE TABLE digest_sent (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    day DATE NOT NULL,
    games INTEGER NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, day)
);

-- When the verification mail was last queued for a user: the "send it again"
-- button claims a new one with a conditional update (at most one per 10
-- minutes, even with several clicks at once).
CREATE TABLE verify_mail_sent (
    user_id INTEGER PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    sent_at TIMESTAMP NOT NULL
);

-- The number the move list shows for each ply ("12." for both halves of
-- move 12), stored with the move so that a page can show a window of a long
-- game without reading the plies before it. A new number starts with the
-- game's first ply and whenever White moves after Black.
ALTER TABLE moves ADD COLUMN turn_no INTEGER NOT NULL DEFAULT 0;
UPDATE moves SET turn_no = t.n FROM (
    SELECT s.id, SUM(s.starts) OVER (PARTITION BY s.game_id ORDER BY s.ply) AS n
    FROM (
        SELECT m.id, m.game_id, m.ply,
               CASE WHEN LAG(m.played_by) OVER w IS NULL THEN 1
                    WHEN m.played_by <> g.black_id AND LAG(m.played_by) OVER w = g.black_id THEN 1
                    ELSE 0 END AS starts
        FROM moves m JOIN games g ON g.id = m.game_id
        WINDOW w AS (PARTITION BY m.game_id ORDER BY m.ply)
    ) s
) t WHERE t.id = moves.id;
