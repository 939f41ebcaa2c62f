DROP TABLE mail_failures;
DROP TABLE rate_counters;
DROP TABLE login_throttles;
