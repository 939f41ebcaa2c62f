-- Issue 60, finding 5: why a game asked for rated is played unrated (it
-- ended before both sides had moved, or its pair had started their rated
-- games for the day; NULL otherwise), and when a challenge or seek was
-- accepted (what the pair's daily count of rated games counts).
ALTER TABLE games ADD COLUMN unrated_reason TEXT;
ALTER TABLE games ADD COLUMN accepted_at TIMESTAMP;
