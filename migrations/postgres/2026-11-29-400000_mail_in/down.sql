DROP TABLE mail_in;
