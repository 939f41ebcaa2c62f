-- Issue 42: replies by mail. A message is acted on once, by its Message-ID,
-- however often the mail server delivers it: the row is inserted in the
-- transaction of the act (the move, the resignation, the answer mail).
CREATE TABLE mail_in (
    message_id TEXT PRIMARY KEY NOT NULL,
    game_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    received_at TIMESTAMP NOT NULL
);
