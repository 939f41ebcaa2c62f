DROP TABLE credential_revocations;
