-- Issue 40: forfeit rules as the correspondence federations run them.
-- A tournament's rules, copied onto each of its games when it is made:
-- the silence rule (days without a move, leave excepted; NULL: off), what
-- happens when a clock runs out ('lose' at once, or 'claim': the opponent
-- may claim the win), and the days after a loss on time or by silence
-- before a player may enter another tournament.
ALTER TABLE tournaments ADD COLUMN silence_days INTEGER;
ALTER TABLE tournaments ADD COLUMN on_timeout TEXT NOT NULL DEFAULT 'lose';
ALTER TABLE tournaments ADD COLUMN cooling_off_days INTEGER NOT NULL DEFAULT 0;

ALTER TABLE games ADD COLUMN silence_days INTEGER;
ALTER TABLE games ADD COLUMN on_timeout TEXT NOT NULL DEFAULT 'lose';
-- The ply whose silence warnings were sent, and how many (1: at half the
-- period, 2: three days before its end): each is queued once, by the
-- conditional UPDATE that moves these.
ALTER TABLE games ADD COLUMN silence_ply INTEGER;
ALTER TABLE games ADD COLUMN silence_stage INTEGER NOT NULL DEFAULT 0;
-- With on_timeout 'claim': the side whose flag fell, and when the win may
-- no longer be claimed (the game is then lost on time).
ALTER TABLE games ADD COLUMN flag_fell_side TEXT;
ALTER TABLE games ADD COLUMN claim_until TIMESTAMP;
-- How many of the mover's reminder thresholds were sent at `reminded_ply`.
ALTER TABLE games ADD COLUMN reminder_stage INTEGER NOT NULL DEFAULT 0;

CREATE INDEX games_claim_until ON games (claim_until) WHERE claim_until IS NOT NULL;
CREATE INDEX games_silence ON games (turn_started_at) WHERE silence_days IS NOT NULL AND status = 'active';

-- The clock worker's heartbeat: one row, moved on by every sweep. A sweep
-- finding it older than the grace period moves every running clock by the
-- gap, in the transaction whose conditional UPDATE moves the beat.
CREATE TABLE clock_heartbeat (
    id INTEGER PRIMARY KEY,
    beat_at TIMESTAMP NOT NULL
);

-- A player's reminder thresholds ("50%, 24h, 4h"); none: the default one.
CREATE TABLE reminder_prefs (
    user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    thresholds TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
