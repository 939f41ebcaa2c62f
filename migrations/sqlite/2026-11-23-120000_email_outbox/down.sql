DROP TABLE verified_emails;
DROP TABLE mail_prefs;
DROP TABLE email_outbox;
