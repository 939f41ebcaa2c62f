DROP TABLE mail_prefs;
DROP TABLE email_outbox;
