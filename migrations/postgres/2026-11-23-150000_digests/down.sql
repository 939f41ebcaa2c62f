DROP TABLE digest_sent;
DROP TABLE verify_mail_sent;
ALTER TABLE moves DROP COLUMN turn_no;
