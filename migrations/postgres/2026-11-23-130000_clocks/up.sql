-- Issue 10: clocks. `time_control` is the canonical text (NULL: no clock).
-- Each side's bank is what they had when their current turn began (the
-- mover) or have now (the other side). `clock_deadline` is when the mover's
-- time runs out ignoring leave: leave only moves it later, so the sweeper
-- finds candidates by it and rechecks with leave.
ALTER TABLE games ADD COLUMN time_control TEXT;
ALTER TABLE games ADD COLUMN white_clock_secs BIGINT;
ALTER TABLE games ADD COLUMN black_clock_secs BIGINT;
ALTER TABLE games ADD COLUMN turn_started_at TIMESTAMP;
ALTER TABLE games ADD COLUMN clock_deadline TIMESTAMP;
ALTER TABLE games ADD COLUMN clock_remind_at TIMESTAMP;
ALTER TABLE games ADD COLUMN reminded_ply INTEGER;
ALTER TABLE games ADD COLUMN leave_cap_days INTEGER;
CREATE INDEX games_clock_deadline ON games(status, clock_deadline);
CREATE INDEX games_clock_remind_at ON games(status, clock_remind_at);

ALTER TABLE moves ADD COLUMN time_used_secs BIGINT;

-- Leave: whole UTC days, first and last included.
CREATE TABLE leave_bookings (
    id SERIAL PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    start_date DATE NOT NULL,
    end_date DATE NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX leave_bookings_user ON leave_bookings(user_id, start_date);

-- Extra leave days a director grants a player for one calendar year.
CREATE TABLE leave_grants (
    id SERIAL PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    year INTEGER NOT NULL,
    days INTEGER NOT NULL,
    granted_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    reason TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX leave_grants_user ON leave_grants(user_id, year);
