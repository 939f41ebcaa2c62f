ALTER TABLE games DROP COLUMN accepted_at;
ALTER TABLE games DROP COLUMN unrated_reason;
