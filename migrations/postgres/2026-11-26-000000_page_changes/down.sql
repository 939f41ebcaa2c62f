DO $$
DECLARE
    t TEXT;
BEGIN
    FOREACH t IN ARRAY ARRAY['games', 'moves', 'game_histories', 'game_notes',
        'settings', 'users', 'sessions', 'mail_prefs', 'verified_emails',
        'leave_bookings', 'leave_grants', 'tournaments', 'tournament_players',
        'tournament_byes', 'adjudication_requests', 'adjudications']
    LOOP
        EXECUTE format('DROP TRIGGER page_changes ON %I', t);
        EXECUTE format('DROP TRIGGER page_changes_truncated ON %I', t);
    END LOOP;
END
$$;
DROP FUNCTION page_changes_game();
DROP FUNCTION page_changes_anything();
DROP TABLE page_changes;
