-- What each transaction changed that a game page may show, for the game
-- pages every server process keeps (src/db/page_changes.rs). NOTIFY would
-- say it without a table, but a transaction that notifies holds a lock
-- shared by the whole server until its commit is on the disk, so commits
-- that notify are synced one at a time: 500 a second against 9,000 without
-- it in a pgbench run of one-row inserts on the 2-core development machine.
-- A row per game and transaction (`game_id` 0: anything may have changed);
-- each process reads the rows of transactions newer than the oldest one
-- running at its last look, and rows older than a minute are pruned.
CREATE TABLE page_changes (
    xid XID8 NOT NULL DEFAULT pg_current_xact_id(),
    game_id BIGINT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (xid, game_id)
);

CREATE INDEX page_changes_by_age ON page_changes (at);

-- A row that belongs to one game changed (`games.id`, else `game_id`): the
-- game, before and after.
CREATE FUNCTION page_changes_game() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    before_id BIGINT;
    after_id BIGINT;
BEGIN
    IF TG_TABLE_NAME = 'games' THEN
        IF TG_OP <> 'INSERT' THEN before_id := OLD.id; END IF;
        IF TG_OP <> 'DELETE' THEN after_id := NEW.id; END IF;
    ELSE
        IF TG_OP <> 'INSERT' THEN before_id := OLD.game_id; END IF;
        IF TG_OP <> 'DELETE' THEN after_id := NEW.game_id; END IF;
    END IF;
    -- Plain one-row INSERTs, and one only when the game stays the same
    -- (every move's UPDATE of its game).
    IF before_id IS NOT NULL THEN
        INSERT INTO page_changes (game_id) VALUES (before_id) ON CONFLICT DO NOTHING;
    END IF;
    IF after_id IS DISTINCT FROM before_id AND after_id IS NOT NULL THEN
        INSERT INTO page_changes (game_id) VALUES (after_id) ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END
$$;

-- Anything else a page may show changed (a user, a session, leave, a
-- tournament).
CREATE FUNCTION page_changes_anything() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO page_changes (game_id) VALUES (0) ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;

CREATE TRIGGER page_changes AFTER INSERT OR UPDATE OR DELETE ON games
    FOR EACH ROW EXECUTE FUNCTION page_changes_game();
CREATE TRIGGER page_changes AFTER INSERT OR UPDATE OR DELETE ON moves
    FOR EACH ROW EXECUTE FUNCTION page_changes_game();
CREATE TRIGGER page_changes AFTER INSERT OR UPDATE OR DELETE ON game_histories
    FOR EACH ROW EXECUTE FUNCTION page_changes_game();
CREATE TRIGGER page_changes AFTER INSERT OR UPDATE OR DELETE ON game_notes
    FOR EACH ROW EXECUTE FUNCTION page_changes_game();

-- Row by row, so a statement that changed nothing notes nothing; a TRUNCATE
-- has no rows to report, so it is noted by statement.
DO $$
DECLARE
    t TEXT;
BEGIN
    FOREACH t IN ARRAY ARRAY['settings', 'users', 'sessions', 'mail_prefs',
        'verified_emails', 'leave_bookings', 'leave_grants', 'tournaments',
        'tournament_players', 'tournament_byes', 'adjudication_requests',
        'adjudications']
    LOOP
        EXECUTE format('CREATE TRIGGER page_changes AFTER INSERT OR UPDATE OR DELETE ON %I '
            'FOR EACH ROW EXECUTE FUNCTION page_changes_anything()', t);
    END LOOP;
    FOREACH t IN ARRAY ARRAY['games', 'moves', 'game_histories', 'game_notes',
        'settings', 'users', 'sessions', 'mail_prefs', 'verified_emails',
        'leave_bookings', 'leave_grants', 'tournaments', 'tournament_players',
        'tournament_byes', 'adjudication_requests', 'adjudications']
    LOOP
        EXECUTE format('CREATE TRIGGER page_changes_truncated AFTER TRUNCATE ON %I '
            'FOR EACH STATEMENT EXECUTE FUNCTION page_changes_anything()', t);
    END LOOP;
END
$$;
