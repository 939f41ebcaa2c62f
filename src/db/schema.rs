//! The one schema both backends share (see `migrations/`).

diesel::table! {
    settings (key) {
        key -> Text,
        value -> Text,
    }
}

diesel::table! {
    users (id) {
        id -> Integer,
        username -> Text,
        username_key -> Text,
        email -> Text,
        password_hash -> Text,
        confirm_moves -> Bool,
        created_at -> Timestamp,
        is_director -> Bool,
        disabled_at -> Nullable<Timestamp>,
        deleted_at -> Nullable<Timestamp>,
        time_zone -> Text,
    }
}

diesel::table! {
    sessions (id) {
        id -> Integer,
        token_hash -> Text,
        user_id -> Integer,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        last_seen_at -> Nullable<Timestamp>,
        user_agent -> Text,
    }
}

diesel::table! {
    login_attempts (id) {
        id -> Integer,
        username_key -> Text,
        ip -> Text,
        success -> Bool,
        attempted_at -> Timestamp,
    }
}

diesel::table! {
    game_histories (game_id) {
        game_id -> Integer,
        ply -> Integer,
        history -> Text,
    }
}

diesel::table! {
    games (id) {
        id -> Integer,
        variant -> Text,
        status -> Text,
        challenger_id -> Integer,
        opponent_id -> Nullable<Integer>,
        white_id -> Nullable<Integer>,
        black_id -> Nullable<Integer>,
        challenger_color -> Text,
        start_fen -> Text,
        fen -> Text,
        ply -> Integer,
        turn -> Text,
        result -> Nullable<Text>,
        reason -> Nullable<Text>,
        draw_offer -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        ended_at -> Nullable<Timestamp>,
        time_control -> Nullable<Text>,
        white_clock_secs -> Nullable<BigInt>,
        black_clock_secs -> Nullable<BigInt>,
        turn_started_at -> Nullable<Timestamp>,
        clock_deadline -> Nullable<Timestamp>,
        clock_remind_at -> Nullable<Timestamp>,
        reminded_ply -> Nullable<Integer>,
        leave_cap_days -> Nullable<Integer>,
        tournament_id -> Nullable<Integer>,
        round -> Nullable<Integer>,
        conditional_rev -> Integer,
        conditional_count -> Integer,
        takeback_offer -> Nullable<Text>,
        takebacks -> Integer,
        rated -> Bool,
        rating_min -> Nullable<Integer>,
        rating_max -> Nullable<Integer>,
        rating_seq -> Nullable<BigInt>,
        silence_days -> Nullable<Integer>,
        on_timeout -> Text,
        silence_ply -> Nullable<Integer>,
        silence_stage -> Integer,
        flag_fell_side -> Nullable<Text>,
        claim_until -> Nullable<Timestamp>,
        reminder_stage -> Integer,
        unrated_reason -> Nullable<Text>,
        accepted_at -> Nullable<Timestamp>,
        weekends_free -> Bool,
    }
}

diesel::table! {
    moves (game_id, ply) {
        game_id -> Integer,
        ply -> Integer,
        display -> Text,
        coordinate -> Text,
        from_square -> Nullable<Text>,
        to_square -> Text,
        fen_after -> Text,
        played_by -> Integer,
        played_at -> Timestamp,
        comment -> Nullable<Text>,
        time_used_secs -> Nullable<BigInt>,
        turn_no -> Integer,
        history_entry -> Nullable<Text>,
        conditional -> Bool,
        bank_after -> Nullable<BigInt>,
    }
}

diesel::table! {
    leave_bookings (id) {
        id -> Integer,
        user_id -> Integer,
        start_date -> Date,
        end_date -> Date,
        created_at -> Timestamp,
    }
}

diesel::table! {
    leave_grants (id) {
        id -> Integer,
        user_id -> Integer,
        year -> Integer,
        days -> Integer,
        granted_by -> Nullable<Integer>,
        reason -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    game_notes (id) {
        id -> Integer,
        game_id -> Integer,
        user_id -> Integer,
        body -> Text,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    email_outbox (id) {
        id -> Integer,
        kind -> Text,
        user_id -> Integer,
        game_id -> Nullable<Integer>,
        ply -> Nullable<Integer>,
        payload -> Text,
        created_at -> Timestamp,
        attempts -> Integer,
        next_attempt_at -> Timestamp,
        lease_owner -> Nullable<Text>,
        lease_until -> Nullable<Timestamp>,
        sent_at -> Nullable<Timestamp>,
        last_error -> Nullable<Text>,
    }
}

diesel::table! {
    mail_prefs (user_id) {
        user_id -> Integer,
        policy -> Text,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    login_throttles (key) {
        key -> Text,
        failures -> Integer,
        not_before -> Timestamp,
    }
}

diesel::table! {
    rate_counters (key) {
        key -> Text,
        window_start -> Timestamp,
        count -> Integer,
    }
}

diesel::table! {
    mail_failures (user_id) {
        user_id -> Integer,
        email -> Text,
        error -> Text,
        failed_at -> Timestamp,
    }
}

diesel::table! {
    verified_emails (user_id) {
        user_id -> Integer,
        email -> Text,
        verified_at -> Timestamp,
    }
}

diesel::table! {
    tournaments (id) {
        id -> Integer,
        name -> Text,
        variant -> Text,
        time_control -> Nullable<Text>,
        format -> Text,
        rounds -> Integer,
        entry_opens -> Timestamp,
        entry_closes -> Timestamp,
        max_players -> Integer,
        entrants -> Integer,
        leave_days -> Integer,
        forfeit_limit -> Integer,
        director_id -> Integer,
        status -> Text,
        current_round -> Integer,
        created_at -> Timestamp,
        started_at -> Nullable<Timestamp>,
        finished_at -> Nullable<Timestamp>,
        rated -> Bool,
        silence_days -> Nullable<Integer>,
        on_timeout -> Text,
        cooling_off_days -> Integer,
        weekends_free -> Bool,
    }
}

diesel::table! {
    tournament_players (id) {
        id -> Integer,
        tournament_id -> Integer,
        user_id -> Integer,
        seed -> Nullable<Integer>,
        joined_at -> Timestamp,
        withdrawn_at -> Nullable<Timestamp>,
        withdrawal_reason -> Nullable<Text>,
        results_cancelled -> Bool,
        replaced_by -> Nullable<Integer>,
    }
}

diesel::table! {
    tournament_byes (id) {
        id -> Integer,
        tournament_id -> Integer,
        round -> Integer,
        user_id -> Integer,
    }
}

diesel::table! {
    adjudication_requests (id) {
        id -> Integer,
        game_id -> Integer,
        user_id -> Integer,
        note -> Text,
        created_at -> Timestamp,
        resolved_at -> Nullable<Timestamp>,
        resolved_by -> Nullable<Integer>,
    }
}

diesel::table! {
    adjudications (id) {
        id -> Integer,
        game_id -> Integer,
        director_id -> Integer,
        result -> Text,
        reason -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    digest_sent (user_id, day) {
        user_id -> Integer,
        day -> Date,
        games -> Integer,
        created_at -> Timestamp,
    }
}

diesel::table! {
    verify_mail_sent (user_id) {
        user_id -> Integer,
        sent_at -> Timestamp,
    }
}

diesel::table! {
    account_tokens (id) {
        id -> Integer,
        user_id -> Integer,
        purpose -> Text,
        new_email -> Nullable<Text>,
        salt -> Text,
        token_hash -> Text,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        used_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    retired_usernames (username_key) {
        username_key -> Text,
        retired_until -> Timestamp,
    }
}

diesel::joinable!(sessions -> users (user_id));
diesel::joinable!(account_tokens -> users (user_id));
diesel::joinable!(tournament_players -> tournaments (tournament_id));
diesel::joinable!(adjudication_requests -> games (game_id));
diesel::joinable!(moves -> games (game_id));
diesel::joinable!(game_histories -> games (game_id));
diesel::table! {
    request_keys (key) {
        key -> Text,
        answer -> Text,
        created_at -> Timestamp,
    }
}

// Issue 42: messages acted on, by Message-ID.
diesel::table! {
    mail_in (message_id) {
        message_id -> Text,
        game_id -> Integer,
        user_id -> Integer,
        received_at -> Timestamp,
    }
}

diesel::table! {
    conditional_lines (id) {
        id -> Integer,
        game_id -> Integer,
        user_id -> Integer,
        from_ply -> Integer,
        plies -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    game_events (id) {
        id -> Integer,
        game_id -> Integer,
        at -> Timestamp,
        user_id -> Nullable<Integer>,
        kind -> Text,
        detail -> Text,
    }
}

// Issue 41: app passwords and personal tokens (`accounts::api_credentials`).
diesel::table! {
    api_credentials (id) {
        id -> Integer,
        user_id -> Integer,
        kind -> Text,
        scope -> Text,
        name -> Text,
        secret_hash -> Text,
        created_at -> Timestamp,
        last_used_at -> Nullable<Timestamp>,
    }
}

diesel::joinable!(api_credentials -> users (user_id));
diesel::joinable!(conditional_lines -> games (game_id));
diesel::joinable!(game_events -> games (game_id));

// Ratings (issue 39).
diesel::table! {
    ratings (user_id, variant) {
        user_id -> Integer,
        variant -> Text,
        rating -> Double,
        deviation -> Double,
        volatility -> Double,
        games -> Integer,
        last_played_at -> Nullable<Timestamp>,
        seq -> BigInt,
    }
}

diesel::table! {
    rating_changes (game_id, user_id) {
        game_id -> Integer,
        user_id -> Integer,
        variant -> Text,
        rating_before -> Double,
        deviation_before -> Double,
        rating_after -> Double,
        deviation_after -> Double,
        volatility_after -> Double,
        at -> Timestamp,
    }
}

diesel::joinable!(rating_changes -> games (game_id));

// Issue 40: forfeit rules.
diesel::table! {
    clock_heartbeat (id) {
        id -> Integer,
        beat_at -> Timestamp,
    }
}

diesel::table! {
    reminder_prefs (user_id) {
        user_id -> Integer,
        thresholds -> Text,
        updated_at -> Timestamp,
    }
}

// Issue 60: what the last reset, password change or "log out everywhere"
// ended (`accounts::revocation`).
diesel::table! {
    credential_revocations (user_id) {
        user_id -> Integer,
        cause -> Text,
        revoked_at -> Timestamp,
        sessions -> Integer,
        email_changes -> Integer,
        reset_links -> Integer,
        tokens -> Integer,
        app_passwords -> Integer,
    }
}

// Issue 63: administrators (who grant the director role) and team matches.
diesel::table! {
    administrators (user_id) {
        user_id -> Integer,
        granted_at -> Timestamp,
    }
}

diesel::table! {
    team_matches (id) {
        id -> Integer,
        name -> Text,
        variant -> Text,
        time_control -> Nullable<Text>,
        rated -> Bool,
        boards -> Integer,
        team1 -> Text,
        captain1 -> Integer,
        team2 -> Text,
        captain2 -> Integer,
        created_by -> Integer,
        status -> Text,
        created_at -> Timestamp,
        started_at -> Nullable<Timestamp>,
        finished_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    team_match_players (id) {
        id -> Integer,
        match_id -> Integer,
        team -> Integer,
        board -> Integer,
        user_id -> Integer,
    }
}

diesel::table! {
    team_match_games (game_id) {
        game_id -> Integer,
        match_id -> Integer,
        board -> Integer,
        white_team -> Integer,
    }
}

diesel::allow_tables_to_appear_in_same_query!(
    ratings,
    rating_changes,
    clock_heartbeat,
    reminder_prefs,
    conditional_lines,
    game_events,
    settings,
    users,
    sessions,
    login_attempts,
    games,
    game_histories,
    moves,
    email_outbox,
    mail_prefs,
    verified_emails,
    mail_failures,
    game_notes,
    tournaments,
    tournament_players,
    tournament_byes,
    adjudication_requests,
    adjudications,
    leave_bookings,
    leave_grants,
    digest_sent,
    verify_mail_sent,
    account_tokens,
    retired_usernames,
    api_credentials,
    mail_in,
    credential_revocations,
    administrators,
    team_matches,
    team_match_players,
    team_match_games
);

// Issue 64, web push (kept apart from the lists above to ease merging).
diesel::table! {
    push_subscriptions (id) {
        id -> Integer,
        user_id -> Integer,
        endpoint -> Text,
        p256dh -> Text,
        auth -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    push_muted (user_id, kind) {
        user_id -> Integer,
        kind -> Text,
    }
}

diesel::table! {
    push_outbox (id) {
        id -> Integer,
        subscription_id -> Integer,
        kind -> Text,
        game_id -> Nullable<Integer>,
        ply -> Nullable<Integer>,
        payload -> Text,
        created_at -> Timestamp,
        attempts -> Integer,
        next_attempt_at -> Timestamp,
        lease_owner -> Nullable<Text>,
        lease_until -> Nullable<Timestamp>,
        sent_at -> Nullable<Timestamp>,
        last_error -> Nullable<Text>,
    }
}

diesel::joinable!(push_outbox -> push_subscriptions (subscription_id));
diesel::allow_tables_to_appear_in_same_query!(push_subscriptions, push_muted, push_outbox);
diesel::allow_tables_to_appear_in_same_query!(push_subscriptions, users);
diesel::allow_tables_to_appear_in_same_query!(push_muted, users);
// Calendar, time zones and weekends free (issue 64).
diesel::table! {
    calendar_feeds (user_id) {
        user_id -> Integer,
        token_hash -> Text,
        created_at -> Timestamp,
    }
}
// Posted variants (issue 62).
diesel::table! {
    posted_variants (id) {
        id -> Text,
        name -> Text,
        author_id -> Integer,
        visibility -> Text,
        current_version -> Text,
        games -> Integer,
        last_played_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
    }
}
diesel::table! {
    posted_variant_versions (variant_id, version) {
        variant_id -> Text,
        version -> Text,
        definition -> Text,
        rules -> Text,
        report -> Text,
        approved_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
    }
}
diesel::joinable!(posted_variants -> users (author_id));
diesel::joinable!(posted_variant_versions -> posted_variants (variant_id));
diesel::allow_tables_to_appear_in_same_query!(posted_variants, users, posted_variant_versions);
