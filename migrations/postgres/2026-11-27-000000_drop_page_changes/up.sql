-- Game pages are no longer kept between views, so nothing reads the record
-- of changes that 2026-11-26-000000_page_changes made its triggers write.
DO $$
DECLARE
    t TEXT;
BEGIN
    FOREACH t IN ARRAY ARRAY['games', 'moves', 'game_histories', 'game_notes',
        'settings', 'users', 'sessions', 'mail_prefs', 'verified_emails',
        'leave_bookings', 'leave_grants', 'tournaments', 'tournament_players',
        'tournament_byes', 'adjudication_requests', 'adjudications']
    LOOP
        EXECUTE format('DROP TRIGGER IF EXISTS page_changes ON %I', t);
        EXECUTE format('DROP TRIGGER IF EXISTS page_changes_truncated ON %I', t);
    END LOOP;
END
$$;
DROP FUNCTION IF EXISTS page_changes_game();
DROP FUNCTION IF EXISTS page_changes_anything();
DROP TABLE IF EXISTS page_changes;
