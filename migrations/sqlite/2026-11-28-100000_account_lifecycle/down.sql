DROP TABLE retired_usernames;
DROP TABLE account_tokens;
ALTER TABLE sessions DROP COLUMN user_agent;
ALTER TABLE sessions DROP COLUMN last_seen_at;
ALTER TABLE users DROP COLUMN deleted_at;
ALTER TABLE users DROP COLUMN disabled_at;
